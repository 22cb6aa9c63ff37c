/**
 * Committees: for each epoch, COMMITTEE_SIZE validators drawn from the L1 validator set (all of them when the set is
 * smaller), and for each slot of the epoch a proposer drawn from that committee. The draw is a pure function of the
 * set (in L1's order), the epoch and a seed, so every node and the rollup contract compute the same committee.
 *
 * Seed. `epochSeed(epoch, seedSource)` = hashToField(domain | epoch | seedSource) (spec/validators/committeeDraws.ts).
 * The seed source of epoch e is the archive root L1 held at the start of epoch e - COMMITTEE_SEED_LAG_EPOCHS: the
 * archive root of the last checkpoint whose slot is below `seedSourceSlot(e)`, or the genesis archive root when there
 * is none. The lag gives a full epoch of lookahead (the committee of e is known throughout e - 1), and since it
 * exceeds the proof window (proofSubmissionEpochs = 1) the source can no longer be pruned away once e - 1 begins;
 * only an L1 reorg deeper than that could change it. Known bias: the proposer of the last checkpoint before that slot
 * chooses its archive root (by its choice of txs, or by not publishing), so it can grind the committee of an epoch two
 * ahead among the outcomes it can produce. L1's RANDAO (`block.prevrandao`) snapshotted by the contract would narrow
 * that to one bit per L1 proposer; the contract owns that choice, and only `seedSource` would change here.
 *
 * Draw. Seats are filled by a partial Fisher-Yates shuffle of the set's indices; each swap index is a uniform integer
 * below the number of indices left, taken from hashToField outputs (uniform below 2^248) by rejection sampling, so
 * no index is favoured (no modulo bias). A slot's proposer is a uniform seat drawn the same way from the slot's own
 * hash stream. Quorum: floor(2n / 3) + 1 of a committee of n (docs/protocol.md, Attestations and quorum).
 */
import type { Hex } from '../../spec/chain.js';
import { bytesToBigint } from '../../spec/codec/bytes.js';
import { hashToFieldBytes } from '../../spec/hash.js';
import {
  COMMITTEE_SEED_LAG_EPOCHS,
  COMMITTEE_SIZE,
  UNIFORM_DRAW_ATTEMPTS_MAX,
  VALIDATOR_SET_SIZE_MAX,
} from '../../spec/validators/constants.js';
import {
  DRAW_RANGE,
  committeeSeed,
  memberDrawPreimage,
  proposerDrawPreimage,
} from '../../spec/validators/committeeDraws.js';
import { assert } from '../assert.js';

/** One entry of the L1 validator set. */
export interface Validator {
  /** The validator's L1 address, its identity everywhere (stats, offenses, keystore). */
  readonly address: Hex;
  /** Compressed BLS public key, 48 bytes, registered with a proof of possession. */
  readonly blsPublicKey: Hex;
}

export interface CommitteeMember extends Validator {
  /** Seat in the committee (0-based): the index attestations name. */
  readonly committeeIndex: number;
  /** Position in the L1 validator set. */
  readonly validatorIndex: number;
}

export interface EpochCommittee {
  readonly epoch: number;
  readonly seed: Hex;
  /** Members in seat order. */
  readonly members: readonly CommitteeMember[];
  /** Attestations a checkpoint of this epoch needs (0 for an empty committee). */
  readonly quorum: number;
  /** Seat of each member's address. */
  readonly seatByAddress: ReadonlyMap<Hex, number>;
}

/** What one slot asks of validators: its committee and its proposer (none when the committee is empty). */
export interface SlotDuties {
  readonly slot: number;
  readonly committee: EpochCommittee;
  readonly proposer: CommitteeMember | undefined;
}

/**
 * Attestations needed from a committee of `committeeSize`: floor(2n/3) + 1. An empty committee (no validators
 * registered yet) needs none: the chain runs without attestations until validators exist.
 */
export function quorumSize(committeeSize: number): number {
  assert(Number.isSafeInteger(committeeSize) && committeeSize >= 0, 'a committee size is a non-negative integer');
  return committeeSize === 0 ? 0 : Math.floor((2 * committeeSize) / 3) + 1;
}

export function epochOfSlot(slot: number, epochDurationSlots: number): number {
  assert(epochDurationSlots > 0, 'an epoch has slots');
  return Math.floor(slot / epochDurationSlots);
}

/** The slot whose start fixes epoch `epoch`'s seed source: the first slot of epoch - COMMITTEE_SEED_LAG_EPOCHS (or 0). */
export function seedSourceSlot(epoch: number, epochDurationSlots: number): number {
  return Math.max(0, epoch - COMMITTEE_SEED_LAG_EPOCHS) * epochDurationSlots;
}

export function epochSeed(epoch: number, seedSource: Hex): Hex {
  return committeeSeed(epoch, seedSource);
}

/**
 * A uniform integer in [0, bound) from a stream of uniform draws below 2^248: a draw at or above the largest multiple
 * of `bound` that fits is rejected and the next one taken. Exported for tests.
 */
export function uniformBelow(bound: bigint, draw: (attempt: number) => bigint): bigint {
  assert(bound > 0n && bound <= DRAW_RANGE, 'a draw bound is in [1, 2^248]');
  const acceptedBelow = DRAW_RANGE - (DRAW_RANGE % bound);
  for (let attempt = 0; attempt < UNIFORM_DRAW_ATTEMPTS_MAX; attempt++) {
    const value = draw(attempt);
    assert(value >= 0n && value < DRAW_RANGE, 'a draw is below 2^248');
    if (value < acceptedBelow) return value % bound;
  }
  // Each attempt is rejected with probability below bound / 2^248; 64 in a row does not happen.
  assert(false, `no accepted draw in ${UNIFORM_DRAW_ATTEMPTS_MAX} attempts`);
}

const drawValue = (preimage: Uint8Array): bigint => bytesToBigint(hashToFieldBytes(preimage));

function assertDistinctValidators(validators: readonly Validator[]): void {
  assert(
    validators.length <= VALIDATOR_SET_SIZE_MAX,
    `the rollup contract caps its validator set at ${VALIDATOR_SET_SIZE_MAX}`,
  );
  const addresses = new Set(validators.map((v) => v.address.toLowerCase()));
  assert(addresses.size === validators.length, 'the rollup contract registers each validator address once');
}

/** Indices of the set chosen for the seats, in seat order (partial Fisher-Yates over a sparse swap map). */
function drawSeats(setSize: number, seatCount: number, seed: Hex): number[] {
  const swapped = new Map<number, number>();
  const seats: number[] = [];
  for (let position = 0; position < seatCount; position++) {
    const offset = uniformBelow(BigInt(setSize - position), (attempt) =>
      drawValue(memberDrawPreimage(seed, position, attempt)),
    );
    const pick = position + Number(offset);
    seats.push(swapped.get(pick) ?? pick);
    swapped.set(pick, swapped.get(position) ?? position);
  }
  return seats;
}

/** The committee of `epoch` drawn from the L1 validator set (in L1's order) with the epoch's seed source. */
export function drawCommittee(validators: readonly Validator[], epoch: number, seedSource: Hex): EpochCommittee {
  assertDistinctValidators(validators);
  const seed = epochSeed(epoch, seedSource);
  const seatCount = Math.min(COMMITTEE_SIZE, validators.length);
  const members = drawSeats(validators.length, seatCount, seed).map(
    (validatorIndex, committeeIndex): CommitteeMember => {
      const { address, blsPublicKey } = validators[validatorIndex]!;
      return {
        address: address.toLowerCase() as Hex,
        blsPublicKey: blsPublicKey.toLowerCase() as Hex,
        committeeIndex,
        validatorIndex,
      };
    },
  );
  const seatByAddress = new Map(members.map((member) => [member.address, member.committeeIndex]));
  return { epoch, seed, members, quorum: quorumSize(members.length), seatByAddress };
}

/** The proposer of `slot`, a slot of the committee's epoch; undefined for an empty committee. */
export function proposerOf(
  committee: EpochCommittee,
  slot: number,
  epochDurationSlots: number,
): CommitteeMember | undefined {
  assert(epochOfSlot(slot, epochDurationSlots) === committee.epoch, 'the slot belongs to the committee epoch');
  if (committee.members.length === 0) return undefined;
  const seat = uniformBelow(BigInt(committee.members.length), (attempt) =>
    drawValue(proposerDrawPreimage(committee.seed, slot, attempt)),
  );
  return committee.members[Number(seat)];
}

export function slotDuties(committee: EpochCommittee, slot: number, epochDurationSlots: number): SlotDuties {
  return { slot, committee, proposer: proposerOf(committee, slot, epochDurationSlots) };
}

/** The committee member with this address, if any. */
export function committeeMemberOf(committee: EpochCommittee, address: Hex): CommitteeMember | undefined {
  const seat = committee.seatByAddress.get(address.toLowerCase() as Hex);
  return seat === undefined ? undefined : committee.members[seat];
}
