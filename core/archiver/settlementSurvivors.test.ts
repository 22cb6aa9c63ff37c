import { describe, expect, it } from 'vitest';
import {
  MEMORY_CHAIN_CONSTANTS,
  openMemoryChain,
  proposeBlock,
  type MemoryChain,
} from '../../test/helpers/memoryChain.js';
import { checkpointBlock } from '../../test/helpers/checkpointBlock.js';
import type { L1BlockRef, L1ReaderPort } from '../ports.js';
import { readL1Settlement, settleTips, type L1Settlement } from './settlement.js';

const ZERO_HASH = `0x${'00'.repeat(32)}` as const;
const l1Block = (number: bigint, timestamp = number * 12n): L1BlockRef => ({
  number,
  hash: ZERO_HASH,
  parentHash: ZERO_HASH,
  timestamp,
});

/** An L1 whose rollup contract has proven checkpoint `provenAt(block)` as of each block. */
function fakeL1(finalized: bigint, provenAt: (block: bigint) => number): L1ReaderPort {
  return {
    getBlock: async () => l1Block(finalized),
    getCheckpointCount: async (block: bigint) => provenAt(block),
    getProvenCheckpoint: async (block: bigint) => ({ checkpointNumber: provenAt(block), l1BlockNumber: 0n }),
  } as unknown as L1ReaderPort;
}

describe('reading the settlement from L1', () => {
  it('reads finalized as of the step block when L1 finalized is above it', async () => {
    const l1 = fakeL1(50n, (block) => Number(block));
    const s = await readL1Settlement(l1, MEMORY_CHAIN_CONSTANTS, l1Block(20n));
    expect(s).toMatchObject({ provenCheckpoint: 20, finalizedCheckpoint: 20 });
  });

  it('reads finalized from the contract from its deployment block on, 0 before it', async () => {
    const start = MEMORY_CHAIN_CONSTANTS.l1StartBlock;
    const provenAt = (block: bigint) => Number(block) + 7;
    const atStart = await readL1Settlement(fakeL1(start, provenAt), MEMORY_CHAIN_CONSTANTS, l1Block(20n));
    expect(atStart.finalizedCheckpoint).toBe(provenAt(start));
    const before = await readL1Settlement(fakeL1(start - 1n, provenAt), MEMORY_CHAIN_CONSTANTS, l1Block(20n));
    expect(before.finalizedCheckpoint).toBe(0);
  });
});

/** A chain with two checkpoints of one block each (slots 1 and 2). */
async function twoCheckpoints(): Promise<MemoryChain> {
  const node = await openMemoryChain();
  await checkpointBlock(node, await proposeBlock(node, 1, []));
  await checkpointBlock(node, await proposeBlock(node, 2, []));
  return node;
}

/** L1 as of a block long after every proof window of the first epochs. */
const settlement = (proven: number, finalized = 0, pending = proven): L1Settlement => ({
  at: l1Block(1_000n, 10_000_000n),
  provenCheckpoint: proven,
  pendingCheckpointCount: pending,
  finalizedCheckpoint: finalized,
});

const settle = (node: MemoryChain, s: L1Settlement) =>
  node.chain.update((u) => settleTips(u, MEMORY_CHAIN_CONSTANTS, s));

describe('settling the tips', () => {
  it('reports the proven tip moving, and nothing when L1 tells the same again', async () => {
    const node = await twoCheckpoints();
    expect(await settle(node, settlement(1, 0, 2))).toEqual([
      expect.objectContaining({ level: 'info', message: 'proven tip moved' }),
    ]);
    expect(node.chain.tips.proven.checkpoint.number).toBe(1);
    expect(await settle(node, settlement(1, 0, 2))).toEqual([]);
  });

  it('keeps its chain when L1 would prune below the finalized checkpoint', async () => {
    const node = await twoCheckpoints();
    await settle(node, settlement(1, 1, 2));
    expect(node.chain.tips.finalized.checkpoint.number).toBe(1);
    const changes = await settle(node, settlement(0));
    expect(changes[0]).toEqual({
      level: 'warn',
      message: 'L1 would prune below the finalized checkpoint; the node keeps its chain',
      fields: { epoch: 0, provenCheckpoint: 0, checkpointed: 2, l1Block: 1_000n },
    });
    expect(node.chain.tips.checkpointed.checkpoint.number).toBe(2);
    expect(node.chain.tips.proposed.number).toBe(2);
  });
});
