/**
 * Who has which duty, as this node sees it: the L1 validator set (read through the L1 port, pinned to an L1 block),
 * each epoch's committee and each slot's proposer (committee.ts), with the seed source read from the node's own
 * checkpoints (the archive root of the last checkpoint whose slot is below the epoch's seed-source slot).
 *
 * The set a committee is drawn from: the registered validators active by the epoch (Rollup.addValidator sets
 * `activeFromEpoch`) whose proof of possession verifies. The contract stores proofs without checking them (BLS on L1
 * would need hash-to-G2 in Solidity), so every node checks them here and leaves out the same bad entries.
 *
 * Checking a proof of possession is a BLS pairing check (about a millisecond), and the set is read again every slot,
 * so the verdicts of the last read are kept and reused for entries read again unchanged (address, key and proof): only
 * new or changed entries are checked. The verdicts kept are those of the last read's entries, so they are bounded by
 * the set itself (VALIDATOR_SET_SIZE_MAX).
 *
 * Committees are cached per epoch under the seed source and set size they were drawn from, so a prune or reorg that
 * changes the seed source draws the committee again. Reads (validator set, checkpoints) are async; the attestation
 * pool needs a synchronous answer, which `cachedDuties` gives for the epochs already prepared.
 */
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { COMMITTEE_CACHE_EPOCHS_MAX } from '../../spec/validators/constants.js';
import { assert } from '../assert.js';
import type { Chain } from '../chain/chain.js';
import type { L1ReaderPort, L1Validator, LoggerPort } from '../ports.js';
import { verifyProofOfPossession } from './bls.js';
import {
  drawCommittee,
  epochOfSlot,
  seedSourceSlot,
  slotDuties,
  type EpochCommittee,
  type SlotDuties,
} from './committee.js';

export interface ValidatorDutiesDeps {
  readonly l1: L1ReaderPort;
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly logger: LoggerPort;
}

interface CachedCommittee {
  readonly key: string;
  readonly committee: EpochCommittee;
}

export class ValidatorDuties {
  /** The set as last read, with the L1 block it was read at. */
  private set: { readonly atBlock: bigint; readonly usable: readonly L1Validator[] } | undefined;
  /** Proof-of-possession verdicts of the last read's entries, by `possessionKey`. */
  private possessionVerdicts = new Map<string, boolean>();
  private readonly committees = new Map<number, CachedCommittee>();
  /** The slot of the last read at L1's head. */
  private headReadSlot: number | undefined;

  constructor(private readonly deps: ValidatorDutiesDeps) {}

  get epochDurationSlots(): number {
    return this.deps.constants.epochDuration;
  }

  /** Reads the validator set as of `atBlock` unless it was read at that block or a later one. */
  async refreshValidatorSet(atBlock: bigint): Promise<void> {
    if (this.set !== undefined && this.set.atBlock >= atBlock) return;
    const validators = await this.deps.l1.getValidators(atBlock);
    const verdicts = new Map<string, boolean>();
    for (const v of validators) {
      const key = possessionKey(v);
      verdicts.set(
        key,
        verdicts.get(key) ??
          this.possessionVerdicts.get(key) ??
          verifyProofOfPossession(v.address, v.blsPublicKey, v.proofOfPossession),
      );
    }
    this.possessionVerdicts = verdicts;
    const usable = validators.filter((v) => verdicts.get(possessionKey(v)) === true);
    if (usable.length !== validators.length) {
      const refused = validators.filter((v) => !usable.includes(v)).map((v) => v.address);
      this.deps.logger.warn('validators left out of committees: their proof of possession does not verify', {
        validators: refused,
        l1Block: atBlock,
      });
    }
    this.set = { atBlock, usable };
  }

  /**
   * Reads the set as of L1's latest block (gossip and proposing: duties of the present, not of a synced block), at
   * most once per L2 slot: a registration changes committees only two epochs on, so a read per slot is plenty, and
   * the proposer's planning then costs no more L1 reads than one per slot.
   */
  async refreshAtHead(slot?: number): Promise<void> {
    if (slot !== undefined && slot === this.headReadSlot && this.set !== undefined) return;
    const head = await this.deps.l1.getBlock('latest');
    await this.refreshValidatorSet(head.number);
    this.headReadSlot = slot;
  }

  /** The slot's duties, reading the validator set first if it was never read; undefined when L1 cannot be read. */
  async prepareDuties(slot: number): Promise<SlotDuties | undefined> {
    const cached = this.cachedDuties(slot);
    if (cached !== undefined) return cached;
    try {
      if (this.set === undefined) await this.refreshAtHead();
      return await this.dutiesOf(slot);
    } catch (error) {
      this.deps.logger.debug('duties of a slot not known yet', {
        slot,
        error: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  }

  /** Whether any validator is registered (as last read); without validators no epoch has a committee. */
  get hasValidators(): boolean {
    return (this.set?.usable.length ?? 0) > 0;
  }

  /** The committee of `epoch`; the validator set must have been read (refreshValidatorSet). */
  async committeeOf(epoch: number): Promise<EpochCommittee> {
    assert(this.set !== undefined, 'the validator set is read before a committee is drawn');
    const members = this.set.usable.filter((v) => v.activeFromEpoch <= epoch);
    const seedSource = await this.seedSource(epoch);
    const key = `${seedSource}/${members.length}`;
    const cached = this.committees.get(epoch);
    if (cached?.key === key) return cached.committee;
    const committee = drawCommittee(members, epoch, seedSource);
    this.committees.set(epoch, { key, committee });
    for (const held of [...this.committees.keys()].sort((a, b) => a - b)) {
      if (this.committees.size <= COMMITTEE_CACHE_EPOCHS_MAX) break;
      this.committees.delete(held);
    }
    return committee;
  }

  async dutiesOf(slot: number): Promise<SlotDuties> {
    return slotDuties(
      await this.committeeOf(epochOfSlot(slot, this.epochDurationSlots)),
      slot,
      this.epochDurationSlots,
    );
  }

  /** The duties of a slot whose epoch's committee is cached; undefined otherwise. */
  cachedDuties(slot: number): SlotDuties | undefined {
    const cached = this.committees.get(epochOfSlot(slot, this.epochDurationSlots));
    return cached === undefined ? undefined : slotDuties(cached.committee, slot, this.epochDurationSlots);
  }

  /**
   * The archive root of the last checkpoint whose slot is below the epoch's seed-source slot, from the node's
   * checkpoints (genesis when none). Walks back from the checkpointed tip: one read per checkpoint above that slot,
   * at most one checkpoint per slot.
   */
  private async seedSource(epoch: number): Promise<Hex> {
    const { chain, constants } = this.deps;
    const before = seedSourceSlot(epoch, this.epochDurationSlots);
    for (let n = chain.tips.checkpointed.checkpoint.number; n >= 1; n--) {
      const checkpoint = await chain.store.getCheckpoint(n);
      assert(checkpoint !== undefined, `checkpoint ${n} below the checkpointed tip is stored`);
      if (checkpoint.header.slotNumber < before) return checkpoint.archiveRoot;
    }
    return constants.genesisArchiveRoot;
  }
}

/** What a proof-of-possession verdict depends on: the address, the key and the proof, lowercased. */
function possessionKey(v: L1Validator): string {
  return `${v.address}/${v.blsPublicKey}/${v.proofOfPossession}`.toLowerCase();
}
