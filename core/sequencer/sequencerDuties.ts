import type { Block, CheckpointHeader, Hex, L1RollupConstants } from '../../spec/chain.js';
import { EMPTY_CHECKPOINT_ATTESTATIONS } from '../../spec/validators/checkpointAttestations.js';
import { ATTESTATION_WAIT_SHARE_OF_ALLOWANCE_PERCENT } from '../../spec/validators/constants.js';
import { checkpointProposalPayloadOf } from '../../spec/validators/signingPayloads.js';
import type { CheckpointToAttest } from '../validators/validatorClient.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { encodeCheckpointPayload, payloadToBlobs } from '../../spec/codec/checkpointBlobs.js';
import { blobsHash, encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { BLOCKS_PER_CHECKPOINT_MAX } from '../../spec/constants.js';
import { assert } from '../assert.js';
import type { Chain, ChainUpdate } from '../chain/chain.js';
import { checkpointedFeeBasis } from '../fees/feeBasis.js';
import { feeFloor, nextGasFees } from '../fees/minFees.js';
import type { Timetable } from '../chain/timetable.js';
import type { ClockPort, L1PublisherPort, L1ReaderPort, L1TxStatus, LoggerPort, VerifiedBlob } from '../ports.js';
import { buildBlock } from './blockBuilder.js';
import type { InboxStore } from '../messages/inboxStore.js';
import { outTreeRoot } from '../../spec/messages/outbox.js';
import { blockBudget, type CheckpointUsage } from './blockBudget.js';
import { selectTxs } from './txSelection.js';
import { slotPublisher } from './slotPublisher.js';
import type { PublicStateView } from '../publicVm/stateView.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { txEffectsDaGas } from '../../spec/codec/txEffect.js';
import { SEQ_PER_BLOCK_ALLOCATION_MULTIPLIER_DEFAULT } from '../../spec/config/schema.js';

export interface SequencerConfig {
  /** Target time between blocks inside a slot. */
  readonly blockDurationMs: number;
  /** Seconds at the end of a slot kept for getting the checkpoint into L1; no block is started inside them. */
  readonly l1PublishingTimeAllowanceInSlotSeconds: number;
  readonly pollIntervalMs: number;
  /** L1 address credited as the proposer (defaults to the publisher). */
  readonly coinbase: Hex;
  /** L2 address that receives fees. */
  readonly feeRecipient: Hex;
  /** Per-block budgets and the per-checkpoint tx cap (core/sequencer/blockBudget.ts). */
  readonly maxL2BlockGas?: number;
  readonly maxDABlockGas?: number;
  readonly perBlockAllocationMultiplier?: number;
  readonly maxTxsPerCheckpoint?: number;
}

export interface SequencerDeps {
  readonly clock: ClockPort;
  readonly l1: L1ReaderPort;
  /** The sequencer's own account: it publishes the slots no keystore proposer names a publisher for. */
  readonly publisher: L1PublisherPort;
  /**
   * Every publisher the node started with, by lowercase address (`publisher` among them), each with its own nonces
   * and fees: a keystore proposer's checkpoints go out from the one it names (core/sequencer/slotPublisher.ts).
   */
  readonly publishers: ReadonlyMap<Hex, L1PublisherPort>;
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly timetable: Timetable;
  readonly config: SequencerConfig;
  readonly logger: LoggerPort;
  /** Pending txs, highest priority first (empty when the node has no pool). */
  readonly pendingTxs: () => readonly TxValue[];
  /** Public state of the latest block, for executing txs. */
  readonly publicState: () => PublicStateView;
  /** The inbox messages the node synced: the first block of each checkpoint consumes its tree. */
  readonly inbox: InboxStore;
  /**
   * The node's validator side when the L1 validator set is enforced: whether this node holds the slot's proposer key
   * (a reason when not), and the committee's attestations of a checkpoint before it goes to L1. Absent: the node
   * proposes in every slot and publishes no attestations.
   */
  readonly validator?: SequencerValidator;
  /** Receives the blobs of each checkpoint published (copied to the blob upload store); absent: nowhere. */
  readonly keepPublishedBlobs?: (blobs: readonly VerifiedBlob[]) => void;
}

export interface SequencerValidator {
  /** Undefined when this node may propose in `slot` (its keystore holds the proposer, or the epoch has no committee). */
  proposerRefusal(slot: number): Promise<'notProposer' | undefined>;
  /**
   * The keystore's coinbase, fee recipient and publisher of the slot's proposer, when it is ours (after
   * proposerRefusal); read when the slot is planned, so a keystore reload applies from the next slot planned.
   */
  proposerSettings(slot: number): ProposerSettings | undefined;
  /** The encoded attestation list for the checkpoint; rejects when the quorum does not come by `deadlineMs`. */
  collectAttestations(checkpoint: CheckpointToAttest, deadlineMs: number): Promise<Hex>;
}

/** What the keystore says of the proposer of a slot this node proposes in. */
export interface ProposerSettings {
  readonly coinbase: Hex;
  readonly feeRecipient: Hex;
  /** The L1 account that sends its checkpoints (the keystore's, or its attester address). */
  readonly publisher: Hex;
}

/** What the sequencer decided to do in one slot. */
export interface SlotPlan {
  readonly slot: number;
  readonly slotStartMs: number;
  /** Blocks this slot gets in all (their start times are slotStart + i * blockDuration). */
  readonly blockCount: number;
  /** Index of the next block to build. */
  readonly nextBlockIndex: number;
  /** The proposing validator's coinbase and fee recipient (keystore); the sequencer's configured ones when absent. */
  readonly proposer?: { readonly coinbase: Hex; readonly feeRecipient: Hex };
  /** The lowercase address of the publisher that sends the slot's checkpoint and watches for its inclusion. */
  readonly publisher: Hex;
}

/** How many blocks fit before the publishing allowance, at least one and at most BLOCKS_PER_CHECKPOINT_MAX. */
export function blocksPerSlot(constants: L1RollupConstants, config: SequencerConfig): number {
  const windowMs = (constants.slotDuration - config.l1PublishingTimeAllowanceInSlotSeconds) * 1000;
  return Math.max(1, Math.min(BLOCKS_PER_CHECKPOINT_MAX, Math.floor(windowMs / config.blockDurationMs)));
}

export type PlanOutcome =
  | { readonly kind: 'planned'; readonly plan: SlotPlan }
  | {
      readonly kind: 'skipped';
      readonly slot: number;
      readonly reason: SkipReason;
    };

/** Why the sequencer does not propose in a slot; `noPublisher`: the proposer's publisher has no key on this node. */
export type SkipReason =
  'tooLateInSlot' | 'beforeGenesis' | 'l1AheadOfNode' | 'archiveMismatch' | 'notProposer' | 'noPublisher';

/**
 * Decides whether to propose in the current slot: only while the slot's build window is open and only when the
 * node's checkpointed chain is exactly L1's. Blocks proposed in earlier slots that never reached L1 are dropped.
 */
export async function planSlot(deps: SequencerDeps): Promise<PlanOutcome> {
  const { clock, chain, timetable, constants, config, l1 } = deps;
  const now = clock.now();
  const slot = timetable.slotAt(BigInt(Math.floor(now / 1000)));
  if (slot < 1) return { kind: 'skipped', slot, reason: 'beforeGenesis' };
  const slotStartMs = timetable.slotStartMs(slot);
  const blockCount = blocksPerSlot(constants, config);
  const nextBlockIndex = Math.floor((now - slotStartMs) / config.blockDurationMs);
  if (nextBlockIndex >= blockCount) return { kind: 'skipped', slot, reason: 'tooLateInSlot' };

  const head = await l1.getBlock('latest');
  const l1Count = await l1.getCheckpointCount(head.number);
  const ours = chain.tips.checkpointed.checkpoint.number;
  if (l1Count !== ours) return { kind: 'skipped', slot, reason: 'l1AheadOfNode' };
  const l1Archive = await l1.getArchiveAt(l1Count, head.number);
  const ourArchive = (await chain.store.getBlock(chain.tips.checkpointed.block.number))?.archive.root;
  if (l1Archive !== ourArchive) return { kind: 'skipped', slot, reason: 'archiveMismatch' };
  const refusal = await deps.validator?.proposerRefusal(slot);
  if (refusal !== undefined) return { kind: 'skipped', slot, reason: refusal };
  const proposer = deps.validator?.proposerSettings(slot);
  const publisher = slotPublisher(proposer, deps.publisher.publisherAddress, new Set(deps.publishers.keys()));
  if (publisher.kind === 'noSigner') {
    deps.logger.warn('skipping the slot: its proposer names a publisher this node holds no key for', {
      slot,
      publisher: publisher.publisher,
      fix: 'name a publisher the node started with in the keystore and reload it, or restart with that key',
    });
    return { kind: 'skipped', slot, reason: 'noPublisher' };
  }

  await chain.update(async (u) => {
    const top = await u.getBlock(u.tips.proposed.number);
    const stale =
      top !== undefined &&
      u.tips.proposed.number > u.tips.checkpointed.block.number &&
      top.header.globalVariables.slotNumber < slot;
    if (stale) await u.pruneTo(u.tips.checkpointed.block.number, 'slotPassedWithoutCheckpoint');
  });
  return {
    kind: 'planned',
    plan: {
      slot,
      slotStartMs,
      blockCount,
      nextBlockIndex,
      ...(proposer ? { proposer: { coinbase: proposer.coinbase, feeRecipient: proposer.feeRecipient } } : {}),
      publisher: publisher.address,
    },
  };
}

/** What the blocks of the checkpoint being built (above the checkpointed tip) have used so far. */
async function checkpointUsage(u: ChainUpdate): Promise<CheckpointUsage> {
  let manaUsed = 0;
  let daGasUsed = 0;
  let txCount = 0;
  for (let n = u.tips.checkpointed.block.number + 1; n <= u.tips.proposed.number; n++) {
    const block = await u.getBlock(n);
    assert(block !== undefined, `proposed block ${n} is stored`);
    manaUsed += Number(block.header.totalManaUsed);
    daGasUsed += txEffectsDaGas(block.body.txEffects);
    txCount += block.body.txEffects.length;
  }
  return { manaUsed, daGasUsed, txCount };
}

/** Builds block `plan.nextBlockIndex` of the slot on the proposed tip, filled from the pool, and commits it. */
export async function buildNextBlock(deps: SequencerDeps, plan: SlotPlan): Promise<Block> {
  const { chain, config, timetable } = deps;
  return chain.update(async (u) => {
    const parent = await u.getBlock(u.tips.proposed.number);
    assert(parent !== undefined, 'the proposed tip is stored');
    const parentSlot = parent.header.globalVariables.slotNumber;
    const onCheckpointed = u.tips.proposed.number === u.tips.checkpointed.block.number;
    assert(onCheckpointed || parentSlot === plan.slot, 'a slot builds on the checkpointed tip or on its own blocks');
    const floor = feeFloor(deps.constants.ethPerFeeAsset);
    const gasFees = nextGasFees(await checkpointedFeeBasis(u, floor), floor);
    const timestamp =
      timetable.slotStartSeconds(plan.slot) + BigInt(Math.floor((plan.nextBlockIndex * config.blockDurationMs) / 1000));
    const budget = blockBudget(
      {
        ...config,
        perBlockAllocationMultiplier:
          config.perBlockAllocationMultiplier ?? SEQ_PER_BLOCK_ALLOCATION_MULTIPLIER_DEFAULT,
      },
      plan.blockCount,
      await checkpointUsage(u),
    );
    const parentNumber = parent.header.globalVariables.blockNumber;
    const anchorOnChain = async (blockHash: Hex) => {
      const number = await chain.store.getBlockNumberByHash(blockHash);
      if (number === undefined || number > parentNumber) return false;
      return (await u.getBlock(number))?.hash.toLowerCase() === blockHash;
    };
    const selection = await selectTxs({
      candidates: deps.pendingTxs(),
      budget,
      gasFees,
      timestamp,
      state: deps.publicState(),
      anchorOnChain,
    });
    for (const skipped of selection.skipped) deps.logger.debug('tx left out of block', { ...skipped });
    const checkpointNumber = u.tips.checkpointed.checkpoint.number + 1;
    const built = await buildBlock(
      {
        parent,
        parentArchiveTree: await u.getArchiveTree(parent.header.globalVariables.blockNumber),
        checkpointNumber,
        inboxLeaves: onCheckpointed ? await deps.inbox.leavesOfCheckpoint(checkpointNumber) : [],
        indexWithinCheckpoint: onCheckpointed ? 0 : parent.indexWithinCheckpoint + 1,
        slotNumber: plan.slot,
        timestamp,
        coinbase: plan.proposer?.coinbase ?? config.coinbase,
        feeRecipient: plan.proposer?.feeRecipient ?? config.feeRecipient,
        gasFees,
        txEffects: selection.effects,
        totalFees: selection.totalFees,
        totalManaUsed: BigInt(selection.manaUsed),
      },
      u.worldState,
    );
    u.addBlock(built.block, built.archiveTree, built.prepared, 'proposed');
    deps.logger.info('built block', {
      block: built.block.header.globalVariables.blockNumber,
      slot: plan.slot,
      txs: selection.effects.length,
      hash: built.block.hash,
    });
    return built.block;
  });
}

/** The blocks this node proposed for `slot` above the checkpointed tip. */
async function blocksOfSlot(chain: Chain, slot: number): Promise<Block[]> {
  const blocks: Block[] = [];
  for (let n = chain.tips.checkpointed.block.number + 1; n <= chain.tips.proposed.number; n++) {
    const block = await chain.store.getBlock(n);
    if (block?.header.globalVariables.slotNumber === slot) blocks.push(block);
  }
  return blocks;
}

/** Publishes the slot's blocks to L1 as one checkpoint in a blob transaction; resolves with the L1 tx hash. */
export async function publishCheckpoint(
  deps: SequencerDeps,
  plan: SlotPlan,
): Promise<{ txHash: Hex; checkpointNumber: number }> {
  const { chain, config, timetable } = deps;
  const publisher = planPublisher(deps, plan);
  const blocks = await blocksOfSlot(chain, plan.slot);
  assert(blocks.length > 0, `slot ${plan.slot} has blocks to publish`);
  const lastArchive = await chain.store.getBlock(chain.tips.checkpointed.block.number);
  assert(lastArchive !== undefined, 'the checkpointed tip is stored');
  const blobs = payloadToBlobs(
    encodeCheckpointPayload(blocks.map((b) => ({ header: b.header, txEffects: b.body.txEffects }))),
  );
  const versionedHashes = await publisher.blobVersionedHashes(blobs);
  const last = blocks[blocks.length - 1]!;
  const checkpointHeader: CheckpointHeader = {
    lastArchiveRoot: lastArchive.archive.root,
    slotNumber: plan.slot,
    timestamp: timetable.slotStartSeconds(plan.slot),
    coinbase: plan.proposer?.coinbase ?? config.coinbase,
    feeRecipient: plan.proposer?.feeRecipient ?? config.feeRecipient,
    gasFees: last.header.globalVariables.gasFees,
    blockCount: blocks.length,
    blobsHash: blobsHash(versionedHashes),
    totalManaUsed: blocks.reduce((sum, b) => sum + b.header.totalManaUsed, 0n),
    inHash: blocks[0]!.header.contentCommitment.inHash,
    outHash: outTreeRoot(blocks.map((b) => b.header.contentCommitment.outHash)),
  };
  const header = bytesToHex(encodeCheckpointHeader(checkpointHeader));
  const checkpointNumber = chain.tips.checkpointed.checkpoint.number + 1;
  const attestations = deps.validator
    ? await deps.validator.collectAttestations(
        attestationRequest(deps, { checkpointNumber, header, checkpointHeader, blocks }),
        attestationDeadlineMs(deps, plan),
      )
    : EMPTY_CHECKPOINT_ATTESTATIONS;
  const { txHash } = await publisher.proposeCheckpoint({
    checkpointNumber,
    archive: last.archive.root,
    lastArchive: lastArchive.archive.root,
    slotNumber: plan.slot,
    header,
    blobs,
    attestations,
  });
  deps.keepPublishedBlobs?.(blobs.map((blob, i) => ({ versionedHash: versionedHashes[i]!, blob })));
  deps.logger.info('published checkpoint', {
    checkpoint: checkpointNumber,
    slot: plan.slot,
    blocks: blocks.length,
    txHash,
  });
  return { txHash, checkpointNumber };
}

/** What the committee signs for a checkpoint: its payload, its header, and a block proposal (with its content) per block. */
function attestationRequest(
  deps: SequencerDeps,
  checkpoint: { checkpointNumber: number; header: Hex; checkpointHeader: CheckpointHeader; blocks: readonly Block[] },
): CheckpointToAttest {
  const chain = { l1ChainId: deps.constants.l1ChainId, rollupVersion: deps.constants.rollupVersion };
  const last = checkpoint.blocks[checkpoint.blocks.length - 1]!;
  const payload = checkpointProposalPayloadOf(chain, {
    number: checkpoint.checkpointNumber,
    header: checkpoint.checkpointHeader,
    archiveRoot: last.archive.root,
  });
  const blocks = checkpoint.blocks.map((block) => ({
    payload: {
      ...chain,
      slot: payload.slot,
      blockNumber: block.header.globalVariables.blockNumber,
      indexWithinCheckpoint: block.indexWithinCheckpoint,
      archiveRoot: block.archive.root,
      txHashes: block.body.txEffects.map((effect) => effect.txHash),
    },
    content: { header: block.header, txEffects: block.body.txEffects },
  }));
  return { payload, header: checkpoint.header, blocks };
}

/** The proposer waits for attestations until this share of the publishing allowance is spent; the rest is for L1. */
function attestationDeadlineMs(deps: SequencerDeps, plan: SlotPlan): number {
  const allowanceMs = deps.config.l1PublishingTimeAllowanceInSlotSeconds * 1000;
  const slotEndMs = plan.slotStartMs + deps.constants.slotDuration * 1000;
  return slotEndMs - allowanceMs + Math.floor((allowanceMs * ATTESTATION_WAIT_SHARE_OF_ALLOWANCE_PERCENT) / 100);
}

/** The publisher the plan names; the node holds it (planSlot chose it among them). */
function planPublisher(deps: SequencerDeps, plan: SlotPlan): L1PublisherPort {
  const publisher = deps.publishers.get(plan.publisher);
  assert(publisher !== undefined, `slot ${plan.slot}'s publisher ${plan.publisher} is one the node holds`);
  return publisher;
}

/** Asks the publisher that sent the slot's checkpoint (its own record of replacements) where the tx stands. */
export function checkInclusion(deps: SequencerDeps, plan: SlotPlan, txHash: Hex): Promise<L1TxStatus> {
  return planPublisher(deps, plan).getTxStatus(txHash);
}
