import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HA_SIGNING_CLAIMS_KEPT_SLOTS, HA_SIGNING_PRUNE_INTERVAL_SLOTS } from '../../spec/validators/constants.js';
import type { SigningClaim, SigningDuty, SigningGuardPort } from '../ports.js';
import { SigningGuardError } from './signingGuardError.js';
import { capturingLogger } from '../../test/helpers/testLogger.js';
import { SigningClaims, UNGUARDED_SIGNING } from './signingClaims.js';

const duty = (slot: number): SigningDuty => ({
  validatorAddress: `0x${'ab'.repeat(20)}`,
  slot,
  kind: 'checkpointAttestation',
  blockIndex: 0,
});
const HASH = `0x${'11'.repeat(32)}` as const;

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const logger = capturingLogger(({ level, message }) => void lines.push({ level, message }));
  return { logger, lines };
}

/** A guard answering `answer` to every claim, recording the prunes asked of it. */
function scriptedGuard(answer: () => Promise<SigningClaim>, prune: (slot: number) => Promise<number> = async () => 0) {
  const prunes: number[] = [];
  const guard: SigningGuardPort = {
    claim: answer,
    pruneBelow: (slot) => {
      prunes.push(slot);
      return prune(slot);
    },
  };
  return { guard, prunes };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SigningClaims', () => {
  it('signs only on a granted claim, and fails closed when the guard cannot answer, logging why', async () => {
    const { logger, lines } = recordingLogger();
    const granted = new SigningClaims(scriptedGuard(async () => ({ kind: 'granted' })).guard, logger);
    expect(await granted.mayClaim(duty(1), HASH)).toBe(true);
    const refused = new SigningClaims(
      scriptedGuard(async () => ({ kind: 'refused', holderNodeId: 'node-b', holderPayloadHash: HASH })).guard,
      logger,
    );
    expect(await refused.mayClaim(duty(1), HASH)).toBe(false);
    const down = new SigningClaims(
      scriptedGuard(() => Promise.reject(new SigningGuardError('SIGNING_GUARD_UNAVAILABLE', 'connect ECONNREFUSED')))
        .guard,
      logger,
    );
    expect(await down.mayClaim(duty(1), HASH)).toBe(false);
    expect(lines.map((l) => l.level)).toEqual(['warn', 'error']);
    expect(lines[1]!.message).toContain('fail closed');
  });

  it('the unguarded signing of a node without HA grants every claim', async () => {
    expect(await new SigningClaims(UNGUARDED_SIGNING, recordingLogger().logger).mayClaim(duty(3), HASH)).toBe(true);
  });

  it('prunes at most once per interval, keeping the last HA_SIGNING_CLAIMS_KEPT_SLOTS slots, for any claimed slots', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 4 * HA_SIGNING_CLAIMS_KEPT_SLOTS }), { minLength: 1, maxLength: 40 }),
        async (slots) => {
          const { guard, prunes } = scriptedGuard(async () => ({ kind: 'granted' }));
          const claims = new SigningClaims(guard, recordingLogger().logger);
          const sorted = [...slots].sort((a, b) => a - b);
          for (const slot of sorted) {
            await claims.mayClaim(duty(slot), HASH);
            await settle();
          }
          for (const below of prunes) expect(below).toBeGreaterThan(0);
          const pruneSlots = prunes.map((below) => below + HA_SIGNING_CLAIMS_KEPT_SLOTS);
          for (let i = 1; i < pruneSlots.length; i++)
            expect(pruneSlots[i]! - pruneSlots[i - 1]!).toBeGreaterThanOrEqual(HA_SIGNING_PRUNE_INTERVAL_SLOTS);
          for (const slot of pruneSlots) expect(sorted).toContain(slot);
        },
      ),
      { seed: 73, numRuns: 100 },
    );
  });

  it('a failed prune is logged and does not refuse the claim; one prune runs at a time', async () => {
    const { logger, lines } = recordingLogger();
    let finish: (dropped: number) => void = () => undefined;
    const { guard, prunes } = scriptedGuard(
      async () => ({ kind: 'granted' }),
      (slot) =>
        slot < 2 * HA_SIGNING_CLAIMS_KEPT_SLOTS
          ? Promise.reject(new Error('timeout'))
          : new Promise<number>((resolve) => (finish = resolve)),
    );
    const claims = new SigningClaims(guard, logger);
    expect(await claims.mayClaim(duty(HA_SIGNING_CLAIMS_KEPT_SLOTS + 1), HASH)).toBe(true);
    await settle();
    expect(lines.map((l) => l.message)).toEqual(['old HA signing claims not pruned (retried later)']);
    const later = 3 * HA_SIGNING_CLAIMS_KEPT_SLOTS;
    await claims.mayClaim(duty(later), HASH);
    // Still running: a claim one interval on starts no second prune.
    await claims.mayClaim(duty(later + HA_SIGNING_PRUNE_INTERVAL_SLOTS), HASH);
    expect(prunes).toEqual([1, later - HA_SIGNING_CLAIMS_KEPT_SLOTS]);
    finish(3);
    await settle();
    await claims.mayClaim(duty(later + 2 * HA_SIGNING_PRUNE_INTERVAL_SLOTS), HASH);
    expect(prunes).toHaveLength(3);
  });
});
