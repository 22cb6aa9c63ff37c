import { describe, expect, it } from 'vitest';
import type { Block, Hex, TxEffect } from '../../spec/chain.js';
import { ARCHIVER_CHECKPOINTS_PER_STEP_MAX, ARCHIVER_L1_BLOCKS_PER_STEP_MAX } from '../../spec/constants.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import { firstMessageIndexOfCheckpoint } from '../../spec/messages/inbox.js';
import {
  MEMORY_CHAIN_CONSTANTS,
  openMemoryChain,
  proposeBlock,
  type MemoryChain,
} from '../../test/helpers/memoryChain.js';
import { checkpointProposalOf, ScriptedL1 } from '../../test/helpers/scriptedL1.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import type { CheckpointProposedLog } from '../ports.js';
import { RefusedCheckpoints } from '../validators/syncQuorum.js';
import { runSyncStep, stateMismatch, type SyncStepDeps, type SyncStepResult } from './syncStep.js';

const SLOT_SECONDS = MEMORY_CHAIN_CONSTANTS.slotDuration;
/** L1 blocks per L2 slot: the scripted L1 mines a block every 12 seconds. */
const L1_BLOCKS_PER_SLOT = 3n;
const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const tx = (n: number): TxEffect => minimalTxEffect(hex32(0x7000 + n), hex32(0x9000 + n));

/** A node syncing from the scripted L1, with its log lines. */
interface SyncingNode extends MemoryChain {
  readonly logs: LogLine[];
  readonly deps: SyncStepDeps;
}

async function syncingNode(l1: ScriptedL1, quorum?: SyncStepDeps['quorum']): Promise<SyncingNode> {
  const node = await openMemoryChain();
  const logs: LogLine[] = [];
  const deps: SyncStepDeps = {
    l1: l1.reader(),
    blobs: l1.blobSource(),
    chain: node.chain,
    inbox: node.inbox,
    constants: MEMORY_CHAIN_CONSTANTS,
    logger: capturingLogger((line) => logs.push(line)),
    ...(quorum ? { quorum } : {}),
  };
  return { ...node, logs, deps };
}

/** Runs steps until one reaches the L1 head it saw; answers every step's result. */
async function syncUp(node: SyncingNode): Promise<SyncStepResult[]> {
  const results: SyncStepResult[] = [];
  // Bounded: a test's L1 is a few thousand blocks at most.
  for (let i = 0; i < 10; i++) {
    results.push(await runSyncStep(node.deps));
    if (results[results.length - 1]!.caughtUp) return results;
  }
  throw new Error('sync did not catch up in 10 steps');
}

const checkpointed = (node: MemoryChain) => node.chain.tips.checkpointed.checkpoint.number;
const blockAt = (node: MemoryChain, n: number) => node.chain.update((u) => u.getBlock(n));
const messagesOf = (node: SyncingNode, message: string) => node.logs.filter((line) => line.message === message);

/**
 * A proposer on the scripted L1: builds a slot's blocks, publishes them as its next checkpoint in the slot's first
 * L1 block, and syncs itself from L1 (as the sequencer's node does).
 */
class Proposer {
  private constructor(
    readonly l1: ScriptedL1,
    readonly node: SyncingNode,
  ) {}

  static async start(): Promise<Proposer> {
    const l1 = new ScriptedL1(MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot);
    return new Proposer(l1, await syncingNode(l1));
  }

  /** The blocks of `slot` with these txs, not published. */
  async build(slot: number, blockTxs: readonly (readonly TxEffect[])[]): Promise<Block[]> {
    const blocks: Block[] = [];
    for (const txs of blockTxs) blocks.push(await proposeBlock(this.node, slot, txs));
    return blocks;
  }

  /** Builds and publishes checkpoint `slot`'s blocks at the slot's first L1 block; the proposer syncs it. */
  async publish(slot: number, blockTxs: readonly (readonly TxEffect[])[] = [[]]): Promise<CheckpointProposedLog> {
    this.l1.mineTo(BigInt(slot) * L1_BLOCKS_PER_SLOT - 1n);
    const lastArchive = (await blockAt(this.node, this.node.chain.tips.checkpointed.block.number))!.archive.root;
    const blocks = await this.build(slot, blockTxs);
    const number = checkpointed(this.node) + 1;
    const { log, blobs } = checkpointProposalOf(number, lastArchive, slot, blocks, SLOT_SECONDS);
    const proposed = this.l1.propose(log, blobs);
    await syncUp(this.node);
    return proposed;
  }
}

describe('archiver sync step', () => {
  it("rebuilds the proposer's checkpoints, block for block, and records its L1 position", async () => {
    const proposer = await Proposer.start();
    const first = await proposer.publish(1, [[tx(1)], [tx(2), tx(3)]]);
    await proposer.publish(2, [[tx(4)]]);
    const follower = await syncingNode(proposer.l1);
    const [result] = await syncUp(follower);
    const head = proposer.l1.head;
    expect(result).toEqual({
      l1Head: head,
      syncedTo: { blockNumber: head.number, blockHash: head.hash, timestamp: head.timestamp },
      checkpointsAdded: 2,
      caughtUp: true,
    });
    expect(follower.chain.l1Sync).toEqual(result!.syncedTo);
    expect(checkpointed(follower)).toBe(2);
    expect(follower.chain.tips.proposed.number).toBe(3);
    for (const n of [1, 2, 3]) expect(await blockAt(follower, n)).toEqual(await blockAt(proposer.node, n));
    const checkpoint = await follower.chain.update((u) => u.getCheckpoint(1));
    expect(checkpoint?.l1).toEqual({
      blockNumber: first.l1.blockNumber,
      blockHash: first.l1.blockHash,
      timestamp: first.l1.blockNumber * 12n,
      txHash: first.l1.txHash,
    });
    expect(checkpoint?.attestations).toEqual([]);
    expect(messagesOf(follower, 'checkpoint synced from L1').map((line) => line.fields)).toEqual([
      { checkpoint: 1, blocks: 2, l1Block: first.l1.blockNumber },
      { checkpoint: 2, blocks: 1, l1Block: first.l1.blockNumber + 3n },
    ]);
  });

  it('reports nothing new when L1 has not moved, and moves with L1 when it mines empty blocks', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    const again = await runSyncStep(follower.deps);
    expect(again).toMatchObject({ checkpointsAdded: 0, caughtUp: true, syncedTo: follower.chain.l1Sync });
    expect(again.syncedTo.blockNumber).toBe(proposer.l1.head.number);
    const later = proposer.l1.mineTo(proposer.l1.head.number + 2n);
    expect(await runSyncStep(follower.deps)).toMatchObject({ checkpointsAdded: 0, caughtUp: true });
    expect(follower.chain.l1Sync?.blockHash).toBe(later.hash);
  });

  it("a fresh node starts at the rollup's first L1 block", async () => {
    const l1 = new ScriptedL1(MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot);
    const node = await syncingNode(l1);
    // The head is block 0, below the rollup's first block (1): nothing to read yet.
    expect(await runSyncStep(node.deps)).toEqual({
      l1Head: l1.head,
      syncedTo: { blockNumber: 0n, blockHash: l1.head.hash, timestamp: 0n },
      checkpointsAdded: 0,
      caughtUp: true,
    });
    expect(node.chain.l1Sync).toBeUndefined();
    l1.mine();
    expect((await runSyncStep(node.deps)).syncedTo.blockNumber).toBe(1n);
  });

  it('reads at most ARCHIVER_L1_BLOCKS_PER_STEP_MAX L1 blocks a step', async () => {
    const proposer = await Proposer.start();
    proposer.l1.mineTo(BigInt(ARCHIVER_L1_BLOCKS_PER_STEP_MAX) + 5n);
    const follower = await syncingNode(proposer.l1);
    const steps = await syncUp(follower);
    expect(steps.map((s) => [s.syncedTo.blockNumber, s.caughtUp])).toEqual([
      [BigInt(ARCHIVER_L1_BLOCKS_PER_STEP_MAX), false],
      [BigInt(ARCHIVER_L1_BLOCKS_PER_STEP_MAX) + 5n, true],
    ]);
  });

  it('applies at most ARCHIVER_CHECKPOINTS_PER_STEP_MAX checkpoints a step, ending before the next', async () => {
    const proposer = await Proposer.start();
    const logs: CheckpointProposedLog[] = [];
    for (let slot = 1; slot <= ARCHIVER_CHECKPOINTS_PER_STEP_MAX + 2; slot++) logs.push(await proposer.publish(slot));
    const follower = await syncingNode(proposer.l1);
    const steps = await syncUp(follower);
    const beyond = logs[ARCHIVER_CHECKPOINTS_PER_STEP_MAX]!.l1.blockNumber;
    expect(steps.map((s) => [s.checkpointsAdded, s.syncedTo.blockNumber, s.caughtUp])).toEqual([
      [ARCHIVER_CHECKPOINTS_PER_STEP_MAX, beyond - 1n, false],
      [2, proposer.l1.head.number, true],
    ]);
    expect(checkpointed(follower)).toBe(ARCHIVER_CHECKPOINTS_PER_STEP_MAX + 2);
  });

  it('fetches the blobs of old proposals as historical, and recent ones near the tip', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    await proposer.publish(2);
    proposer.l1.urgencies.length = 0;
    proposer.l1.mineTo(proposer.l1.head.number + 30n);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    // Proposals at L1 blocks 3 and 6 with the head at 36: 33 and 30 blocks back (BLOB_NEAR_TIP_L1_BLOCKS is 32).
    expect(proposer.l1.urgencies).toEqual(['historical', 'nearTip']);
  });

  it('stores the inbox messages of the blocks it syncs, and a checkpoint that consumes them', async () => {
    const proposer = await Proposer.start();
    const leaves = [hex32(0xaa), hex32(0xbb)];
    const first = firstMessageIndexOfCheckpoint(1);
    proposer.l1.sendMessages(
      leaves.map((leaf, i) => ({ checkpointNumber: 1, index: first + BigInt(i), leaf, treeHash: leaf })),
    );
    await syncUp(proposer.node);
    expect(await proposer.node.inbox.leavesOfCheckpoint(1)).toEqual(leaves);
    await proposer.publish(1);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    expect(await follower.inbox.leavesOfCheckpoint(1)).toEqual(leaves);
    expect(checkpointed(follower)).toBe(1);
    expect(messagesOf(follower, 'inbox messages synced from L1').map((line) => line.fields)).toEqual([
      { count: 2, lastIndex: first + 1n },
    ]);
  });

  it('stops on a checkpoint whose data is invalid, adding nothing', async () => {
    const proposer = await Proposer.start();
    const log = await proposer.publish(1);
    const l1 = new ScriptedL1(MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot);
    l1.mineTo(2n);
    const blocks = [(await blockAt(proposer.node, 1))!];
    const proposal = checkpointProposalOf(1, MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot, 1, blocks, SLOT_SECONDS);
    l1.propose({ ...proposal.log, archive: hex32(1) }, proposal.blobs);
    const follower = await syncingNode(l1);
    await expect(runSyncStep(follower.deps)).rejects.toMatchObject({
      code: 'CHECKPOINT_INVALID',
      message: `checkpoint 1 published in L1 tx ${log.l1.txHash} is invalid: rebuilt archive root differs from the one recorded on L1`,
    });
    expect(checkpointed(follower)).toBe(0);
    expect(follower.chain.l1Sync).toBeUndefined();
  });

  it('stops when L1 skips a checkpoint number', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    const l1 = new ScriptedL1(MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot);
    l1.mineTo(2n);
    const blocks = [(await blockAt(proposer.node, 1))!];
    const proposal = checkpointProposalOf(2, MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot, 1, blocks, SLOT_SECONDS);
    l1.propose(proposal.log, proposal.blobs);
    const follower = await syncingNode(l1);
    await expect(runSyncStep(follower.deps)).rejects.toMatchObject({
      code: 'SYNC_FAILED',
      message: 'L1 proposes checkpoint 2 while the node has 0',
    });
  });

  it('a failed L1 read changes nothing; the next step syncs', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    const follower = await syncingNode(proposer.l1);
    proposer.l1.failing.add('getProvenCheckpoint');
    await expect(runSyncStep(follower.deps)).rejects.toMatchObject({ code: 'L1_UNREACHABLE' });
    expect(checkpointed(follower)).toBe(0);
    expect(follower.chain.l1Sync).toBeUndefined();
    proposer.l1.failing.clear();
    expect((await runSyncStep(follower.deps)).checkpointsAdded).toBe(1);
  });

  it('replaces a local block that differs from the checkpoint, and keeps one that matches', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1, [[tx(1)], [tx(2)]]);
    const follower = await syncingNode(proposer.l1);
    // The follower's own (different) block 1, then block 2 as the proposer built it would not chain: one block.
    await proposeBlock(follower, 1, [tx(9)]);
    await syncUp(follower);
    expect(await blockAt(follower, 1)).toEqual(await blockAt(proposer.node, 1));
    expect(await blockAt(follower, 2)).toEqual(await blockAt(proposer.node, 2));
    expect(checkpointed(follower)).toBe(1);
  });

  it('follows L1 prunes of unproven checkpoints', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    proposer.l1.prove(1);
    await proposer.publish(2);
    const pruneLog = proposer.l1.prune();
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    expect(checkpointed(follower)).toBe(1);
    expect(follower.chain.tips.proposed.number).toBe(1);
    expect(follower.chain.tips.proven.checkpoint.number).toBe(1);
    expect(messagesOf(follower, 'L1 pruned an unproven epoch; so did the node').map((l) => l.fields)).toEqual([
      { provenCheckpoint: 1, l1Block: pruneLog.l1.blockNumber },
    ]);
    // A prune the node already followed changes nothing.
    await syncUp(proposer.node);
    expect(checkpointed(proposer.node)).toBe(1);
  });

  it('moves proven with L1, and finalized once the proof is final', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    await proposer.publish(2);
    const proof = proposer.l1.prove(2);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    expect(follower.chain.tips.proven.checkpoint.number).toBe(2);
    expect(follower.chain.tips.finalized.checkpoint.number).toBe(0);
    expect(messagesOf(follower, 'proven tip moved')).toEqual([
      expect.objectContaining({
        level: 'info',
        fields: { provenCheckpoint: 2, l1Block: proof.number, from: 0, block: 2 },
      }),
    ]);
    proposer.l1.mineTo(proof.number + 63n);
    await syncUp(follower);
    expect(follower.chain.tips.finalized.checkpoint.number).toBe(0);
    proposer.l1.mine();
    await syncUp(follower);
    expect(follower.chain.tips.finalized.checkpoint.number).toBe(2);
    expect(messagesOf(follower, 'finalized tip moved')).toEqual([
      expect.objectContaining({
        level: 'info',
        fields: { finalizedCheckpoint: 2, block: 2, l1Block: proof.number + 64n },
      }),
    ]);
  });

  it('keeps finalized when an L1 reorg takes its proof away', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    const proof = proposer.l1.prove(1);
    proposer.l1.mineTo(proof.number + 64n);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    expect(follower.chain.tips.finalized.checkpoint.number).toBe(1);
    proposer.l1.reorgTo(proof.number - 1n);
    await runSyncStep(follower.deps);
    expect(follower.chain.tips.finalized.checkpoint.number).toBe(1);
    expect(follower.chain.tips.proven.checkpoint.number).toBe(1);
    expect(messagesOf(follower, 'L1 proven checkpoint is below the finalized one; the node keeps finalized')).toEqual([
      expect.objectContaining({ level: 'warn', fields: { provenCheckpoint: 0, l1Block: proof.number - 1n } }),
    ]);
  });

  it('on an L1 reorg that lost checkpoints, unwinds to the last one L1 still holds', async () => {
    const proposer = await Proposer.start();
    const first = await proposer.publish(1);
    await proposer.publish(2);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    proposer.l1.reorgTo(first.l1.blockNumber + 1n);
    proposer.l1.mineTo(first.l1.blockNumber + 6n);
    const step = await runSyncStep(follower.deps);
    const kept = (await proposer.l1.reader().getBlock(first.l1.blockNumber))!;
    expect(step).toEqual({
      l1Head: proposer.l1.head,
      syncedTo: { blockNumber: kept.number, blockHash: kept.hash, timestamp: kept.timestamp },
      checkpointsAdded: 0,
      caughtUp: false,
      reorgUnwoundTo: 1,
    });
    expect(checkpointed(follower)).toBe(1);
    expect(follower.chain.tips.proposed.number).toBe(1);
    expect(messagesOf(follower, 'L1 reorg detected; unwound to the last checkpoint L1 still holds')).toHaveLength(1);
    expect((await syncUp(follower)).at(-1)).toMatchObject({ caughtUp: true, checkpointsAdded: 0 });
  });

  it('on an L1 reorg below every checkpoint, unwinds to genesis and resumes before the rollup', async () => {
    const proposer = await Proposer.start();
    const first = await proposer.publish(1);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    proposer.l1.reorgTo(first.l1.blockNumber - 1n);
    proposer.l1.mineTo(first.l1.blockNumber + 3n);
    const step = await runSyncStep(follower.deps);
    expect(step.reorgUnwoundTo).toBe(0);
    expect(step.syncedTo.blockNumber).toBe(0n);
    expect(checkpointed(follower)).toBe(0);
    expect(follower.chain.tips.proposed.number).toBe(0);
  });

  it('a stale L1 head below the synced block settles proofs but unwinds nothing', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    proposer.l1.prove(1);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    const synced = follower.chain.l1Sync!;
    // A reorg to a shorter chain whose head is no newer than the synced block: the proof is gone.
    proposer.l1.reorgTo(synced.blockNumber - 2n);
    const step = await runSyncStep(follower.deps);
    expect(step).toEqual({ l1Head: proposer.l1.head, syncedTo: synced, checkpointsAdded: 0, caughtUp: true });
    expect(checkpointed(follower)).toBe(1);
    expect(follower.chain.tips.proven.checkpoint.number).toBe(0);
    expect(messagesOf(follower, 'proven tip moved').at(-1)).toMatchObject({ level: 'warn', fields: { from: 1 } });
  });

  it('drops proposed blocks whose slot passed without a checkpoint', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    await proposer.build(2, [[tx(1)]]);
    // L1 in slot 2 keeps the block; in slot 3 it is dropped.
    proposer.l1.mineTo(2n * L1_BLOCKS_PER_SLOT + 1n);
    await syncUp(proposer.node);
    expect(proposer.node.chain.tips.proposed.number).toBe(2);
    proposer.l1.mineTo(3n * L1_BLOCKS_PER_SLOT);
    await syncUp(proposer.node);
    expect(proposer.node.chain.tips.proposed.number).toBe(1);
    expect(messagesOf(proposer.node, 'dropped proposed blocks whose slot passed without a checkpoint')).toEqual([
      expect.objectContaining({ level: 'info', fields: { slot: 2, l1Slot: 3, blocks: 1 } }),
    ]);
  });

  it('prunes an epoch past its proof window once L1 counts it pruned, never below finalized', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    const epochBlocks = BigInt(MEMORY_CHAIN_CONSTANTS.epochDuration) * L1_BLOCKS_PER_SLOT;
    // Epoch 0's proof window (one epoch) is over when epoch 2 starts.
    proposer.l1.mineTo(2n * epochBlocks - 1n);
    proposer.l1.countsAsPruned = true;
    await syncUp(proposer.node);
    expect(checkpointed(proposer.node)).toBe(1);
    proposer.l1.mine();
    await syncUp(proposer.node);
    expect(checkpointed(proposer.node)).toBe(0);
    expect(messagesOf(proposer.node, 'epoch not proven within its window: pruned to the proven checkpoint')).toEqual([
      expect.objectContaining({
        level: 'warn',
        fields: { epoch: 0, provenCheckpoint: 0, checkpointed: 1, l1Block: 2n * epochBlocks },
      }),
    ]);
  });

  it('a checkpoint refused for its quorum is not added, nor one built on it', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    await proposer.publish(2);
    const proof = proposer.l1.prove(1);
    const refused = new RefusedCheckpoints();
    const refusedLogs: string[] = [];
    const follower = await syncingNode(proposer.l1, {
      check: async (log) =>
        log.checkpointNumber === 1 ? { accepted: false, reason: 'no quorum' } : { accepted: true, attestations: [] },
      refused,
      onRefused: (log, reason) => void refusedLogs.push(`${log.checkpointNumber}: ${reason}`),
    });
    await syncUp(follower);
    expect(checkpointed(follower)).toBe(0);
    expect(refused.has(1)).toBe(true);
    expect(refusedLogs).toEqual(['1: no quorum']);
    expect(messagesOf(follower, 'checkpoint refused: its attestations do not carry the quorum')).toHaveLength(1);
    expect(messagesOf(follower, 'checkpoint skipped: it builds on a checkpoint refused for its quorum')).toEqual([
      expect.objectContaining({ fields: { checkpoint: 2, refused: 1 } }),
    ]);
    expect(messagesOf(follower, 'L1 proves checkpoints the node does not hold yet')).toEqual([
      expect.objectContaining({ level: 'warn', fields: { provenCheckpoint: 1, l1Block: proof.number } }),
    ]);
    expect(follower.chain.tips.proven.checkpoint.number).toBe(0);
  });

  it('keeps the attestations the quorum check resolved, and forgets earlier refusals of that checkpoint', async () => {
    const proposer = await Proposer.start();
    const log = await proposer.publish(1);
    const refused = new RefusedCheckpoints();
    refused.add(log);
    const attestations = [{ signer: `0x${'ab'.repeat(20)}`, signature: `0x${'cd'.repeat(96)}` }] as never[];
    const follower = await syncingNode(proposer.l1, { check: async () => ({ accepted: true, attestations }), refused });
    await syncUp(follower);
    expect((await follower.chain.update((u) => u.getCheckpoint(1)))?.attestations).toEqual(attestations);
    expect(refused.has(1)).toBe(false);
  });

  it('on an L1 reorg that kept every checkpoint, keeps the proposed blocks above them', async () => {
    const proposer = await Proposer.start();
    const first = await proposer.publish(1);
    proposer.l1.mineTo(first.l1.blockNumber + 2n);
    await syncUp(proposer.node);
    await proposer.build(2, [[tx(1)]]);
    proposer.l1.reorgTo(first.l1.blockNumber + 1n);
    proposer.l1.mineTo(first.l1.blockNumber + 2n);
    const step = await runSyncStep(proposer.node.deps);
    expect(step.reorgUnwoundTo).toBe(1);
    expect(checkpointed(proposer.node)).toBe(1);
    expect(proposer.node.chain.tips.proposed.number).toBe(2);
    expect(messagesOf(proposer.node, 'L1 reorg detected; unwound to the last checkpoint L1 still holds')).toEqual([
      expect.objectContaining({ fields: { checkpoint: 1 } }),
    ]);
  });

  it('on an L1 reorg that replaced a checkpoint, unwinds below it and adopts the replacement', async () => {
    const proposer = await Proposer.start();
    const first = await proposer.publish(1, [[tx(1)]]);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    const rival = await openMemoryChain();
    const blocks = [await proposeBlock(rival, 2, [tx(9)])];
    const genesis = MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot;
    const proposal = checkpointProposalOf(1, genesis, 2, blocks, SLOT_SECONDS);
    proposer.l1.reorgTo(first.l1.blockNumber - 1n);
    proposer.l1.mineTo(2n * L1_BLOCKS_PER_SLOT - 1n);
    proposer.l1.propose(proposal.log, proposal.blobs);
    expect((await runSyncStep(follower.deps)).reorgUnwoundTo).toBe(0);
    expect(follower.chain.tips.proposed.number).toBe(0);
    await syncUp(follower);
    expect(checkpointed(follower)).toBe(1);
    expect((await blockAt(follower, 1))?.hash).toBe(blocks[0]!.hash);
  });

  it('an L1 block replaced at the synced height is a reorg, not a stale head', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    const second = await proposer.publish(2);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    expect(follower.chain.l1Sync?.blockNumber).toBe(second.l1.blockNumber);
    proposer.l1.reorgTo(second.l1.blockNumber - 1n);
    proposer.l1.mine();
    const step = await runSyncStep(follower.deps);
    expect(step.reorgUnwoundTo).toBe(1);
    expect(checkpointed(follower)).toBe(1);
  });

  it('reports the proven tip moving once, not on every later step', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    proposer.l1.prove(1);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    proposer.l1.mine();
    await syncUp(follower);
    expect(follower.chain.tips.proven.checkpoint.number).toBe(1);
    expect(messagesOf(follower, 'proven tip moved')).toHaveLength(1);
  });

  it('keeps an epoch past its proof window while L1 does not count it pruned', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    const epochBlocks = BigInt(MEMORY_CHAIN_CONSTANTS.epochDuration) * L1_BLOCKS_PER_SLOT;
    proposer.l1.mineTo(2n * epochBlocks + 1n);
    await syncUp(proposer.node);
    expect(checkpointed(proposer.node)).toBe(1);
    expect(messagesOf(proposer.node, 'epoch not proven within its window: pruned to the proven checkpoint')).toEqual(
      [],
    );
  });

  it('stateMismatch names the first tree whose root or size differs', () => {
    const tree = (root: number, size: number) => ({ root: hex32(root), nextAvailableLeafIndex: size });
    const state = {
      noteHashTree: tree(1, 1),
      nullifierTree: tree(2, 2),
      publicDataTree: tree(3, 3),
      l1ToL2MessageTree: tree(4, 4),
    };
    expect(stateMismatch(state, state)).toBeUndefined();
    expect(stateMismatch(state, { ...state, publicDataTree: tree(3, 4) })).toBe(
      `its publicDataTree is ${hex32(3)} (4 leaves) in the header, ${hex32(3)} (3) after applying its effects`,
    );
    expect(stateMismatch(state, { ...state, l1ToL2MessageTree: tree(5, 4) })).toMatch(/^its l1ToL2MessageTree is /);
  });
});
