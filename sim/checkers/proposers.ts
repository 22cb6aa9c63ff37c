/**
 * The proposer rule (docs/protocol.md, Validator set and committees), held against the checkpoints L1 recorded: with
 * validators registered, each checkpoint must name (as its coinbase: every simulated validator is credited as its own)
 * the proposer its slot draws. The draw is written here again from the protocol, over the byte strings
 * spec/validators/committeeDraws.ts fixes, rather than taken from core/validators/committee.ts: a wrong draw there is
 * shared by every node (the sequencers that propose and the nodes that check), and only a model of its own sees it.
 *
 * The draw: epoch e's seed is hashToField(domain | e | source), where the source is the archive root of the last
 * checkpoint L1 holds whose slot is below the first slot of epoch e - 2 (genesis archive when none). The committee is
 * min(48, set size) seats filled by a partial Fisher-Yates shuffle of the set's indices; a slot's proposer is a seat
 * drawn from the slot's own stream. Each draw is a uniform integer below a bound, from hashToField values (below
 * 2^248) by rejection of the values at or above the largest multiple of the bound.
 */
import type { CheckpointProposedLog, ChainPrunedLog } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToBigint, hexToBytes } from '../../spec/codec/bytes.js';
import { decodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { hashToFieldBytes } from '../../spec/hash.js';
import { committeeSeed, memberDrawPreimage, proposerDrawPreimage } from '../../spec/validators/committeeDraws.js';
import type { SimFailure } from './simFailure.js';

/** Seats of a committee at most, and how many epochs back its seed source lies. */
const REFERENCE_COMMITTEE_SEATS_MAX = 48;
const REFERENCE_SEED_LAG_EPOCHS = 2;
const REFERENCE_DRAW_RANGE = 1n << 248n;
/** Rejected draws in a row before the model gives up (each rejection has a chance below 2^-200 here). */
const REFERENCE_DRAW_ATTEMPTS_MAX = 64;

function uniformDraw(bound: number, preimage: (attempt: number) => Uint8Array): number {
  const limit = REFERENCE_DRAW_RANGE - (REFERENCE_DRAW_RANGE % BigInt(bound));
  for (let attempt = 0; attempt < REFERENCE_DRAW_ATTEMPTS_MAX; attempt++) {
    const value = bytesToBigint(hashToFieldBytes(preimage(attempt)));
    if (value < limit) return Number(value % BigInt(bound));
  }
  throw new Error(`the reference draw below ${bound} found no accepted value`);
}

/** The proposer's address of `slot` among `validators` (registration order) with the epoch's seed source. */
export function referenceProposer(
  validators: readonly Hex[],
  slot: number,
  epochDurationSlots: number,
  seedSource: Hex,
): Hex {
  const epoch = Math.floor(slot / epochDurationSlots);
  const seed = committeeSeed(epoch, seedSource);
  const indices = validators.map((_, i) => i);
  const seats = Math.min(REFERENCE_COMMITTEE_SEATS_MAX, validators.length);
  for (let position = 0; position < seats; position++) {
    const pick = position + uniformDraw(validators.length - position, (a) => memberDrawPreimage(seed, position, a));
    [indices[position], indices[pick]] = [indices[pick]!, indices[position]!];
  }
  const seat = uniformDraw(seats, (a) => proposerDrawPreimage(seed, slot, a));
  return validators[indices[seat]!]!.toLowerCase() as Hex;
}

type ChainLog =
  | { readonly kind: 'proposed'; readonly log: CheckpointProposedLog }
  | { readonly kind: 'pruned'; readonly log: ChainPrunedLog };

function l1Order(a: ChainLog, b: ChainLog): number {
  const [x, y] = [a.log.l1, b.log.l1];
  return x.blockNumber === y.blockNumber ? x.logIndex - y.logIndex : x.blockNumber < y.blockNumber ? -1 : 1;
}

export interface ProposerRuleInput {
  readonly proposed: readonly CheckpointProposedLog[];
  readonly pruned: readonly ChainPrunedLog[];
  /** Validator addresses in registration order, all active from epoch 0 (the simulator registers them at deployment). */
  readonly validators: readonly Hex[];
  readonly epochDurationSlots: number;
  readonly genesisArchiveRoot: Hex;
}

/**
 * Walks L1's checkpoint and prune logs in L1 order, keeping the chain L1 held, and checks each checkpoint's coinbase
 * against the proposer its slot draws from the seed source that chain gives.
 */
export function checkProposers(input: ProposerRuleInput): SimFailure[] {
  if (input.validators.length === 0) return [];
  const logs: ChainLog[] = [
    ...input.proposed.map((log) => ({ kind: 'proposed' as const, log })),
    ...input.pruned.map((log) => ({ kind: 'pruned' as const, log })),
  ].sort(l1Order);
  const chain: { slot: number; archive: Hex }[] = [];
  const failures: SimFailure[] = [];
  for (const entry of logs) {
    if (entry.kind === 'pruned') {
      chain.length = Math.min(chain.length, entry.log.provenCheckpointNumber);
      continue;
    }
    const { checkpointNumber, slotNumber, archive } = entry.log;
    chain.length = Math.min(chain.length, checkpointNumber - 1);
    const sourceSlot = Math.max(0, Math.floor(slotNumber / input.epochDurationSlots) - REFERENCE_SEED_LAG_EPOCHS);
    const source = chain.filter((c) => c.slot < sourceSlot * input.epochDurationSlots).at(-1);
    const expected = referenceProposer(
      input.validators,
      slotNumber,
      input.epochDurationSlots,
      source?.archive ?? input.genesisArchiveRoot,
    );
    const coinbase = decodeCheckpointHeader(hexToBytes(entry.log.header)).coinbase.toLowerCase();
    if (coinbase !== expected)
      failures.push({
        kind: 'proposerWrong',
        detail: `checkpoint ${checkpointNumber} of slot ${slotNumber} was proposed by ${coinbase}; the slot's proposer is ${expected}`,
      });
    chain.push({ slot: slotNumber, archive });
  }
  return failures;
}
