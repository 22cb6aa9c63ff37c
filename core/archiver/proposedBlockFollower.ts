/**
 * Followers follow the proposed chain: a block proposal gossiped by the slot's proposer is applied as a `proposed`
 * block as soon as it fits, so that a node's proposed tip (and its world state) runs ahead of L1 as the proposer's
 * does, instead of waiting for the checkpoint to land.
 *
 * What reaches the follower has passed the validator client's checks (core/validators/validatorClient.ts): the
 * payload is signed by the slot's proposer (the attestation pool admits it only so), and the gossiped header and body
 * are bound to it (core/validators/blockContent.ts: the body to the signed tx hashes and to the header's
 * txsEffectsHash, the header to the payload's block number and slot). The follower checks the rest against its chain,
 * in one chain update: the block is the proposed tip + 1 and its header's lastArchive is our archive at that tip, its
 * slot is the current slot, the header's hash appended to our archive gives the signed archive root, chain id,
 * version, gas fees and message commitments are the ones the archiver would require, and every state root the header
 * claims is what applying the effects to our world state gives (the first block of a checkpoint also inserts the
 * checkpoint's L1-to-L2 messages, as the sequencer and the archiver do). A block that fails is not added, and the
 * peer that sent it is penalized; one whose inbox messages this node has not synced yet is dropped without blame.
 *
 * Proposals wait while they do not fit yet (a later index before an earlier one; the previous slot's checkpoint not
 * synced yet), at most BLOCK_PROPOSALS_PER_SLOT_MAX per slot for the current slot and the next
 * ATTESTATION_POOL_FUTURE_SLOTS_MAX, and are dropped with their slot. A node whose own sequencer builds the slot
 * ignores its proposals: it has its own blocks. The other paths do the rest: the archiver keeps a followed block when
 * the checkpoint lands on L1 with it and prunes a different one (syncStep.ts, adoptBlock), and settlement drops
 * followed blocks whose slot passed without a checkpoint (settlement.ts, dropExpiredProposedBlocks).
 *
 * Txs of a followed block that this node's pool does not hold are asked of the peer that sent the proposal and kept
 * like the pool's own mined txs (NodeTxPool.holdMinedTxs), so that a prune of the block returns them to the pool.
 */
import type { Block, GasFees, Hex, L1RollupConstants } from '../../spec/chain.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { checkpointMessageSubtree, inboxTreeHash } from '../../spec/messages/inbox.js';
import { blockOutHash } from '../../spec/messages/outbox.js';
import { TXS_BY_HASH_REQUEST_HASHES_MAX } from '../../spec/p2p/constants.js';
import { ATTESTATION_POOL_FUTURE_SLOTS_MAX, BLOCK_PROPOSALS_PER_SLOT_MAX } from '../../spec/validators/constants.js';
import type { Chain, ChainUpdate } from '../chain/chain.js';
import type { Timetable } from '../chain/timetable.js';
import { checkpointedFeeBasis } from '../fees/feeBasis.js';
import { feeFloor, nextGasFees } from '../fees/minFees.js';
import { appendLeaves, treeRoot, treeSnapshot, type AppendOnlyTree } from '../merkle/appendOnlyTree.js';
import type { InboxStore } from '../messages/inboxStore.js';
import type { ClockPort, LoggerPort, NetworkPort } from '../ports.js';
import type { NodeTxPool } from '../txPool/nodeTxPool.js';
import type { KeptBlockProposal } from '../validators/validatorClient.js';
import { blockStateEffects } from '../worldState/blockEffects.js';
import { stateMismatch } from './syncStep.js';

export interface ProposedBlockFollowerDeps {
  readonly chain: Chain;
  readonly inbox: InboxStore;
  readonly constants: L1RollupConstants;
  readonly timetable: Timetable;
  readonly clock: ClockPort;
  readonly network: Pick<NetworkPort, 'requestTxs' | 'penalize'>;
  readonly txPool: Pick<NodeTxPool, 'current' | 'holdMinedTxs'>;
  /** Whether this node's own sequencer builds `slot` (then its proposals are not followed). */
  readonly ownSequencerBuilds: (slot: number) => boolean;
  readonly logger: LoggerPort;
}

export interface ProposedBlockFollower {
  /** A block proposal whose content the validator client kept (ValidatorClient.onBlockProposalKept). */
  onBlockProposal(kept: KeptBlockProposal): void;
  /** Stops following: waiting proposals are dropped and nothing more is applied. */
  stop(): void;
  /** Resolves once the work queued so far is done (tests). */
  settled(): Promise<void>;
}

/** What one attempt made of a proposal. */
type Attempt =
  /** `missingTxHashes`: the block's txs the pool did not hold when it was applied. */
  | { readonly kind: 'applied'; readonly block: Block; readonly missingTxHashes: readonly Hex[] }
  /** It may fit later (an earlier block or the previous checkpoint is missing): it waits. */
  | { readonly kind: 'wait' }
  | { readonly kind: 'dropped'; readonly reason: string }
  /** It can never be valid: the peer that sent it is penalized. */
  | { readonly kind: 'invalid'; readonly reason: string };

/** Where a proposed block goes on our chain: its parent's archive and the numbers the header does not carry. */
interface Placement {
  readonly parentArchiveTree: AppendOnlyTree;
  readonly checkpointNumber: number;
  readonly expectedGasFees: GasFees;
  /** The checkpoint's inbox leaves, for its first block; empty for the others. */
  readonly inboxLeaves: readonly Hex[];
}

export function createProposedBlockFollower(deps: ProposedBlockFollowerDeps): ProposedBlockFollower {
  const { chain, logger } = deps;
  /** Proposals waiting to fit, by slot. */
  const waiting = new Map<number, KeptBlockProposal[]>();
  let queue: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const currentSlot = () => deps.timetable.slotAt(BigInt(Math.floor(deps.clock.now() / 1000)));
  const schedule = () => {
    queue = queue.then(() => applyWaiting()).catch((error: unknown) => logger.error('following failed', { error }));
  };

  const dropPassedSlots = (slot: number) => {
    for (const held of [...waiting.keys()]) if (held < slot) waiting.delete(held);
  };

  /** Applies the waiting proposals of the current slot that fit, in block order, until none does. */
  async function applyWaiting(): Promise<void> {
    const slot = currentSlot();
    dropPassedSlots(slot);
    const candidates = waiting.get(slot);
    while (!stopped && candidates !== undefined && candidates.length > 0) {
      const next = candidates.findIndex((c) => c.payload.blockNumber === chain.tips.proposed.number + 1);
      if (next < 0) return;
      const [kept] = candidates.splice(next, 1);
      const attempt = await attemptToApply(deps, kept!, slot);
      if (attempt.kind === 'wait') {
        candidates.push(kept!);
        return;
      }
      report(kept!, attempt);
    }
  }

  function report(kept: KeptBlockProposal, attempt: Exclude<Attempt, { kind: 'wait' }>): void {
    const fields = { block: kept.payload.blockNumber, slot: kept.payload.slot };
    if (attempt.kind === 'applied') {
      logger.info('block proposal applied', { ...fields, txs: attempt.block.body.txEffects.length });
      void holdMissingTxs(deps, kept, attempt.block, attempt.missingTxHashes);
      return;
    }
    const level = attempt.kind === 'invalid' ? 'warn' : 'info';
    logger[level]('block proposal not applied', { ...fields, reason: attempt.reason, peer: kept.from ?? 'none' });
    if (attempt.kind === 'invalid' && kept.from !== undefined)
      deps.network.penalize(kept.from, 'high', `block proposal ${kept.payload.blockNumber}: ${attempt.reason}`);
  }

  chain.onEvent((event) => {
    // A checkpoint synced or stale blocks dropped may let a waiting proposal fit.
    if (stopped || waiting.size === 0 || event.type === 'chainProven' || event.type === 'chainFinalized') return;
    schedule();
  });

  return {
    onBlockProposal(kept) {
      const slot = kept.payload.slot;
      const now = currentSlot();
      if (stopped || slot < now || slot > now + ATTESTATION_POOL_FUTURE_SLOTS_MAX) return;
      if (deps.ownSequencerBuilds(slot)) return;
      dropPassedSlots(now);
      const held = waiting.get(slot) ?? [];
      if (held.length >= BLOCK_PROPOSALS_PER_SLOT_MAX) return;
      held.push(kept);
      waiting.set(slot, held);
      schedule();
    },
    stop() {
      stopped = true;
      waiting.clear();
    },
    settled: () => queue.then(() => undefined),
  };
}

/** Applies one proposal in one chain update when it fits our proposed tip and passes every check. */
async function attemptToApply(
  deps: ProposedBlockFollowerDeps,
  kept: KeptBlockProposal,
  currentSlot: number,
): Promise<Attempt> {
  const { payload, content } = kept;
  if (payload.slot !== currentSlot) return { kind: 'dropped', reason: 'not the current slot' };
  if (deps.ownSequencerBuilds(payload.slot)) return { kind: 'dropped', reason: 'our sequencer builds the slot' };
  // Read before the update: once the block is added, the pool's maintenance removes the txs it mines.
  const missingTxHashes = content.txEffects.map((e) => e.txHash).filter((hash) => !deps.txPool.current.has(hash));
  try {
    return await deps.chain.update(async (u) => {
      const placement = await placementOf(deps, u, kept);
      if (!('parentArchiveTree' in placement)) return placement;
      const refusal = headerRefusal(deps.constants, kept, placement);
      if (refusal !== undefined) return refusal;
      const n = payload.blockNumber;
      const messages = payload.indexWithinCheckpoint === 0 ? checkpointMessageSubtree(placement.inboxLeaves) : [];
      const draft = await u.worldState.prepareBlock(n, blockStateEffects(content.txEffects, messages));
      const mismatch = stateMismatch(draft.stateReference, content.header.state);
      if (mismatch !== undefined) return { kind: 'invalid', reason: mismatch };
      const hash = blockHash(content.header);
      const archiveTree = appendLeaves(placement.parentArchiveTree, [hash]);
      const block: Block = {
        header: content.header,
        hash,
        archive: treeSnapshot(archiveTree),
        body: { txEffects: content.txEffects },
        checkpointNumber: placement.checkpointNumber,
        indexWithinCheckpoint: payload.indexWithinCheckpoint,
      };
      u.addBlock(block, archiveTree, draft.finish(hash), 'proposed', kept.from);
      return { kind: 'applied', block, missingTxHashes };
    });
  } catch (error) {
    // The world state refuses effects it cannot apply (a malformed body the content checks let through).
    return { kind: 'invalid', reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Asks the sending peer for the block's txs the pool does not hold, and keeps them as mined (never throws). */
async function holdMissingTxs(
  deps: ProposedBlockFollowerDeps,
  kept: KeptBlockProposal,
  block: Block,
  missing: readonly Hex[],
): Promise<void> {
  if (missing.length === 0 || kept.from === undefined) return;
  try {
    for (let i = 0; i < missing.length; i += TXS_BY_HASH_REQUEST_HASHES_MAX) {
      const answers = await deps.network.requestTxs(missing.slice(i, i + TXS_BY_HASH_REQUEST_HASHES_MAX), kept.from);
      for (const from of new Set(answers.map((a) => a.from))) {
        const txs = answers.filter((a) => a.from === from).map((a) => a.value);
        const badProofs = await deps.txPool.holdMinedTxs(block.header.globalVariables.blockNumber, block.hash, txs);
        if (badProofs.length > 0) deps.network.penalize(from, 'high', `txs with invalid proofs: ${badProofs.join()}`);
      }
    }
  } catch (error) {
    deps.logger.warn('txs of a followed block not kept', { block: block.header.globalVariables.blockNumber, error });
  }
}

/**
 * Where the proposal goes on the chain as the update sees it: the first block of a checkpoint on the checkpointed
 * tip, a later one on the same slot's previous block; `wait` while that is not our proposed tip yet.
 */
async function placementOf(
  deps: Pick<ProposedBlockFollowerDeps, 'inbox' | 'constants'>,
  u: ChainUpdate,
  kept: KeptBlockProposal,
): Promise<Placement | Attempt> {
  const { payload, content } = kept;
  const tip = u.tips.proposed.number;
  if (payload.blockNumber !== tip + 1) return { kind: 'wait' };
  const parent = await u.getBlock(tip);
  if (parent === undefined) return { kind: 'wait' };
  const index = payload.indexWithinCheckpoint;
  const onCheckpointed = tip === u.tips.checkpointed.block.number;
  if (index === 0 && !onCheckpointed) return { kind: 'wait' };
  const parentFits =
    index === 0 ||
    (!onCheckpointed &&
      parent.header.globalVariables.slotNumber === payload.slot &&
      parent.indexWithinCheckpoint === index - 1);
  if (!parentFits) return { kind: 'wait' };
  const parentArchiveTree = await u.getArchiveTree(tip);
  const lastArchive = content.header.lastArchive;
  const ours = treeSnapshot(parentArchiveTree);
  if (lastArchive.root !== ours.root || lastArchive.nextAvailableLeafIndex !== ours.nextAvailableLeafIndex)
    return { kind: 'dropped', reason: 'it does not build on our proposed tip' };
  const floor = feeFloor(deps.constants.ethPerFeeAsset);
  const checkpointNumber = index === 0 ? u.tips.checkpointed.checkpoint.number + 1 : parent.checkpointNumber;
  return {
    parentArchiveTree,
    checkpointNumber,
    expectedGasFees:
      index === 0 ? nextGasFees(await checkpointedFeeBasis(u, floor), floor) : parent.header.globalVariables.gasFees,
    inboxLeaves: index === 0 ? await deps.inbox.leavesOfCheckpoint(checkpointNumber) : [],
  };
}

/** The header's fields a proposal must carry on our chain, checked before its effects are applied. */
function headerRefusal(
  constants: L1RollupConstants,
  kept: KeptBlockProposal,
  placement: Placement,
): Attempt | undefined {
  const { payload, content } = kept;
  const { globalVariables: g, contentCommitment } = content.header;
  const invalid = (reason: string): Attempt => ({ kind: 'invalid', reason });
  if (g.chainId !== constants.l1ChainId || g.version !== constants.rollupVersion)
    return invalid('another chain id or rollup version');
  if (g.gasFees.feePerDaGas !== placement.expectedGasFees.feePerDaGas)
    return invalid("its DA gas fee is not the fee rule's");
  if (g.gasFees.feePerL2Gas !== placement.expectedGasFees.feePerL2Gas)
    return invalid("its L2 gas fee is not the fee rule's");
  if (treeRoot(appendLeaves(placement.parentArchiveTree, [blockHash(content.header)])) !== payload.archiveRoot)
    return invalid('its header does not give the signed archive root');
  if (contentCommitment.outHash !== blockOutHash(content.txEffects.map((effect) => effect.l2ToL1Messages)))
    return invalid('its outHash is not the root of its L2-to-L1 messages');
  if (payload.indexWithinCheckpoint > 0 && contentCommitment.inHash !== zeroHex(32))
    return invalid('a block after the first of its checkpoint carries an inHash');
  // Our inbox may not have synced the messages the proposer saw yet: no blame.
  if (payload.indexWithinCheckpoint === 0 && contentCommitment.inHash !== inboxTreeHash(placement.inboxLeaves))
    return { kind: 'dropped', reason: "its inHash is not our inbox tree's (not synced yet?)" };
  return undefined;
}
