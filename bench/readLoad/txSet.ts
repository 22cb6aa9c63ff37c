/**
 * The tx set of the sendTx part: valid txs for a node synced from the synthetic chain, half from fresh fee payers
 * (one tx each, funded by the chain: ChainShape.feePayerFunding) and half from the 4 genesis test accounts (heavy
 * payers, a quarter of those txs each), interleaved; and the in-process baseline, the pure pool's admissions of the
 * same set.
 */
import { createHash } from 'node:crypto';
import { decideAdmission } from '../../core/txPool/admitTx.js';
import { TxPool } from '../../core/txPool/txPool.js';
import type { GasFees, Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx } from '../../spec/txBuilder.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { fundedFeePayer } from '../snapshot/chainMaker.js';

export interface TxSetOptions {
  readonly count: number;
  readonly chainId: number;
  readonly rollupVersion: number;
  readonly anchorBlockHash: Hex;
  readonly minFees: GasFees;
}

/** Gas each tx asks for: small, so a payer's balance covers thousands. */
const GAS_LIMITS = { daGas: 4_000, l2Gas: 20_000 };
/** Priority fees cycle through 1..PRIORITY_FEE_CYCLE, so the pool's order is not the arrival order. */
const PRIORITY_FEE_CYCLE = 997;
const EXPIRATION_TIMESTAMP = 2n ** 40n;

/** Fresh fee payers a set of `count` txs uses (those the chain must fund). */
export const freshPayersOf = (count: number): number => Math.ceil(count / 2);

function nullifierOf(i: number): Hex {
  const digest = createHash('sha256').update(`read-load tx ${i}`).digest();
  digest[0] = 0;
  return bytesToHex(digest);
}

/** Tx i of the set: an even i is fresh payer i/2's only tx, an odd one a heavy payer's. */
export function feePayerOf(i: number): Hex {
  return i % 2 === 0 ? fundedFeePayer(i / 2) : genesisTestAccounts()[((i - 1) / 2) % 4]!;
}

export function buildTxSet(options: TxSetOptions): TxValue[] {
  return Array.from({ length: options.count }, (_, i) =>
    buildTx({
      chainId: options.chainId,
      version: options.rollupVersion,
      anchorBlockHash: options.anchorBlockHash,
      feePayer: feePayerOf(i),
      nullifier: nullifierOf(i),
      minFees: options.minFees,
      expirationTimestamp: EXPIRATION_TIMESTAMP,
      gasLimits: GAS_LIMITS,
      priorityFeePerGas: BigInt(1 + (i % PRIORITY_FEE_CYCLE)),
    }),
  );
}

/**
 * The pure pool's admissions per second of `txs[fillCount..]` after the first `fillCount` (decide and apply, every
 * payer's balance ample): the in-process baseline of svc_sendTx over HTTP.
 */
export function inProcessAdmissionsPerSecond(txs: readonly TxValue[], fillCount: number): number {
  const pool = TxPool.empty(txs.length);
  const context = { feePayerBalance: 10n ** 30n, priceBumpPercentage: 10 };
  const admit = (tx: TxValue) => {
    const decision = decideAdmission(pool, tx, context);
    if (decision.kind === 'accepted') pool.apply(decision.change);
  };
  for (const tx of txs.slice(0, fillCount)) admit(tx);
  const timed = txs.slice(fillCount);
  const started = performance.now();
  for (const tx of timed) admit(tx);
  return timed.length / ((performance.now() - started) / 1000);
}
