/**
 * Minimum fees (docs/protocol.md, Fees): an EIP-1559-style rule per checkpoint. The fee per unit of
 * mana of checkpoint n + 1 follows checkpoint n's: up by at most 1/FEE_CHANGE_DENOMINATOR when n used its whole
 * limit, down as much when it used none, unchanged at the target, never below the floor. The fee per unit of DA gas
 * is the floor (this project has no L1 gas oracle). The floors are set in base currency (spec/constants.ts) and
 * converted into the fee asset with the rate the rollup contract was deployed with (`--initialEthPerFeeAsset`), so a
 * dearer fee asset means smaller fees. Everything follows from the last checkpoint's header and the contract's rate,
 * so every node computes the same fees and a synced checkpoint's fees can be checked.
 */
import type { CheckpointHeader, GasFees } from '../../spec/chain.js';
import {
  CHECKPOINT_MANA_LIMIT,
  CHECKPOINT_MANA_TARGET,
  ETH_PER_FEE_ASSET_PRECISION,
  FEE_CHANGE_DENOMINATOR,
  GAS_PER_MEGA_GAS,
  MIN_COST_WEI_PER_MEGA_DA_GAS,
  MIN_COST_WEI_PER_MEGA_MANA,
  PREDICTED_FEE_SLOTS,
} from '../../spec/constants.js';
import { assert } from '../assert.js';

/** A cost in wei per million units of gas, in fee-asset units per unit of gas at this rate: rounded up, at least 1. */
export function weiPerMegaGasInFeeAsset(weiPerMegaGas: bigint, ethPerFeeAsset: bigint): bigint {
  assert(ethPerFeeAsset > 0n, 'the fee-asset rate is positive');
  const numerator = weiPerMegaGas * ETH_PER_FEE_ASSET_PRECISION;
  const denominator = ethPerFeeAsset * GAS_PER_MEGA_GAS;
  const fee = (numerator + denominator - 1n) / denominator;
  return fee < 1n ? 1n : fee;
}

/** The fee floors in the fee asset at the rollup contract's rate (base currency per fee asset, 12 decimals). */
export function feeFloor(ethPerFeeAsset: bigint): GasFees {
  return {
    feePerDaGas: weiPerMegaGasInFeeAsset(MIN_COST_WEI_PER_MEGA_DA_GAS, ethPerFeeAsset),
    feePerL2Gas: weiPerMegaGasInFeeAsset(MIN_COST_WEI_PER_MEGA_MANA, ethPerFeeAsset),
  };
}

/**
 * The basis of the genesis state: the floor fees at the target, so the first checkpoint pays the floor. Its
 * gasFees are the genesis state's (and the first checkpoint's) fees.
 */
export function genesisFeeBasis(floor: GasFees): FeeBasis {
  return { gasFees: floor, manaUsed: BigInt(CHECKPOINT_MANA_TARGET) };
}

/** What the fee rule reads of a checkpoint: its fees and the mana its blocks used. */
export interface FeeBasis {
  readonly gasFees: GasFees;
  readonly manaUsed: bigint;
}

/** The fees of the checkpoint after one with these fees and this mana used, never below the floor. */
export function nextGasFees(previous: FeeBasis, floor: GasFees): GasFees {
  const target = BigInt(CHECKPOINT_MANA_TARGET);
  const used = previous.manaUsed > BigInt(CHECKPOINT_MANA_LIMIT) ? BigInt(CHECKPOINT_MANA_LIMIT) : previous.manaUsed;
  const fee = previous.gasFees.feePerL2Gas;
  const delta = (fee * (used - target)) / target / FEE_CHANGE_DENOMINATOR;
  // Above the target a fee always rises by at least one unit, so a congested chain never stalls at a small fee.
  const step = used > target && delta === 0n ? 1n : delta;
  const next = fee + step;
  return { feePerDaGas: floor.feePerDaGas, feePerL2Gas: next < floor.feePerL2Gas ? floor.feePerL2Gas : next };
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
export function predictedGasFees(
  last: FeeBasis,
  usage: ManaUsageEstimate,
  floor: GasFees,
  slots: number = PREDICTED_FEE_SLOTS,
): GasFees[] {
  assert(slots >= 0 && slots <= PREDICTED_FEE_SLOTS, `at most ${PREDICTED_FEE_SLOTS} slots are predicted`);
  const fees = [nextGasFees(last, floor)];
  for (let i = 0; i < slots; i++) fees.push(nextGasFees({ gasFees: fees[i]!, manaUsed: ESTIMATED_MANA[usage] }, floor));
  return fees;
}

/** The basis a checkpoint header gives (undefined: genesis, whose fees are the floor). */
export function feeBasisOf(header: CheckpointHeader | undefined, floor: GasFees): FeeBasis {
  return header === undefined ? genesisFeeBasis(floor) : { gasFees: header.gasFees, manaUsed: header.totalManaUsed };
}
