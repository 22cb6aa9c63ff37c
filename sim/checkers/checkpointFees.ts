/**
 * The fee rule (docs/protocol.md, Fees), held against the checkpoints L1 recorded: each checkpoint's fees must be what
 * the rule gives from the checkpoint before it, and each of its blocks must carry those fees. The rule is written here
 * again from the protocol document, not taken from core/fees: a bug there is shared by every node (the sequencer that
 * builds and the archivers that check), and only a model of its own can see it.
 *
 * The rule, per checkpoint n + 1 from checkpoint n (genesis: the floor fees, at the target):
 * - the fee per mana moves by fee x (used - target) / target / 8 (rounded towards zero), with `used` capped at the
 *   limit and the target half of it; above the target it rises by at least 1; it never goes below the floor;
 * - the fee per DA gas is the floor;
 * - the floors are the base-currency costs converted at the rollup's rate: ceil(cost x 10^12 / (rate x 10^6)),
 *   at least 1.
 */
import type { Block, CheckpointHeader, GasFees } from '../../spec/chain.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { decodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import type { CheckpointProposedLog } from '../../core/ports.js';
import type { RollupNode } from '../../core/node/node.js';
import type { SimFailure } from './simFailure.js';

/** Mana a checkpoint may use; the fee rule's target is half of it (docs/protocol.md, Fees). */
const REFERENCE_MANA_LIMIT = 200_000_000n;
const REFERENCE_MANA_TARGET = REFERENCE_MANA_LIMIT / 2n;
/** The most a fee per mana moves per checkpoint: one eighth. */
const REFERENCE_FEE_CHANGE_DENOMINATOR = 8n;
/** Floor costs in wei per million units of gas: 0.01 wei per mana, 0.001 wei per DA gas. */
const REFERENCE_FLOOR_WEI_PER_MEGA_MANA = 10_000n;
const REFERENCE_FLOOR_WEI_PER_MEGA_DA_GAS = 1_000n;
/** The rate's scale (12 decimals) and the mega in "per million units of gas". */
const REFERENCE_RATE_PRECISION = 10n ** 12n;
const REFERENCE_GAS_PER_MEGA = 1_000_000n;

/** What the rule reads of a checkpoint. */
export interface ReferenceFeeBasis {
  readonly gasFees: GasFees;
  readonly manaUsed: bigint;
}

function floorFee(weiPerMegaGas: bigint, ethPerFeeAsset: bigint): bigint {
  const denominator = ethPerFeeAsset * REFERENCE_GAS_PER_MEGA;
  const fee = (weiPerMegaGas * REFERENCE_RATE_PRECISION + denominator - 1n) / denominator;
  return fee < 1n ? 1n : fee;
}

/** The fee floors at the rollup's rate (base currency per fee asset, 12 decimals). */
export function referenceFloor(ethPerFeeAsset: bigint): GasFees {
  return {
    feePerDaGas: floorFee(REFERENCE_FLOOR_WEI_PER_MEGA_DA_GAS, ethPerFeeAsset),
    feePerL2Gas: floorFee(REFERENCE_FLOOR_WEI_PER_MEGA_MANA, ethPerFeeAsset),
  };
}

/** The fees of the checkpoint after `previous` (undefined: genesis). */
export function referenceNextFees(previous: ReferenceFeeBasis | undefined, floor: GasFees): GasFees {
  if (previous === undefined) return floor;
  const used = previous.manaUsed < REFERENCE_MANA_LIMIT ? previous.manaUsed : REFERENCE_MANA_LIMIT;
  const fee = previous.gasFees.feePerL2Gas;
  let change = (fee * (used - REFERENCE_MANA_TARGET)) / REFERENCE_MANA_TARGET / REFERENCE_FEE_CHANGE_DENOMINATOR;
  if (used > REFERENCE_MANA_TARGET && change < 1n) change = 1n;
  const next = fee + change;
  return { feePerDaGas: floor.feePerDaGas, feePerL2Gas: next > floor.feePerL2Gas ? next : floor.feePerL2Gas };
}

function sameFees(a: GasFees, b: GasFees): boolean {
  return a.feePerDaGas === b.feePerDaGas && a.feePerL2Gas === b.feePerL2Gas;
}

function feesText(fees: GasFees): string {
  return `${fees.feePerL2Gas} per mana, ${fees.feePerDaGas} per DA gas`;
}

/**
 * Walks L1's checkpoint logs in L1 order (the current chain): checkpoint n's predecessor is the last checkpoint n - 1
 * logged before it, which a prune leaves in place. Reports every checkpoint whose fees the rule does not give.
 */
export function checkCheckpointFees(logs: readonly CheckpointProposedLog[], ethPerFeeAsset: bigint): SimFailure[] {
  const floor = referenceFloor(ethPerFeeAsset);
  const latest = new Map<number, CheckpointHeader>();
  const failures: SimFailure[] = [];
  for (const log of logs) {
    const header = decodeCheckpointHeader(hexToBytes(log.header));
    const previous = latest.get(log.checkpointNumber - 1);
    const expected = referenceNextFees(
      previous === undefined ? undefined : { gasFees: previous.gasFees, manaUsed: previous.totalManaUsed },
      floor,
    );
    latest.set(log.checkpointNumber, header);
    if (log.checkpointNumber > 1 && previous === undefined) continue;
    if (sameFees(header.gasFees, expected)) continue;
    failures.push({
      kind: 'checkpointFeesWrong',
      detail:
        `checkpoint ${log.checkpointNumber} (slot ${log.slotNumber}, L1 block ${log.l1.blockNumber}) charges ` +
        `${feesText(header.gasFees)}; the fee rule gives ${feesText(expected)} after ` +
        (previous === undefined
          ? 'genesis'
          : `${previous.totalManaUsed} mana used at ${previous.gasFees.feePerL2Gas} per mana`),
    });
  }
  return failures;
}

/**
 * A checkpoint as a node holds it, against its blocks: each block carries the checkpoint's fees, and the blocks'
 * mana adds up to the checkpoint's (the fee rule's input).
 */
export function checkBlocksOfCheckpoint(
  checkpointNumber: number,
  header: CheckpointHeader,
  blocks: readonly Block[],
): SimFailure[] {
  const failures: SimFailure[] = [];
  let manaUsed = 0n;
  for (const block of blocks) {
    manaUsed += block.header.totalManaUsed;
    const fees = block.header.globalVariables.gasFees;
    if (!sameFees(fees, header.gasFees))
      failures.push({
        kind: 'checkpointFeesWrong',
        detail: `block ${block.header.globalVariables.blockNumber} of checkpoint ${checkpointNumber} charges ${feesText(fees)}, its checkpoint ${feesText(header.gasFees)}`,
      });
  }
  if (manaUsed !== header.totalManaUsed)
    failures.push({
      kind: 'checkpointFeesWrong',
      detail: `checkpoint ${checkpointNumber} records ${header.totalManaUsed} mana used, its ${blocks.length} blocks ${manaUsed}`,
    });
  return failures;
}

/** Every checkpoint a node holds, against its blocks (checkBlocksOfCheckpoint). */
export async function checkStoredCheckpoints(name: string, node: RollupNode): Promise<SimFailure[]> {
  const failures: SimFailure[] = [];
  for (let n = 1; n <= node.chain.tips.checkpointed.checkpoint.number; n++) {
    const checkpoint = await node.chain.store.getCheckpoint(n);
    if (checkpoint === undefined) continue;
    const blocks: Block[] = [];
    for (let b = checkpoint.firstBlockNumber; b < checkpoint.firstBlockNumber + checkpoint.blockCount; b++) {
      const block = await node.chain.store.getBlock(b);
      if (block !== undefined) blocks.push(block);
    }
    for (const failure of checkBlocksOfCheckpoint(n, checkpoint.header, blocks))
      failures.push({ ...failure, detail: `${name}: ${failure.detail}` });
  }
  return failures;
}
