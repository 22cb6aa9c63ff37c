/**
 * Wire shapes of slashing (this project's layouts):
 *
 * round (svcAdmin_getSlashOffenses): 'all', 'current', or a round number (a bigint: decimal string or safe integer).
 * Offense = { validator, offenseType: 'duplicateProposal' | 'duplicateAttestation', slot, round, amount }
 *   `amount` is the penalty in the staking asset's smallest unit (0 for both offenses today).
 */
import { z } from 'zod';
import { bigUint, describeInput, ethAddress, slotNumber } from './scalars.js';

export const slashRound = z.union([z.enum(['all', 'current']), bigUint], {
  error: (issue) =>
    `expected 'all', 'current' or a round number (decimal string or safe integer), got ${describeInput(issue.input)}`,
});

export const OFFENSE_TYPES = ['duplicateProposal', 'duplicateAttestation'] as const;

export const offense = z.object({
  validator: ethAddress,
  offenseType: z.enum(OFFENSE_TYPES),
  slot: slotNumber,
  round: bigUint,
  amount: bigUint,
});
