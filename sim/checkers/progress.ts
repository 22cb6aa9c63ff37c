/** Checker: with no faults that stop it, a run of several slots gets checkpoints onto L1. */
import { L1_SLOT_DURATION_SECONDS } from '../../spec/constants.js';
import type { SimFailure } from './simFailure.js';

export interface ProgressOptions {
  readonly simulatedSeconds: number;
  readonly slotDurationSeconds: number;
  readonly inclusionDelay: { readonly probability: number };
}

export function checkProgress(options: ProgressOptions, l1Checkpoints: number): SimFailure[] {
  const slots = Math.floor(options.simulatedSeconds / options.slotDurationSeconds);
  const expectProgress = slots >= 4 && options.inclusionDelay.probability < 0.5;
  if (expectProgress && l1Checkpoints === 0) {
    return [
      {
        kind: 'noProgress',
        detail: `no checkpoint reached L1 in ${slots} slots of ${options.slotDurationSeconds} s (L1 blocks every ${L1_SLOT_DURATION_SECONDS} s)`,
      },
    ];
  }
  return [];
}
