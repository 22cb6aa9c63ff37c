/**
 * The validator's side of high-availability signing (the SigningGuardPort in core/ports.ts): before each signature
 * the validator client asks `SigningClaims.mayClaim`, which claims the duty and answers whether to sign. It fails
 * closed: a refused claim, or a guard that cannot answer (the shared database unreachable), means no signature, each
 * logged with the reason. It also prunes the guard's old claims, at most once per HA_SIGNING_PRUNE_INTERVAL_SLOTS.
 */
import type { Hex } from '../../spec/chain.js';
import { HA_SIGNING_CLAIMS_KEPT_SLOTS, HA_SIGNING_PRUNE_INTERVAL_SLOTS } from '../../spec/validators/constants.js';
import type { LoggerPort, SigningDuty, SigningGuardPort } from '../ports.js';

/** The guard of a node without HA signing: every claim is granted, nothing is stored. */
export const UNGUARDED_SIGNING: SigningGuardPort = {
  claim: async () => ({ kind: 'granted' }),
  pruneBelow: async () => 0,
};

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export class SigningClaims {
  /** The slot the last prune was started at (none yet: -Infinity, so the first claim prunes). */
  private lastPruneSlot = Number.NEGATIVE_INFINITY;
  private pruning = false;

  constructor(
    private readonly guard: SigningGuardPort,
    private readonly logger: LoggerPort,
  ) {}

  /** Claims the duty for `payloadHash`; true only when the guard granted it (the caller then signs). */
  async mayClaim(duty: SigningDuty, payloadHash: Hex): Promise<boolean> {
    const fields = {
      validator: duty.validatorAddress,
      slot: duty.slot,
      duty: duty.kind,
      blockIndex: duty.blockIndex,
      payloadHash,
    };
    let claim;
    try {
      claim = await this.guard.claim(duty, payloadHash);
    } catch (error) {
      this.logger.error(
        'not signing: the HA signing database cannot be reached, and without it signing could double-sign (fail closed)',
        { ...fields, error: errorText(error) },
      );
      return false;
    }
    this.prune(duty.slot);
    if (claim.kind === 'granted') return true;
    this.logger.warn(
      'not signing: another payload or another node already holds this duty in the HA signing database',
      {
        ...fields,
        holderNodeId: claim.holderNodeId,
        holderPayloadHash: claim.holderPayloadHash,
      },
    );
    return false;
  }

  /** Starts pruning the claims older than HA_SIGNING_CLAIMS_KEPT_SLOTS below `slot`, unless done recently. */
  private prune(slot: number): void {
    if (this.pruning || slot - this.lastPruneSlot < HA_SIGNING_PRUNE_INTERVAL_SLOTS) return;
    this.lastPruneSlot = slot;
    const below = slot - HA_SIGNING_CLAIMS_KEPT_SLOTS;
    if (below <= 0) return;
    this.pruning = true;
    this.guard.pruneBelow(below).then(
      (dropped) => {
        this.pruning = false;
        if (dropped > 0) this.logger.debug('pruned old HA signing claims', { belowSlot: below, dropped });
      },
      (error: unknown) => {
        this.pruning = false;
        this.logger.warn('old HA signing claims not pruned (retried later)', {
          belowSlot: below,
          error: errorText(error),
        });
      },
    );
  }
}
