/**
 * What SigningClaims tells the operator (the fields of each refusal and prune line) and when it prunes, at the
 * interval and kept-slots boundaries; and the signing guard's error as it reaches the logs.
 */
import { describe, expect, it } from 'vitest';
import { HA_SIGNING_CLAIMS_KEPT_SLOTS, HA_SIGNING_PRUNE_INTERVAL_SLOTS } from '../../spec/validators/constants.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import type { SigningClaim, SigningDuty, SigningGuardPort } from '../ports.js';
import { SigningClaims } from './signingClaims.js';
import { SigningGuardError } from './signingGuardError.js';

const VALIDATOR = `0x${'ab'.repeat(20)}` as const;
const HASH = `0x${'11'.repeat(32)}` as const;
const OTHER_HASH = `0x${'22'.repeat(32)}` as const;
const duty = (slot: number): SigningDuty => ({
  validatorAddress: VALIDATOR,
  slot,
  kind: 'blockProposal',
  blockIndex: 2,
});
const dutyFields = (slot: number) => ({
  validator: VALIDATOR,
  slot,
  duty: 'blockProposal',
  blockIndex: 2,
  payloadHash: HASH,
});

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

function claimsOf(claim: () => Promise<SigningClaim>, prune: (below: number) => Promise<number> = async () => 0) {
  const lines: LogLine[] = [];
  const prunes: number[] = [];
  const guard: SigningGuardPort = {
    claim,
    pruneBelow: (below) => {
      prunes.push(below);
      return prune(below);
    },
  };
  return {
    claims: new SigningClaims(
      guard,
      capturingLogger((line) => lines.push(line)),
    ),
    lines,
    prunes,
  };
}

const granted = async (): Promise<SigningClaim> => ({ kind: 'granted' });

describe('SigningClaims logging a refusal', () => {
  it('names the duty and the holder of a refused claim', async () => {
    const { claims, lines } = claimsOf(async () => ({
      kind: 'refused',
      holderNodeId: 'node-b',
      holderPayloadHash: OTHER_HASH,
    }));
    expect(await claims.mayClaim(duty(5), HASH)).toBe(false);
    expect(lines).toMatchObject([
      { level: 'warn', fields: { ...dutyFields(5), holderNodeId: 'node-b', holderPayloadHash: OTHER_HASH } },
    ]);
  });

  it('names the duty and the error when the guard cannot answer', async () => {
    const error = new SigningGuardError('SIGNING_GUARD_UNAVAILABLE', 'connect ECONNREFUSED');
    const { claims, lines } = claimsOf(() => Promise.reject(error));
    expect(await claims.mayClaim(duty(5), HASH)).toBe(false);
    expect(lines).toMatchObject([{ level: 'error', fields: { ...dutyFields(5), error: 'connect ECONNREFUSED' } }]);
    expect(error).toMatchObject({ name: 'SigningGuardError', code: 'SIGNING_GUARD_UNAVAILABLE' });
  });
});

describe('SigningClaims pruning old claims', () => {
  it('prunes nothing while no slot lies HA_SIGNING_CLAIMS_KEPT_SLOTS back', async () => {
    const { claims, prunes } = claimsOf(granted);
    await claims.mayClaim(duty(HA_SIGNING_CLAIMS_KEPT_SLOTS), HASH);
    await settle();
    expect(prunes).toEqual([]);
    await claims.mayClaim(duty(HA_SIGNING_CLAIMS_KEPT_SLOTS + HA_SIGNING_PRUNE_INTERVAL_SLOTS + 1), HASH);
    expect(prunes).toEqual([HA_SIGNING_PRUNE_INTERVAL_SLOTS + 1]);
  });

  it('prunes again exactly one interval later', async () => {
    const start = 2 * HA_SIGNING_CLAIMS_KEPT_SLOTS;
    const { claims, prunes } = claimsOf(granted);
    await claims.mayClaim(duty(start), HASH);
    await settle();
    await claims.mayClaim(duty(start + HA_SIGNING_PRUNE_INTERVAL_SLOTS - 1), HASH);
    await settle();
    await claims.mayClaim(duty(start + HA_SIGNING_PRUNE_INTERVAL_SLOTS), HASH);
    expect(prunes.map((below) => below + HA_SIGNING_CLAIMS_KEPT_SLOTS)).toEqual([
      start,
      start + HA_SIGNING_PRUNE_INTERVAL_SLOTS,
    ]);
  });

  it('logs a prune that dropped claims, and stays quiet about one that dropped none', async () => {
    const start = 2 * HA_SIGNING_CLAIMS_KEPT_SLOTS;
    const dropped = [0, 3];
    const { claims, lines } = claimsOf(granted, async () => dropped.shift()!);
    await claims.mayClaim(duty(start), HASH);
    await settle();
    expect(lines).toEqual([]);
    await claims.mayClaim(duty(start + HA_SIGNING_PRUNE_INTERVAL_SLOTS), HASH);
    await settle();
    expect(lines).toMatchObject([
      {
        level: 'debug',
        message: 'pruned old HA signing claims',
        fields: { belowSlot: start + HA_SIGNING_PRUNE_INTERVAL_SLOTS - HA_SIGNING_CLAIMS_KEPT_SLOTS, dropped: 3 },
      },
    ]);
  });

  it('names the slot and the error of a failed prune', async () => {
    const start = 2 * HA_SIGNING_CLAIMS_KEPT_SLOTS;
    const { claims, lines } = claimsOf(granted, () => Promise.reject(new Error('timeout')));
    await claims.mayClaim(duty(start), HASH);
    await settle();
    expect(lines).toMatchObject([
      { level: 'warn', fields: { belowSlot: start - HA_SIGNING_CLAIMS_KEPT_SLOTS, error: 'timeout' } },
    ]);
  });
});
