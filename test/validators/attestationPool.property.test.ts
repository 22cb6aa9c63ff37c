/**
 * The attestation pool's offense rule, for all histories: an offense is recorded for (validator, type, slot) exactly
 * when that validator had two different payloads accepted for that slot and duty; each is recorded once and with
 * evidence of two different signed payloads; a forged signature (another validator's) is never accepted, so it can
 * neither frame anyone nor add an entry; and no signer ever holds more than two payloads per slot and duty.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import type { CheckpointProposalPayload } from '../../spec/validators/signingPayloads.js';
import { AttestationPool } from '../../core/validators/attestationPool.js';
import { signCheckpointAttestation, signCheckpointProposal } from '../../core/validators/bls.js';
import type { OffenseType } from '../../core/validators/offenses.js';
import { TEST_CHAIN, secretKeyOf, testDuties, testPayload, testValidatorSet } from './validatorFixtures.js';

const dutiesForSlot = testDuties(testValidatorSet(5));
const SLOT = 500;
const SLOTS = [SLOT - 1, SLOT, SLOT + 1];

interface Operation {
  readonly duty: 'proposal' | 'attestation';
  readonly slot: number;
  readonly seat: number;
  readonly variant: number;
  /** Signed by the next seat's key instead: a forgery. */
  readonly forged: boolean;
}

const operationArbitrary: fc.Arbitrary<Operation> = fc.record({
  duty: fc.constantFrom('proposal', 'attestation'),
  slot: fc.constantFrom(...SLOTS),
  seat: fc.integer({ min: 0, max: 4 }),
  variant: fc.integer({ min: 0, max: 2 }),
  forged: fc.boolean(),
});

const signatureCache = new Map<string, Hex>();
function signed(role: 'proposal' | 'attestation', signer: Hex, payload: CheckpointProposalPayload): Hex {
  const key = `${role}/${signer}/${payload.slot}/${payload.archiveRoot}`;
  let signature = signatureCache.get(key);
  if (signature === undefined) {
    const sign = role === 'proposal' ? signCheckpointProposal : signCheckpointAttestation;
    signature = sign(secretKeyOf(signer), payload).signature;
    signatureCache.set(key, signature);
  }
  return signature;
}

/** Runs the operations; returns the model: variants accepted per (type, signer, slot). */
function run(pool: AttestationPool, operations: readonly Operation[]): Map<string, Set<number>> {
  const accepted = new Map<string, Set<number>>();
  for (const op of operations) {
    const duties = dutiesForSlot(op.slot);
    const signer = op.duty === 'proposal' ? duties.proposer!.address : duties.committee.members[op.seat]!.address;
    const members = duties.committee.members;
    const keyHolder = op.forged
      ? members[(members.findIndex((m) => m.address === signer) + 1) % members.length]!.address
      : signer;
    const payload = testPayload(op.slot, op.variant);
    const signature = signed(op.duty, keyHolder, payload);
    const outcome =
      op.duty === 'proposal'
        ? pool.addCheckpointProposal({ payload, proposer: signer, signature })
        : pool.addCheckpointAttestation({ payload, attester: signer, signature });
    const type: OffenseType = op.duty === 'proposal' ? 'duplicateProposal' : 'duplicateAttestation';
    const key = `${type}/${signer}/${op.slot}`;
    const before = accepted.get(key) ?? new Set<number>();
    if (op.forged) {
      expect(outcome.kind === 'rejected' || outcome.kind === 'known').toBe(true);
      if (outcome.kind === 'rejected')
        expect(['badSignature', 'equivocationAlreadyRecorded']).toContain(outcome.reason);
      continue;
    }
    if (outcome.kind === 'added' || outcome.kind === 'offense') before.add(op.variant);
    accepted.set(key, before);
    expect(outcome.kind === 'offense').toBe(
      outcome.kind !== 'rejected' && outcome.kind !== 'known' && before.size === 2,
    );
  }
  return accepted;
}

describe('offense detection for all histories', () => {
  it('records an offense exactly when one signer had two payloads accepted for one slot and duty', () => {
    let offensesSeen = 0;
    fc.assert(
      fc.property(fc.array(operationArbitrary, { maxLength: 30 }), (operations) => {
        const pool = new AttestationPool({ chain: TEST_CHAIN, dutiesForSlot, currentSlot: SLOT });
        const accepted = run(pool, operations);
        const expected = [...accepted.entries()]
          .filter(([, variants]) => variants.size >= 2)
          .map(([key]) => key)
          .sort();
        const recorded = pool.slashOffenses('all').map((o) => `${o.offenseType}/${o.validator}/${o.slot}`);
        expect([...recorded].sort()).toEqual(expected);
        expect(new Set(recorded).size).toBe(recorded.length);
        offensesSeen += recorded.length;
        for (const [, variants] of accepted) expect(variants.size).toBeLessThanOrEqual(2);
        for (const { evidence, offense } of pool.offenseRecords('all')) {
          expect(evidence[0].payloadHash).not.toBe(evidence[1].payloadHash);
          expect(evidence.every((e) => e.signer === offense.validator && e.payload.slot === offense.slot)).toBe(true);
        }
        for (const slot of SLOTS) {
          const bySigner = new Map<Hex, number>();
          for (const a of pool.checkpointAttestationsForSlot(slot))
            bySigner.set(a.attester, (bySigner.get(a.attester) ?? 0) + 1);
          expect(Math.max(0, ...bySigner.values())).toBeLessThanOrEqual(2);
          expect(pool.proposalsForSlot(slot).checkpointProposals.length).toBeLessThanOrEqual(2);
        }
      }),
      { numRuns: 60 },
    );
    // The histories do reach offenses (the rule is not checked vacuously).
    expect(offensesSeen).toBeGreaterThan(0);
  });
});
