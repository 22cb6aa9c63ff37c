/**
 * Txs for pool tests: only the fields the pool reads vary; the rest is a fixed, well-formed filler. Hex values are
 * 32 bytes with a leading zero byte (so below the field modulus) and a kind byte, so hashes, nullifiers, payers and
 * block hashes never collide by accident.
 */
import fc from 'fast-check';
import type { Hex } from '../../spec/chain.js';
import type { TxValue } from '../../spec/wire/tx.js';

const KIND = { txHash: 1, nullifier: 2, feePayer: 3, block: 4 } as const;

function hex32(kind: number, n: number): Hex {
  return `0x00${kind.toString(16).padStart(2, '0')}${n.toString(16).padStart(60, '0')}`;
}

export const txHashOf = (n: number): Hex => hex32(KIND.txHash, n);
export const nullifierOf = (n: number): Hex => hex32(KIND.nullifier, n);
export const feePayerOf = (n: number): Hex => hex32(KIND.feePayer, n);
export const blockHashOf = (n: number): Hex => hex32(KIND.block, n);

export interface TxSpec {
  readonly hash: number;
  readonly nullifiers?: readonly number[];
  readonly feePayer?: number;
  /** Max priority fee per L2 gas; also the max fee per L2 gas unless `maxFeePerL2Gas` is given. */
  readonly priorityFee?: bigint;
  readonly maxFeePerL2Gas?: bigint;
  readonly maxFeePerDaGas?: bigint;
  readonly maxPriorityFeePerDaGas?: bigint;
  readonly daGas?: number;
  readonly l2Gas?: number;
  readonly expirationTimestamp?: bigint;
  readonly anchorBlock?: number;
}

export const FAR_FUTURE = 10n ** 12n;

export function makeTx(spec: TxSpec): TxValue {
  const priorityFee = spec.priorityFee ?? 10n;
  return {
    txHash: txHashOf(spec.hash),
    chainId: 31337,
    version: 1,
    anchorBlockHash: blockHashOf(spec.anchorBlock ?? 0),
    expirationTimestamp: spec.expirationTimestamp ?? FAR_FUTURE,
    feePayer: feePayerOf(spec.feePayer ?? 0),
    gasSettings: {
      gasLimits: { daGas: spec.daGas ?? 1, l2Gas: spec.l2Gas ?? 1 },
      maxFeesPerGas: { feePerDaGas: spec.maxFeePerDaGas ?? 1n, feePerL2Gas: spec.maxFeePerL2Gas ?? priorityFee },
      maxPriorityFeesPerGas: { feePerDaGas: spec.maxPriorityFeePerDaGas ?? 0n, feePerL2Gas: priorityFee },
    },
    sideEffects: {
      nullifiers: (spec.nullifiers ?? [spec.hash]).map(nullifierOf),
      noteHashes: [],
      privateLogs: [],
      l2ToL1Messages: [],
      contractClassPublications: [],
      contractInstancePublications: [],
    },
    publicCalls: { setup: [], appLogic: [], teardown: null },
    proof: '0xabcd',
  };
}

/** A tx's max cost with the fixture's gas: daGas * feePerDaGas + l2Gas * feePerL2Gas. */
export function fixtureMaxCost(tx: TxValue): bigint {
  const { gasLimits, maxFeesPerGas } = tx.gasSettings;
  return BigInt(gasLimits.daGas) * maxFeesPerGas.feePerDaGas + BigInt(gasLimits.l2Gas) * maxFeesPerGas.feePerL2Gas;
}

/**
 * Tx specs drawn from small spaces, so that nullifiers collide, payers share txs and fees tie. `hash` is left to the
 * caller (unique per run).
 */
export const txSpecArbitrary = fc.record({
  nullifiers: fc.uniqueArray(fc.integer({ min: 0, max: 11 }), { minLength: 1, maxLength: 3 }),
  feePayer: fc.integer({ min: 0, max: 3 }),
  priorityFee: fc.bigInt({ min: 0n, max: 40n }),
  maxFeePerDaGas: fc.bigInt({ min: 0n, max: 5n }),
  daGas: fc.integer({ min: 0, max: 10 }),
  l2Gas: fc.integer({ min: 0, max: 10 }),
  expirationTimestamp: fc.bigInt({ min: 0n, max: 30n }),
  anchorBlock: fc.integer({ min: 0, max: 4 }),
});
export type ArbitraryTxSpec = Omit<TxSpec, 'hash'>;
