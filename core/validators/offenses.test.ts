import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { SLASH_OFFENSES_KEPT_MAX, SLASH_ROUND_SLOTS } from '../../spec/validators/constants.js';
import { hex32, testAddress, testPayload } from '../../test/validators/validatorFixtures.js';
import { OffenseLog, slashRoundOfSlot, type SequencedOffenseRecord, type SignedEntry } from './offenses.js';

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

describe('slashRoundOfSlot', () => {
  it('refuses a negative or fractional slot', () => {
    expect(() => slashRoundOfSlot(-1)).toThrow(/a slot is a non-negative safe integer/);
    expect(() => slashRoundOfSlot(1.5)).toThrow(/a slot is a non-negative safe integer/);
  });
});

describe('OffenseLog evidence', () => {
  it('names what is wrong with evidence that proves nothing', () => {
    const log = new OffenseLog();
    expect(() => log.record('duplicateAttestation', entry(testAddress(1), 5, 0), entry(testAddress(2), 5, 1))).toThrow(
      /evidence is one signer with two payloads/,
    );
    expect(() => log.record('duplicateAttestation', entry(testAddress(1), 5, 0), entry(testAddress(1), 6, 1))).toThrow(
      /evidence is for one slot/,
    );
  });

  it('gives the records of the round asked for, with their evidence', () => {
    const log = new OffenseLog();
    const signer = testAddress(1);
    log.record('duplicateAttestation', entry(signer, 3, 0), entry(signer, 3, 1));
    log.record(
      'duplicateAttestation',
      entry(signer, SLASH_ROUND_SLOTS + 3, 0),
      entry(signer, SLASH_ROUND_SLOTS + 3, 1),
    );
    expect(log.recordsOf(1n, 0).map((r) => [r.offense.slot, r.evidence[1].payloadHash])).toEqual([
      [SLASH_ROUND_SLOTS + 3, entry(signer, SLASH_ROUND_SLOTS + 3, 1).payloadHash],
    ]);
    expect(log.recordsOf('current', 3).map((r) => r.offense.slot)).toEqual([3]);
  });
});

describe('OffenseLog.restore', () => {
  const signer = testAddress(1);
  const recorded = (count: number): SequencedOffenseRecord[] => {
    const log = new OffenseLog();
    const records: SequencedOffenseRecord[] = [];
    log.onChange((change) => records.push(change.added));
    for (let slot = 0; slot < count; slot++)
      log.record('duplicateAttestation', entry(signer, slot, 0), entry(signer, slot, 1));
    return records;
  };

  it('orders records found in any order by their sequence, and numbers the next one after them', () => {
    const [r0, r1, r2] = recorded(3);
    const log = OffenseLog.restore([r2!, r0!, r1!]);
    expect(log.offenses('all', 0).map((o) => o.slot)).toEqual([0, 1, 2]);
    const next: SequencedOffenseRecord[] = [];
    log.onChange((change) => next.push(change.added));
    log.record('duplicateAttestation', entry(signer, 9, 0), entry(signer, 9, 1));
    expect(next.map((r) => r.sequence)).toEqual([3]);
  });

  it(`keeps the newest ${SLASH_OFFENSES_KEPT_MAX} of more records`, () => {
    const records = recorded(SLASH_OFFENSES_KEPT_MAX + 2);
    const log = OffenseLog.restore(records);
    expect(log.size).toBe(SLASH_OFFENSES_KEPT_MAX);
    expect(log.offenses('all', 0)[0]?.slot).toBe(2);
  });

  it('keeps one record of an offense stored twice, the earlier one', () => {
    const [r0, r1] = recorded(2);
    const again = { ...r0!, evidence: r1!.evidence, sequence: 5 };
    const log = OffenseLog.restore([r0!, again]);
    expect(log.size).toBe(1);
    expect(log.recordsOf('all', 0)).toEqual([r0]);
    log.record('duplicateAttestation', entry(signer, 9, 0), entry(signer, 9, 1));
    expect(log.size).toBe(2);
  });

  it('refuses sequences that are repeated or not integers', () => {
    const [r0, r1] = recorded(2);
    expect(() => OffenseLog.restore([r0!, { ...r1!, sequence: r0!.sequence }])).toThrow(/sequences are unique/);
    expect(() => OffenseLog.restore([{ ...r0!, sequence: 0.5 }])).toThrow(/sequences are unique/);
  });
});
