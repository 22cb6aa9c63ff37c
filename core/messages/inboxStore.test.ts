import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { L1_TO_L2_MESSAGES_PER_CHECKPOINT } from '../../spec/constants.js';
import { firstMessageIndexOfCheckpoint } from '../../spec/messages/inbox.js';
import { NodeError } from '../errors.js';
import type { InboxMessageLog, StoragePort } from '../ports.js';
import { InboxStore } from './inboxStore.js';

const word = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** Message `position` of tree `tree`, sent in L1 block `l1Block`. */
function log(tree: number, position: number, l1Block: bigint): InboxMessageLog {
  const index = firstMessageIndexOfCheckpoint(tree) + BigInt(position);
  return {
    checkpointNumber: tree,
    index,
    leaf: word(1_000 + Number(index)),
    treeHash: word(1),
    l1: { blockNumber: l1Block, blockHash: word(2), txHash: word(3), logIndex: position },
  };
}

async function setup() {
  const storage: StoragePort = new MemoryLevel<string, string>({ keyEncoding: 'utf8', valueEncoding: 'utf8' });
  const inbox = new InboxStore(storage);
  const write = async (ops: Awaited<ReturnType<InboxStore['unwindOps']>>) => storage.batch([...ops]);
  return { inbox, write };
}

describe('InboxStore', () => {
  it("answers a tree's leaves in index order and a leaf's checkpoint", async () => {
    const { inbox, write } = await setup();
    await write(inbox.syncOps([log(2, 0, 10n), log(2, 1, 10n), log(3, 0, 12n)]));
    expect(await inbox.leavesOfCheckpoint(2)).toEqual([word(1_016), word(1_017)]);
    expect(await inbox.leavesOfCheckpoint(3)).toEqual([word(1_032)]);
    expect(await inbox.leavesOfCheckpoint(1)).toEqual([]);
    expect((await inbox.getByLeaf(word(1_032)))?.checkpointNumber).toBe(3);
    expect(await inbox.getByLeaf(word(999))).toBeUndefined();
  });

  it("a full tree holds exactly its subtree's messages", async () => {
    const { inbox, write } = await setup();
    const logs = Array.from({ length: L1_TO_L2_MESSAGES_PER_CHECKPOINT }, (_, i) => log(2, i, 10n));
    await write(inbox.syncOps([...logs, log(3, 0, 10n)]));
    expect(await inbox.leavesOfCheckpoint(2)).toHaveLength(L1_TO_L2_MESSAGES_PER_CHECKPOINT);
    expect(await inbox.leavesOfCheckpoint(3)).toHaveLength(1);
  });

  it('an unwind drops exactly the messages of L1 blocks after the kept one, leaves included', async () => {
    const { inbox, write } = await setup();
    await write(inbox.syncOps([log(2, 0, 10n), log(2, 1, 11n), log(3, 0, 12n)]));
    expect(await inbox.unwindOps(12n)).toEqual([]);
    await write(await inbox.unwindOps(10n));
    expect(await inbox.leavesOfCheckpoint(2)).toEqual([word(1_016)]);
    expect(await inbox.leavesOfCheckpoint(3)).toEqual([]);
    expect(await inbox.getByLeaf(word(1_017))).toBeUndefined();
    // Re-synced after the unwind, a message takes its index again.
    await write(inbox.syncOps([log(2, 1, 13n)]));
    expect(await inbox.leavesOfCheckpoint(2)).toEqual([word(1_016), word(1_017)]);
  });

  it('refuses a message whose index is not in the tree it is announced for', async () => {
    const { inbox } = await setup();
    expect(() => inbox.syncOps([{ ...log(2, 0, 10n), checkpointNumber: 3 }])).toThrow(NodeError);
  });
});
