import type { CommitteeSignature, Hex, L1RollupConstants, StateReference } from '../../spec/chain.js';
import { ARCHIVER_CHECKPOINTS_PER_STEP_MAX, ARCHIVER_L1_BLOCKS_PER_STEP_MAX } from '../../spec/constants.js';
import type { Chain, ChainUpdate } from '../chain/chain.js';
import type { L1SyncPosition } from '../chain/chainStore.js';
import { NodeError } from '../errors.js';
import type {
  ChainPrunedLog,
  CheckpointProposedLog,
  InboxMessageLog,
  L1BlockRef,
  L1LogPosition,
  L1ReaderPort,
  LoggerPort,
} from '../ports.js';
import { checkpointedFeeBasis } from '../fees/feeBasis.js';
import { feeFloor, nextGasFees } from '../fees/minFees.js';
import { blockStateEffects } from '../worldState/blockEffects.js';
import { decodeCheckpoint, type DecodedCheckpoint } from './checkpointDecoding.js';
import { readL1Settlement, settleProofTips, settleTips, type L1Settlement } from './settlement.js';
import type { RefusedCheckpoints, SyncQuorumCheck } from '../validators/syncQuorum.js';
import type { InboxStore } from '../messages/inboxStore.js';
import { blobUrgency, type BlobSourceChain } from '../blobs/blobSourceChain.js';
import { checkpointMessageSubtree, inboxTreeHash } from '../../spec/messages/inbox.js';

export interface SyncStepDeps {
  readonly l1: L1ReaderPort;
  /** Where proposals' blobs are read from. */
  readonly blobs: BlobSourceChain;
  readonly chain: Chain;
  /** The inbox's messages, kept in step with the L1 sync position. */
  readonly inbox: InboxStore;
  readonly constants: L1RollupConstants;
  readonly logger: LoggerPort;
  /** The committee's quorum check (core/validators/syncQuorum.ts); absent when the node ignores the validator set. */
  readonly quorum?: {
    readonly check: SyncQuorumCheck;
    readonly refused: RefusedCheckpoints;
    readonly onRefused?: (log: CheckpointProposedLog, reason: string) => void;
  };
}

export interface SyncStepResult {
  /** The L1 head seen at the start of the step. */
  readonly l1Head: L1BlockRef;
  /** The L1 block the node has now processed up to. */
  readonly syncedTo: L1SyncPosition;
  readonly checkpointsAdded: number;
  /** True when the step reached the L1 head it saw. */
  readonly caughtUp: boolean;
  /** Set when the step found an L1 reorg and unwound instead of syncing forward. */
  readonly reorgUnwoundTo?: number;
}

const toPosition = (b: L1BlockRef): L1SyncPosition => ({
  blockNumber: b.number,
  blockHash: b.hash,
  timestamp: b.timestamp,
});

/** The rollup contract's events the archiver follows, merged in L1 order; proposals carry what applying needs. */
type ContractEvent =
  | { readonly kind: 'pruned'; readonly log: ChainPrunedLog }
  | {
      readonly kind: 'proposed';
      readonly log: CheckpointProposedLog;
      readonly blobs?: Uint8Array[];
      readonly timestamp?: bigint;
    };

/**
 * One archiver step, pinned to one L1 block `to` (at most ARCHIVER_L1_BLOCKS_PER_STEP_MAX blocks past the last synced
 * one): replay the rollup contract's proposals and prunes up to `to` in L1 order (each checkpoint rebuilt from its
 * blobs), then settle the tips against the contract as of `to` (settlement.ts: proven, finalized, and the prunes L1
 * has not applied yet), committing the new L1 position with them. Every network read happens before the chain is
 * locked, so a failed read changes nothing; the commits re-check against the chain as it is.
 */
export async function runSyncStep(deps: SyncStepDeps): Promise<SyncStepResult> {
  const { l1, chain, constants } = deps;
  const head = await l1.getBlock('latest');
  const last = chain.l1Sync;
  if (last && last.blockNumber > head.number && head.timestamp <= last.timestamp)
    return settleBelowSyncedBlock(deps, head, last);
  if (last && (last.blockNumber > head.number || (await lastSyncedBlockWasReorged(l1, last)))) {
    return unwindAfterL1Reorg(deps, head);
  }
  const from = last ? last.blockNumber + 1n : constants.l1StartBlock;
  if (from > head.number) {
    return { l1Head: head, syncedTo: last ?? toPosition(head), checkpointsAdded: 0, caughtUp: true };
  }
  const lastInStep = from + BigInt(ARCHIVER_L1_BLOCKS_PER_STEP_MAX) - 1n;
  const stepEnd = lastInStep < head.number ? await l1.getBlock(lastInStep) : head;
  const listed = await listContractEvents(deps, from, stepEnd.number);
  const to = listed.to === stepEnd.number ? stepEnd : await l1.getBlock(listed.to);
  const events = await fetchBlobs(deps, listed.events, head.number);
  const messages = await l1.getInboxMessageLogs(from, to.number);
  const settlement = await readL1Settlement(l1, constants, to);
  await syncInboxMessages(deps, from - 1n, messages);
  let added = 0;
  for (const event of events) {
    if (event.kind === 'pruned') await applyL1Prune(deps, event.log);
    else if (event.blobs && (await applyCheckpointLog(deps, event.log, event.blobs, event.timestamp!))) added++;
  }
  await settle(deps, settlement, to);
  return { l1Head: head, syncedTo: toPosition(to), checkpointsAdded: added, caughtUp: to.number === head.number };
}

/**
 * The proposals and prunes from `from` in L1 order, up to `to` or, when more than ARCHIVER_CHECKPOINTS_PER_STEP_MAX
 * of the proposals there are ones the node will apply, up to the L1 block before the first one past that bound.
 */
async function listContractEvents(
  deps: SyncStepDeps,
  from: bigint,
  to: bigint,
): Promise<{ readonly events: ContractEvent[]; readonly to: bigint }> {
  const [proposed, pruned] = await Promise.all([
    deps.l1.getCheckpointProposedLogs(from, to),
    deps.l1.getChainPrunedLogs(from, to),
  ]);
  const events: ContractEvent[] = [
    ...pruned.map((log) => ({ kind: 'pruned' as const, log })),
    ...proposed.map((log) => ({ kind: 'proposed' as const, log })),
  ];
  events.sort((a, b) => l1Order(a.log.l1, b.log.l1));
  const beyond = eventsToApply(deps, events)[ARCHIVER_CHECKPOINTS_PER_STEP_MAX];
  const end = beyond === undefined ? to : beyond.log.l1.blockNumber - 1n;
  // A step always moves: it keeps every event of its first L1 block, however many.
  if (end < from) return { events, to };
  return { events: events.filter((event) => event.log.l1.blockNumber <= end), to: end };
}

/** The proposals among `events` the node will apply: those above its checkpointed tip as it will stand then. */
function eventsToApply(deps: SyncStepDeps, events: readonly ContractEvent[]): ContractEvent[] {
  let checkpointed = deps.chain.tips.checkpointed.checkpoint.number;
  const applied: ContractEvent[] = [];
  for (const event of events) {
    if (event.kind === 'pruned') checkpointed = Math.min(checkpointed, event.log.provenCheckpointNumber);
    else if (event.log.checkpointNumber > checkpointed) {
      applied.push(event);
      checkpointed = event.log.checkpointNumber;
    }
  }
  return applied;
}

/** `events` with blobs and block timestamps for the proposals the node will apply (a prune lowers its tip). */
async function fetchBlobs(
  deps: SyncStepDeps,
  events: readonly ContractEvent[],
  l1Head: bigint,
): Promise<ContractEvent[]> {
  const { l1 } = deps;
  const toApply = new Set(eventsToApply(deps, events));
  const fetched: ContractEvent[] = [];
  for (const event of events) {
    if (event.kind === 'pruned') fetched.push(event);
    else if (toApply.has(event)) {
      const { log } = event;
      const l1Block = await l1.getBlock(log.l1.blockNumber);
      const request = {
        versionedHashes: log.blobVersionedHashes,
        l1: { ...log.l1, timestamp: l1Block.timestamp },
      };
      const blobs = await deps.blobs.getBlobs(request, blobUrgency(log.l1.blockNumber, l1Head));
      fetched.push({ ...event, blobs, timestamp: l1Block.timestamp });
    }
  }
  return fetched;
}

/**
 * Stores the inbox messages of `(after, to]` before the step applies checkpoints (a checkpoint consumes messages sent
 * before it), dropping first any message from after `after` that a crashed earlier step left behind.
 */
async function syncInboxMessages(
  deps: SyncStepDeps,
  after: bigint,
  messages: readonly InboxMessageLog[],
): Promise<void> {
  const stale = await deps.inbox.unwindOps(after);
  if (stale.length === 0 && messages.length === 0) return;
  await deps.chain.update(async (u) => {
    // Read again inside the update: a rollback may have committed in between.
    u.syncedIndexOps.push(...(await deps.inbox.unwindOps(after)), ...deps.inbox.syncOps(messages));
  });
  if (messages.length > 0)
    deps.logger.debug('inbox messages synced from L1', {
      count: messages.length,
      lastIndex: messages[messages.length - 1]!.index,
    });
}

function l1Order(a: L1LogPosition, b: L1LogPosition): number {
  if (a.blockNumber !== b.blockNumber) return a.blockNumber < b.blockNumber ? -1 : 1;
  return a.logIndex - b.logIndex;
}

/** L1 pruned its pending chain back to its proven checkpoint: so does the node (unless it already did). */
async function applyL1Prune(deps: SyncStepDeps, log: ChainPrunedLog): Promise<void> {
  const pruned = await deps.chain.update(async (u) => {
    if (u.tips.checkpointed.checkpoint.number <= log.provenCheckpointNumber) return false;
    if (log.provenCheckpointNumber < u.tips.finalized.checkpoint.number) {
      throw new NodeError(
        'SYNC_FAILED',
        `L1 pruned to checkpoint ${log.provenCheckpointNumber}, below the finalized checkpoint ${u.tips.finalized.checkpoint.number}`,
        {
          checkpointNumber: log.provenCheckpointNumber,
        },
      );
    }
    await u.pruneTo((await u.checkpointTip(log.provenCheckpointNumber)).block.number, 'epochNotProven');
    return true;
  });
  if (pruned)
    deps.logger.warn('L1 pruned an unproven epoch; so did the node', {
      provenCheckpoint: log.provenCheckpointNumber,
      l1Block: log.l1.blockNumber,
    });
}

/** Settles the tips against L1 as of `to` and records `to` as synced, in one update. */
async function settle(deps: SyncStepDeps, settlement: L1Settlement, to: L1BlockRef): Promise<void> {
  const changes = await deps.chain.update(async (u) => {
    const made = await settleTips(u, deps.constants, settlement);
    u.l1Sync = toPosition(to);
    return made;
  });
  for (const change of changes) deps.logger[change.level](change.message, change.fields);
}

/**
 * L1's head is below the block the node last synced and no newer than it: its RPC node is stale, or L1 reorged to a
 * shorter chain and has not mined on it yet. The two look alike until L1 mines a block newer than the one synced
 * (a lower head with a later timestamp is another chain: a reorg), or passes its number and its hash tells them
 * apart; so nothing is unwound or pruned yet (a stale RPC node must never cause a prune), and the position stays.
 * Proven and finalized follow L1 as of the head it sees, so a proof that a reorg removed stops counting at once.
 */
async function settleBelowSyncedBlock(
  deps: SyncStepDeps,
  head: L1BlockRef,
  last: L1SyncPosition,
): Promise<SyncStepResult> {
  const settlement = await readL1Settlement(deps.l1, deps.constants, head);
  const changes = await deps.chain.update((u) => settleProofTips(u, settlement));
  for (const change of changes) deps.logger[change.level](change.message, change.fields);
  return { l1Head: head, syncedTo: last, checkpointsAdded: 0, caughtUp: true };
}

async function lastSyncedBlockWasReorged(l1: L1ReaderPort, last: L1SyncPosition): Promise<boolean> {
  const now = await l1.getBlock(last.blockNumber);
  return now.hash !== last.blockHash;
}

/**
 * Applies one proposed checkpoint; returns false when it was already known. Invalid published data stops sync.
 * Blocks are adopted one chain update each (one world-state change per batch), then the checkpoint is marked; a
 * crash in between leaves proposed blocks that the next step finds again and keeps.
 */
async function applyCheckpointLog(
  deps: SyncStepDeps,
  log: CheckpointProposedLog,
  blobs: Uint8Array[],
  l1BlockTimestamp: bigint,
): Promise<boolean> {
  const { chain } = deps;
  const checkpointedNumber = chain.tips.checkpointed.checkpoint.number;
  if (log.checkpointNumber <= checkpointedNumber) return false;
  if (log.checkpointNumber !== checkpointedNumber + 1 && deps.quorum?.refused.has(checkpointedNumber + 1)) {
    deps.logger.warn('checkpoint skipped: it builds on a checkpoint refused for its quorum', {
      checkpoint: log.checkpointNumber,
      refused: checkpointedNumber + 1,
    });
    return false;
  }
  if (log.checkpointNumber !== checkpointedNumber + 1) {
    throw new NodeError(
      'SYNC_FAILED',
      `L1 proposes checkpoint ${log.checkpointNumber} while the node has ${checkpointedNumber}`,
      {
        checkpointNumber: log.checkpointNumber,
      },
    );
  }
  const attestations = await checkedAttestations(deps, log);
  if (attestations === undefined) return false;
  const floor = feeFloor(deps.constants.ethPerFeeAsset);
  const previous = await chain.update(async (u) => ({
    archiveTree: await u.getArchiveTree(u.tips.checkpointed.block.number),
    feeBasis: await checkpointedFeeBasis(u, floor),
  }));
  const inboxLeaves = await deps.inbox.leavesOfCheckpoint(log.checkpointNumber);
  const decoded = decodeCheckpoint(log, blobs, {
    previousArchiveTree: previous.archiveTree,
    expectedGasFees: nextGasFees(previous.feeBasis, floor),
    expectedInHash: inboxTreeHash(inboxLeaves),
    chainId: deps.constants.l1ChainId,
    rollupVersion: deps.constants.rollupVersion,
    l1BlockTimestamp,
    attestations,
  });
  if (!decoded.ok) throw invalidCheckpoint(log, decoded.reason);
  const subtree = checkpointMessageSubtree(inboxLeaves);
  for (const entry of decoded.value.blocks)
    await adoptBlock(deps, log, entry, entry.block.indexWithinCheckpoint === 0 ? subtree : []);
  const lastBlock = decoded.value.blocks[decoded.value.blocks.length - 1]!.block;
  await chain.update(async (u) => {
    await assertAdopted(u, decoded.value);
    u.markCheckpointed(decoded.value.checkpoint, {
      number: lastBlock.header.globalVariables.blockNumber,
      hash: lastBlock.hash,
    });
  });
  deps.logger.info('checkpoint synced from L1', {
    checkpoint: log.checkpointNumber,
    blocks: decoded.value.blocks.length,
    l1Block: log.l1.blockNumber,
  });
  return true;
}

/**
 * The checkpoint's attestations as the archive keeps them, or undefined when the quorum check refuses it (recorded
 * and reported here). A node that ignores the validator set checks nothing and, not knowing the committee, keeps none.
 */
async function checkedAttestations(
  deps: SyncStepDeps,
  log: CheckpointProposedLog,
): Promise<readonly CommitteeSignature[] | undefined> {
  if (deps.quorum === undefined) return [];
  const verdict = await deps.quorum.check(log);
  if (!verdict.accepted) {
    deps.quorum.refused.add(log);
    deps.logger.warn('checkpoint refused: its attestations do not carry the quorum', {
      checkpoint: log.checkpointNumber,
      slot: log.slotNumber,
      txHash: log.l1.txHash,
      reason: verdict.reason,
    });
    deps.quorum.onRefused?.(log, verdict.reason);
    return undefined;
  }
  deps.quorum.refused.forgetFrom(log.checkpointNumber);
  return verdict.attestations;
}

const invalidCheckpoint = (log: CheckpointProposedLog, reason: string) =>
  new NodeError(
    'CHECKPOINT_INVALID',
    `checkpoint ${log.checkpointNumber} published in L1 tx ${log.l1.txHash} is invalid: ${reason}`,
    {
      checkpointNumber: log.checkpointNumber,
      txHash: log.l1.txHash,
    },
  );

/** Chain updates one block adoption may take: prune what differs, then add (a sequencer racing in costs a retry). */
const BLOCK_ADOPTION_ATTEMPTS_MAX = 4;

/**
 * Makes the proposed chain hold the checkpoint's block at its height: a local block with the same hash is kept;
 * anything else from that height up is pruned first; then the block is applied to the world state, whose roots
 * must be the ones its header claims, and added.
 */
async function adoptBlock(
  deps: SyncStepDeps,
  log: CheckpointProposedLog,
  entry: DecodedCheckpoint['blocks'][number],
  l1ToL2Messages: readonly Hex[],
): Promise<void> {
  const { block, archiveTree } = entry;
  const n = block.header.globalVariables.blockNumber;
  for (let attempt = 0; attempt < BLOCK_ADOPTION_ATTEMPTS_MAX; attempt++) {
    const done = await deps.chain.update(async (u) => {
      const local = await u.getBlock(n);
      if (local?.hash === block.hash) return true;
      if (u.tips.proposed.number >= n) {
        await u.pruneTo(n - 1, 'checkpointMismatch');
        return false;
      }
      const draft = await u.worldState.prepareBlock(n, blockStateEffects(block.body.txEffects, l1ToL2Messages));
      const mismatch = stateMismatch(draft.stateReference, block.header.state);
      if (mismatch !== undefined) throw invalidCheckpoint(log, `block ${n}: ${mismatch}`);
      u.addBlock(block, archiveTree, draft.finish(block.hash), 'l1');
      return true;
    });
    if (done) return;
  }
  throw new NodeError(
    'SYNC_FAILED',
    `block ${n} of checkpoint ${log.checkpointNumber} could not be adopted: the chain kept changing`,
    {
      blockNumber: n,
    },
  );
}

/** Which tree's root or size differs between the world state's result and the header's claim, if any. */
export function stateMismatch(computed: StateReference, claimed: StateReference): string | undefined {
  for (const tree of ['noteHashTree', 'nullifierTree', 'publicDataTree', 'l1ToL2MessageTree'] as const) {
    const [a, b] = [computed[tree], claimed[tree]];
    if (a.root !== b.root || a.nextAvailableLeafIndex !== b.nextAvailableLeafIndex) {
      return `its ${tree} is ${b.root} (${b.nextAvailableLeafIndex} leaves) in the header, ${a.root} (${a.nextAvailableLeafIndex}) after applying its effects`;
    }
  }
  return undefined;
}

/** Every block of the checkpoint is on the proposed chain (nothing pruned it since adoption). */
async function assertAdopted(u: ChainUpdate, decoded: DecodedCheckpoint): Promise<void> {
  for (const { block } of decoded.blocks) {
    const local = await u.getBlock(block.header.globalVariables.blockNumber);
    if (local?.hash !== block.hash) {
      throw new NodeError(
        'SYNC_FAILED',
        `block ${block.header.globalVariables.blockNumber} changed while its checkpoint was being synced`,
        {
          blockNumber: block.header.globalVariables.blockNumber,
        },
      );
    }
  }
}

/**
 * L1 lost the block the node last synced: keep the longest prefix of local checkpoints whose archives L1 still
 * records as of its head (and whose L1 blocks are not past it), prune the rest, and resume from the L1 block of the
 * last kept checkpoint. That block must be read: a failed read fails the step and changes nothing. Resuming from any
 * earlier L1 block instead would replay proposals that L1 pruned since, on top of checkpoints that replaced them.
 */
async function unwindAfterL1Reorg(deps: SyncStepDeps, head: L1BlockRef): Promise<SyncStepResult> {
  const { l1, chain, constants, logger } = deps;
  const l1Count = await l1.getCheckpointCount(head.number);
  const keptCheckpoint = await chain.update(async (u) => {
    let keep = Math.min(u.tips.checkpointed.checkpoint.number, l1Count);
    for (; keep >= 1; keep--) {
      const local = await u.getCheckpoint(keep);
      if (
        local &&
        local.l1.blockNumber <= head.number &&
        (await l1.getArchiveAt(keep, head.number)) === local.archiveRoot
      )
        break;
    }
    const kept = keep >= 1 ? await u.getCheckpoint(keep) : undefined;
    const keptBlock = kept ? kept.firstBlockNumber + kept.blockCount - 1 : 0;
    const resumeFrom = kept ? toPosition(await l1.getBlock(kept.l1.blockNumber)) : await startPosition(l1, constants);
    // Proposed blocks above an intact checkpointed chain stay: only lost checkpoints are unwound.
    if (keep < u.tips.checkpointed.checkpoint.number) await u.pruneTo(keptBlock, 'l1Reorg');
    u.l1Sync = resumeFrom;
    // The inbox messages of the blocks to sync again go too; the forward steps bring back those L1 still has.
    u.syncedIndexOps.push(...(await deps.inbox.unwindOps(u.l1Sync.blockNumber)));
    return keep;
  });
  logger.warn('L1 reorg detected; unwound to the last checkpoint L1 still holds', { checkpoint: keptCheckpoint });
  const syncedTo = chain.l1Sync!;
  return { l1Head: head, syncedTo, checkpointsAdded: 0, caughtUp: false, reorgUnwoundTo: keptCheckpoint };
}

/** The position just before the rollup's first L1 block. */
async function startPosition(l1: L1ReaderPort, constants: L1RollupConstants): Promise<L1SyncPosition> {
  const before = await l1.getBlock(constants.l1StartBlock - 1n);
  return toPosition(before);
}
