import { createActor, type Actor } from 'xstate';
import type {
  Block,
  BlockOrigin,
  BlockRef,
  ChainEvent,
  ChainPruneReason,
  Checkpoint,
  CheckpointRef,
  L2Tips,
} from '../../spec/chain.js';
import { assert } from '../assert.js';
import type { AppendOnlyTree } from '../merkle/appendOnlyTree.js';
import type { ClockPort, MetricsPort, StorageOp } from '../ports.js';
import type { PreparedBlock, PreparedWrite, WorldState } from '../worldState/worldState.js';
import type { ChainStore, L1SyncPosition } from './chainStore.js';
import { createChainTipsMachine } from './chainTipsMachine.js';
import { applyChainEvent, chainEventRejection } from './tips.js';

export type ChainEventListener = (event: ChainEvent) => void;

/**
 * One pending change of the chain, built inside `Chain.update` and written as one storage batch together with the
 * world state's change. The world state applies one change per batch (a block on top of its latest block, or an
 * unwind), so an update adds at most one block or prunes once; callers that add several blocks use one update
 * each. Reads through the update see its own pending blocks.
 */
export class ChainUpdate {
  tips: L2Tips;
  readonly events: ChainEvent[] = [];
  readonly addBlocks: { block: Block; archiveTree: AppendOnlyTree }[] = [];
  readonly putCheckpoints: Checkpoint[] = [];
  removeBlocksAbove: number | undefined;
  removeCheckpointsAbove: number | undefined;
  l1Sync: L1SyncPosition | undefined;
  /** The world state's part of this update's batch. */
  worldStateWrite: PreparedWrite | undefined;
  /** Writes of indexes that follow the L1 sync position (the inbox's messages), committed in the same batch. */
  readonly syncedIndexOps: StorageOp[] = [];

  constructor(
    private readonly store: ChainStore,
    /** The world state as of the chain's proposed tip; prepare the block to add on it here. */
    readonly worldState: WorldState,
  ) {
    this.tips = store.tips;
  }

  private claimWorldStateWrite(write: PreparedWrite, what: string): void {
    assert(this.worldStateWrite === undefined, `one world-state change per chain update (${what})`);
    this.worldStateWrite = write;
  }

  async getBlock(blockNumber: number): Promise<Block | undefined> {
    if (blockNumber > this.tips.proposed.number) return undefined;
    const pending = this.addBlocks.find((b) => b.block.header.globalVariables.blockNumber === blockNumber);
    if (pending) return pending.block;
    return this.store.getBlock(blockNumber);
  }

  async getArchiveTree(blockNumber: number): Promise<AppendOnlyTree> {
    const pending = this.addBlocks.find((b) => b.block.header.globalVariables.blockNumber === blockNumber);
    const tree = pending?.archiveTree ?? (await this.store.getArchiveTree(blockNumber));
    assert(tree !== undefined, `archive tree of kept block ${blockNumber} is stored`);
    return tree;
  }

  async getCheckpoint(checkpointNumber: number): Promise<Checkpoint | undefined> {
    if (checkpointNumber > this.tips.checkpointed.checkpoint.number) return undefined;
    return this.putCheckpoints.find((c) => c.number === checkpointNumber) ?? this.store.getCheckpoint(checkpointNumber);
  }

  private push(event: ChainEvent): void {
    const rejection = chainEventRejection(this.tips, event);
    assert(rejection === undefined, `chain update: ${rejection}`);
    this.tips = applyChainEvent(this.tips, event);
    this.events.push(event);
  }

  /**
   * Adds the block on the proposed tip; `prepared` is the world state's change for it (its effects applied), `origin`
   * whether it is a block of the slot being built (this node's own, or followed from `peer`'s proposal) or came with
   * a checkpoint from L1.
   */
  addBlock(
    block: Block,
    archiveTree: AppendOnlyTree,
    prepared: PreparedBlock,
    origin: BlockOrigin,
    peer?: string,
  ): void {
    const n = block.header.globalVariables.blockNumber;
    assert(prepared.blockNumber === n, `world-state change is for block ${prepared.blockNumber}, not ${n}`);
    assert(prepared.archive.root === block.archive.root, `world-state archive after block ${n} matches the block's`);
    this.claimWorldStateWrite(prepared, `add block ${n}`);
    this.push({ type: 'blocksAdded', blocks: [block], origin, ...(peer !== undefined ? { peer } : {}) });
    this.addBlocks.push({ block, archiveTree });
  }

  markCheckpointed(checkpoint: Checkpoint, lastBlock: BlockRef): void {
    this.push({ type: 'chainCheckpointed', checkpoint, block: lastBlock });
    this.putCheckpoints.push(checkpoint);
  }

  /**
   * Moves the proven tip to `tip` (tips.ts's rules: forward when L1 accepted an epoch proof, back when an L1 reorg
   * removed one; never below finalized nor above checkpointed). Does nothing when it is already there.
   */
  markProven(tip: { readonly block: BlockRef; readonly checkpoint: CheckpointRef }): void {
    if (tip.checkpoint.number === this.tips.proven.checkpoint.number && tip.block.hash === this.tips.proven.block.hash)
      return;
    this.push({ type: 'chainProven', checkpoint: tip.checkpoint, block: tip.block });
  }

  /** Moves the finalized tip forward to `tip` (at or below proven); does nothing when it is already there. */
  markFinalized(tip: { readonly block: BlockRef; readonly checkpoint: CheckpointRef }): void {
    if (
      tip.checkpoint.number === this.tips.finalized.checkpoint.number &&
      tip.block.hash === this.tips.finalized.block.hash
    )
      return;
    this.push({ type: 'chainFinalized', checkpoint: tip.checkpoint, block: tip.block });
  }

  /** The tip that ends at checkpoint `checkpointNumber` (kept, at or below checkpointed): its last block and itself. */
  async checkpointTip(checkpointNumber: number): Promise<{ block: BlockRef; checkpoint: CheckpointRef }> {
    assert(
      checkpointNumber >= 0 && checkpointNumber <= this.tips.checkpointed.checkpoint.number,
      `checkpoint ${checkpointNumber} is at or below the checkpointed tip`,
    );
    if (checkpointNumber === 0) {
      const genesis = await this.getBlock(0);
      assert(genesis !== undefined, 'genesis is stored');
      return { block: { number: 0, hash: genesis.hash }, checkpoint: { number: 0, hash: genesis.hash } };
    }
    const checkpoint = await this.getCheckpoint(checkpointNumber);
    assert(checkpoint !== undefined, `checkpoint ${checkpointNumber} below the checkpointed tip is stored`);
    const last = checkpoint.firstBlockNumber + checkpoint.blockCount - 1;
    const block = await this.getBlock(last);
    assert(block !== undefined, `last block ${last} of checkpoint ${checkpointNumber} is stored`);
    return {
      block: { number: last, hash: block.hash },
      checkpoint: { number: checkpointNumber, hash: checkpoint.hash },
    };
  }

  /**
   * Drops every block above `toBlockNumber` (and checkpoints whose blocks go with them), unwinding the world state in
   * the same batch. `worldStateAt` says the world state is already at the target (a forced rollback rebuilt it).
   */
  async pruneTo(
    toBlockNumber: number,
    reason: ChainPruneReason,
    options: { readonly worldStateAt?: number } = {},
  ): Promise<void> {
    if (toBlockNumber >= this.tips.proposed.number) return;
    assert(this.addBlocks.length === 0, 'a chain update prunes before adding blocks, never after');
    const toBlock = await this.getBlock(toBlockNumber);
    assert(toBlock !== undefined, `prune target ${toBlockNumber} is kept`);
    if (options.worldStateAt === undefined) {
      this.claimWorldStateWrite(await this.worldState.prepareUnwind(toBlockNumber), `prune to block ${toBlockNumber}`);
    } else {
      assert(
        options.worldStateAt === toBlockNumber && this.worldState.latestBlockNumber === toBlockNumber,
        'the world state is at the prune target',
      );
    }
    let checkpointed = this.tips.checkpointed;
    if (checkpointed.block.number > toBlockNumber) {
      checkpointed = await this.checkpointedTipAtOrBelow(toBlockNumber);
      this.removeCheckpointsAbove = Math.min(this.removeCheckpointsAbove ?? Infinity, checkpointed.checkpoint.number);
      const kept = this.putCheckpoints.filter((c) => c.number <= checkpointed.checkpoint.number);
      this.putCheckpoints.splice(0, this.putCheckpoints.length, ...kept);
    }
    this.push({ type: 'chainPruned', toBlock: { number: toBlockNumber, hash: toBlock.hash }, checkpointed, reason });
    this.removeBlocksAbove = toBlockNumber;
  }

  /** The last checkpoint whose last block is at or below `blockNumber` (genesis counts as checkpoint 0). */
  private async checkpointedTipAtOrBelow(blockNumber: number): Promise<{ block: BlockRef; checkpoint: CheckpointRef }> {
    for (let n = this.tips.checkpointed.checkpoint.number; n >= 1; n--) {
      const checkpoint = await this.getCheckpoint(n);
      assert(checkpoint !== undefined, `checkpoint ${n} below the checkpointed tip is stored`);
      const last = checkpoint.firstBlockNumber + checkpoint.blockCount - 1;
      if (last <= blockNumber) {
        const block = await this.getBlock(last);
        assert(block !== undefined, `last block ${last} of checkpoint ${n} is stored`);
        return { block: { number: last, hash: block.hash }, checkpoint: { number: n, hash: checkpoint.hash } };
      }
    }
    const genesis = await this.getBlock(0);
    assert(genesis !== undefined, 'genesis is stored');
    return { block: { number: 0, hash: genesis.hash }, checkpoint: { number: 0, hash: genesis.hash } };
  }
}

/**
 * The node's chain: the store plus the chain-tips machine. All changes go through `update`, which runs one at a
 * time, writes one atomic batch, then feeds the events to the tips machine and to listeners.
 */
export class Chain {
  private readonly tipsActor: Actor<ReturnType<typeof createChainTipsMachine>>;
  private readonly listeners: ChainEventListener[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private lastCommitFailure: string | undefined;

  constructor(
    readonly store: ChainStore,
    readonly worldState: WorldState,
    private readonly clock: ClockPort,
    /** Told how long each update that adds blocks takes to apply and commit; absent: nothing is timed. */
    private readonly metrics?: MetricsPort,
  ) {
    assert(
      worldState.latestBlockNumber === store.tips.proposed.number,
      `world state at block ${worldState.latestBlockNumber}, chain at ${store.tips.proposed.number}: reconcile them first`,
    );
    this.tipsActor = createActor(createChainTipsMachine(), { input: { tips: store.tips }, clock });
    this.tipsActor.start();
  }

  get tips(): L2Tips {
    return this.tipsActor.getSnapshot().context.tips;
  }

  /** The tips machine's state: Genesis, AheadOfL1 or Settled. */
  get tipsState(): string {
    return String(this.tipsActor.getSnapshot().value);
  }

  get l1Sync(): L1SyncPosition | undefined {
    return this.store.l1Sync;
  }

  onEvent(listener: ChainEventListener): void {
    this.listeners.push(listener);
  }

  /** Runs `build` exclusively against the current chain and commits what it staged, atomically. */
  update<T>(build: (u: ChainUpdate) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => {
      const startedAtMs = this.metrics === undefined ? 0 : this.clock.now();
      const u = new ChainUpdate(this.store, this.worldState);
      const result = await build(u);
      if (u.events.length === 0 && u.l1Sync === undefined && u.syncedIndexOps.length === 0) return result;
      await this.commit(u);
      u.worldStateWrite?.markCommitted();
      if (this.metrics !== undefined && u.addBlocks.length > 0) {
        const durationMs = this.clock.now() - startedAtMs;
        this.metrics.report({ kind: 'worldStateApplied', blocks: u.addBlocks.length, durationMs });
      }
      assert(this.worldState.latestBlockNumber === u.tips.proposed.number, 'world state follows the proposed tip');
      for (const event of u.events) {
        this.tipsActor.send(event);
        for (const listener of this.listeners) listener(event);
      }
      assert(this.tips.proposed.number === u.tips.proposed.number, 'tips machine agrees with the committed tips');
      return result;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Why the last commit to storage failed, until a later one succeeds; undefined when none failed. */
  get commitFailure(): string | undefined {
    return this.lastCommitFailure;
  }

  stop(): void {
    this.tipsActor.stop();
  }

  /** Writes what `u` staged in one batch, and remembers whether the write failed (the node's health says so). */
  private async commit(u: ChainUpdate): Promise<void> {
    try {
      await this.store.commit({
        worldStateOps: u.worldStateWrite?.ops ?? [],
        ...(u.removeBlocksAbove !== undefined ? { removeBlocksAbove: u.removeBlocksAbove } : {}),
        ...(u.removeCheckpointsAbove !== undefined ? { removeCheckpointsAbove: u.removeCheckpointsAbove } : {}),
        addBlocks: u.addBlocks,
        putCheckpoints: u.putCheckpoints,
        tips: u.tips,
        ...(u.l1Sync ? { l1Sync: u.l1Sync } : {}),
        syncedIndexOps: u.syncedIndexOps,
      });
    } catch (error) {
      this.lastCommitFailure = error instanceof Error ? error.message : String(error);
      throw error;
    }
    this.lastCommitFailure = undefined;
  }
}
