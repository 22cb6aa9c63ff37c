import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Hex } from '../../spec/chain.js';
import { checkpointAttestation, proposalsForSlot } from '../../spec/wire/p2p.js';
import { offense as offenseSchema } from '../../spec/wire/slashing.js';
import {
  ATTESTATION_POOL_FUTURE_SLOTS_MAX,
  ATTESTATION_POOL_SLOTS_KEPT,
  COMMITTEE_SIZE,
  SLASH_ROUND_SLOTS,
} from '../../spec/validators/constants.js';
import {
  checkpointProposalPayloadHash,
  type BlockProposalPayload,
  type CheckpointProposalPayload,
} from '../../spec/validators/signingPayloads.js';
import {
  TEST_CHAIN,
  hex32,
  secretKeyOf,
  testDuties,
  testPayload,
  testValidatorSet,
} from '../../test/validators/validatorFixtures.js';
import { AttestationPool } from './attestationPool.js';
import { signBlockProposal, signCheckpointAttestation, signCheckpointProposal } from './bls.js';

const validators = testValidatorSet(COMMITTEE_SIZE + 4);
const dutiesForSlot = testDuties(validators);
const START_SLOT = 300;

function newPool(currentSlot = START_SLOT): AttestationPool {
  return new AttestationPool({ chain: TEST_CHAIN, dutiesForSlot, currentSlot });
}
const proposerAt = (slot: number): Hex => dutiesForSlot(slot).proposer!.address;
const memberAt = (slot: number, seat: number): Hex => dutiesForSlot(slot).committee.members[seat]!.address;
const outsider = (slot: number): Hex =>
  validators.find((v) => !dutiesForSlot(slot).committee.seatByAddress.has(v.address))!.address;

const proposal = (payload: CheckpointProposalPayload, proposer = proposerAt(payload.slot)) => ({
  payload,
  proposer,
  signature: signCheckpointProposal(secretKeyOf(proposer), payload).signature,
});
const attestation = (payload: CheckpointProposalPayload, attester: Hex) => ({
  payload,
  attester,
  signature: signCheckpointAttestation(secretKeyOf(attester), payload).signature,
});
const blockPayload = (slot: number, index: number, variant = 0): BlockProposalPayload => ({
  ...TEST_CHAIN,
  slot,
  blockNumber: slot * 10 + index,
  indexWithinCheckpoint: index,
  archiveRoot: hex32(5000 + variant),
  txHashes: [hex32(variant + 1)],
});
const blockProposal = (payload: BlockProposalPayload, proposer = proposerAt(payload.slot)) => ({
  payload,
  proposer,
  signature: signBlockProposal(secretKeyOf(proposer), payload).signature,
});

describe('checkpoint proposals', () => {
  it('are held once from the proposer and served in the wire shape', () => {
    const pool = newPool();
    const payload = testPayload(START_SLOT);
    const entry = proposal(payload);
    expect(pool.addCheckpointProposal(entry)).toEqual({
      kind: 'added',
      payloadHash: checkpointProposalPayloadHash(payload),
    });
    expect(pool.addCheckpointProposal(entry)).toMatchObject({ kind: 'known' });
    const answer = pool.proposalsForSlot(START_SLOT);
    expect(answer.checkpointProposals).toEqual([
      {
        checkpointNumber: payload.checkpointNumber,
        archiveRoot: payload.archiveRoot,
        payloadHash: checkpointProposalPayloadHash(payload),
        proposer: entry.proposer,
        signature: entry.signature,
      },
    ]);
    expect(proposalsForSlot.encode(answer)).toMatchObject({ slot: String(START_SLOT) });
  });

  it('are refused from anyone but the proposer, with a bad signature, for another chain, or outside the window', () => {
    const pool = newPool();
    const payload = testPayload(START_SLOT);
    const notProposer = memberAt(START_SLOT, dutiesForSlot(START_SLOT).proposer!.committeeIndex === 0 ? 1 : 0);
    expect(pool.addCheckpointProposal(proposal(payload, notProposer))).toEqual({
      kind: 'rejected',
      reason: 'notProposer',
    });
    expect(
      pool.addCheckpointProposal({
        ...proposal(payload),
        signature: attestation(payload, proposerAt(START_SLOT)).signature,
      }),
    ).toEqual({ kind: 'rejected', reason: 'badSignature' });
    const foreign = testPayload(START_SLOT, 0, { l1ChainId: 1, rollupVersion: 1 });
    expect(pool.addCheckpointProposal(proposal(foreign))).toEqual({ kind: 'rejected', reason: 'wrongChain' });
    expect(pool.addCheckpointProposal(proposal(testPayload(START_SLOT - ATTESTATION_POOL_SLOTS_KEPT)))).toEqual({
      kind: 'rejected',
      reason: 'slotTooOld',
    });
    expect(pool.addCheckpointProposal(proposal(testPayload(START_SLOT + 2)))).toEqual({
      kind: 'rejected',
      reason: 'slotTooFarAhead',
    });
    expect(pool.addCheckpointProposal(proposal(testPayload(START_SLOT + 1)))).toMatchObject({ kind: 'added' });
    expect(pool.proposalsForSlot(START_SLOT).checkpointProposals).toEqual([]);
  });

  it('refuses everything for a slot whose committee is unknown', () => {
    const pool = new AttestationPool({ chain: TEST_CHAIN, dutiesForSlot: () => undefined, currentSlot: START_SLOT });
    expect(pool.addCheckpointProposal(proposal(testPayload(START_SLOT)))).toEqual({
      kind: 'rejected',
      reason: 'dutiesUnknown',
    });
  });

  it('two payloads from the proposer in one slot are a duplicate proposal, recorded once, a third is dropped', () => {
    const pool = newPool();
    expect(pool.addCheckpointProposal(proposal(testPayload(START_SLOT, 0)))).toMatchObject({ kind: 'added' });
    const second = pool.addCheckpointProposal(proposal(testPayload(START_SLOT, 1)));
    const expected = {
      validator: proposerAt(START_SLOT),
      offenseType: 'duplicateProposal',
      slot: START_SLOT,
      round: BigInt(Math.floor(START_SLOT / SLASH_ROUND_SLOTS)),
      amount: 0n,
    };
    expect(second).toMatchObject({ kind: 'offense', offense: expected });
    expect(pool.addCheckpointProposal(proposal(testPayload(START_SLOT, 2)))).toEqual({
      kind: 'rejected',
      reason: 'equivocationAlreadyRecorded',
    });
    expect(pool.proposalsForSlot(START_SLOT).checkpointProposals).toHaveLength(2);
    expect(pool.slashOffenses('all')).toEqual([expected]);
    expect(offenseSchema.encode(pool.slashOffenses('all')[0]!)).toMatchObject({
      slot: String(START_SLOT),
      amount: '0',
    });
    const [record] = pool.offenseRecords('all');
    expect(record!.evidence.map((e) => e.payload.archiveRoot)).toEqual([
      testPayload(START_SLOT, 0).archiveRoot,
      testPayload(START_SLOT, 1).archiveRoot,
    ]);
  });
});

describe('checkpoint attestations', () => {
  it('are held from committee members and filtered by payload hash', () => {
    const pool = newPool();
    const [a, b] = [testPayload(START_SLOT, 0), testPayload(START_SLOT, 1)];
    pool.addCheckpointAttestation(attestation(a, memberAt(START_SLOT, 0)));
    pool.addCheckpointAttestation(attestation(a, memberAt(START_SLOT, 1)));
    pool.addCheckpointAttestation(attestation(b, memberAt(START_SLOT, 2)));
    expect(pool.checkpointAttestationsForSlot(START_SLOT)).toHaveLength(3);
    const onlyA = pool.checkpointAttestationsForSlot(
      START_SLOT,
      checkpointProposalPayloadHash(a).toUpperCase().replace('0X', '0x') as Hex,
    );
    expect(onlyA.map((x) => x.attester)).toEqual([memberAt(START_SLOT, 0), memberAt(START_SLOT, 1)]);
    expect(checkpointAttestation.encode(onlyA[0]!)).toMatchObject({
      slot: String(START_SLOT),
      proposalPayloadHash: checkpointProposalPayloadHash(a),
    });
    expect(pool.checkpointAttestationsForSlot(START_SLOT + 1)).toEqual([]);
    expect(pool.slotActivity(START_SLOT).attesters).toEqual(new Set([0, 1, 2].map((s) => memberAt(START_SLOT, s))));
  });

  it('are refused from a validator outside the committee, and a proposal signature is not an attestation', () => {
    const pool = newPool();
    const payload = testPayload(START_SLOT);
    expect(pool.addCheckpointAttestation(attestation(payload, outsider(START_SLOT)))).toEqual({
      kind: 'rejected',
      reason: 'notCommitteeMember',
    });
    const proposer = proposerAt(START_SLOT);
    expect(
      pool.addCheckpointAttestation({ payload, attester: proposer, signature: proposal(payload).signature }),
    ).toEqual({ kind: 'rejected', reason: 'badSignature' });
  });

  it('two payloads from one member in one slot are a duplicate attestation; the same payload in two slots is not', () => {
    const pool = newPool();
    const member = memberAt(START_SLOT, 3);
    pool.addCheckpointAttestation(attestation(testPayload(START_SLOT, 0), member));
    pool.addCheckpointAttestation(attestation(testPayload(START_SLOT - 1, 0), member));
    expect(pool.slashOffenses('all')).toEqual([]);
    expect(pool.addCheckpointAttestation(attestation(testPayload(START_SLOT, 1), member))).toMatchObject({
      kind: 'offense',
      offense: { validator: member, offenseType: 'duplicateAttestation', slot: START_SLOT },
    });
  });
});

describe('block proposals', () => {
  it('are held per block position; two payloads at one position are a duplicate proposal', () => {
    const pool = newPool();
    expect(pool.addBlockProposal(blockProposal(blockPayload(START_SLOT, 0)))).toMatchObject({ kind: 'added' });
    expect(pool.addBlockProposal(blockProposal(blockPayload(START_SLOT, 1)))).toMatchObject({ kind: 'added' });
    expect(pool.slashOffenses('all')).toEqual([]);
    expect(pool.addBlockProposal(blockProposal(blockPayload(START_SLOT, 1, 9)))).toMatchObject({
      kind: 'offense',
      offense: { offenseType: 'duplicateProposal', slot: START_SLOT },
    });
    // A second equivocation of the same proposer in the same slot adds evidence but not a second offense.
    pool.addCheckpointProposal(proposal(testPayload(START_SLOT, 0)));
    expect(pool.addCheckpointProposal(proposal(testPayload(START_SLOT, 1)))).toMatchObject({ kind: 'offense' });
    expect(pool.slashOffenses('all')).toHaveLength(1);
    const answer = pool.proposalsForSlot(START_SLOT);
    expect(answer.blockProposals.map((p) => p.indexWithinCheckpoint)).toEqual([0, 1, 1]);
    expect(proposalsForSlot.encode(answer).blockProposals[0]).toMatchObject({
      blockNumber: START_SLOT * 10,
      txHashes: [hex32(1)],
    });
  });

  it('with a position beyond a checkpoint are malformed', () => {
    const entry = {
      payload: blockPayload(START_SLOT, 16),
      proposer: proposerAt(START_SLOT),
      signature: `0x${'00'.repeat(96)}` as Hex,
    };
    expect(newPool().addBlockProposal(entry)).toEqual({ kind: 'rejected', reason: 'malformedPayload' });
  });
});

describe('window and rounds', () => {
  it('drops slots that leave the window but keeps their offenses, answered by round', () => {
    const pool = newPool();
    const member = memberAt(START_SLOT, 0);
    pool.addCheckpointAttestation(attestation(testPayload(START_SLOT, 0), member));
    pool.addCheckpointAttestation(attestation(testPayload(START_SLOT, 1), member));
    pool.advanceToSlot(START_SLOT + ATTESTATION_POOL_SLOTS_KEPT - 1);
    expect(pool.checkpointAttestationsForSlot(START_SLOT)).toHaveLength(2);
    pool.advanceToSlot(START_SLOT + ATTESTATION_POOL_SLOTS_KEPT);
    expect(pool.checkpointAttestationsForSlot(START_SLOT)).toEqual([]);
    pool.advanceToSlot(START_SLOT); // backwards: ignored
    expect(pool.currentSlot).toBe(START_SLOT + ATTESTATION_POOL_SLOTS_KEPT);
    const round = BigInt(Math.floor(START_SLOT / SLASH_ROUND_SLOTS));
    expect(pool.slashOffenses(round)).toHaveLength(1);
    expect(pool.slashOffenses(round + 1n)).toEqual([]);
    expect(pool.slashOffenses('current')).toEqual(
      pool.slashOffenses(BigInt(Math.floor(pool.currentSlot / SLASH_ROUND_SLOTS))),
    );
    expect(pool.slashOffenses('all')).toHaveLength(1);
  });
});

describe('pool bounds and checks', () => {
  it('starts only at a non-negative safe integer slot', () => {
    for (const currentSlot of [-1, 1.5])
      expect(() => newPool(currentSlot)).toThrow(/the current slot is a non-negative safe integer/);
  });

  it('refuses a payload of another rollup version on the same L1 chain', () => {
    const payload = testPayload(START_SLOT, 0, { ...TEST_CHAIN, rollupVersion: TEST_CHAIN.rollupVersion + 1 });
    expect(newPool().addCheckpointAttestation(attestation(payload, memberAt(START_SLOT, 0)))).toEqual({
      kind: 'rejected',
      reason: 'wrongChain',
    });
  });

  it(`takes the oldest slot of its ${ATTESTATION_POOL_SLOTS_KEPT}-slot window, and not the one before`, () => {
    const pool = newPool();
    const oldest = START_SLOT - ATTESTATION_POOL_SLOTS_KEPT + 1;
    expect(pool.addCheckpointAttestation(attestation(testPayload(oldest), memberAt(oldest, 0)))).toMatchObject({
      kind: 'added',
    });
    expect(pool.addCheckpointAttestation(attestation(testPayload(oldest - 1), memberAt(oldest - 1, 0)))).toEqual({
      kind: 'rejected',
      reason: 'slotTooOld',
    });
  });

  it('holding every slot of its window and the next one, moves on by one slot and drops the oldest', () => {
    const pool = newPool();
    const oldest = START_SLOT - ATTESTATION_POOL_SLOTS_KEPT + 1;
    for (let slot = oldest; slot <= START_SLOT + 1; slot++)
      expect(pool.addCheckpointAttestation(attestation(testPayload(slot), memberAt(slot, 0))).kind).toBe('added');
    pool.advanceToSlot(START_SLOT + 1);
    expect(pool.checkpointAttestationsForSlot(oldest)).toEqual([]);
    expect(pool.checkpointAttestationsForSlot(oldest + 1)).toHaveLength(1);
    expect(pool.checkpointAttestationsForSlot(START_SLOT + 1)).toHaveLength(1);
  });

  it("lets a failure that is not a field's encoding propagate, rather than blame the peer", () => {
    const payload = { ...blockPayload(START_SLOT, 0), txHashes: undefined } as unknown as BlockProposalPayload;
    expect(() =>
      newPool().addBlockProposal({ payload, proposer: proposerAt(START_SLOT), signature: `0x${'00'.repeat(96)}` }),
    ).toThrow(TypeError);
  });
});

describe('the window of slots the pool keeps', () => {
  it('keeps exactly the slots whose entries it would take, from the oldest kept to one ahead', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000 }), fc.integer({ min: -200, max: 200 }), (current, offset) => {
        const pool = newPool(current);
        const slot = current + offset;
        const inWindow =
          slot >= Math.max(0, current - ATTESTATION_POOL_SLOTS_KEPT + 1) &&
          slot <= current + ATTESTATION_POOL_FUTURE_SLOTS_MAX;
        expect(pool.keepsSlot(slot)).toBe(inWindow);
        if (slot < 0) return;
        const outcome = pool.addCheckpointProposal(proposal(testPayload(slot)));
        expect(outcome.kind === 'rejected' && /^slotToo/.test(outcome.reason)).toBe(!inWindow);
      }),
    );
  });
});
