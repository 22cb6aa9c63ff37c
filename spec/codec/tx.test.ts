import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Hex } from '../chain.js';
import { NULLIFIERS_PER_TX_MAX, PUBLIC_CALLS_PER_TX_MAX } from '../constants.js';
import type { TxValue } from '../wire/tx.js';
import { CodecError } from './bytes.js';
import { computeTxHash, encodeTxPreimage, txHashAndSize, txSizeBytes } from './tx.js';

const h = (n: number | bigint, bytes = 32): Hex => `0x${n.toString(16).padStart(bytes * 2, '0')}`;

const call = (n: number) => ({
  contractAddress: h(n),
  msgSender: h(n + 1),
  isStaticCall: false,
  calldata: [h(0xabcd), h(n)],
});

const baseTx: TxValue = {
  txHash: h(0),
  chainId: 31337,
  version: 1,
  anchorBlockHash: h(7),
  expirationTimestamp: 1_700_000_000n,
  feePayer: h(9),
  gasSettings: {
    gasLimits: { daGas: 1000, l2Gas: 2000 },
    maxFeesPerGas: { feePerDaGas: 3n, feePerL2Gas: 4n },
    maxPriorityFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 2n },
  },
  sideEffects: {
    nullifiers: [h(11)],
    noteHashes: [h(12)],
    privateLogs: [{ tag: h(13), fields: [h(14)] }],
    l2ToL1Messages: [{ recipient: h(15, 20), content: h(16) }],
    contractClassPublications: [],
    contractInstancePublications: [],
  },
  publicCalls: { setup: [call(20)], appLogic: [call(30)], teardown: null },
  proof: '0x1234',
};

/** Every way to change one field that the hash covers. */
const mutations: [string, (tx: TxValue) => TxValue][] = [
  ['chainId', (tx) => ({ ...tx, chainId: tx.chainId + 1 })],
  ['version', (tx) => ({ ...tx, version: tx.version + 1 })],
  ['anchor', (tx) => ({ ...tx, anchorBlockHash: h(8) })],
  ['expiration', (tx) => ({ ...tx, expirationTimestamp: tx.expirationTimestamp + 1n })],
  ['fee payer', (tx) => ({ ...tx, feePayer: h(10) })],
  ['gas limit', (tx) => ({ ...tx, gasSettings: { ...tx.gasSettings, gasLimits: { daGas: 1000, l2Gas: 2001 } } })],
  [
    'max fee',
    (tx) => ({ ...tx, gasSettings: { ...tx.gasSettings, maxFeesPerGas: { feePerDaGas: 3n, feePerL2Gas: 5n } } }),
  ],
  [
    'priority fee',
    (tx) => ({
      ...tx,
      gasSettings: { ...tx.gasSettings, maxPriorityFeesPerGas: { feePerDaGas: 2n, feePerL2Gas: 2n } },
    }),
  ],
  ['nullifier', (tx) => ({ ...tx, sideEffects: { ...tx.sideEffects, nullifiers: [h(111)] } })],
  [
    'log field',
    (tx) => ({ ...tx, sideEffects: { ...tx.sideEffects, privateLogs: [{ tag: h(13), fields: [h(15)] }] } }),
  ],
  [
    'a call moved to teardown',
    (tx) => ({ ...tx, publicCalls: { setup: [call(20)], appLogic: [], teardown: call(30) } }),
  ],
  [
    'static flag',
    (tx) => ({ ...tx, publicCalls: { ...tx.publicCalls, appLogic: [{ ...call(30), isStaticCall: true }] } }),
  ],
];

describe('tx hash', () => {
  test('covers every field but the proof (and the hash itself)', () => {
    const hash = computeTxHash(baseTx);
    expect(computeTxHash({ ...baseTx, proof: '0xffff', txHash: h(1) })).toBe(hash);
    for (const [name, mutate] of mutations) expect(computeTxHash(mutate(baseTx)), name).not.toBe(hash);
  });

  test('property: two different field values never share an encoding (nullifier lists)', () => {
    const nullifiers = fc.array(
      fc.bigInt({ min: 1n, max: 2n ** 200n }).map((n) => h(n)),
      { minLength: 1, maxLength: 4 },
    );
    fc.assert(
      fc.property(nullifiers, nullifiers, (a, b) => {
        const encode = (list: Hex[]) =>
          encodeTxPreimage({ ...baseTx, sideEffects: { ...baseTx.sideEffects, nullifiers: list } });
        expect(Buffer.from(encode(a)).equals(Buffer.from(encode(b)))).toBe(a.join() === b.join());
      }),
    );
  });

  test('bounds are refused, not truncated', () => {
    const many = Array.from({ length: NULLIFIERS_PER_TX_MAX + 1 }, (_, i) => h(i + 1));
    expect(() => computeTxHash({ ...baseTx, sideEffects: { ...baseTx.sideEffects, nullifiers: many } })).toThrow(
      CodecError,
    );
    const calls = Array.from({ length: PUBLIC_CALLS_PER_TX_MAX + 1 }, (_, i) => call(i));
    expect(() => computeTxHash({ ...baseTx, publicCalls: { setup: [], appLogic: calls, teardown: null } })).toThrow(
      /at most 32 public calls/,
    );
  });

  test('size counts the preimage, the hash and the proof', () => {
    expect(txSizeBytes({ ...baseTx, proof: '0x' }) + 2).toBe(txSizeBytes(baseTx));
  });

  test('property: txHashAndSize is computeTxHash and txSizeBytes, for every tx', () => {
    const txs = fc.record({
      nullifiers: fc.array(
        fc.bigInt({ min: 1n, max: 2n ** 200n }).map((n) => h(n)),
        { minLength: 1, maxLength: 4 },
      ),
      proof: fc.uint8Array({ maxLength: 40 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}` as Hex),
      mutation: fc.integer({ min: 0, max: mutations.length }),
    });
    fc.assert(
      fc.property(txs, ({ nullifiers, proof, mutation }) => {
        const chosen = mutations[mutation];
        const base = { ...baseTx, proof, sideEffects: { ...baseTx.sideEffects, nullifiers } };
        const tx = chosen === undefined ? base : chosen[1](base);
        expect(txHashAndSize(tx)).toEqual({ hash: computeTxHash(tx), sizeBytes: txSizeBytes(tx) });
      }),
    );
  });
});
