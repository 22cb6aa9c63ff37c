/**
 * Minimum fees (PROTOCOL.md, Transactions and fees): an EIP-1559-style rule per checkpoint. The fee per unit of
 * mana of checkpoint n + 1 follows checkpoint n's: up by at most 1/FEE_CHANGE_DENOMINATOR when n used its whole
 * limit, down as much when it used none, unchanged at the target, never below MIN_FEE_PER_MANA. The fee per unit of
 * DA gas is the floor (this project has no L1 gas oracle). Everything follows from the last checkpoint's header,
 * so every node computes the same fees and a synced checkpoint's fees can be checked.
 */
import type { CheckpointHeader, GasFees } from '../../spec/chain.js';
import {
  CHECKPOINT_MANA_LIMIT,
  CHECKPOINT_MANA_TARGET,
  FEE_CHANGE_DENOMINATOR,
  MIN_FEE_PER_DA_GAS,
  MIN_FEE_PER_MANA,
  PREDICTED_FEE_SLOTS,
} from '../../spec/constants.js';
import { assert } from '../assert.js';

/** The fees of the genesis state (and of the first checkpoint). */
export const GENESIS_GAS_FEES: GasFees = { feePerDaGas: MIN_FEE_PER_DA_GAS, feePerL2Gas: MIN_FEE_PER_MANA };

/** The basis of the genesis state: its fees at the target, so the first checkpoint pays the genesis fees. */
export const GENESIS_FEE_BASIS: FeeBasis = { gasFees: GENESIS_GAS_FEES, manaUsed: BigInt(CHECKPOINT_MANA_TARGET) };

/** What the fee rule reads of a checkpoint: its fees and the mana its blocks used. */
export interface FeeBasis {
  readonly gasFees: GasFees;
  readonly manaUsed: bigint;
}

/** The fees of the checkpoint after one with these fees and this mana used. */
export function nextGasFees(previous: FeeBasis): GasFees {
  const target = BigInt(CHECKPOINT_MANA_TARGET);
  const used = previous.manaUsed > BigInt(CHECKPOINT_MANA_LIMIT) ? BigInt(CHECKPOINT_MANA_LIMIT) : previous.manaUsed;
  const fee = previous.gasFees.feePerL2Gas;
  const delta = (fee * (used - target)) / target / FEE_CHANGE_DENOMINATOR;
  // Above the target a fee always rises by at least one unit, so a congested chain never stalls at a small fee.
  const step = used > target && delta === 0n ? 1n : delta;
  const next = fee + step;
  return { feePerDaGas: MIN_FEE_PER_DA_GAS, feePerL2Gas: next < MIN_FEE_PER_MANA ? MIN_FEE_PER_MANA : next };
}

export type ManaUsageEstimate = 'none' | 'target' | 'limit';

const ESTIMATED_MANA: Readonly<Record<ManaUsageEstimate, bigint>> = {
  none: 0n,
  target: BigInt(CHECKPOINT_MANA_TARGET),
  limit: BigInt(CHECKPOINT_MANA_LIMIT),
};

/**
 * The current minimum fees (those of the next checkpoint), then one entry per coming slot, assuming every coming
 * checkpoint uses no mana, the target, or the limit.
 */
export function predictedGasFees(last: FeeBasis, usage: ManaUsageEstimate, slots: number = PREDICTED_FEE_SLOTS): GasFees[] {
  assert(slots >= 0 && slots <= PREDICTED_FEE_SLOTS, `at most ${PREDICTED_FEE_SLOTS} slots are predicted`);
  const fees = [nextGasFees(last)];
  for (let i = 0; i < slots; i++) fees.push(nextGasFees({ gasFees: fees[i]!, manaUsed: ESTIMATED_MANA[usage] }));
  return fees;
}

/** The basis a checkpoint header gives (undefined: genesis). */
export function feeBasisOf(header: CheckpointHeader | undefined): FeeBasis {
  return header === undefined ? GENESIS_FEE_BASIS : { gasFees: header.gasFees, manaUsed: header.totalManaUsed };
}
