import type { Hex } from '../../spec/chain.js';
import { checkpointOfMessageIndex, firstMessageIndexOfCheckpoint } from '../../spec/messages/inbox.js';
import { L1_TO_L2_MESSAGES_PER_CHECKPOINT } from '../../spec/constants.js';
import { assert } from '../assert.js';
import { fromStoredJson, toStoredJson } from '../chain/serde.js';
import { NodeError } from '../errors.js';
import type { InboxMessageLog, StorageOp, StoragePort } from '../ports.js';

/**
 * The L1-to-L2 messages the node has synced from the rollup's inbox, kept in step with the L1 sync position: the
 * archiver stages their writes (`syncOps`, `unwindOps`) into the same storage batch as the position it reached, so
 * after a crash or an L1 reorg the index holds exactly the messages of the L1 blocks the node counts as synced.
 *
 * Keys: `inbox:msg:<global index, 20 digits>` holds the message; `inbox:leaf:<leaf>` its global index. The inbox
 * assigns indices in L1 order, so the messages of the newest L1 blocks are a suffix in index order: an unwind walks
 * back from the end.
 */

/** One synced message. */
export interface StoredInboxMessage {
  readonly checkpointNumber: number;
  readonly index: bigint;
  readonly leaf: Hex;
  readonly l1BlockNumber: bigint;
}

const MESSAGE_PREFIX = 'inbox:msg:';
const LEAF_PREFIX = 'inbox:leaf:';
/** Global indices are below 2^36 (the tree's height); 20 digits keep lexicographic order numeric with room to spare. */
const messageKey = (index: bigint) => `${MESSAGE_PREFIX}${index.toString().padStart(20, '0')}`;
const leafKey = (leaf: Hex) => `${LEAF_PREFIX}${leaf.toLowerCase()}`;

export class InboxStore {
  constructor(private readonly storage: StoragePort) {}

  /** Writes for the messages of newly synced L1 blocks (a re-synced message overwrites itself); SYNC_FAILED for a
   * message whose index is not in the tree it is announced for. */
  syncOps(logs: readonly InboxMessageLog[]): StorageOp[] {
    const ops: StorageOp[] = [];
    for (const log of logs) {
      if (checkpointOfMessageIndex(log.index) !== log.checkpointNumber) {
        throw new NodeError(
          'SYNC_FAILED',
          `inbox message ${log.index} is announced for tree ${log.checkpointNumber}, but its index belongs to tree ${checkpointOfMessageIndex(log.index)}`,
          {
            index: log.index.toString(),
            l1TxHash: log.l1.txHash,
          },
        );
      }
      const stored: StoredInboxMessage = {
        checkpointNumber: log.checkpointNumber,
        index: log.index,
        leaf: log.leaf.toLowerCase() as Hex,
        l1BlockNumber: log.l1.blockNumber,
      };
      ops.push({ type: 'put', key: messageKey(log.index), value: toStoredJson(stored) });
      ops.push({ type: 'put', key: leafKey(log.leaf), value: log.index.toString() });
    }
    return ops;
  }

  /** Deletions of every message synced from an L1 block after `l1BlockNumber` (L1 lost those blocks). */
  async unwindOps(l1BlockNumber: bigint): Promise<StorageOp[]> {
    const ops: StorageOp[] = [];
    for await (const [key, value] of this.storage.iterator({
      gte: MESSAGE_PREFIX,
      lt: `${MESSAGE_PREFIX}~`,
      reverse: true,
    })) {
      const message = fromStoredJson<StoredInboxMessage>(value);
      if (message.l1BlockNumber <= l1BlockNumber) break;
      ops.push({ type: 'del', key: String(key) }, { type: 'del', key: leafKey(message.leaf) });
    }
    return ops;
  }

  /** The leaves checkpoint `checkpointNumber` consumes, in index order (at most L1_TO_L2_MESSAGES_PER_CHECKPOINT). */
  async leavesOfCheckpoint(checkpointNumber: number): Promise<Hex[]> {
    const first = firstMessageIndexOfCheckpoint(checkpointNumber);
    const leaves: Hex[] = [];
    const range = { gte: messageKey(first), lt: messageKey(first + BigInt(L1_TO_L2_MESSAGES_PER_CHECKPOINT)) };
    for await (const value of this.storage.values(range)) {
      const message = fromStoredJson<StoredInboxMessage>(value);
      assert(
        message.index === first + BigInt(leaves.length),
        `inbox tree ${checkpointNumber} has no gap (message ${message.index})`,
      );
      leaves.push(message.leaf);
    }
    return leaves;
  }

  /** The message with this leaf, if synced. */
  async getByLeaf(leaf: Hex): Promise<StoredInboxMessage | undefined> {
    const index = await this.storage.get(leafKey(leaf));
    if (index === undefined) return undefined;
    const value = await this.storage.get(messageKey(BigInt(index)));
    return value === undefined ? undefined : fromStoredJson<StoredInboxMessage>(value);
  }
}
