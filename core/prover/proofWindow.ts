/**
 * Epochs and proof windows (docs/protocol.md, Proof windows and prunes), as the rollup contract counts them: epoch e is
 * slots [e * epochDuration, (e + 1) * epochDuration); its proof is accepted once the epoch is over and until
 * `proofSubmissionEpochs` further epochs have passed, i.e. while e < currentEpoch <= e + proofSubmissionEpochs. Once
 * the current epoch is beyond that, the epoch's checkpoints are pruned (contracts/Rollup.sol, _canPrune).
 */
import type { L1RollupConstants } from '../../spec/chain.js';

export type EpochRules = Pick<
  L1RollupConstants,
  'l1GenesisTime' | 'slotDuration' | 'epochDuration' | 'proofSubmissionEpochs'
>;

export function epochOfSlot(rules: Pick<EpochRules, 'epochDuration'>, slot: number): number {
  return Math.floor(slot / rules.epochDuration);
}

/** The epoch an L1 block with this timestamp (Unix seconds) falls in; -1 before L2 genesis. */
export function epochAtTimestamp(rules: EpochRules, timestampSeconds: bigint): number {
  if (timestampSeconds < rules.l1GenesisTime) return -1;
  const slot = Number((timestampSeconds - rules.l1GenesisTime) / BigInt(rules.slotDuration));
  return epochOfSlot(rules, slot);
}

/** Where an L1 block with this timestamp stands against epoch `epoch`'s proof window. */
export function proofWindowStatus(
  rules: EpochRules,
  epoch: number,
  timestampSeconds: bigint,
): 'epochNotOver' | 'open' | 'passed' {
  const current = epochAtTimestamp(rules, timestampSeconds);
  if (current <= epoch) return 'epochNotOver';
  return current > epoch + rules.proofSubmissionEpochs ? 'passed' : 'open';
}

/** Unix milliseconds at which epoch `epoch`'s proof window closes (the first instant a proof is too late). */
export function proofWindowEndMs(rules: EpochRules, epoch: number): number {
  const firstLateSlot = (epoch + 1 + rules.proofSubmissionEpochs) * rules.epochDuration;
  return Number(rules.l1GenesisTime + BigInt(firstLateSlot) * BigInt(rules.slotDuration)) * 1000;
}
