/**
 * Wire shapes of validator statistics (this project's layouts):
 *
 * ValidatorStats = { address, proposalsMade, proposalsMissed, attestationsSent, attestationsMissed,
 *                    lastProposalSlot: SlotNumber | null, lastAttestationSlot: SlotNumber | null }
 * ValidatorsStats = { slotWindow, initialSlot: SlotNumber | null, lastProcessedSlot: SlotNumber | null,
 *                     validators: ValidatorStats[] }
 *   counts cover the last `slotWindow` slots the node processed.
 * SingleValidatorStats = { validator: ValidatorStats, fromSlot, toSlot, history: { slot, duty }[] }
 *   duty: 'proposed' | 'missedProposal' | 'attested' | 'missedAttestation', one entry per slot with a duty.
 */
import { z } from 'zod';
import { ethAddress, safeUint, slotNumber } from './scalars.js';

export const validatorStats = z.object({
  address: ethAddress,
  proposalsMade: safeUint,
  proposalsMissed: safeUint,
  attestationsSent: safeUint,
  attestationsMissed: safeUint,
  lastProposalSlot: slotNumber.nullable(),
  lastAttestationSlot: slotNumber.nullable(),
});

export const validatorsStats = z.object({
  slotWindow: safeUint,
  initialSlot: slotNumber.nullable(),
  lastProcessedSlot: slotNumber.nullable(),
  validators: z.array(validatorStats),
});

export const VALIDATOR_DUTIES = ['proposed', 'missedProposal', 'attested', 'missedAttestation'] as const;

export const singleValidatorStats = z.object({
  validator: validatorStats,
  fromSlot: slotNumber,
  toSlot: slotNumber,
  history: z.array(z.object({ slot: slotNumber, duty: z.enum(VALIDATOR_DUTIES) })),
});
