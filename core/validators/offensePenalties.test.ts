/**
 * Each offense type carries its own penalty. Both are 0 today, so the constants are replaced here by distinct
 * non-zero amounts: the rule must pick the one of the offense's type, whatever the amounts become.
 */
import { describe, expect, it, vi } from 'vitest';
import { hex32, testAddress, testPayload } from '../../test/validators/validatorFixtures.js';
import type * as constants from '../../spec/validators/constants.js';
import { OffenseLog, penaltyOf, type SignedEntry } from './offenses.js';

vi.mock('../../spec/validators/constants.js', async (importOriginal) => ({
  ...(await importOriginal<typeof constants>()),
  DUPLICATE_PROPOSAL_PENALTY: 7n,
  DUPLICATE_ATTESTATION_PENALTY: 3n,
}));

const entry = (slot: number, variant: number): SignedEntry => ({
  kind: 'checkpointAttestation',
  payload: testPayload(slot, variant),
  payloadHash: hex32(slot * 10 + variant),
  signer: testAddress(1),
  signature: `0x${'00'.repeat(96)}`,
});

describe('penalties', () => {
  it('are the duplicate proposal penalty for a duplicate proposal, and the attestation one otherwise', () => {
    expect(penaltyOf('duplicateProposal')).toBe(7n);
    expect(penaltyOf('duplicateAttestation')).toBe(3n);
  });

  it('are the amount of each recorded offense', () => {
    const log = new OffenseLog();
    expect(log.record('duplicateProposal', entry(5, 0), entry(5, 1)).amount).toBe(7n);
    expect(log.record('duplicateAttestation', entry(5, 0), entry(5, 1)).amount).toBe(3n);
  });
});
