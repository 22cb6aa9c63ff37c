/**
 * The attestation pool: the checkpoint proposals, block proposals and checkpoint attestations of recent slots, as
 * received from peers or made by this node. It answers svc_getCheckpointAttestationsForSlot and
 * svc_getProposalsForSlot, feeds the validator statistics, and detects double signing (OffenseLog).
 *
 * An entry is kept only if it is for this rollup (chain id and rollup version), within the slot window, signed by
 * the right signer (the slot's proposer, or a member of its epoch's committee) with a valid signature. Entries carry
 * their full payload, not just its hash, so that a signature can be tied to its slot: evidence of an offense cannot
 * be made from a signature for another slot.
 *
 * Bounds: slots from `currentSlot - ATTESTATION_POOL_SLOTS_KEPT + 1` to `currentSlot + ATTESTATION_POOL_FUTURE_SLOTS_MAX`;
 * per signer and duty in a slot, at most ATTESTATION_POOL_PAYLOADS_PER_SIGNER_MAX payloads (the first, and the
 * first conflicting one, the evidence). With one proposer and COMMITTEE_SIZE members per slot, that bounds each
 * slot's lists (the *_PER_SLOT_MAX constants), which assertions check.
 */
import type { z } from 'zod';
import type { Hex } from '../../spec/chain.js';
import { CodecError } from '../../spec/codec/bytes.js';
import type { CheckpointAttestationValue, proposalsForSlot } from '../../spec/wire/p2p.js';
import {
  ATTESTATION_POOL_FUTURE_SLOTS_MAX,
  ATTESTATION_POOL_PAYLOADS_PER_SIGNER_MAX,
  ATTESTATION_POOL_SLOTS_KEPT,
  BLOCK_PROPOSALS_PER_SLOT_MAX,
  CHECKPOINT_ATTESTATIONS_PER_SLOT_MAX,
  CHECKPOINT_PROPOSALS_PER_SLOT_MAX,
} from '../../spec/validators/constants.js';
import {
  blockProposalPayloadHash,
  checkpointProposalPayloadHash,
  type BlockProposalPayload,
  type CheckpointProposalPayload,
  type SigningChain,
  type SigningRole,
} from '../../spec/validators/signingPayloads.js';
import { assert } from '../assert.js';
import { verifyPayloadSignature } from './bls.js';
import { committeeMemberOf, type SlotDuties } from './committee.js';
import { OffenseLog, type OffenseType, type OffenseValue, type SignedEntry, type SlashRoundQuery } from './offenses.js';

export type { CheckpointAttestationValue };
export type ProposalsForSlotValue = z.output<typeof proposalsForSlot>;

/** A signed entry as the pool receives it (from gossip, or from this node's own validators). */
export interface SignedCheckpointProposal {
  readonly payload: CheckpointProposalPayload;
  readonly proposer: Hex;
  readonly signature: Hex;
}
export interface SignedCheckpointAttestation {
  readonly payload: CheckpointProposalPayload;
  readonly attester: Hex;
  readonly signature: Hex;
}
export interface SignedBlockProposal {
  readonly payload: BlockProposalPayload;
  readonly proposer: Hex;
  readonly signature: Hex;
}

export type PoolRejection =
  | 'wrongChain'
  | 'malformedPayload'
  | 'slotTooOld'
  | 'slotTooFarAhead'
  /** The node does not know the slot's committee (its epoch's seed or validator set is not synced yet). */
  | 'dutiesUnknown'
  | 'notProposer'
  | 'notCommitteeMember'
  | 'badSignature'
  /** The signer already signed two payloads for this slot and duty; a third adds no evidence. */
  | 'equivocationAlreadyRecorded';

export type PoolAddOutcome =
  | { readonly kind: 'added'; readonly payloadHash: Hex }
  /** The signer's entry for this payload is already held. */
  | { readonly kind: 'known'; readonly payloadHash: Hex }
  /** Held as evidence: the signer signed another payload for the same slot and duty. */
  | { readonly kind: 'offense'; readonly payloadHash: Hex; readonly offense: OffenseValue }
  | { readonly kind: 'rejected'; readonly reason: PoolRejection };

interface SlotEntries {
  readonly checkpointProposals: SignedEntry[];
  readonly blockProposals: SignedEntry[];
  readonly attestations: SignedEntry[];
}

export interface AttestationPoolOptions {
  readonly chain: SigningChain;
  /** The committee and proposer of a slot; undefined when the node does not know them. */
  readonly dutiesForSlot: (slot: number) => SlotDuties | undefined;
  /** The slot the node is in when the pool is created (the window starts there). */
  readonly currentSlot: number;
  /** Where offenses are recorded (a log restored from storage); a new empty log when absent. */
  readonly offenseLog?: OffenseLog;
}

/** Who must have signed an entry, and under which duty key its payloads are compared. */
interface EntryRule {
  readonly role: SigningRole;
  readonly list: keyof SlotEntries;
  readonly perSlotMax: number;
  readonly offenseType: OffenseType;
  /** Entries with the same key are the same duty of the same signer: two payloads under one key are an offense. */
  readonly dutyKey: (entry: SignedEntry) => string;
}

const RULES: Record<SignedEntry['kind'], EntryRule> = {
  checkpointProposal: {
    role: 'proposer',
    list: 'checkpointProposals',
    perSlotMax: CHECKPOINT_PROPOSALS_PER_SLOT_MAX,
    offenseType: 'duplicateProposal',
    dutyKey: (e) => e.signer,
  },
  blockProposal: {
    role: 'proposer',
    list: 'blockProposals',
    perSlotMax: BLOCK_PROPOSALS_PER_SLOT_MAX,
    offenseType: 'duplicateProposal',
    dutyKey: (e) => `${e.signer}/${e.kind === 'blockProposal' ? e.payload.indexWithinCheckpoint : -1}`,
  },
  checkpointAttestation: {
    role: 'attester',
    list: 'attestations',
    perSlotMax: CHECKPOINT_ATTESTATIONS_PER_SLOT_MAX,
    offenseType: 'duplicateAttestation',
    dutyKey: (e) => e.signer,
  },
};

const lower = (hex: Hex): Hex => hex.toLowerCase() as Hex;

/** The payload's hash, or undefined when a field does not fit its encoding (a peer's malformed payload). */
function hashPayload(hash: () => Hex): Hex | undefined {
  try {
    return hash();
  } catch (error) {
    if (error instanceof CodecError) return undefined;
    throw error;
  }
}

export class AttestationPool {
  private readonly slots = new Map<number, SlotEntries>();
  private readonly offenseLog: OffenseLog;
  private current: number;

  constructor(private readonly options: AttestationPoolOptions) {
    this.offenseLog = options.offenseLog ?? new OffenseLog();
    assert(
      Number.isSafeInteger(options.currentSlot) && options.currentSlot >= 0,
      'the current slot is a non-negative safe integer',
    );
    this.current = options.currentSlot;
  }

  get currentSlot(): number {
    return this.current;
  }

  /** Moves the window forward and drops the slots that left it; a slot at or before the current one changes nothing. */
  advanceToSlot(slot: number): void {
    if (slot <= this.current) return;
    this.current = slot;
    for (const held of [...this.slots.keys()]) if (held < this.oldestSlotKept()) this.slots.delete(held);
    assert(
      this.slots.size <= ATTESTATION_POOL_SLOTS_KEPT + ATTESTATION_POOL_FUTURE_SLOTS_MAX,
      'pool within its slot window',
    );
  }

  addCheckpointProposal(proposal: SignedCheckpointProposal): PoolAddOutcome {
    const { payload, proposer, signature } = proposal;
    const payloadHash = hashPayload(() => checkpointProposalPayloadHash(payload));
    if (payloadHash === undefined) return { kind: 'rejected', reason: 'malformedPayload' };
    return this.add({
      kind: 'checkpointProposal',
      payload,
      payloadHash,
      signer: lower(proposer),
      signature: lower(signature),
    });
  }

  addCheckpointAttestation(attestation: SignedCheckpointAttestation): PoolAddOutcome {
    const { payload, attester, signature } = attestation;
    const payloadHash = hashPayload(() => checkpointProposalPayloadHash(payload));
    if (payloadHash === undefined) return { kind: 'rejected', reason: 'malformedPayload' };
    return this.add({
      kind: 'checkpointAttestation',
      payload,
      payloadHash,
      signer: lower(attester),
      signature: lower(signature),
    });
  }

  addBlockProposal(proposal: SignedBlockProposal): PoolAddOutcome {
    const { payload, proposer, signature } = proposal;
    const payloadHash = hashPayload(() => blockProposalPayloadHash(payload));
    if (payloadHash === undefined) return { kind: 'rejected', reason: 'malformedPayload' };
    return this.add({
      kind: 'blockProposal',
      payload,
      payloadHash,
      signer: lower(proposer),
      signature: lower(signature),
    });
  }

  private oldestSlotKept(): number {
    return Math.max(0, this.current - ATTESTATION_POOL_SLOTS_KEPT + 1);
  }

  /** The signer's public key if the entry may enter the pool (signature not yet checked), else why not. */
  private signerKey(
    entry: SignedEntry,
    rule: EntryRule,
  ): { readonly publicKey: Hex } | { readonly problem: PoolRejection } {
    const { payload } = entry;
    if (
      payload.l1ChainId !== this.options.chain.l1ChainId ||
      payload.rollupVersion !== this.options.chain.rollupVersion
    )
      return { problem: 'wrongChain' };
    if (payload.slot < this.oldestSlotKept()) return { problem: 'slotTooOld' };
    if (payload.slot > this.current + ATTESTATION_POOL_FUTURE_SLOTS_MAX) return { problem: 'slotTooFarAhead' };
    const duties = this.options.dutiesForSlot(payload.slot);
    if (duties === undefined) return { problem: 'dutiesUnknown' };
    const member = committeeMemberOf(duties.committee, entry.signer);
    if (rule.role === 'proposer' && (duties.proposer === undefined || duties.proposer.address !== entry.signer))
      return { problem: 'notProposer' };
    if (member === undefined) return { problem: 'notCommitteeMember' };
    return { publicKey: member.blsPublicKey };
  }

  private add(entry: SignedEntry): PoolAddOutcome {
    const rule = RULES[entry.kind];
    const signer = this.signerKey(entry, rule);
    if ('problem' in signer) return { kind: 'rejected', reason: signer.problem };
    const held = this.slots.get(entry.payload.slot)?.[rule.list] ?? [];
    const sameDuty = held.filter((e) => rule.dutyKey(e) === rule.dutyKey(entry));
    if (sameDuty.some((e) => e.payloadHash === entry.payloadHash))
      return { kind: 'known', payloadHash: entry.payloadHash };
    if (sameDuty.length >= ATTESTATION_POOL_PAYLOADS_PER_SIGNER_MAX)
      return { kind: 'rejected', reason: 'equivocationAlreadyRecorded' };
    if (!verifyPayloadSignature(rule.role, entry.payloadHash, signer.publicKey, entry.signature))
      return { kind: 'rejected', reason: 'badSignature' };
    this.store(entry, rule);
    const first = sameDuty[0];
    if (first === undefined) return { kind: 'added', payloadHash: entry.payloadHash };
    return {
      kind: 'offense',
      payloadHash: entry.payloadHash,
      offense: this.offenseLog.record(rule.offenseType, first, entry),
    };
  }

  private store(entry: SignedEntry, rule: EntryRule): void {
    let entries = this.slots.get(entry.payload.slot);
    if (entries === undefined) {
      entries = { checkpointProposals: [], blockProposals: [], attestations: [] };
      this.slots.set(entry.payload.slot, entries);
    }
    entries[rule.list].push(entry);
    assert(entries[rule.list].length <= rule.perSlotMax, `a slot holds at most ${rule.perSlotMax} ${rule.list}`);
  }

  /** svc_getCheckpointAttestationsForSlot: the slot's attestations, or only those of one proposal payload hash. */
  checkpointAttestationsForSlot(slot: number, proposalPayloadHash?: Hex): CheckpointAttestationValue[] {
    const wanted = proposalPayloadHash === undefined ? undefined : lower(proposalPayloadHash);
    const attestations = this.slots.get(slot)?.attestations ?? [];
    return attestations
      .filter((e) => wanted === undefined || e.payloadHash === wanted)
      .map((e) => {
        assert(e.kind === 'checkpointAttestation', 'the attestation list holds attestations');
        const { slot: entrySlot, checkpointNumber, archiveRoot } = e.payload;
        return {
          slot: entrySlot,
          checkpointNumber,
          archiveRoot,
          proposalPayloadHash: e.payloadHash,
          attester: e.signer,
          signature: e.signature,
        };
      });
  }

  /** svc_getProposalsForSlot: the slot's block and checkpoint proposals still held. */
  proposalsForSlot(slot: number): ProposalsForSlotValue {
    const entries = this.slots.get(slot);
    const blockProposals = (entries?.blockProposals ?? []).map((e) => {
      assert(e.kind === 'blockProposal', 'the block proposal list holds block proposals');
      const { blockNumber, indexWithinCheckpoint, archiveRoot, txHashes } = e.payload;
      return {
        blockNumber,
        indexWithinCheckpoint,
        archiveRoot,
        txHashes: [...txHashes],
        proposer: e.signer,
        signature: e.signature,
      };
    });
    const checkpointProposals = (entries?.checkpointProposals ?? []).map((e) => {
      assert(e.kind === 'checkpointProposal', 'the checkpoint proposal list holds checkpoint proposals');
      return {
        checkpointNumber: e.payload.checkpointNumber,
        archiveRoot: e.payload.archiveRoot,
        payloadHash: e.payloadHash,
        proposer: e.signer,
        signature: e.signature,
      };
    });
    return { slot, blockProposals, checkpointProposals };
  }

  /** The slot's block proposals held, with their payload hashes, in arrival order. */
  signedBlockProposals(slot: number): {
    readonly payload: BlockProposalPayload;
    readonly payloadHash: Hex;
    readonly proposer: Hex;
    readonly signature: Hex;
  }[] {
    return (this.slots.get(slot)?.blockProposals ?? []).map((e) => {
      assert(e.kind === 'blockProposal', 'the block proposal list holds block proposals');
      return { payload: e.payload, payloadHash: e.payloadHash, proposer: e.signer, signature: e.signature };
    });
  }

  /** Who did their duty in a slot, as far as the pool saw: proposers of a checkpoint proposal, and attesters. */
  slotActivity(slot: number): { readonly checkpointProposers: ReadonlySet<Hex>; readonly attesters: ReadonlySet<Hex> } {
    const entries = this.slots.get(slot);
    return {
      checkpointProposers: new Set((entries?.checkpointProposals ?? []).map((e) => e.signer)),
      attesters: new Set((entries?.attestations ?? []).map((e) => e.signer)),
    };
  }

  /** svcAdmin_getSlashOffenses: offenses of a round, of the current slot's round, or all kept. */
  slashOffenses(query: SlashRoundQuery): OffenseValue[] {
    return this.offenseLog.offenses(query, this.current);
  }

  /** The offenses with their evidence. */
  offenseRecords(query: SlashRoundQuery): ReturnType<OffenseLog['recordsOf']> {
    return this.offenseLog.recordsOf(query, this.current);
  }

  /**
   * Whether entries of `slot` fall in the window the pool keeps; others are refused before any check. The validator
   * client prepares a slot's duties only for these, so a peer's message for a far slot costs no committee draw, no
   * L1 read, and evicts no cached committee.
   */
  keepsSlot(slot: number): boolean {
    return slot >= this.oldestSlotKept() && slot <= this.current + ATTESTATION_POOL_FUTURE_SLOTS_MAX;
  }
}
