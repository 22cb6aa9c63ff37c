/**
 * The simulated L1's chain of blocks: block hashes, the history mined before the rollup's deployment, reads of a
 * block as a link sees the chain (`latest` lagging, `finalized` trailing the head, a finality stall), the contract's
 * logs by kind, and dropping the top blocks for a reorg.
 */
import { assert } from '../../core/assert.js';
import type {
  ChainPrunedLog,
  CheckpointProposedLog,
  EpochProvenLog,
  InboxMessageLog,
  L1BlockRef,
  L1BlockTag,
} from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex, zeroHex } from '../../spec/codec/bytes.js';
import { L1_SLOT_DURATION_SECONDS } from '../../spec/constants.js';
import type { ContractState } from './contract.js';
import { sha256 } from './sha256.js';

export const SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT = 64;
/** Blocks the simulated chain may hold (about 138 simulated days at 12 s); more means a runaway run. */
export const SIM_L1_BLOCKS_MAX = 1_000_000;

/** The rollup contract's events by kind. */
export interface SimL1LogsByKind {
  readonly checkpointProposed: CheckpointProposedLog;
  readonly epochProven: EpochProvenLog;
  readonly chainPruned: ChainPrunedLog;
  readonly messageSent: InboxMessageLog;
}

/** One event of the rollup contract; a block keeps them in emission order. */
export type SimL1Log = {
  [K in keyof SimL1LogsByKind]: { readonly kind: K; readonly log: SimL1LogsByKind[K] };
}[keyof SimL1LogsByKind];

export interface MinedBlock {
  readonly ref: L1BlockRef;
  readonly txHashes: readonly Hex[];
  /** The contract after this block; undefined before the contract is deployed. */
  readonly contract: ContractState | undefined;
  readonly logs: readonly SimL1Log[];
}

function uint64Bytes(value: bigint): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(value);
  return out;
}

/** sha256(parentHash || number || timestamp || fork generation || tx hashes); the generation makes a block mined
 * after a reorg differ from the one it replaces even when both are empty. */
function l1BlockHash(
  parentHash: Hex,
  number: bigint,
  timestamp: bigint,
  generation: number,
  txHashes: readonly Hex[],
): Hex {
  const parts = [
    Buffer.from(parentHash.slice(2), 'hex'),
    uint64Bytes(number),
    uint64Bytes(timestamp),
    uint64Bytes(BigInt(generation)),
  ];
  for (const txHash of txHashes) parts.push(Buffer.from(txHash.slice(2), 'hex'));
  return bytesToHex(sha256(Buffer.concat(parts)));
}

export class L1Chain {
  private readonly blocks: MinedBlock[] = [];
  /** Set while finality is stalled: the finalized block number at the stall's start. */
  private finalityStalledAt: bigint | undefined;
  /** Reorgs so far: the fork generation of the blocks mined from now on. */
  private reorgCount = 0;

  constructor(readonly finalityLagBlocks: number) {}

  head(): L1BlockRef {
    return this.blocks[this.blocks.length - 1]!.ref;
  }

  /** Blocks on the chain, genesis included. */
  get length(): number {
    return this.blocks.length;
  }

  /** Block `number` on the current chain, whoever asks (no visibility limit). */
  block(number: bigint): MinedBlock | undefined {
    return this.blocks[Number(number)];
  }

  /** Blocks 0..l1StartBlock, back-dated so that the deployment block is mined now. */
  mineHistory(l1StartBlock: bigint, nowSeconds: bigint, deployed: ContractState): void {
    const interval = BigInt(L1_SLOT_DURATION_SECONDS);
    assert(
      nowSeconds >= l1StartBlock * interval,
      'the simulation starts too early for the L1 history before l1StartBlock',
    );
    let parentHash = zeroHex(32);
    for (let n = 0n; n <= l1StartBlock; n++) {
      const timestamp = nowSeconds - (l1StartBlock - n) * interval;
      const ref: L1BlockRef = { number: n, hash: l1BlockHash(parentHash, n, timestamp, 0, []), parentHash, timestamp };
      this.blocks.push({ ref, txHashes: [], contract: n === l1StartBlock ? deployed : undefined, logs: [] });
      parentHash = ref.hash;
    }
  }

  /** The number of the block mined next; asserts the chain has room for it. */
  nextBlockNumber(): bigint {
    assert(
      this.blocks.length < SIM_L1_BLOCKS_MAX,
      `the simulated L1 reached SIM_L1_BLOCKS_MAX (${SIM_L1_BLOCKS_MAX}) blocks`,
    );
    return this.head().number + 1n;
  }

  /** The reference of the block mined next on the head, at `timestamp`, holding these transactions. */
  nextBlockRef(timestamp: bigint, txHashes: readonly Hex[]): L1BlockRef {
    const parent = this.head();
    const number = parent.number + 1n;
    return {
      number,
      hash: l1BlockHash(parent.hash, number, timestamp, this.reorgCount, txHashes),
      parentHash: parent.hash,
      timestamp,
    };
  }

  append(block: MinedBlock): void {
    this.blocks.push(block);
  }

  /** Drops every block above `newHeadIndex` and starts a new fork generation; returns the dropped blocks. */
  dropAbove(newHeadIndex: number): MinedBlock[] {
    const dropped = this.blocks.splice(newHeadIndex + 1);
    this.reorgCount++;
    return dropped;
  }

  /**
   * Finality stall (validators fail to finalize): while stalled, `finalized` stays at the block it was when the
   * stall began; when it ends, `finalized` jumps to the head minus the lag again.
   */
  setFinalityStalled(stalled: boolean): void {
    this.finalityStalledAt = stalled ? (this.finalityStalledAt ?? this.finalizedNumber(this.head().number)) : undefined;
  }

  /** Highest block a link `lagBlocks` behind sees. */
  visibleHeadNumber(lagBlocks: number): bigint {
    const n = BigInt(this.blocks.length - 1 - lagBlocks);
    return n < 0n ? 0n : n;
  }

  blockAt(number: bigint, visibleHead: bigint): MinedBlock {
    if (number < 0n || number > visibleHead)
      throw new L1Error('L1_BLOCK_NOT_FOUND', `L1 block ${number} does not exist (head ${visibleHead})`);
    return this.blocks[Number(number)]!;
  }

  resolveTag(tag: L1BlockTag, visibleHead: bigint): L1BlockRef {
    if (tag === 'latest') return this.blocks[Number(visibleHead)]!.ref;
    if (tag === 'finalized') return this.blocks[Number(this.finalizedNumber(visibleHead))]!.ref;
    return this.blockAt(tag, visibleHead).ref;
  }

  /** The finalized block a link seeing up to `visibleHead` reads: the head minus the lag, held back by a stall. */
  private finalizedNumber(visibleHead: bigint): bigint {
    const lagged = visibleHead - BigInt(this.finalityLagBlocks);
    const finalized =
      this.finalityStalledAt !== undefined && this.finalityStalledAt < lagged ? this.finalityStalledAt : lagged;
    return finalized < 0n ? 0n : finalized;
  }

  /** The contract's events of one kind in `[fromBlock, toBlock]`, in L1 order. */
  logsIn<K extends keyof SimL1LogsByKind>(
    kind: K,
    fromBlock: bigint,
    toBlock: bigint,
    visibleHead: bigint,
  ): SimL1LogsByKind[K][] {
    assert(fromBlock >= 0n, `log range starts at negative block ${fromBlock}`);
    if (fromBlock > toBlock) return [];
    this.blockAt(toBlock, visibleHead);
    const logs: SimL1LogsByKind[K][] = [];
    for (let n = Number(fromBlock); n <= Number(toBlock); n++) {
      for (const entry of this.blocks[n]!.logs) if (entry.kind === kind) logs.push(entry.log as SimL1LogsByKind[K]);
    }
    return logs;
  }
}
