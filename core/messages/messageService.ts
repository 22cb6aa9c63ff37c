import type { Block, Checkpoint, Hex, L1RollupConstants } from '../../spec/chain.js';
import { OUTBOX_ROOT_CACHE_ENTRIES_MAX } from '../../spec/constants.js';
import { outMessageWitness, type EpochMessages } from '../../spec/messages/outbox.js';
import { assert } from '../assert.js';
import type { Chain } from '../chain/chain.js';
import { findTx } from '../chain/txIndex.js';
import { NodeError } from '../errors.js';
import { checkpointsInEpoch } from '../chain/chainService.js';
import type { L1ReaderPort, LoggerPort, OutboxRoot } from '../ports.js';
import { L1Error } from '../l1/l1Error.js';
import { epochOfSlot } from '../prover/proofWindow.js';
import type { InboxStore } from './inboxStore.js';

/** svc_getL2ToL1MembershipWitness's answer: a path from the message's leaf to an outbox root of its epoch. */
export interface L2ToL1MembershipWitness {
  readonly epochNumber: number;
  readonly root: Hex;
  readonly leafIndex: bigint;
  readonly siblingPath: Hex[];
}

export interface MessageService {
  /** The checkpoint that makes an L1-to-L2 message (its leaf) available; undefined when the node has not synced it. */
  getL1ToL2MessageCheckpoint(message: Hex): Promise<number | undefined>;
  /**
   * The witness of a tx's L2-to-L1 message against the smallest outbox root covering the tx's checkpoint, read as of
   * the node's synced L1 block; undefined while the tx is in no checkpointed block or no such root has landed.
   * INVALID_PARAMS when the message is not the tx's, appears several times without `messageIndexInTx`, or the index
   * is out of range or holds another message.
   */
  getL2ToL1MembershipWitness(
    txHash: Hex,
    message: Hex,
    messageIndexInTx: number | undefined,
  ): Promise<L2ToL1MembershipWitness | undefined>;
  /** The epoch's L2-to-L1 messages per checkpoint, per block, per tx; empty when the node knows no checkpoint of it. */
  getL2ToL1Messages(epoch: number): Promise<Hex[][][][]>;
}

export interface MessageServiceDeps {
  readonly chain: Chain;
  readonly inbox: InboxStore;
  readonly l1: L1ReaderPort;
  readonly constants: L1RollupConstants;
  readonly logger: LoggerPort;
}

/** INVALID_PARAMS naming the parameter by position and name, as the dispatcher's own param errors do. */
const invalid = (position: number, name: string, detail: string, details: Record<string, unknown>) =>
  new NodeError('INVALID_PARAMS', `Invalid params: params[${position}] (${name}): ${detail}`, {
    position,
    name,
    ...details,
  });

/** Which of the tx's messages is meant: the given index (checked), else the only one equal to `message`. */
function messagePositionInTx(messages: readonly Hex[], message: Hex, messageIndexInTx: number | undefined): number {
  const wanted = message.toLowerCase();
  if (messageIndexInTx !== undefined) {
    if (messageIndexInTx >= messages.length) {
      const detail = `index ${messageIndexInTx} is out of range: the tx has ${messages.length} L2-to-L1 messages`;
      throw invalid(2, 'messageIndexInTx', detail, { messageIndexInTx, messageCount: messages.length });
    }
    if (messages[messageIndexInTx] !== wanted) {
      throw invalid(2, 'messageIndexInTx', `the tx's L2-to-L1 message at index ${messageIndexInTx} is not ${wanted}`, {
        messageIndexInTx,
        message: wanted,
      });
    }
    return messageIndexInTx;
  }
  const matches = messages.flatMap((m, i) => (m === wanted ? [i] : []));
  if (matches.length === 0)
    throw invalid(1, 'message', `${wanted} is not among the tx's ${messages.length} L2-to-L1 messages`, {
      message: wanted,
    });
  if (matches.length > 1) {
    throw invalid(1, 'message', `${wanted} appears ${matches.length} times in the tx: pass messageIndexInTx`, {
      message: wanted,
      indices: matches,
    });
  }
  return matches[0]!;
}

export function createMessageService(deps: MessageServiceDeps): MessageService {
  const { chain, constants } = deps;
  const store = chain.store;
  /** Roots of L2-finalized epochs (key `epoch:checkpointsNeeded`), which the node does not re-read from L1. */
  const finalizedRoots = new Map<string, OutboxRoot>();

  const blocksOf = async (checkpoint: Checkpoint): Promise<Block[]> => {
    const blocks: Block[] = [];
    for (let n = checkpoint.firstBlockNumber; n < checkpoint.firstBlockNumber + checkpoint.blockCount; n++) {
      const block = await store.getBlock(n);
      assert(block !== undefined, `block ${n} of checkpoint ${checkpoint.number} is stored`);
      blocks.push(block);
    }
    return blocks;
  };

  const messagesOf = async (checkpoints: readonly Checkpoint[]): Promise<Hex[][][][]> => {
    const nested: Hex[][][][] = [];
    for (const checkpoint of checkpoints)
      nested.push((await blocksOf(checkpoint)).map((b) => b.body.txEffects.map((e) => [...e.l2ToL1Messages])));
    return nested;
  };

  /** The smallest root of `epoch` covering `needed` checkpoints, as of the synced L1 block (cached once finalized). */
  const outboxRoot = async (
    epoch: number,
    needed: number,
    epochCheckpoints: readonly Checkpoint[],
  ): Promise<OutboxRoot | undefined> => {
    const key = `${epoch}:${needed}`;
    const cached = finalizedRoots.get(key);
    if (cached !== undefined) return cached;
    const synced = chain.l1Sync;
    if (synced === undefined) return undefined;
    // The synced block can be gone for a moment: L1 reorged to a shorter chain that the archiver holds its position
    // on until L1 mines past it (core/archiver/syncStep.ts). No root is known as of a block L1 no longer holds.
    const root = await deps.l1.getOutboxRoot(epoch, needed, synced.blockNumber).catch((error: unknown) => {
      if (error instanceof L1Error && error.code === 'L1_BLOCK_NOT_FOUND') return undefined;
      throw error;
    });
    const lastCovered = root === undefined ? undefined : epochCheckpoints[root.checkpointsCovered - 1];
    if (
      root !== undefined &&
      lastCovered !== undefined &&
      lastCovered.number <= chain.tips.finalized.checkpoint.number
    ) {
      if (finalizedRoots.size >= OUTBOX_ROOT_CACHE_ENTRIES_MAX)
        finalizedRoots.delete(finalizedRoots.keys().next().value!);
      finalizedRoots.set(key, root);
    }
    return root;
  };

  return {
    async getL1ToL2MessageCheckpoint(message) {
      return (await deps.inbox.getByLeaf(message))?.checkpointNumber;
    },

    async getL2ToL1MembershipWitness(txHash, message, messageIndexInTx) {
      const location = await findTx(store, txHash.toLowerCase() as Hex);
      if (location === undefined) return undefined;
      const block = await store.getBlock(location.blockNumber);
      assert(block !== undefined, `block ${location.blockNumber} of an indexed tx is stored`);
      const effect = block.body.txEffects[location.indexInBlock]!;
      const messageIndex = messagePositionInTx(effect.l2ToL1Messages, message, messageIndexInTx);
      if (location.blockNumber > chain.tips.checkpointed.block.number) return undefined;
      const checkpoint = await store.getCheckpoint(block.checkpointNumber);
      assert(checkpoint !== undefined, `checkpoint ${block.checkpointNumber} of a checkpointed block is stored`);
      const epoch = epochOfSlot(constants, checkpoint.header.slotNumber);
      const epochCheckpoints = await checkpointsInEpoch(chain, constants, epoch);
      const checkpointIndex = epochCheckpoints.findIndex((c) => c.number === checkpoint.number);
      assert(checkpointIndex >= 0, `checkpoint ${checkpoint.number} is among its epoch's`);
      const root = await outboxRoot(epoch, checkpointIndex + 1, epochCheckpoints);
      if (root === undefined || root.checkpointsCovered > epochCheckpoints.length) return undefined;
      const covered = await messagesOf(epochCheckpoints.slice(0, root.checkpointsCovered));
      const witness = outMessageWitness(covered as EpochMessages, {
        checkpointIndex,
        blockIndex: block.indexWithinCheckpoint,
        txIndex: location.indexInBlock,
        messageIndex,
      });
      if (witness.root !== root.root.toLowerCase()) {
        // The node's checkpoints differ from those L1 proved (an L1 reorg not yet synced): no witness for now.
        deps.logger.warn("outbox root differs from the node's messages; no witness", {
          epoch,
          l1Root: root.root,
          ours: witness.root,
        });
        return undefined;
      }
      return { epochNumber: epoch, root: witness.root, leafIndex: witness.leafIndex, siblingPath: witness.siblingPath };
    },

    async getL2ToL1Messages(epoch) {
      return messagesOf(await checkpointsInEpoch(chain, constants, epoch));
    },
  };
}
