import { describe, expect, it } from 'vitest';
import type { Block, Hex, TxEffect } from '../../spec/chain.js';
import { ARCHIVER_CHECKPOINTS_PER_STEP_MAX, ARCHIVER_L1_BLOCKS_PER_STEP_MAX } from '../../spec/constants.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
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
import { L1Error } from '../l1/l1Error.js';
import { appendLeaves, treeSnapshot } from '../merkle/appendOnlyTree.js';
import type { Chain } from '../chain/chain.js';
import type { CheckpointProposedLog, L1BlockTag, L1LogPosition, L1ReaderPort } from '../ports.js';
import { RefusedCheckpoints } from '../validators/syncQuorum.js';
import { runSyncStep, type SyncStepDeps, type SyncStepResult } from './syncStep.js';

const SLOT_SECONDS = MEMORY_CHAIN_CONSTANTS.slotDuration;
const GENESIS_ARCHIVE = MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot;
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
async function syncUp(node: SyncingNode, deps: SyncStepDeps = node.deps): Promise<SyncStepResult[]> {
  const results: SyncStepResult[] = [];
  for (let i = 0; i < 10; i++) {
    results.push(await runSyncStep(deps));
    if (results[results.length - 1]!.caughtUp) return results;
  }
  throw new Error('sync did not catch up in 10 steps');
}

const checkpointed = (node: MemoryChain) => node.chain.tips.checkpointed.checkpoint.number;
const blockAt = (node: MemoryChain, n: number) => node.chain.update((u) => u.getBlock(n));
const messagesOf = (node: SyncingNode, message: string) => node.logs.filter((line) => line.message === message);
const PRUNED_MESSAGE = 'L1 pruned an unproven epoch; so did the node';

/** The scripted L1's reader, but its head carries `timestamp` (as an L1 on another, newer chain would). */
function readerWithHeadTimestamp(l1: ScriptedL1, timestamp: bigint): L1ReaderPort {
  return new Proxy(l1.reader(), {
    get: (target, name: keyof L1ReaderPort) =>
      name === 'getBlock'
        ? async (tag: L1BlockTag) => {
            const block = await target.getBlock(tag);
            return tag === 'latest' ? { ...block, timestamp } : block;
          }
        : target[name],
  });
}

/** A proposer on the scripted L1 (as in syncStep.test.ts): publishes each slot's blocks as its next checkpoint. */
class Proposer {
  private constructor(
    readonly l1: ScriptedL1,
    readonly node: SyncingNode,
  ) {}

  static async start(): Promise<Proposer> {
    const l1 = new ScriptedL1(GENESIS_ARCHIVE);
    return new Proposer(l1, await syncingNode(l1));
  }

  async build(slot: number, blockTxs: readonly (readonly TxEffect[])[]): Promise<Block[]> {
    const blocks: Block[] = [];
    for (const txs of blockTxs) blocks.push(await proposeBlock(this.node, slot, txs));
    return blocks;
  }

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

/**
 * An L1 holding the proposer's checkpoint 1 (valid) and, when `invalidSecond`, a checkpoint 2 whose archive is wrong:
 * a step over both applies the first and then fails.
 */
async function l1WithCheckpoints(invalidSecond: boolean, before: (l1: ScriptedL1) => void = () => undefined) {
  const proposer = await Proposer.start();
  await proposer.publish(1);
  await proposer.publish(2);
  const [block1, block2] = [(await blockAt(proposer.node, 1))!, (await blockAt(proposer.node, 2))!];
  const l1 = new ScriptedL1(GENESIS_ARCHIVE);
  before(l1);
  l1.mineTo(2n);
  const first = checkpointProposalOf(1, GENESIS_ARCHIVE, 1, [block1], SLOT_SECONDS);
  l1.propose(first.log, first.blobs);
  l1.mineTo(5n);
  const second = checkpointProposalOf(2, block1.archive.root, 2, [block2], SLOT_SECONDS);
  l1.propose(invalidSecond ? { ...second.log, archive: hex32(1) } : second.log, second.blobs);
  return l1;
}

describe('archiver sync step: stale heads and L1 reorgs', () => {
  /** A follower synced to L1 block 8 with checkpoints 1 (L1 block 3) and 2 (block 6); L1 then back at block 6. */
  async function followerAfterReorgToSecond() {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    await proposer.publish(2);
    proposer.l1.mineTo(8n);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    const synced = follower.chain.l1Sync!;
    proposer.l1.reorgTo(6n);
    return { proposer, follower, synced };
  }

  it('a lower L1 head as old as the synced block is a stale head: the position stays', async () => {
    const { proposer, follower, synced } = await followerAfterReorgToSecond();
    const deps = { ...follower.deps, l1: readerWithHeadTimestamp(proposer.l1, synced.timestamp) };
    const step = await runSyncStep(deps);
    expect(step).toEqual({
      l1Head: { ...proposer.l1.head, timestamp: synced.timestamp },
      syncedTo: synced,
      checkpointsAdded: 0,
      caughtUp: true,
    });
    expect(follower.chain.l1Sync).toEqual(synced);
  });

  it('a lower L1 head newer than the synced block is a reorg, keeping a checkpoint in the head block itself', async () => {
    const { proposer, follower, synced } = await followerAfterReorgToSecond();
    const deps = { ...follower.deps, l1: readerWithHeadTimestamp(proposer.l1, synced.timestamp + 1n) };
    const step = await runSyncStep(deps);
    const kept = proposer.l1.head;
    expect(step).toMatchObject({
      reorgUnwoundTo: 2,
      syncedTo: { blockNumber: 6n, blockHash: kept.hash, timestamp: kept.timestamp },
      caughtUp: false,
    });
    expect(checkpointed(follower)).toBe(2);
  });

  it('does not keep a checkpoint whose L1 block is past the head, even when L1 holds its archive', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    proposer.l1.mineTo(8n);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    const synced = follower.chain.l1Sync!;
    // The reorg moved the proposal from L1 block 3 to block 2, the head.
    proposer.l1.reorgTo(1n);
    const proposal = checkpointProposalOf(1, GENESIS_ARCHIVE, 1, [(await blockAt(proposer.node, 1))!], SLOT_SECONDS);
    proposer.l1.propose(proposal.log, proposal.blobs);
    const deps = { ...follower.deps, l1: readerWithHeadTimestamp(proposer.l1, synced.timestamp + 1n) };
    const step = await runSyncStep(deps);
    expect(step).toMatchObject({ reorgUnwoundTo: 0, syncedTo: { blockNumber: 0n } });
    expect(checkpointed(follower)).toBe(0);
  });
});

describe('archiver sync step: where each step starts', () => {
  it('each step starts right after the block the previous one reached', async () => {
    const l1 = new ScriptedL1(GENESIS_ARCHIVE);
    const max = BigInt(ARCHIVER_L1_BLOCKS_PER_STEP_MAX);
    l1.mineTo(2n * max + 5n);
    const follower = await syncingNode(l1);
    const steps = await syncUp(follower);
    expect(steps.map((s) => [s.syncedTo.blockNumber, s.caughtUp])).toEqual([
      [max, false],
      [2n * max, false],
      [2n * max + 5n, true],
    ]);
  });
});

describe('archiver sync step: inbox messages', () => {
  it('drops the inbox messages a failed step stored once L1 lost their block', async () => {
    const first = firstMessageIndexOfCheckpoint(1);
    const messages = [hex32(0xaa), hex32(0xbb)].map((leaf, i) => ({
      checkpointNumber: 1,
      index: first + BigInt(i),
      leaf,
      treeHash: leaf,
    }));
    // Messages in L1 block 1, then a failing step (checkpoint 2 is invalid) that already stored them.
    const l1 = await l1WithCheckpoints(true, (at) => void at.sendMessages(messages));
    const follower = await syncingNode(l1);
    await expect(runSyncStep(follower.deps)).rejects.toMatchObject({ code: 'CHECKPOINT_INVALID' });
    expect(await follower.inbox.leavesOfCheckpoint(1)).toHaveLength(2);
    l1.reorgTo(0n);
    l1.mineTo(9n);
    await syncUp(follower);
    expect(await follower.inbox.leavesOfCheckpoint(1)).toEqual([]);
    // Only the failed step stored messages.
    expect(messagesOf(follower, 'inbox messages synced from L1')).toHaveLength(1);
  });
});

describe('archiver sync step: which proposals it applies', () => {
  it('applies a checkpoint that replaces a pruned one in the same step', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    proposer.l1.prove(1);
    await proposer.publish(2);
    proposer.l1.prune();
    await syncUp(proposer.node);
    await proposer.publish(3, [[tx(3)]]);
    const follower = await syncingNode(proposer.l1);
    const steps = await syncUp(follower);
    expect(steps.map((s) => s.checkpointsAdded)).toEqual([3]);
    expect(checkpointed(follower)).toBe(2);
    expect(await blockAt(follower, 2)).toEqual(await blockAt(proposer.node, 2));
  });

  it('needs no blobs for the proposals of checkpoints it already holds', async () => {
    const l1 = await l1WithCheckpoints(true);
    const follower = await syncingNode(l1);
    await expect(runSyncStep(follower.deps)).rejects.toMatchObject({ code: 'CHECKPOINT_INVALID' });
    expect(checkpointed(follower)).toBe(1);
    l1.reorgTo(5n);
    const noBlobs = {
      ...follower.deps.blobs,
      getBlobs: () => Promise.reject(new L1Error('L1_BLOBS_UNAVAILABLE', 'blobs expired')),
    };
    const step = await runSyncStep({ ...follower.deps, blobs: noBlobs });
    expect(step).toMatchObject({ checkpointsAdded: 0, caughtUp: true, syncedTo: { blockNumber: 5n } });
    expect(checkpointed(follower)).toBe(1);
  });

  it('counts no refused checkpoint as added, and reports the refusal with its slot and tx', async () => {
    const proposer = await Proposer.start();
    const first = await proposer.publish(1);
    await proposer.publish(2);
    const follower = await syncingNode(proposer.l1, {
      check: async (log) =>
        log.checkpointNumber === 1 ? { accepted: false, reason: 'no quorum' } : { accepted: true, attestations: [] },
      refused: new RefusedCheckpoints(),
    });
    const steps = await syncUp(follower);
    expect(steps.map((s) => s.checkpointsAdded)).toEqual([0]);
    expect(messagesOf(follower, 'checkpoint refused: its attestations do not carry the quorum')).toEqual([
      expect.objectContaining({
        fields: { checkpoint: 1, slot: first.slotNumber, txHash: first.l1.txHash, reason: 'no quorum' },
      }),
    ]);
  });

  it('names the checkpoint in the errors that stop sync', async () => {
    const skipping = await Proposer.start();
    await skipping.publish(1);
    const l1 = new ScriptedL1(GENESIS_ARCHIVE);
    l1.mineTo(2n);
    const proposal = checkpointProposalOf(2, GENESIS_ARCHIVE, 1, [(await blockAt(skipping.node, 1))!], SLOT_SECONDS);
    l1.propose(proposal.log, proposal.blobs);
    await expect(runSyncStep((await syncingNode(l1)).deps)).rejects.toMatchObject({
      code: 'SYNC_FAILED',
      details: { checkpointNumber: 2 },
    });
    const invalid = await l1WithCheckpoints(true);
    await expect(syncUp(await syncingNode(invalid))).rejects.toMatchObject({
      code: 'CHECKPOINT_INVALID',
      details: { checkpointNumber: 2, txHash: hex32(0x7000 + 6) },
    });
  });

  it('keeps the proposed blocks above a checkpoint whose blocks it already holds', async () => {
    const proposer = await Proposer.start();
    proposer.l1.mineTo(2n);
    const blocks = await proposer.build(1, [[tx(1)]]);
    await proposer.build(2, [[tx(2)]]);
    const { log, blobs } = checkpointProposalOf(1, GENESIS_ARCHIVE, 1, blocks, SLOT_SECONDS);
    proposer.l1.propose(log, blobs);
    await syncUp(proposer.node);
    expect(checkpointed(proposer.node)).toBe(1);
    expect(proposer.node.chain.tips.proposed.number).toBe(2);
  });
});

describe('archiver sync step: L1 prunes', () => {
  it('a prune to the checkpoint the node holds changes nothing and says nothing', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    proposer.l1.prove(1);
    await proposer.publish(2);
    proposer.l1.prune();
    const follower = await syncingNode(proposer.l1, {
      check: async (log) =>
        log.checkpointNumber === 2 ? { accepted: false, reason: 'no quorum' } : { accepted: true, attestations: [] },
      refused: new RefusedCheckpoints(),
    });
    await syncUp(follower);
    expect(checkpointed(follower)).toBe(1);
    expect(messagesOf(follower, PRUNED_MESSAGE)).toEqual([]);
  });

  /** A follower whose checkpoint 1 is final, holding checkpoint 2 on top of it. */
  async function finalizedFollower() {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    const proof = proposer.l1.prove(1);
    proposer.l1.mineTo(proof.number + 64n);
    const second = await proposer.publish(Number(proof.number / L1_BLOCKS_PER_SLOT) + 23);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    expect(follower.chain.tips.finalized.checkpoint.number).toBe(1);
    expect(checkpointed(follower)).toBe(2);
    return { proposer, follower, proof, second };
  }

  it('follows a prune down to the finalized checkpoint', async () => {
    const { proposer, follower } = await finalizedFollower();
    proposer.l1.prune();
    await syncUp(follower);
    expect(checkpointed(follower)).toBe(1);
    expect(messagesOf(follower, PRUNED_MESSAGE)).toHaveLength(1);
  });

  it('stops on a prune below the finalized checkpoint', async () => {
    const { proposer, follower, proof, second } = await finalizedFollower();
    // A reorg takes the proof away; L1 then prunes to checkpoint 0.
    proposer.l1.reorgTo(proof.number - 1n);
    proposer.l1.mineTo(second.l1.blockNumber + 1n);
    expect((await runSyncStep(follower.deps)).reorgUnwoundTo).toBe(1);
    proposer.l1.prune();
    await expect(syncUp(follower)).rejects.toMatchObject({
      code: 'SYNC_FAILED',
      message: 'L1 pruned to checkpoint 0, below the finalized checkpoint 1',
      details: { checkpointNumber: 0 },
    });
    expect(checkpointed(follower)).toBe(1);
  });
});

/** `chain`, with `race` run on the real chain before each of the archiver's updates (another writer racing in). */
function racedChain(chain: Chain, race: () => Promise<void>): Chain {
  return new Proxy(chain, {
    get: (target, name) => {
      if (name === 'update')
        return async (build: Parameters<Chain['update']>[0]) => {
          await race();
          return target.update(build);
        };
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

describe('archiver sync step: a chain changing under it', () => {
  it('stops when a block of the checkpoint is pruned before the checkpoint is marked', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    const follower = await syncingNode(proposer.l1);
    const { chain } = follower;
    let rolledBack = false;
    const rollBackOnce = async () => {
      if (rolledBack || chain.tips.proposed.number < 1 || chain.tips.checkpointed.checkpoint.number > 0) return;
      rolledBack = true;
      await chain.update((u) => u.pruneTo(0, 'rollback'));
    };
    const deps = { ...follower.deps, chain: racedChain(chain, rollBackOnce) };
    await expect(runSyncStep(deps)).rejects.toMatchObject({
      code: 'SYNC_FAILED',
      message: 'block 1 changed while its checkpoint was being synced',
      details: { blockNumber: 1 },
    });
    expect(checkpointed(follower)).toBe(0);
  });

  /** A follower of checkpoint 1 whose own sequencer proposes another block 1 up to `races` times while it syncs. */
  async function racedFollower(races: number) {
    const proposer = await Proposer.start();
    await proposer.publish(1, [[tx(1)]]);
    const follower = await syncingNode(proposer.l1);
    let raced = 0;
    const race = async () => {
      if (raced === races || follower.chain.tips.proposed.number >= 1) return;
      raced++;
      await proposeBlock(follower, 1, [tx(9)]);
    };
    return { follower, deps: { ...follower.deps, chain: racedChain(follower.chain, race) } };
  }

  it('adopts a block after a sequencer raced in fewer times than its attempts', async () => {
    const { follower, deps } = await racedFollower(3);
    expect(await runSyncStep(deps)).toMatchObject({ checkpointsAdded: 1 });
    expect(checkpointed(follower)).toBe(1);
  });

  it('stops when the chain changed on every attempt to adopt a block', async () => {
    const { follower, deps } = await racedFollower(4);
    await expect(runSyncStep(deps)).rejects.toMatchObject({
      code: 'SYNC_FAILED',
      message: 'block 1 of checkpoint 1 could not be adopted: the chain kept changing',
      details: { blockNumber: 1 },
    });
    expect(checkpointed(follower)).toBe(0);
  });
});

/** Where a log is shown: its L1 block and index there. */
type Place = (l1: L1LogPosition) => { readonly blockNumber: bigint; readonly logIndex: number };
const asMined: Place = (l1) => l1;

/**
 * The scripted L1's reader with its proposals and prunes shown at other places (several in one L1 block, which the
 * scripted L1 never mines): the tests' way of putting many contract events in one block.
 */
function relocatedLogs(l1: ScriptedL1, proposed: Place, pruned: Place): L1ReaderPort {
  const reader = l1.reader();
  const move = async <T extends { readonly l1: L1LogPosition }>(
    logs: readonly T[],
    place: Place,
    from: bigint,
    to: bigint,
  ) => {
    const moved: T[] = [];
    for (const log of logs) {
      const { blockNumber, logIndex } = place(log.l1);
      if (blockNumber < from || blockNumber > to) continue;
      const { hash } = await reader.getBlock(blockNumber);
      moved.push({ ...log, l1: { ...log.l1, blockNumber, blockHash: hash, logIndex } });
    }
    return moved;
  };
  return new Proxy(reader, {
    get: (target, name: keyof L1ReaderPort) => {
      if (name === 'getCheckpointProposedLogs')
        return async (from: bigint, to: bigint) =>
          move(await target.getCheckpointProposedLogs(0n, l1.head.number), proposed, from, to);
      if (name === 'getChainPrunedLogs')
        return async (from: bigint, to: bigint) =>
          move(await target.getChainPrunedLogs(0n, l1.head.number), pruned, from, to);
      return target[name];
    },
  });
}

describe('archiver sync step: several contract events in one L1 block', () => {
  it('applies a prune and then the proposal after it in the same L1 block', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    proposer.l1.prove(1);
    await proposer.publish(2);
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower);
    const prune = proposer.l1.prune();
    await syncUp(proposer.node);
    const replacement = await proposer.publish(3, [[tx(3)]]);
    const at = replacement.l1.blockNumber;
    const l1 = relocatedLogs(
      proposer.l1,
      (pos) => (pos.blockNumber === at ? { blockNumber: at, logIndex: 1 } : pos),
      (pos) => (pos.blockNumber === prune.l1.blockNumber ? { blockNumber: at, logIndex: 0 } : pos),
    );
    await syncUp(follower, { ...follower.deps, l1 });
    expect(checkpointed(follower)).toBe(2);
    expect(await blockAt(follower, 2)).toEqual(await blockAt(proposer.node, 2));
  });

  it('applies a proposal and then the prune after it in the same L1 block', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1);
    proposer.l1.prove(1);
    const second = await proposer.publish(2);
    const prune = proposer.l1.prune();
    const at = second.l1.blockNumber;
    const l1 = relocatedLogs(proposer.l1, asMined, (pos) =>
      pos.blockNumber === prune.l1.blockNumber ? { blockNumber: at, logIndex: 1 } : pos,
    );
    const follower = await syncingNode(proposer.l1);
    await syncUp(follower, { ...follower.deps, l1 });
    expect(checkpointed(follower)).toBe(1);
    expect(messagesOf(follower, PRUNED_MESSAGE)).toHaveLength(1);
  });

  /**
   * The proposer's checkpoints 1..count (one a slot, the last at L1 block `at`), shown as `place` puts them; the
   * follower synced up to the block before `at` first.
   */
  async function manyCheckpoints(count: number, place: (pos: L1LogPosition, at: bigint) => ReturnType<Place>) {
    const proposer = await Proposer.start();
    const at = BigInt(count) * L1_BLOCKS_PER_SLOT;
    for (let slot = 1; slot < count; slot++) await proposer.publish(slot);
    proposer.l1.mineTo(at - 1n);
    const follower = await syncingNode(proposer.l1);
    const deps = { ...follower.deps, l1: relocatedLogs(proposer.l1, (pos) => place(pos, at), asMined) };
    await syncUp(follower, deps);
    expect(follower.chain.l1Sync?.blockNumber).toBe(at - 1n);
    await proposer.publish(count);
    return { proposer, follower, deps, at };
  }

  it('keeps every proposal of the first L1 block of a step, however many', async () => {
    const count = ARCHIVER_CHECKPOINTS_PER_STEP_MAX + 1;
    const { follower, deps } = await manyCheckpoints(count, (pos, at) => ({
      blockNumber: at,
      logIndex: Number(pos.blockNumber),
    }));
    const steps = await syncUp(follower, deps);
    expect(steps.map((s) => s.checkpointsAdded)).toEqual([count]);
    expect(checkpointed(follower)).toBe(count);
  });

  it('ends a step after its first L1 block when that block holds the bound and the next one more', async () => {
    const count = ARCHIVER_CHECKPOINTS_PER_STEP_MAX + 1;
    const { proposer, follower, deps, at } = await manyCheckpoints(count, (pos, at) =>
      pos.blockNumber === at
        ? { blockNumber: at + 1n, logIndex: 0 }
        : { blockNumber: at, logIndex: Number(pos.blockNumber) },
    );
    proposer.l1.mine();
    const steps = await syncUp(follower, deps);
    expect(steps.map((s) => [s.checkpointsAdded, s.syncedTo.blockNumber])).toEqual([
      [count - 1, at],
      [1, at + 1n],
    ]);
  });
});

describe('archiver sync step: blocks whose header lies about their state', () => {
  it('stops on a block whose header claims a state its effects do not give', async () => {
    const proposer = await Proposer.start();
    await proposer.publish(1, [[tx(1)]]);
    const block = (await blockAt(proposer.node, 1))!;
    const genesisTree = await proposer.node.chain.update((u) => u.getArchiveTree(0));
    const noteHashTree = { ...block.header.state.noteHashTree, root: hex32(0xdead) };
    const header = { ...block.header, state: { ...block.header.state, noteHashTree } };
    const hash = blockHash(header);
    const lying = { ...block, header, hash, archive: treeSnapshot(appendLeaves(genesisTree, [hash])) };
    const l1 = new ScriptedL1(GENESIS_ARCHIVE);
    l1.mineTo(2n);
    const { log, blobs } = checkpointProposalOf(1, GENESIS_ARCHIVE, 1, [lying], SLOT_SECONDS);
    const proposed = l1.propose(log, blobs);
    const follower = await syncingNode(l1);
    const claimed = block.header.state.noteHashTree;
    await expect(runSyncStep(follower.deps)).rejects.toMatchObject({
      code: 'CHECKPOINT_INVALID',
      message:
        `checkpoint 1 published in L1 tx ${proposed.l1.txHash} is invalid: block 1: its noteHashTree is ` +
        `${hex32(0xdead)} (${claimed.nextAvailableLeafIndex} leaves) in the header, ` +
        `${claimed.root} (${claimed.nextAvailableLeafIndex}) after applying its effects`,
    });
    expect(checkpointed(follower)).toBe(0);
    expect(follower.chain.tips.proposed.number).toBe(0);
  });
});
