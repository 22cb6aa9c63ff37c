/**
 * What happens to the tips after `checkpointed`, decided once per archiver step from the rollup contract as of the
 * step's L1 block (every read pinned to it, so one step sees one consistent L1):
 *
 * - `proven` follows the contract's proven checkpoint (down too, when an L1 reorg removed a proof; never below
 *   finalized);
 * - `finalized` is the proven checkpoint as of L1's finalized block, i.e. the proof's L1 block is final, and never
 *   moves back (anvil reorgs below `finalized`; the node does not follow);
 * - an epoch past its proof window is pruned as soon as L1 agrees it is prunable (its views count the pending chain
 *   as pruned), before L1 applies the prune in the next proposal: the node's own rule (proofWindow.ts) and L1's
 *   answer must both say so, so a stale or failing L1 read never causes a prune;
 * - proposed blocks whose slot is over without a checkpoint are dropped: L1 no longer accepts a checkpoint for it.
 *
 * When L1's head is below the block the node last synced (a stale RPC node, or a reorg to a shorter chain), only
 * proven and finalized are settled (settleProofTips), as of that head: nothing is pruned on such a view.
 */
import type { L1RollupConstants } from '../../spec/chain.js';
import type { ChainUpdate } from '../chain/chain.js';
import { createTimetable } from '../chain/timetable.js';
import type { L1BlockRef, L1ReaderPort, LogFields } from '../ports.js';
import { epochOfSlot, proofWindowStatus } from '../prover/proofWindow.js';

/** The rollup contract as of one L1 block. */
export interface L1Settlement {
  readonly at: L1BlockRef;
  readonly provenCheckpoint: number;
  /** The contract's pending checkpoint count (a prunable chain counts as pruned). */
  readonly pendingCheckpointCount: number;
  /** The proven checkpoint as of L1's finalized block (or `at`, if that is older); 0 before the rollup existed. */
  readonly finalizedCheckpoint: number;
}

/** A tip change made by settleTips, described for the log. */
export interface TipChange {
  readonly level: 'info' | 'warn';
  readonly message: string;
  readonly fields: LogFields;
}

export async function readL1Settlement(
  l1: L1ReaderPort,
  constants: L1RollupConstants,
  at: L1BlockRef,
): Promise<L1Settlement> {
  const [proven, pendingCheckpointCount, finalized] = await Promise.all([
    l1.getProvenCheckpoint(at.number),
    l1.getCheckpointCount(at.number),
    l1.getBlock('finalized'),
  ]);
  const finalizedAt = finalized.number < at.number ? finalized.number : at.number;
  const finalizedCheckpoint =
    finalizedAt < constants.l1StartBlock ? 0 : (await l1.getProvenCheckpoint(finalizedAt)).checkpointNumber;
  return { at, provenCheckpoint: proven.checkpointNumber, pendingCheckpointCount, finalizedCheckpoint };
}

/** Applies the settlement to the update's tips: at most one prune, then proven, then finalized. */
export async function settleTips(u: ChainUpdate, constants: L1RollupConstants, s: L1Settlement): Promise<TipChange[]> {
  const changes: TipChange[] = [];
  const pruned = (await pruneUnprovenEpoch(u, constants, s)) ?? (await dropExpiredProposedBlocks(u, constants, s));
  if (pruned) changes.push(pruned);
  changes.push(...(await settleProofTips(u, s)));
  return changes;
}

/** Applies only the settlement's proven and finalized checkpoints to the update's tips: no prune. */
export async function settleProofTips(u: ChainUpdate, s: L1Settlement): Promise<TipChange[]> {
  const changes: TipChange[] = [];
  const proven = await settleProven(u, s);
  if (proven) changes.push(proven);
  const finalized = await settleFinalized(u, s);
  if (finalized) changes.push(finalized);
  return changes;
}

/** Prunes to L1's proven checkpoint when the first unproven one's epoch is past its window and L1 agrees. */
async function pruneUnprovenEpoch(
  u: ChainUpdate,
  constants: L1RollupConstants,
  s: L1Settlement,
): Promise<TipChange | undefined> {
  const proven = s.provenCheckpoint;
  if (u.tips.checkpointed.checkpoint.number <= proven || s.pendingCheckpointCount !== proven) return undefined;
  const firstUnproven = await u.getCheckpoint(proven + 1);
  if (firstUnproven === undefined) return undefined;
  const epoch = epochOfSlot(constants, firstUnproven.header.slotNumber);
  if (proofWindowStatus(constants, epoch, s.at.timestamp) !== 'passed') return undefined;
  const fields = {
    epoch,
    provenCheckpoint: proven,
    checkpointed: u.tips.checkpointed.checkpoint.number,
    l1Block: s.at.number,
  };
  if (proven < u.tips.finalized.checkpoint.number) {
    return {
      level: 'warn',
      message: 'L1 would prune below the finalized checkpoint; the node keeps its chain',
      fields,
    };
  }
  await u.pruneTo((await u.checkpointTip(proven)).block.number, 'epochNotProven');
  return { level: 'warn', message: 'epoch not proven within its window: pruned to the proven checkpoint', fields };
}

/** Drops the proposed blocks above checkpointed once L1 time is past their slot (no checkpoint can include them now). */
async function dropExpiredProposedBlocks(
  u: ChainUpdate,
  constants: L1RollupConstants,
  s: L1Settlement,
): Promise<TipChange | undefined> {
  const checkpointedBlock = u.tips.checkpointed.block.number;
  if (u.tips.proposed.number === checkpointedBlock) return undefined;
  const first = await u.getBlock(checkpointedBlock + 1);
  if (first === undefined) return undefined;
  const blockSlot = first.header.globalVariables.slotNumber;
  const l1Slot = createTimetable(constants).slotAt(s.at.timestamp);
  if (blockSlot >= l1Slot) return undefined;
  const fields = { slot: blockSlot, l1Slot, blocks: u.tips.proposed.number - checkpointedBlock };
  await u.pruneTo(checkpointedBlock, 'slotPassedWithoutCheckpoint');
  return { level: 'info', message: 'dropped proposed blocks whose slot passed without a checkpoint', fields };
}

async function settleProven(u: ChainUpdate, s: L1Settlement): Promise<TipChange | undefined> {
  const target = s.provenCheckpoint;
  const { proven, finalized, checkpointed } = u.tips;
  const fields = { provenCheckpoint: target, l1Block: s.at.number };
  if (target > checkpointed.checkpoint.number)
    return { level: 'warn', message: 'L1 proves checkpoints the node does not hold yet', fields };
  if (target < finalized.checkpoint.number)
    return {
      level: 'warn',
      message: 'L1 proven checkpoint is below the finalized one; the node keeps finalized',
      fields,
    };
  const tip = await u.checkpointTip(target);
  if (tip.checkpoint.number === proven.checkpoint.number && tip.block.hash === proven.block.hash) return undefined;
  u.markProven(tip);
  return {
    level: tip.checkpoint.number < proven.checkpoint.number ? 'warn' : 'info',
    message: 'proven tip moved',
    fields: { ...fields, from: proven.checkpoint.number, block: tip.block.number },
  };
}

async function settleFinalized(u: ChainUpdate, s: L1Settlement): Promise<TipChange | undefined> {
  const { proven, finalized } = u.tips;
  const target = Math.min(s.finalizedCheckpoint, proven.checkpoint.number);
  if (target <= finalized.checkpoint.number) return undefined;
  const tip = await u.checkpointTip(target);
  u.markFinalized(tip);
  return {
    level: 'info',
    message: 'finalized tip moved',
    fields: { finalizedCheckpoint: target, block: tip.block.number, l1Block: s.at.number },
  };
}
