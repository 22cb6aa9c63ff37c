import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { SLASH_OFFENSES_KEPT_MAX, SLASH_ROUND_SLOTS } from '../../spec/validators/constants.js';
import { hex32, testAddress, testPayload } from '../../test/validators/validatorFixtures.js';
import { OffenseLog, slashRoundOfSlot, type SignedEntry } from './offenses.js';

const entry = (signer: Hex, slot: number, variant: number): SignedEntry => ({
  kind: 'checkpointAttestation',
  payload: testPayload(slot, variant),
  payloadHash: hex32(slot * 10 + variant),
  signer,
  signature: `0x${'00'.repeat(96)}`,
});

describe('OffenseLog', () => {
  it('rounds are SLASH_ROUND_SLOTS slots', () => {
    expect(slashRoundOfSlot(0)).toBe(0n);
    expect(slashRoundOfSlot(SLASH_ROUND_SLOTS - 1)).toBe(0n);
    expect(slashRoundOfSlot(SLASH_ROUND_SLOTS)).toBe(1n);
  });

  it('records an offense once per validator, type and slot', () => {
    const log = new OffenseLog();
    const first = log.record('duplicateAttestation', entry(testAddress(1), 5, 0), entry(testAddress(1), 5, 1));
    expect(log.record('duplicateAttestation', entry(testAddress(1), 5, 0), entry(testAddress(1), 5, 2))).toBe(first);
    log.record('duplicateProposal', entry(testAddress(1), 5, 0), entry(testAddress(1), 5, 1));
    expect(log.size).toBe(2);
  });

  it('refuses evidence that is not one signer with two payloads for one slot', () => {
    const log = new OffenseLog();
    expect(() => log.record('duplicateAttestation', entry(testAddress(1), 5, 0), entry(testAddress(2), 5, 1))).toThrow(
      /assertion/,
    );
    expect(() => log.record('duplicateAttestation', entry(testAddress(1), 5, 0), entry(testAddress(1), 5, 0))).toThrow(
      /assertion/,
    );
    expect(() => log.record('duplicateAttestation', entry(testAddress(1), 5, 0), entry(testAddress(1), 6, 1))).toThrow(
      /assertion/,
    );
  });

  it(`keeps the latest ${SLASH_OFFENSES_KEPT_MAX} offenses`, () => {
    const log = new OffenseLog();
    for (let slot = 0; slot <= SLASH_OFFENSES_KEPT_MAX; slot++)
      log.record('duplicateAttestation', entry(testAddress(1), slot, 0), entry(testAddress(1), slot, 1));
    expect(log.size).toBe(SLASH_OFFENSES_KEPT_MAX);
    const all = log.offenses('all', 0);
    expect(all[0]!.slot).toBe(1);
    expect(log.offenses(0n, 0).map((o) => o.slot)).toEqual(
      Array.from({ length: SLASH_ROUND_SLOTS - 1 }, (_, i) => i + 1),
    );
    expect(log.offenses('current', SLASH_ROUND_SLOTS * 2)).toHaveLength(SLASH_ROUND_SLOTS);
    // A dropped key may be recorded again, which drops the next oldest.
    log.record('duplicateAttestation', entry(testAddress(1), 0, 0), entry(testAddress(1), 0, 1));
    const slots = log.offenses(0n, 0).map((o) => o.slot);
    expect(slots).toContain(0);
    expect(slots).not.toContain(1);
    expect(log.size).toBe(SLASH_OFFENSES_KEPT_MAX);
  });
});
