/**
 * The validator subsystem of a node: it listens to validator gossip (NetworkPort), keeps the attestation pool, the
 * offense log and the statistics, attests the checkpoint proposals its keystore's committee members are asked to,
 * and, for the node's sequencer, signs its checkpoint proposal and collects the committee's quorum before the
 * checkpoint goes to L1.
 *
 * What a committee member checks before attesting (`attestationRefusal`): the proposal is the first one the slot's
 * proposer signed (the pool admits it only with a valid proposer signature), it is for the current slot, its header
 * is the one the payload commits to and builds on this node's checkpointed archive, the proposer's block proposals
 * for the slot are all there and end at the payload's archive root, each block's gossiped body and header are bound
 * to its signed payload (core/validators/blockContent.ts: the body to txHashesHash, the header to the archive root),
 * and every block stays within the operator's VALIDATOR_MAX_* limits, measured per block (core/validators/
 * validatorLimits.ts): txs per block and per checkpoint, L2 gas from the block header's totalManaUsed, DA gas from the
 * size of the block's encoded tx effects, as the sequencer measures them. It does not re-execute the txs: the L2 gas
 * figure is the proposer's signed claim, and every node re-checks each block's state roots when it syncs the
 * checkpoint from L1.
 */
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { decodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import {
  encodeCheckpointAttestations,
  type CommitteeAttestation,
} from '../../spec/validators/checkpointAttestations.js';
import { BLOCKS_PER_CHECKPOINT_MAX } from '../../spec/constants.js';
import { ATTESTATION_POOL_SLOTS_KEPT, ATTESTATION_WAIT_POLL_MS } from '../../spec/validators/constants.js';
import { encodeBlockProposalContent, type BlockProposalContent } from '../../spec/validators/blockProposalContent.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import {
  blockProposalPayloadHash,
  checkpointHeaderHash,
  checkpointProposalPayloadHash,
  type BlockProposalPayload,
  type CheckpointProposalPayload,
} from '../../spec/validators/signingPayloads.js';
import { assert } from '../assert.js';
import type { Chain } from '../chain/chain.js';
import { syncedSlotAt } from '../chain/chainService.js';
import { NodeError } from '../errors.js';
import type {
  BlockProposalMessage,
  ClockPort,
  GossipMessage,
  GossipVerdict,
  LoggerPort,
  MetricsPort,
  NetworkPort,
  NetworkRequestHandlers,
  SigningGuardPort,
} from '../ports.js';
import { AttestationPool, type PoolAddOutcome, type PoolRejection } from './attestationPool.js';
import {
  BlockContentStore,
  checkedBlockContent,
  proposedBlocksRefusal,
  type BlockContentRefusal,
} from './blockContent.js';
import { signBlockProposal, signCheckpointAttestation, signCheckpointProposal } from './bls.js';
import { committeeMemberOf, type SlotDuties } from './committee.js';
import { SigningClaims, UNGUARDED_SIGNING } from './signingClaims.js';
import type { KeystoreState, KeystoreValidator } from './keystore.js';
import type { OffenseValue, SlashRoundQuery } from './offenses.js';
import { slotRecordOf, statsSlotsEnd, ValidatorStatsHistory, type LandedCheckpoint, type SlotRecord } from './stats.js';
import type { ValidatorDuties } from './validatorDuties.js';
import type { ValidatorLimitRefusal, ValidatorLimits } from './validatorLimits.js';
import type { ValidatorStore } from './validatorStore.js';

export interface ValidatorClientDeps {
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly clock: ClockPort;
  readonly logger: LoggerPort;
  readonly duties: ValidatorDuties;
  /** Absent: the node only checks quorums on sync; it neither hears proposals nor attests. */
  readonly network: NetworkPort | undefined;
  readonly keystore: () => KeystoreState;
  readonly limits: () => ValidatorLimits;
  /** The slot at the clock's time (timetable). */
  readonly slotAt: (nowMs: number) => number;
  /** Claims each duty before it is signed (HA signing); absent: every claim is granted. */
  readonly signingGuard?: SigningGuardPort;
  /** The offense log and statistics as persisted, written back as they change; absent: both kept in memory only. */
  readonly store?: ValidatorStore;
  /**
   * The node's answers to its peers' other requests, served beside the block proposals this client holds while it
   * runs; absent: the client serves nothing.
   */
  readonly requestHandlers?: Pick<NetworkRequestHandlers, 'status' | 'txsByHash'>;
  /** Told how many attestations each of our proposals collected, of how many required; absent: nothing is counted. */
  readonly metrics?: MetricsPort;
}

/** One block of a checkpoint to attest: the payload its proposer signs and the content gossiped beside it. */
export interface BlockToPropose {
  readonly payload: BlockProposalPayload;
  readonly content: BlockProposalContent;
}

/** What a proposer hands in to have its checkpoint signed and attested. */
export interface CheckpointToAttest {
  readonly payload: CheckpointProposalPayload;
  readonly header: Hex;
  readonly blocks: readonly BlockToPropose[];
}

/** Why a committee member does not attest a proposal (for logs and tests). */
export type AttestationRefusal =
  | 'notCurrentSlot'
  | 'headerMismatch'
  | 'notOnOurCheckpointedChain'
  | 'blockProposalsMissing'
  | 'archiveMismatch'
  | BlockContentRefusal
  | ValidatorLimitRefusal;

/** A block proposal whose content the client just kept (checked against its signed payload), and who sent it. */
export interface KeptBlockProposal {
  readonly payload: BlockProposalPayload;
  readonly content: BlockProposalContent;
  /** The peer it came from; undefined when handed in without one (tests). */
  readonly from: string | undefined;
}

export type ValidatorEvent =
  | { readonly kind: 'attested'; readonly slot: number; readonly attesters: readonly Hex[] }
  | { readonly kind: 'attestationRefused'; readonly slot: number; readonly reason: AttestationRefusal }
  | { readonly kind: 'offense'; readonly offense: OffenseValue };

const lower = (hex: Hex): Hex => hex.toLowerCase() as Hex;

/** The gossip the validator subsystem handles (txs go to the pool). */
export type ValidatorGossip = Exclude<GossipMessage, { readonly kind: 'tx' }>;

/** Rejections that prove the sender sent something invalid (the others are timing or knowledge, not blame). */
const BLAMED_REJECTIONS: ReadonlySet<PoolRejection> = new Set<PoolRejection>([
  'wrongChain',
  'malformedPayload',
  'notProposer',
  'notCommitteeMember',
  'badSignature',
]);

/**
 * The gossip verdict of a pool outcome: new entries and equivocation evidence are forwarded (every node should see an
 * offense), duplicates and untimely messages are ignored, forged or malformed ones rejected.
 */
export function gossipVerdictOf(outcome: PoolAddOutcome): GossipVerdict {
  switch (outcome.kind) {
    case 'added':
    case 'offense':
      return 'accept';
    case 'known':
      return 'ignore';
    case 'rejected':
      return BLAMED_REJECTIONS.has(outcome.reason) ? 'reject' : 'ignore';
  }
}

export class ValidatorClient {
  readonly pool: AttestationPool;
  readonly stats: ValidatorStatsHistory;
  private unsubscribe: (() => void) | undefined;
  private stopServing: (() => void) | undefined;
  private stopped = false;
  private readonly waiters = new Set<() => void>();
  private readonly listeners: ((event: ValidatorEvent) => void)[] = [];
  private readonly keptListeners: ((kept: KeptBlockProposal) => void)[] = [];
  /** Proposals our members would attest once the proposer's block proposals arrive (gossip may reorder them). */
  private readonly awaitingBlocks = new Map<
    number,
    { readonly payload: CheckpointProposalPayload; readonly header: Hex; readonly from: string | undefined }
  >();
  /** Block indexes asked of peers, by slot: one request in flight per block, for the slot being attested only. */
  private readonly blockRequests = new Map<number, Set<number>>();
  /** The checked header and body of each block proposal the pool holds for the slots we may still attest. */
  private readonly blockContents = new BlockContentStore();
  /** Slots whose statistics are recorded up to (exclusive). */
  private statsFromSlot: number;
  private readonly signingClaims: SigningClaims;

  /** Who has which duty (read by tests and scenarios). */
  get duties(): ValidatorDuties {
    return this.deps.duties;
  }

  constructor(private readonly deps: ValidatorClientDeps) {
    const currentSlot = deps.slotAt(deps.clock.now());
    this.pool = new AttestationPool({
      chain: { l1ChainId: deps.constants.l1ChainId, rollupVersion: deps.constants.rollupVersion },
      dutiesForSlot: (slot) => deps.duties.cachedDuties(slot),
      currentSlot: Math.max(0, currentSlot),
      ...(deps.store !== undefined ? { offenseLog: deps.store.offenseLog } : {}),
    });
    this.stats = deps.store?.stats ?? new ValidatorStatsHistory();
    // Slots before the start are not recorded (their gossip went unheard), also not after a restart.
    this.statsFromSlot = Math.max(0, currentSlot, (this.stats.lastProcessedSlot ?? -1) + 1);
    this.signingClaims = new SigningClaims(deps.signingGuard ?? UNGUARDED_SIGNING, deps.logger);
  }

  onEvent(listener: (event: ValidatorEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Called with each block proposal whose content is newly kept (a follower applies it: proposedBlockFollower.ts). */
  onBlockProposalKept(listener: (kept: KeptBlockProposal) => void): void {
    this.keptListeners.push(listener);
  }

  start(): void {
    const { network, requestHandlers } = this.deps;
    this.unsubscribe = network?.subscribe(async (message, from) => {
      if (message.kind === 'tx') return 'ignore';
      try {
        return gossipVerdictOf(await this.receive(message, from));
      } catch (error: unknown) {
        this.deps.logger.warn('gossip message not processed', { kind: message.kind, error: String(error) });
        return 'ignore';
      }
    });
    if (requestHandlers !== undefined)
      this.stopServing = network?.serve({
        ...requestHandlers,
        blockProposal: async (slot, index) => this.heldBlockProposal(slot, index),
      });
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.stopServing?.();
    this.stopServing = undefined;
    for (const wake of this.waiters) wake();
  }

  /** Our keystore's validators that sit on the slot's committee. */
  private ourMembers(duties: SlotDuties): KeystoreValidator[] {
    return this.deps.keystore().validators.filter((v) => committeeMemberOf(duties.committee, v.attester) !== undefined);
  }

  /** Our keystore's validator that is the slot's proposer, if any. */
  ourProposer(duties: SlotDuties): KeystoreValidator | undefined {
    const proposer = duties.proposer?.address;
    return proposer === undefined
      ? undefined
      : this.deps.keystore().validators.find((v) => lower(v.attester) === proposer);
  }

  /**
   * Moves the pool's window to the clock's slot, and records the statistics of the slots that are over and whose L1
   * data is in (stats.ts `statsSlotsEnd`: synced past them, or waited long enough).
   */
  private async advance(): Promise<void> {
    const slot = this.deps.slotAt(this.deps.clock.now());
    if (slot < 0) return;
    this.pool.advanceToSlot(slot);
    this.blockContents.dropBefore(this.pool.currentSlot);
    const synced = this.deps.chain.l1Sync;
    const end = statsSlotsEnd(slot, synced && syncedSlotAt(this.deps.constants, synced.timestamp));
    if (this.statsFromSlot >= end) return;
    const landed = await this.checkpointSlots(this.statsFromSlot);
    // Slots older than the pool's window have no activity left to count; the statistics start at the window.
    this.statsFromSlot = Math.max(this.statsFromSlot, slot - ATTESTATION_POOL_SLOTS_KEPT + 1);
    const recorded: SlotRecord[] = [];
    for (; this.statsFromSlot < end; this.statsFromSlot++) {
      const duties = this.deps.duties.cachedDuties(this.statsFromSlot);
      if (duties === undefined) continue;
      const record = slotRecordOf(duties, this.pool.slotActivity(this.statsFromSlot), landed.get(this.statsFromSlot));
      if (this.stats.record(record)) recorded.push(record);
    }
    this.deps.store?.slotsRecorded(recorded);
  }

  /**
   * The checkpoints of the node's chain from `fromSlot` on, by slot, with the attesters each carries (at most the
   * pool's window of them).
   */
  private async checkpointSlots(fromSlot: number): Promise<Map<number, LandedCheckpoint>> {
    const slots = new Map<number, LandedCheckpoint>();
    const top = this.deps.chain.tips.checkpointed.checkpoint.number;
    for (let n = top; n >= 1 && n > top - ATTESTATION_POOL_SLOTS_KEPT; n--) {
      const checkpoint = await this.deps.chain.store.getCheckpoint(n);
      if (checkpoint === undefined) continue;
      if (checkpoint.header.slotNumber < fromSlot) break;
      const attesters = new Set(checkpoint.attestations.map((a) => lower(a.attester)));
      slots.set(checkpoint.header.slotNumber, { attesters });
    }
    return slots;
  }

  /**
   * The block proposal the pool holds for the slot's block at `indexWithinCheckpoint`, with the content it was checked
   * with, as a peer that missed it asks for it (the first one held, when its proposer equivocated).
   */
  heldBlockProposal(slot: number, indexWithinCheckpoint: number): BlockProposalMessage | undefined {
    for (const held of this.pool.signedBlockProposals(slot)) {
      if (held.payload.indexWithinCheckpoint !== indexWithinCheckpoint) continue;
      const content = this.blockContents.get(slot, held.payloadHash);
      if (content === undefined) continue;
      const { header, body } = encodeBlockProposalContent(content);
      return {
        kind: 'blockProposal',
        payload: held.payload,
        header,
        body,
        proposer: held.proposer,
        signature: held.signature,
      };
    }
    return undefined;
  }

  /**
   * One gossip message (or a requested block proposal) from peer `from`: into the pool; a committee member then checks
   * and attests a proposal.
   */
  async receive(message: ValidatorGossip, from?: string): Promise<PoolAddOutcome> {
    await this.advance();
    if (this.pool.keepsSlot(message.payload.slot)) await this.deps.duties.prepareDuties(message.payload.slot);
    const outcome = this.addToPool(message);
    const contentKept = message.kind === 'blockProposal' && this.keepBlockContent(message, outcome, from);
    if (outcome.kind === 'offense') {
      this.deps.logger.warn('offense detected', {
        ...outcome.offense,
        round: String(outcome.offense.round),
        amount: String(outcome.offense.amount),
      });
      this.emit({ kind: 'offense', offense: outcome.offense });
    }
    if (message.kind === 'checkpointAttestation' && (outcome.kind === 'added' || outcome.kind === 'offense'))
      for (const wake of [...this.waiters]) wake();
    if (message.kind === 'checkpointProposal' && outcome.kind === 'added')
      await this.attest(message.payload, message.header, from);
    const blockArrived = message.kind === 'blockProposal' && (outcome.kind === 'added' || contentKept);
    const waiting = blockArrived ? this.awaitingBlocks.get(message.payload.slot) : undefined;
    if (waiting !== undefined) await this.attest(waiting.payload, waiting.header, waiting.from);
    return outcome;
  }

  private addToPool(message: ValidatorGossip): PoolAddOutcome {
    switch (message.kind) {
      case 'checkpointProposal':
        return this.pool.addCheckpointProposal(message);
      case 'checkpointAttestation':
        return this.pool.addCheckpointAttestation(message);
      case 'blockProposal':
        return this.pool.addBlockProposal(message);
    }
  }

  /**
   * Keeps a block proposal's header and body when the pool holds its payload, for a slot we may still attest, and
   * they pass the checks that need no chain state; true when newly kept. A copy whose content fails is logged and
   * dropped (the signed payload stays in the pool); a later copy of the same payload may still bring a good one, and
   * a proposal refused for the missing body is then checked again.
   */
  private keepBlockContent(message: BlockProposalMessage, outcome: PoolAddOutcome, from: string | undefined): boolean {
    if (outcome.kind === 'rejected' || message.payload.slot < this.pool.currentSlot) return false;
    if (this.blockContents.has(message.payload.slot, outcome.payloadHash)) return false;
    const checked = checkedBlockContent(message.payload, message.header, message.body);
    if (!checked.ok) {
      this.deps.logger.warn('block proposal content refused', {
        slot: message.payload.slot,
        block: message.payload.blockNumber,
        reason: checked.reason,
      });
      return false;
    }
    this.blockContents.add(message.payload.slot, outcome.payloadHash, checked.content);
    for (const listener of this.keptListeners) listener({ payload: message.payload, content: checked.content, from });
    return true;
  }

  private emit(event: ValidatorEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  /**
   * Signs and publishes our committee members' attestations of a proposal that passes the checks; `from` is the peer
   * that sent the proposal, asked first for the block proposals it is missing.
   */
  private async attest(payload: CheckpointProposalPayload, header: Hex, from?: string): Promise<void> {
    const duties = this.deps.duties.cachedDuties(payload.slot);
    if (duties === undefined) return;
    const members = this.ourMembers(duties);
    if (members.length === 0) return;
    const refusal = await this.attestationRefusal(payload, header);
    this.awaitingBlocks.delete(payload.slot);
    if (refusal === 'blockProposalsMissing' || refusal === 'blockBodyMismatch') {
      // Held until the missing block proposals, or a copy of one whose body passes, arrive; one slot's worth at most,
      // dropped with the slot. A bad body is still reported now: a good copy may never come.
      for (const slot of [...this.awaitingBlocks.keys()]) if (slot < payload.slot) this.awaitingBlocks.delete(slot);
      this.awaitingBlocks.set(payload.slot, { payload, header, from });
      if (refusal === 'blockProposalsMissing') {
        this.requestMissingBlockProposals(payload.slot, header, from);
        return;
      }
    }
    if (refusal !== undefined) {
      this.deps.logger.info('not attesting a checkpoint proposal', { slot: payload.slot, reason: refusal });
      this.emit({ kind: 'attestationRefused', slot: payload.slot, reason: refusal });
      return;
    }
    const attesters: Hex[] = [];
    const payloadHash = checkpointProposalPayloadHash(payload);
    for (const member of members) {
      const duty = {
        validatorAddress: lower(member.attester),
        slot: payload.slot,
        kind: 'checkpointAttestation',
        blockIndex: 0,
      } as const;
      if (!(await this.signingClaims.mayClaim(duty, payloadHash))) continue;
      const { signature } = signCheckpointAttestation(member.blsSecretKey, payload);
      const message = { kind: 'checkpointAttestation', payload, attester: lower(member.attester), signature } as const;
      const outcome = this.pool.addCheckpointAttestation(message);
      // A second payload for the slot would be our own double attestation: the pool refuses to hold it as ours.
      if (outcome.kind !== 'added') continue;
      this.deps.network?.publish(message);
      attesters.push(message.attester);
    }
    for (const wake of [...this.waiters]) wake();
    if (attesters.length > 0) this.emit({ kind: 'attested', slot: payload.slot, attesters });
  }

  /**
   * Asks peers for the block proposals of the slot's checkpoint that gossip has not brought (it may have lost them),
   * the peer that sent the proposal first. Only for the slot being attested (the refusal checked it is the current
   * one), at most one request in flight per block and BLOCKS_PER_CHECKPOINT_MAX blocks. An answer goes through
   * receive() as gossip does, which attests once every block is there.
   */
  private requestMissingBlockProposals(slot: number, header: Hex, from: string | undefined): void {
    const network = this.deps.network;
    if (network === undefined || this.stopped) return;
    for (const asked of this.blockRequests.keys()) if (asked < slot) this.blockRequests.delete(asked);
    const inFlight = this.blockRequests.get(slot) ?? new Set<number>();
    this.blockRequests.set(slot, inFlight);
    for (const index of this.missingBlockIndexes(slot, header)) {
      if (inFlight.has(index)) continue;
      inFlight.add(index);
      void this.requestBlockProposal(network, slot, index, from).finally(() => inFlight.delete(index));
    }
  }

  /** The indexes of the checkpoint's blocks (as its header counts them, bounded) whose proposal the pool lacks. */
  private missingBlockIndexes(slot: number, header: Hex): number[] {
    let blockCount: number;
    try {
      blockCount = Math.min(decodeCheckpointHeader(hexToBytes(header)).blockCount, BLOCKS_PER_CHECKPOINT_MAX);
    } catch {
      return [];
    }
    const held = new Set(this.pool.signedBlockProposals(slot).map((b) => b.payload.indexWithinCheckpoint));
    return Array.from({ length: blockCount }, (_, index) => index).filter((index) => !held.has(index));
  }

  /** One missing block proposal asked of the network; an answer the pool refuses as invalid costs its peer. */
  private async requestBlockProposal(network: NetworkPort, slot: number, index: number, from: string | undefined) {
    try {
      const answer = await network.requestBlockProposal(slot, index, from);
      if (answer === undefined) {
        this.deps.logger.info('missing block proposal not found on the network', { slot, index });
        return;
      }
      if (this.stopped) return;
      const outcome = await this.receive(answer.value, answer.from);
      if (outcome.kind === 'rejected' && gossipVerdictOf(outcome) === 'reject')
        network.penalize(answer.from, 'mid', `requested block proposal refused: ${outcome.reason}`);
    } catch (error: unknown) {
      this.deps.logger.warn('requested block proposal not processed', { slot, index, error: String(error) });
    }
  }

  /** The first check a proposal fails, or undefined when our committee members may attest it. */
  async attestationRefusal(payload: CheckpointProposalPayload, header: Hex): Promise<AttestationRefusal | undefined> {
    if (payload.slot !== this.deps.slotAt(this.deps.clock.now())) return 'notCurrentSlot';
    let decoded;
    try {
      decoded = decodeCheckpointHeader(hexToBytes(header));
    } catch {
      return 'headerMismatch';
    }
    if (checkpointHeaderHash(decoded) !== payload.checkpointHeaderHash || decoded.slotNumber !== payload.slot)
      return 'headerMismatch';
    const { chain } = this.deps;
    const tip = chain.tips.checkpointed;
    const ourArchive = (await chain.store.getBlock(tip.block.number))?.archive.root;
    if (payload.checkpointNumber !== tip.checkpoint.number + 1 || decoded.lastArchiveRoot !== ourArchive)
      return 'notOnOurCheckpointedChain';
    const blocks = this.pool.signedBlockProposals(payload.slot);
    const byIndex = new Map(blocks.map((b) => [b.payload.indexWithinCheckpoint, b]));
    if (byIndex.size !== decoded.blockCount || blocks.length !== decoded.blockCount) return 'blockProposalsMissing';
    if (byIndex.get(decoded.blockCount - 1)?.payload.archiveRoot !== payload.archiveRoot) return 'archiveMismatch';
    const previousArchive = await chain.store.getArchiveTree(tip.block.number);
    if (previousArchive === undefined) return 'notOnOurCheckpointedChain';
    const ordered = [...blocks].sort((a, b) => a.payload.indexWithinCheckpoint - b.payload.indexWithinCheckpoint);
    const proposed = ordered.map((b) => ({
      payload: b.payload,
      content: this.blockContents.get(payload.slot, b.payloadHash),
    }));
    return proposedBlocksRefusal(previousArchive, decoded, proposed, this.deps.limits());
  }

  /**
   * The proposer's side: gossips the signed block proposals and checkpoint proposal of the slot, attests with our own
   * committee members, and waits until the pool holds the committee's quorum for the payload or `deadlineMs` passes.
   * Returns the encoded attestation list for L1 (empty when the epoch has no committee); OPERATION_REFUSED when the
   * quorum did not come in time or we are not the slot's proposer.
   */
  async collectAttestations(checkpoint: CheckpointToAttest, deadlineMs: number): Promise<Hex> {
    const { payload } = checkpoint;
    await this.deps.duties.refreshAtHead(payload.slot);
    const duties = await this.deps.duties.dutiesOf(payload.slot);
    if (duties.committee.quorum === 0) return bytesToHex(encodeCheckpointAttestations([]));
    const proposer = this.ourProposer(duties);
    if (proposer === undefined)
      throw new NodeError('OPERATION_REFUSED', `slot ${payload.slot}'s proposer is not in this node's keystore`, {
        slot: payload.slot,
      });
    await this.advance();
    await this.claimProposal(lower(proposer.attester), checkpoint);
    for (const block of checkpoint.blocks) {
      const { header, body } = encodeBlockProposalContent(block.content);
      const signature = signBlockProposal(proposer.blsSecretKey, block.payload).signature;
      const message = {
        kind: 'blockProposal',
        payload: block.payload,
        header,
        body,
        proposer: lower(proposer.attester),
        signature,
      } as const;
      const outcome = this.pool.addBlockProposal(message);
      // Our own blocks: the content is what we built, with nothing to decode or check.
      if (outcome.kind !== 'rejected') this.blockContents.add(block.payload.slot, outcome.payloadHash, block.content);
      this.deps.network?.publish(message);
    }
    const signed = signCheckpointProposal(proposer.blsSecretKey, payload);
    const message = {
      kind: 'checkpointProposal',
      payload,
      header: checkpoint.header,
      proposer: lower(proposer.attester),
      signature: signed.signature,
    } as const;
    const outcome = this.pool.addCheckpointProposal(message);
    // 'offense': another proposal signed with our key reached the pool first (a forgery needs the key: an operator
    // running the key twice). Ours is still held as the evidence's second entry.
    assert(
      outcome.kind !== 'rejected',
      `our own checkpoint proposal enters the pool (${outcome.kind === 'rejected' ? outcome.reason : ''})`,
    );
    this.deps.network?.publish(message);
    await this.attest(payload, checkpoint.header);
    return this.awaitQuorum(duties, signed.payloadHash, deadlineMs);
  }

  /**
   * Claims every signature of the slot's proposal (each block proposal, then the checkpoint proposal) before any is
   * signed; OPERATION_REFUSED when one is refused, so that nothing of the slot is signed or gossiped (HA signing: a
   * redundant node holding the same key proposes instead).
   */
  private async claimProposal(proposer: Hex, checkpoint: CheckpointToAttest): Promise<void> {
    const slot = checkpoint.payload.slot;
    const claims = [
      ...checkpoint.blocks.map(
        (b) =>
          ({
            duty: { kind: 'blockProposal', blockIndex: b.payload.indexWithinCheckpoint },
            payloadHash: blockProposalPayloadHash(b.payload),
          }) as const,
      ),
      {
        duty: { kind: 'checkpointProposal', blockIndex: 0 },
        payloadHash: checkpointProposalPayloadHash(checkpoint.payload),
      } as const,
    ];
    for (const { duty, payloadHash } of claims) {
      if (!(await this.signingClaims.mayClaim({ validatorAddress: proposer, slot, ...duty }, payloadHash))) {
        throw new NodeError(
          'OPERATION_REFUSED',
          `slot ${slot}: the HA signing guard did not grant this node the ${duty.kind} duty, so it does not propose`,
          { slot, duty: duty.kind },
        );
      }
    }
  }

  /** The attestations of `payloadHash` in seat order, once there are at least a quorum of them. */
  private quorumList(duties: SlotDuties, payloadHash: Hex): CommitteeAttestation[] | undefined {
    const held = this.pool.checkpointAttestationsForSlot(duties.slot, payloadHash);
    const bySeat = new Map<number, Hex>();
    for (const attestation of held) {
      const member = committeeMemberOf(duties.committee, attestation.attester);
      if (member !== undefined && !bySeat.has(member.committeeIndex))
        bySeat.set(member.committeeIndex, attestation.signature);
    }
    if (bySeat.size < duties.committee.quorum) return undefined;
    return [...bySeat.entries()]
      .sort(([a], [b]) => a - b)
      .map(([committeeIndex, signature]) => ({ committeeIndex, signature }));
  }

  private async awaitQuorum(duties: SlotDuties, payloadHash: Hex, deadlineMs: number): Promise<Hex> {
    const { clock } = this.deps;
    for (;;) {
      const list = this.quorumList(duties, payloadHash);
      const required = duties.committee.quorum;
      if (list !== undefined) {
        this.deps.metrics?.report({
          kind: 'attestationsCollected',
          collected: list.length,
          required,
          quorumReached: true,
        });
        return bytesToHex(encodeCheckpointAttestations(list));
      }
      const now = clock.now();
      if (now >= deadlineMs || this.stopped) {
        const count = this.pool.checkpointAttestationsForSlot(duties.slot, payloadHash).length;
        this.deps.metrics?.report({ kind: 'attestationsCollected', collected: count, required, quorumReached: false });
        throw new NodeError(
          'OPERATION_REFUSED',
          `slot ${duties.slot}: ${count} attestations by the deadline, the committee of ${duties.committee.members.length} needs ${duties.committee.quorum}`,
          {
            slot: duties.slot,
            attestations: count,
            quorum: duties.committee.quorum,
          },
        );
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clock.clearTimeout(timer);
          resolve();
        };
        const timer = clock.setTimeout(wake, Math.max(1, Math.min(ATTESTATION_WAIT_POLL_MS, deadlineMs - now)));
        this.waiters.add(wake);
      });
    }
  }

  /** svc_getValidatorsStats / svc_getValidatorStats answer from the statistics brought up to the current slot. */
  async refreshStats(): Promise<void> {
    await this.advance();
  }

  slashOffenses(query: SlashRoundQuery): OffenseValue[] {
    return this.pool.slashOffenses(query);
  }

  /** Resolves once the offenses and statistics recorded so far are written to storage (before it closes). */
  recordsWritten(): Promise<void> {
    return this.deps.store?.settled() ?? Promise.resolve();
  }
}
