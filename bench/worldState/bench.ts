/**
 * `npm run bench -- world-state`: the world state applying blocks of 64 txs on classic-level (the production
 * adapter, every batch synced), at the protocol's tree heights, in two shapes:
 *   typical: 8 note hashes, 8 nullifiers, 8 public data writes per tx;
 *   maximal: 64 of each (the per-tx limits).
 * Nullifiers, note hashes and new slots are pseudo-random fields; half of a block's public data writes update slots
 * written before, half create new ones. No L1-to-L2 messages. A block is timed from prepareBlock to its batch being
 * committed.
 *
 * Figures per shape: txs/s, leaves/s (note hashes + nullifiers + public data writes), ms per block, hashes per block,
 * the ratio of block time to (hashes x the time of one hashToField on this machine), storage records and bytes per
 * block, and witness reads/s (nullifier membership witnesses, one at a time) at the latest block and at an early
 * block (block 2: 118 blocks back for typical blocks, `historicalBlocksBack`), the two taking turns. The early
 * block's pages come from storage the first time, then from the cache of past blocks' pages: the typical shape reads
 * 2,000 witnesses of its 1,024 early nullifiers (most pages read again), the maximal one 2,000 of its 8,192 (most
 * bottom pages read for the first time). The time of one hash in the block-time ratio is measured again just
 * before each block, so on a machine whose load changes the block and its hashes are timed under the same load.
 *
 * The typical and maximal runs keep every key of the indexed trees in memory, whatever their count (104 maximal blocks
 * pass the node's default bound). A third run, `typicalKeysInStorage`, repeats the typical shape with those keys in
 * storage from genesis (keyIndexMemoryKeysMax 0, core/worldState/indexedKeys.ts): what a node past the memory bound
 * pays, per block and per witness read, against the typical run beside it.
 *
 * Environment (optional): WS_BENCH_TYPICAL_BLOCKS (default 120, also the keys-in-storage run's),
 * WS_BENCH_MAXIMAL_BLOCKS (default 16), WS_BENCH_WITNESS_READS (default 2000).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openClassicLevelStorage } from '../../adapters/storage/classicLevelStorage.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { hashToFieldBytes } from '../../spec/hash.js';
import type { BlockStateEffects, PublicDataWrite } from '../../core/worldState/blockEffects.js';
import { WorldState } from '../../core/worldState/worldState.js';

interface BenchResult {
  readonly name: string;
  readonly figures: Record<string, number | string>;
}

interface Shape {
  readonly name: 'typical' | 'maximal' | 'typicalKeysInStorage';
  readonly perTx: number;
  readonly blocks: number;
  /** The indexed trees' keys in storage from genesis rather than in memory. */
  readonly keysInStorage?: boolean;
}

const TXS_PER_BLOCK = 64;
/** Blocks not timed at the start of each shape (JIT, first pages). */
const WARMUP_BLOCKS = 4;
/** The in-memory key bound of the typical and maximal runs: more keys than any run here inserts. */
const ALL_KEYS_IN_MEMORY = 100_000_000;
/** Block whose state the historical witness reads ask about. */
const HISTORICAL_BLOCK = 2;
/** Turns the latest-block and historical witness reads take, each a share of the reads. */
const WITNESS_READ_ROUNDS = 8;
const HASH_TIMING_ITERATIONS = 300_000;
/** Hashes timed just before each block, for that block's share of the block-time-over-hash-time ratio. */
const HASH_SAMPLE_ITERATIONS = 3_000;

const envCount = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
};

/** Deterministic pseudo-random fields: hashToField of a counter. */
class FieldStream {
  private counter = 0;
  private readonly input = new Uint8Array(8);

  next(): Hex {
    new DataView(this.input.buffer).setFloat64(0, this.counter++);
    return bytesToHex(hashToFieldBytes(this.input));
  }
}

/** Nanoseconds of one hashToField of 64 bytes (a Merkle node), the same call the engine makes. */
function hashNanoseconds(iterations: number, warmup: number): number {
  const input = new Uint8Array(64);
  for (let i = 0; i < warmup; i++) hashToFieldBytes(input);
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    input[0] = i & 0xff;
    input[1] = (i >> 8) & 0xff;
    hashToFieldBytes(input);
  }
  return ((performance.now() - started) * 1e6) / iterations;
}

function blockEffects(shape: Shape, random: FieldStream, knownSlots: Hex[], nullifiers: Hex[]): BlockStateEffects {
  const txs = Array.from({ length: TXS_PER_BLOCK }, () => {
    const txNullifiers = Array.from({ length: shape.perTx }, () => random.next());
    nullifiers.push(...txNullifiers);
    const publicDataWrites: PublicDataWrite[] = Array.from({ length: shape.perTx }, (_, i) => {
      const update = i % 2 === 1 && knownSlots.length > 0;
      const leafSlot = update ? knownSlots[Number(BigInt(random.next()) % BigInt(knownSlots.length))]! : random.next();
      if (!update) knownSlots.push(leafSlot);
      return { leafSlot, value: random.next() };
    });
    return {
      noteHashes: Array.from({ length: shape.perTx }, () => random.next()),
      nullifiers: txNullifiers,
      publicDataWrites,
    };
  });
  return { txs, l1ToL2Messages: [] };
}

interface BlockTotals {
  milliseconds: number;
  /** Each block's hashes times the time of one hash measured just before it. */
  hashMilliseconds: number;
  hashes: number;
  records: number;
  bytes: number;
  blocks: number;
}

async function applyBlocks(
  engine: WorldState,
  shape: Shape,
  random: FieldStream,
  nullifiers: Hex[],
): Promise<BlockTotals> {
  const totals: BlockTotals = { milliseconds: 0, hashMilliseconds: 0, hashes: 0, records: 0, bytes: 0, blocks: 0 };
  const knownSlots: Hex[] = [];
  for (let i = 0; i < shape.blocks; i++) {
    const effects = blockEffects(shape, random, knownSlots, nullifiers);
    const n = engine.latestBlockNumber + 1;
    const hashNs = hashNanoseconds(HASH_SAMPLE_ITERATIONS, 0);
    const hashesBefore = engine.hasher.count;
    const started = performance.now();
    const prepared = (await engine.prepareBlock(n, effects)).finish(random.next());
    await prepared.commit();
    const elapsed = performance.now() - started;
    if (i < WARMUP_BLOCKS) continue;
    totals.milliseconds += elapsed;
    totals.hashes += engine.hasher.count - hashesBefore;
    totals.hashMilliseconds += ((engine.hasher.count - hashesBefore) * hashNs) / 1e6;
    totals.records += prepared.ops.length;
    totals.bytes += prepared.ops.reduce(
      (sum, op) => sum + op.key.length + (op.type === 'put' ? op.value.length : 0),
      0,
    );
    totals.blocks++;
  }
  return totals;
}

/** Reads of nullifier membership witnesses as of one block, one at a time, over `nullifiers` present at it. */
interface ReadPass {
  readonly block: number;
  readonly nullifiers: readonly Hex[];
  done: number;
  milliseconds: number;
}

/**
 * Witness reads per second of each pass, `reads` each. The passes take turns in WITNESS_READ_ROUNDS rounds, so a
 * change in the machine's load weighs on all of them alike (on a shared machine a pass run alone can be twice as
 * fast or slow as the next one).
 */
async function witnessReadsPerSecond(
  engine: WorldState,
  passes: readonly ReadPass[],
  reads: number,
): Promise<number[]> {
  for (let round = 1; round <= WITNESS_READ_ROUNDS; round++) {
    for (const pass of passes) {
      const until = Math.round((reads * round) / WITNESS_READ_ROUNDS);
      const started = performance.now();
      for (; pass.done < until; pass.done++) {
        const nullifier = pass.nullifiers[(pass.done * 7_919) % pass.nullifiers.length]!;
        const witness = await engine.getNullifierMembershipWitness(pass.block, nullifier);
        if (witness === null) throw new Error(`a nullifier of block ${pass.block} has no witness`);
      }
      pass.milliseconds += performance.now() - started;
    }
  }
  return passes.map((pass) => pass.done / (pass.milliseconds / 1000));
}

const readPass = (block: number, nullifiers: readonly Hex[]): ReadPass => ({
  block,
  nullifiers,
  done: 0,
  milliseconds: 0,
});

async function benchShape(shape: Shape, witnessReads: number): Promise<Record<string, number>> {
  const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'world-state-bench-'));
  const storage = await openClassicLevelStorage(dataDirectory);
  try {
    const random = new FieldStream();
    const engine = await WorldState.open(storage, {
      genesisBlockHash: random.next(),
      keyIndexMemoryKeysMax: shape.keysInStorage === true ? 0 : ALL_KEYS_IN_MEMORY,
    });
    const nullifiers: Hex[] = [];
    const totals = await applyBlocks(engine, shape, random, nullifiers);
    const early = nullifiers.slice(0, TXS_PER_BLOCK * shape.perTx * HISTORICAL_BLOCK);
    const blockSeconds = totals.milliseconds / 1000 / totals.blocks;
    const leavesPerBlock = TXS_PER_BLOCK * shape.perTx * 3;
    const hashesPerBlock = totals.hashes / totals.blocks;
    return {
      blocks: totals.blocks,
      txsPerSecond: Math.round(TXS_PER_BLOCK / blockSeconds),
      leavesPerSecond: Math.round(leavesPerBlock / blockSeconds),
      msPerBlock: round(blockSeconds * 1000, 1),
      hashesPerBlock: Math.round(hashesPerBlock),
      blockTimeOverHashTime: round(totals.milliseconds / totals.hashMilliseconds, 2),
      storageRecordsPerBlock: Math.round(totals.records / totals.blocks),
      storageMegabytesPerBlock: round(totals.bytes / totals.blocks / 1e6, 2),
      ...(await readFigures(engine, nullifiers, early, witnessReads)),
    };
  } finally {
    await storage.close();
    await rm(dataDirectory, { recursive: true, force: true });
  }
}

async function readFigures(
  engine: WorldState,
  nullifiers: readonly Hex[],
  early: readonly Hex[],
  witnessReads: number,
): Promise<Record<string, number>> {
  const [latest, historical] = await witnessReadsPerSecond(
    engine,
    [readPass(engine.latestBlockNumber, nullifiers), readPass(HISTORICAL_BLOCK, early)],
    witnessReads,
  );
  return {
    witnessReadsPerSecondLatest: Math.round(latest!),
    witnessReadsPerSecondHistorical: Math.round(historical!),
    historicalBlocksBack: engine.latestBlockNumber - HISTORICAL_BLOCK,
  };
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits));

export async function benchWorldState(): Promise<BenchResult> {
  const shapes: Shape[] = [
    { name: 'typical', perTx: 8, blocks: envCount('WS_BENCH_TYPICAL_BLOCKS', 120) },
    { name: 'maximal', perTx: 64, blocks: envCount('WS_BENCH_MAXIMAL_BLOCKS', 16) },
    { name: 'typicalKeysInStorage', perTx: 8, blocks: envCount('WS_BENCH_TYPICAL_BLOCKS', 120), keysInStorage: true },
  ];
  const witnessReads = envCount('WS_BENCH_WITNESS_READS', 2_000);
  const hashNs = hashNanoseconds(HASH_TIMING_ITERATIONS, 20_000);
  const figures: Record<string, number | string> = { txsPerBlock: TXS_PER_BLOCK, hashToFieldNs: round(hashNs, 1) };
  for (const shape of shapes) {
    const result = await benchShape(shape, witnessReads);
    for (const [key, value] of Object.entries(result)) figures[`${shape.name}.${key}`] = value;
  }
  return { name: 'world-state', figures };
}
