/**
 * The genesis state's funded test accounts: fee payers with a fee-asset balance from block 0, so that a fresh network
 * (the local network, the simulator) can pay for txs at once. An account is an L2 address only: this project's txs
 * carry no signatures (a tx names its fee payer, and authorizing it would take circuits this project does not have:
 * docs/protocol.md, Transaction encoding), so these accounts exist on every network built from this genesis and are for
 * testing.
 */
import type { Hex } from './chain.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from './config/allowList.js';
import { hashToField } from './hash.js';
import { feePayerBalanceSlot } from './vm/storageSlots.js';

/** Test accounts funded at genesis. */
export const GENESIS_TEST_ACCOUNT_COUNT = 4;
/** Each one's fee-asset balance, in the asset's smallest unit. */
export const GENESIS_TEST_ACCOUNT_BALANCE = 10n ** 30n;

/** The test accounts' addresses: hashToField of "svc test account <i>", i from 0. */
export function genesisTestAccounts(): Hex[] {
  return Array.from({ length: GENESIS_TEST_ACCOUNT_COUNT }, (_, i) =>
    hashToField(new TextEncoder().encode(`svc test account ${i}`)),
  );
}

/** The public data the genesis state holds besides slot 0: each test account's balance, ordered by leaf slot. */
export function genesisPublicData(): { readonly leafSlot: Hex; readonly value: Hex }[] {
  const value = `0x${GENESIS_TEST_ACCOUNT_BALANCE.toString(16).padStart(64, '0')}` as Hex;
  return genesisTestAccounts()
    .map((account) => ({ leafSlot: feePayerBalanceSlot(PROTOCOL_CONTRACT_ADDRESSES.feeAsset, account), value }))
    .sort((a, b) => (BigInt(a.leafSlot) < BigInt(b.leafSlot) ? -1 : 1));
}
