import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import {
  SETUP_ALLOW_LIST_DEFAULTS,
  PROTOCOL_CONTRACT_ADDRESSES,
  functionSelector,
} from '../../spec/config/allowList.js';
import { computeTxHash } from '../../spec/codec/tx.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { txProofFor } from '../../spec/proof.js';
import { commitmentVerifier, verifyTxProof } from '../verifier/commitmentVerifier.js';
import { allowListAdmits, txMaxFee, validateTx, type TxValidationContext } from './txValidator.js';

const h = (n: number | bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const ANCHOR = h(0xa);
const SPENT = h(0x5);

/** A tx with its hash and proof made to match its contents. */
function sealed(tx: Omit<TxValue, 'txHash' | 'proof'>): TxValue {
  return { ...tx, txHash: computeTxHash(tx), proof: txProofFor(tx) };
}

const base: Omit<TxValue, 'txHash' | 'proof'> = {
  chainId: 31337,
  version: 1,
  anchorBlockHash: ANCHOR,
  expirationTimestamp: 2_000n,
  feePayer: h(0xfee),
  gasSettings: {
    gasLimits: { daGas: 100, l2Gas: 1_000 },
    maxFeesPerGas: { feePerDaGas: 2n, feePerL2Gas: 3n },
    maxPriorityFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 1n },
  },
  sideEffects: {
    nullifiers: [h(0x1001)],
    noteHashes: [],
    privateLogs: [],
    l2ToL1Messages: [],
    contractClassPublications: [],
    contractInstancePublications: [],
  },
  publicCalls: { setup: [], appLogic: [], teardown: null },
};

const context: TxValidationContext = {
  chainId: 31337,
  rollupVersion: 1,
  nextSlotTimestamp: 1_000n,
  txGasLimitsMax: { daGas: 10_000, l2Gas: 100_000 },
  minFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 2n },
  txBytesMax: 100_000,
  setupAllowList: SETUP_ALLOW_LIST_DEFAULTS,
  isAnchorKept: async (hash) => hash === ANCHOR,
  nullifiersExist: async (nullifiers) => nullifiers.map((n) => n === SPENT),
  feePayerBalance: async () => 1_000_000n,
  contractClassOf: async () => undefined,
  verifyProof: (tx) => verifyTxProof(commitmentVerifier, tx),
};

describe('tx validation', () => {
  test('a well-formed tx is valid', async () => {
    expect(await validateTx(sealed(base), context)).toEqual({ valid: true });
  });

  test.each<[string, (tx: Omit<TxValue, 'txHash' | 'proof'>) => Omit<TxValue, 'txHash' | 'proof'>, RegExp]>([
    ['chain id', (tx) => ({ ...tx, chainId: 1 }), /chainId 1 is not this network's 31337/],
    ['rollup version', (tx) => ({ ...tx, version: 2 }), /version 2 is not this rollup's 1/],
    [
      'expiration',
      (tx) => ({ ...tx, expirationTimestamp: 999n }),
      /expires at 999, before the next slot starts at 1000/,
    ],
    ['anchor', (tx) => ({ ...tx, anchorBlockHash: h(0xb) }), /anchor block .* is not one this node has/],
    ['double spend', (tx) => ({ ...tx, sideEffects: { ...tx.sideEffects, nullifiers: [SPENT] } }), /already spent/],
    [
      'gas limit',
      (tx) => ({ ...tx, gasSettings: { ...tx.gasSettings, gasLimits: { daGas: 100, l2Gas: 100_001 } } }),
      /gasLimits.l2Gas 100001 is above the network limit/,
    ],
    [
      'min fee',
      (tx) => ({ ...tx, gasSettings: { ...tx.gasSettings, maxFeesPerGas: { feePerDaGas: 2n, feePerL2Gas: 1n } } }),
      /feePerL2Gas 1 is below the current minimum 2/,
    ],
    [
      'balance',
      (tx) => ({ ...tx, gasSettings: { ...tx.gasSettings, maxFeesPerGas: { feePerDaGas: 2n, feePerL2Gas: 1_000n } } }),
      /has 1000000, less than the tx's maximum fee 1000200/,
    ],
    [
      'duplicate nullifier',
      (tx) => ({ ...tx, sideEffects: { ...tx.sideEffects, nullifiers: [h(7), h(7)] } }),
      /same nullifier twice/,
    ],
  ])('refuses a bad %s, naming it', async (_name, mutate, reason) => {
    const result = await validateTx(sealed(mutate(base)), context);
    expect(result.valid).toBe(false);
    expect(result.valid ? [] : result.reasons).toEqual([expect.stringMatching(reason)]);
  });

  test('a hash or a proof that does not match the contents is refused; simulation skips the proof', async () => {
    const tx = sealed(base);
    const forged = { ...tx, txHash: h(1) };
    expect(await validateTx(forged, context)).toMatchObject({
      valid: false,
      reasons: [expect.stringMatching(/is not the hash of the tx's contents/)],
    });
    const badProof = { ...tx, proof: h(2) };
    expect(await validateTx(badProof, context)).toMatchObject({ valid: false, reasons: ['the proof does not verify'] });
    expect(await validateTx(badProof, context, { isSimulation: true })).toEqual({ valid: true });
  });

  test('skipFeeEnforcement skips the minimum fee and the balance', async () => {
    const cheap = sealed({
      ...base,
      gasSettings: { ...base.gasSettings, maxFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 0n } },
    });
    expect((await validateTx(cheap, context)).valid).toBe(false);
    expect(
      await validateTx(cheap, { ...context, feePayerBalance: async () => 0n }, { skipFeeEnforcement: true }),
    ).toEqual({ valid: true });
  });

  test('property: every fault is reported, one reason each', async () => {
    const faults = [
      (tx: Omit<TxValue, 'txHash' | 'proof'>) => ({ ...tx, chainId: 9 }),
      (tx: Omit<TxValue, 'txHash' | 'proof'>) => ({ ...tx, version: 9 }),
      (tx: Omit<TxValue, 'txHash' | 'proof'>) => ({ ...tx, expirationTimestamp: 1n }),
      (tx: Omit<TxValue, 'txHash' | 'proof'>) => ({ ...tx, anchorBlockHash: h(0xc) }),
    ];
    await fc.assert(
      fc.asyncProperty(fc.subarray(faults.map((_, i) => i)), async (chosen) => {
        const tx = sealed(chosen.reduce((acc, i) => faults[i]!(acc), base));
        const result = await validateTx(tx, context);
        expect(result.valid ? 0 : result.reasons.length).toBe(chosen.length);
      }),
    );
  });
});

describe('setup allow list', () => {
  const feeAssetCall = {
    contractAddress: PROTOCOL_CONTRACT_ADDRESSES.feeAsset,
    msgSender: PROTOCOL_CONTRACT_ADDRESSES.feeAsset,
    isStaticCall: false,
    calldata: [h(BigInt(functionSelector('_increase_public_balance((Field),u128)'))), h(1), h(2)],
  };
  const entry = SETUP_ALLOW_LIST_DEFAULTS[1]!;

  test('an entry admits its call and enforces os, rn and cl', () => {
    expect(allowListAdmits(entry, feeAssetCall, undefined)).toBe(true);
    expect(allowListAdmits(entry, { ...feeAssetCall, msgSender: h(99) }, undefined)).toBe(false); // os
    expect(allowListAdmits(entry, { ...feeAssetCall, calldata: feeAssetCall.calldata.slice(0, 2) }, undefined)).toBe(
      false,
    ); // cl=3
    expect(
      allowListAdmits(
        SETUP_ALLOW_LIST_DEFAULTS[0]!,
        {
          ...feeAssetCall,
          contractAddress: PROTOCOL_CONTRACT_ADDRESSES.authRegistry,
          msgSender: h(0),
          calldata: [h(BigInt(functionSelector('set_authorized(Field,bool)'))), h(1), h(1)],
        },
        undefined,
      ),
    ).toBe(false); // rn
  });

  test('a class entry matches through the called instance class; a setup call off the list is refused', async () => {
    const classEntry = {
      kind: 'class' as const,
      classId: h(0xc1a55),
      selector: '0x12345678' as Hex,
      onlySelf: false,
      rejectNullMsgSender: false,
    };
    const call = { contractAddress: h(0xabc), msgSender: h(1), isStaticCall: false, calldata: [h(0x12345678)] };
    expect(allowListAdmits(classEntry, call, h(0xc1a55))).toBe(true);
    expect(allowListAdmits(classEntry, call, h(0xc1a56))).toBe(false);
    const tx = sealed({ ...base, publicCalls: { setup: [call], appLogic: [], teardown: null } });
    expect(await validateTx(tx, context)).toMatchObject({
      valid: false,
      reasons: [expect.stringMatching(/setup call 0 .* is not on the setup allow list/)],
    });
    expect(
      await validateTx(tx, { ...context, setupAllowList: [classEntry], contractClassOf: async () => h(0xc1a55) }),
    ).toEqual({ valid: true });
  });

  test('max fee is every unit of gas at the max fees', () => {
    expect(txMaxFee(sealed(base))).toBe(100n * 2n + 1000n * 3n);
  });
});
