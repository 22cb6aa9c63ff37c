/**
 * `npm run bench -- rpc-encode`: the cost of turning a heavy read's result into its wire JSON, by the compiled
 * encoder the dispatcher uses (spec/wire/resultEncoder.ts) against zod's `safeEncode` of the same schema (the
 * baseline: what the dispatcher did before), in one process, alternating the two in rounds so that the machine's
 * noise falls on both. Results are shaped like the read-load bench's answers: a block of 64 txs with its effects, a
 * mined receipt with its effect, and nullifier and public-data witnesses with 40 siblings.
 *
 * Environment: RPC_ENCODE_BENCH_ROUNDS (default 8), RPC_ENCODE_BENCH_ITERATIONS per round and result (default 200).
 */
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { Block, Hex, TxEffect } from '../../spec/chain.js';
import { rpcMethods } from '../../spec/rpc/methods.js';
import { blockResponseOf } from '../../spec/wire/block.js';
import { compileResultEncoder } from '../../spec/wire/resultEncoder.js';

const TXS_PER_BLOCK = 64;
const SIBLINGS = 40;
const ROUNDS_DEFAULT = 8;
const ITERATIONS_DEFAULT = 200;
const US_PER_MS = 1_000;

const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

function txEffectOf(i: number): TxEffect {
  return {
    txHash: hex32(i),
    executionResult: 'success',
    transactionFee: 123_456_789n * BigInt(i + 1),
    noteHashes: [hex32(i + 1), hex32(i + 2)],
    nullifiers: [hex32(i + 3), hex32(i + 4)],
    l2ToL1Messages: [],
    publicDataWrites: [{ leafSlot: hex32(i + 5), value: hex32(i + 6) }],
    privateLogs: [{ tag: hex32(i + 7), fields: [hex32(1), hex32(2), hex32(3)] }],
    publicLogs: [{ contractAddress: hex32(9), tag: hex32(i + 8), fields: [hex32(4)] }],
    contractClassPublications: [],
    contractInstancePublications: [],
  };
}

function blockOf(txs: number): Block {
  const snapshot = (n: number) => ({ root: hex32(n), nextAvailableLeafIndex: n * 64 });
  return {
    hash: hex32(0xb1),
    archive: snapshot(0xa1),
    checkpointNumber: 100,
    indexWithinCheckpoint: 3,
    body: { txEffects: Array.from({ length: txs }, (_, i) => txEffectOf(i * 16)) },
    header: {
      lastArchive: snapshot(0xa0),
      state: {
        noteHashTree: snapshot(1),
        nullifierTree: snapshot(2),
        publicDataTree: snapshot(3),
        l1ToL2MessageTree: snapshot(4),
      },
      globalVariables: {
        chainId: 31337,
        version: 1,
        blockNumber: 1_600,
        slotNumber: 1_700,
        timestamp: 1_700_000_000n,
        coinbase: `0x${'cd'.repeat(20)}`,
        feeRecipient: hex32(0xfee),
        gasFees: { feePerDaGas: 0n, feePerL2Gas: 12_345_678_901n },
      },
      contentCommitment: { txsEffectsHash: hex32(0xe1), inHash: hex32(0xe2), outHash: hex32(0xe3) },
      totalFees: 2n ** 70n,
      totalManaUsed: 21_000n,
    },
  };
}

const siblingPath = Array.from({ length: SIBLINGS }, (_, i) => hex32(0x5000 + i));

/** Each measured result: its method (whose result schema encodes it) and the core value. */
const cases: readonly { readonly label: string; readonly method: keyof typeof rpcMethods; readonly value: unknown }[] =
  [
    {
      label: 'getBlock64Txs',
      method: 'svc_getBlock',
      value: blockResponseOf(blockOf(TXS_PER_BLOCK), undefined, { includeTransactions: true }),
    },
    {
      label: 'getTxReceipt',
      method: 'svc_getTxReceipt',
      value: {
        txHash: hex32(7),
        status: 'checkpointed',
        blockNumber: 1_600,
        blockHash: hex32(0xb1),
        executionResult: 'success',
        transactionFee: 10n ** 15n,
        txEffect: txEffectOf(7),
      },
    },
    {
      label: 'nullifierWitness',
      method: 'svc_getNullifierMembershipWitness',
      value: {
        index: 123_456n,
        leafPreimage: { nullifier: hex32(1), nextNullifier: hex32(2), nextIndex: 99n },
        siblingPath,
      },
    },
    {
      label: 'publicDataWitness',
      method: 'svc_getPublicDataWitness',
      value: {
        index: 4_321n,
        leafPreimage: { slot: hex32(3), value: hex32(4), nextSlot: hex32(5), nextIndex: 98n },
        siblingPath,
      },
    },
  ];

function timeUs(iterations: number, encode: () => unknown): number {
  const started = performance.now();
  for (let i = 0; i < iterations; i++) encode();
  return ((performance.now() - started) * US_PER_MS) / iterations;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

const positiveIntOf = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};

export async function benchRpcEncode(): Promise<{ name: string; figures: Record<string, number | string> }> {
  const rounds = positiveIntOf('RPC_ENCODE_BENCH_ROUNDS', ROUNDS_DEFAULT);
  const iterations = positiveIntOf('RPC_ENCODE_BENCH_ITERATIONS', ITERATIONS_DEFAULT);
  const figures: Record<string, number | string> = { rounds, iterationsPerRound: iterations };
  for (const { label, method, value } of cases) {
    const schema = rpcMethods[method].result as z.ZodType;
    const compiled = compileResultEncoder(schema);
    if (JSON.stringify(compiled(value)) !== JSON.stringify(z.encode(schema, value))) {
      throw new Error(`${label}: the compiled encoding differs from zod's`);
    }
    const zodUs: number[] = [];
    const compiledUs: number[] = [];
    for (let round = 0; round < rounds; round++) {
      zodUs.push(timeUs(iterations, () => z.safeEncode(schema, value)));
      compiledUs.push(timeUs(iterations, () => compiled(value)));
    }
    const zodMedian = median(zodUs);
    const compiledMedian = median(compiledUs);
    figures[`${label}.zodUs`] = Number(zodMedian.toFixed(1));
    figures[`${label}.compiledUs`] = Number(compiledMedian.toFixed(1));
    figures[`${label}.speedup`] = Number((zodMedian / compiledMedian).toFixed(1));
    figures[`${label}.jsonBytes`] = JSON.stringify(compiled(value)).length;
  }
  return { name: 'rpc-encode', figures };
}
