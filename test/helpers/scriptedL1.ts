/**
 * An L1 for archiver tests, driven by the test: blocks 12 seconds apart from Unix time 0, the rollup contract's
 * proposals, proofs, prunes and inbox messages placed in the blocks the test mines, reorgs that replace blocks, and
 * the blobs of every proposal. Reads answer as of the block they are pinned to, as the real contract does; the reads
 * the archiver does not make throw.
 */
import type { BlobSourceChain } from '../../core/blobs/blobSourceChain.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type {
  ChainPrunedLog,
  CheckpointProposedLog,
  InboxMessageLog,
  L1BlockRef,
  L1BlockTag,
  L1LogPosition,
  L1ReaderPort,
  ProvenCheckpoint,
} from '../../core/ports.js';
import type { Block, CheckpointHeader, Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { encodeCheckpointPayload, payloadToBlobs } from '../../spec/codec/checkpointBlobs.js';
import { blobsHash, encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { hashToField } from '../../spec/hash.js';
import { outTreeRoot } from '../../spec/messages/outbox.js';

/** Seconds between the scripted L1's blocks. */
export const SCRIPTED_L1_BLOCK_SECONDS = 12n;

/** Blocks behind the head that the scripted L1 reports as finalized. */
export const SCRIPTED_L1_FINALITY_LAG_BLOCKS = 64n;

const hex32 = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;

type ContractEvent =
  | { readonly kind: 'proposed'; readonly log: CheckpointProposedLog }
  | { readonly kind: 'pruned'; readonly log: ChainPrunedLog }
  | { readonly kind: 'proven'; readonly checkpointNumber: number; readonly blockNumber: bigint };

export class ScriptedL1 {
  private readonly blocks: L1BlockRef[] = [];
  private readonly events: ContractEvent[] = [];
  private readonly messages: InboxMessageLog[] = [];
  private readonly blobs = new Map<Hex, Uint8Array>();
  /** Changes the hashes of blocks mined after a reorg. */
  private fork = 0n;
  /** When set, the contract counts its pending chain as pruned (its epoch is prunable). */
  countsAsPruned = false;
  /** Reads of these kinds fail with L1_UNREACHABLE (the test's way of making L1 fail mid-step). */
  readonly failing = new Set<keyof L1ReaderPort>();
  /** Every getBlobs request's urgency, in order. */
  readonly urgencies: string[] = [];

  constructor(readonly genesisArchive: Hex) {
    this.mine();
  }

  get head(): L1BlockRef {
    return this.blocks[this.blocks.length - 1]!;
  }

  /** Mines one empty block. */
  mine(): L1BlockRef {
    const number = BigInt(this.blocks.length);
    const block = {
      number,
      hash: hashToField(new TextEncoder().encode(`block ${number} fork ${this.fork}`)),
      parentHash: this.blocks[this.blocks.length - 1]?.hash ?? hex32(0n),
      timestamp: number * SCRIPTED_L1_BLOCK_SECONDS,
    };
    this.blocks.push(block);
    return block;
  }

  /** Mines empty blocks until the head is block `number`. */
  mineTo(number: bigint): L1BlockRef {
    while (this.head.number < number) this.mine();
    return this.head;
  }

  /** Mines a block holding the proposal (its `l1` filled in) and keeps its blobs. */
  propose(log: Omit<CheckpointProposedLog, 'l1'>, blobs: readonly Uint8Array[]): CheckpointProposedLog {
    const proposed = { ...log, l1: this.position(this.mine(), 0) };
    log.blobVersionedHashes.forEach((hash, i) => this.blobs.set(hash, blobs[i]!));
    this.events.push({ kind: 'proposed', log: proposed });
    return proposed;
  }

  /** Mines a block holding a proof of the checkpoints up to `checkpointNumber`. */
  prove(checkpointNumber: number): L1BlockRef {
    const block = this.mine();
    this.events.push({ kind: 'proven', checkpointNumber, blockNumber: block.number });
    return block;
  }

  /** Mines a block in which the contract prunes its pending chain back to its proven checkpoint. */
  prune(): ChainPrunedLog {
    const block = this.mine();
    const log = {
      provenCheckpointNumber: this.provenAt(block.number).checkpointNumber,
      pendingCheckpointCount: this.countAt(block.number, false),
      l1: this.position(block, 0),
    };
    this.events.push({ kind: 'pruned', log });
    return log;
  }

  /** Mines a block holding these inbox messages. */
  sendMessages(messages: readonly Omit<InboxMessageLog, 'l1'>[]): InboxMessageLog[] {
    const block = this.mine();
    const logs = messages.map((message, i) => ({ ...message, l1: this.position(block, i) }));
    this.messages.push(...logs);
    return logs;
  }

  /** Drops the blocks above `number` and everything in them; blocks mined next get other hashes. */
  reorgTo(number: bigint): void {
    this.blocks.length = Number(number) + 1;
    this.fork++;
    const kept = (at: bigint) => at <= number;
    const events = this.events.filter((e) => kept(e.kind === 'proven' ? e.blockNumber : e.log.l1.blockNumber));
    this.events.splice(0, this.events.length, ...events);
    const messages = this.messages.filter((m) => kept(m.l1.blockNumber));
    this.messages.splice(0, this.messages.length, ...messages);
  }

  private position(block: L1BlockRef, logIndex: number): L1LogPosition {
    return { blockNumber: block.number, blockHash: block.hash, txHash: hex32(0x7000n + block.number), logIndex };
  }

  private eventsUpTo(at: bigint): ContractEvent[] {
    return this.events.filter((e) => (e.kind === 'proven' ? e.blockNumber : e.log.l1.blockNumber) <= at);
  }

  private provenAt(at: bigint): ProvenCheckpoint {
    let proven: ProvenCheckpoint = { checkpointNumber: 0, l1BlockNumber: 0n };
    for (const e of this.eventsUpTo(at))
      if (e.kind === 'proven') proven = { checkpointNumber: e.checkpointNumber, l1BlockNumber: e.blockNumber };
    return proven;
  }

  private countAt(at: bigint, prunedView: boolean): number {
    let count = 0;
    for (const e of this.eventsUpTo(at)) {
      if (e.kind === 'proposed') count = e.log.checkpointNumber;
      if (e.kind === 'pruned') count = e.log.provenCheckpointNumber;
    }
    return prunedView && this.countsAsPruned ? this.provenAt(at).checkpointNumber : count;
  }

  private blockAt(tag: L1BlockTag): L1BlockRef {
    const number =
      tag === 'latest'
        ? this.head.number
        : tag === 'finalized'
          ? this.head.number > SCRIPTED_L1_FINALITY_LAG_BLOCKS
            ? this.head.number - SCRIPTED_L1_FINALITY_LAG_BLOCKS
            : 0n
          : tag;
    const block = this.blocks[Number(number)];
    if (block === undefined) throw new L1Error('L1_BLOCK_NOT_FOUND', `no L1 block ${tag}`);
    return block;
  }

  private check(read: keyof L1ReaderPort): void {
    if (this.failing.has(read)) throw new L1Error('L1_UNREACHABLE', `${read} failed`);
  }

  /** The reader port the archiver reads through. */
  reader(): L1ReaderPort {
    const between = <T extends { l1: L1LogPosition }>(logs: readonly T[], from: bigint, to: bigint): T[] =>
      logs.filter((log) => log.l1.blockNumber >= from && log.l1.blockNumber <= to);
    const unsupported = (name: string) => () => Promise.reject(new Error(`scripted L1: ${name} is not scripted`));
    const port = {
      getBlock: async (tag: L1BlockTag) => this.blockAt(tag),
      getCheckpointCount: async (at: bigint) => this.countAt(at, true),
      getArchiveAt: async (checkpointNumber: number, at: bigint) => {
        if (checkpointNumber === 0) return this.genesisArchive;
        const proposals = this.eventsUpTo(at).flatMap((e) => (e.kind === 'proposed' ? [e.log] : []));
        const log = proposals.filter((p) => p.checkpointNumber === checkpointNumber).pop();
        return log?.archive ?? hex32(0n);
      },
      getCheckpointProposedLogs: async (from: bigint, to: bigint) =>
        between(
          this.events.flatMap((e) => (e.kind === 'proposed' ? [e.log] : [])),
          from,
          to,
        ),
      getChainPrunedLogs: async (from: bigint, to: bigint) =>
        between(
          this.events.flatMap((e) => (e.kind === 'pruned' ? [e.log] : [])),
          from,
          to,
        ),
      getProvenCheckpoint: async (at: bigint) => this.provenAt(at),
      getInboxMessageLogs: async (from: bigint, to: bigint) => between(this.messages, from, to),
    };
    return new Proxy(port as unknown as L1ReaderPort, {
      get: (target, name: keyof L1ReaderPort) => {
        const read = (target as unknown as Record<string, unknown>)[name];
        if (read === undefined) return unsupported(String(name));
        return async (...args: unknown[]) => {
          this.check(name);
          return (read as (...a: unknown[]) => Promise<unknown>)(...args);
        };
      },
    });
  }

  /** A blob source answering from the proposals' blobs. */
  blobSource(): BlobSourceChain {
    return {
      getBlobs: async (request, urgency) => {
        this.urgencies.push(urgency);
        return request.versionedHashes.map((hash) => {
          const blob = this.blobs.get(hash);
          if (blob === undefined) throw new L1Error('L1_BLOBS_UNAVAILABLE', `no blob ${hash}`);
          return blob;
        });
      },
      keepPublished: () => undefined,
      checkSources: async () => [],
      stats: () => [],
    };
  }
}

/** A checkpoint as its proposer publishes it (core/sequencer/sequencerDuties.ts, publishCheckpoint). */
export interface CheckpointProposal {
  readonly log: Omit<CheckpointProposedLog, 'l1'>;
  readonly header: CheckpointHeader;
  readonly blobs: Uint8Array[];
}

/**
 * The proposal of checkpoint `checkpointNumber` holding `blocks` (all of `slot`), on top of the archive root
 * `lastArchiveRoot`; blob versioned hashes are the blobs' hashes.
 */
export function checkpointProposalOf(
  checkpointNumber: number,
  lastArchiveRoot: Hex,
  slot: number,
  blocks: readonly Block[],
  slotDurationSeconds: number,
): CheckpointProposal {
  const blobs = payloadToBlobs(
    encodeCheckpointPayload(blocks.map((b) => ({ header: b.header, txEffects: b.body.txEffects }))),
  );
  const blobVersionedHashes = blobs.map((blob) => hashToField(blob));
  const last = blocks[blocks.length - 1]!;
  const header: CheckpointHeader = {
    lastArchiveRoot,
    slotNumber: slot,
    timestamp: BigInt(slot * slotDurationSeconds),
    coinbase: `0x${'11'.repeat(20)}`,
    feeRecipient: `0x${'00'.repeat(32)}`,
    gasFees: last.header.globalVariables.gasFees,
    blockCount: blocks.length,
    blobsHash: blobsHash(blobVersionedHashes),
    totalManaUsed: blocks.reduce((sum, b) => sum + b.header.totalManaUsed, 0n),
    inHash: blocks[0]!.header.contentCommitment.inHash,
    outHash: outTreeRoot(blocks.map((b) => b.header.contentCommitment.outHash)),
  };
  const log = {
    checkpointNumber,
    archive: last.archive.root,
    slotNumber: slot,
    header: bytesToHex(encodeCheckpointHeader(header)),
    blobVersionedHashes,
    attestations: '0x' as Hex,
  };
  return { log, header, blobs };
}
