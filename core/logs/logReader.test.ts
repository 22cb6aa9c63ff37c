import { describe, expect, it, vi } from 'vitest';
import type { Block } from '../../spec/chain.js';
import { blockWithTxs, hex32, openLogStore, txEffectOf } from '../../test/logs/logFixtures.js';
import { NodeError } from '../errors.js';
import { LOG_QUERY_ATTEMPTS_MAX, LOG_QUERY_READS_IN_FLIGHT_MAX } from './logConstants.js';
import { createLogReader, type LogIndexStore } from './logReader.js';

const tagA = hex32(0xa);
const tagB = hex32(0xb);
const contract = hex32(0xc0de);
const otherContract = hex32(0xc0df);

/** Block 1: tx 0 logs tagA twice; block 2: tx 0 logs tagB, tx 1 logs tagA privately and publicly in two contracts. */
async function twoBlocks() {
  const fixture = await openLogStore();
  await fixture.add(
    blockWithTxs(1, [
      {
        id: 10,
        privateLogs: [
          { tag: tagA, fields: [hex32(1)] },
          { tag: tagA, fields: [hex32(2)] },
        ],
        noteHashes: [hex32(0x11)],
      },
    ]),
  );
  await fixture.add(
    blockWithTxs(2, [
      { id: 20, privateLogs: [{ tag: tagB, fields: [] }] },
      {
        id: 21,
        privateLogs: [{ tag: tagA, fields: [hex32(3)] }],
        publicLogs: [
          { contractAddress: contract, tag: tagA, fields: [hex32(4)] },
          { contractAddress: otherContract, tag: tagA, fields: [hex32(5)] },
        ],
      },
    ]),
  );
  return fixture;
}

describe('private logs by tags', () => {
  it("answer one list per tag in the tags' order, each in chain order, empty for a tag with no logs", async () => {
    const { logs, kept } = await twoBlocks();
    const [b1, b2] = kept as [Block, Block];
    const answer = await logs.getPrivateLogsByTags([tagB, hex32(0xdead), tagA], false, 10);
    expect(answer).toEqual([
      [
        {
          txHash: b2.body.txEffects[0]!.txHash,
          l2BlockNumber: 2,
          l2BlockHash: b2.hash,
          txIndexInBlock: 0,
          logIndexInTx: 0,
          fields: [],
        },
      ],
      [],
      [
        {
          txHash: b1.body.txEffects[0]!.txHash,
          l2BlockNumber: 1,
          l2BlockHash: b1.hash,
          txIndexInBlock: 0,
          logIndexInTx: 0,
          fields: [hex32(1)],
        },
        {
          txHash: b1.body.txEffects[0]!.txHash,
          l2BlockNumber: 1,
          l2BlockHash: b1.hash,
          txIndexInBlock: 0,
          logIndexInTx: 1,
          fields: [hex32(2)],
        },
        {
          txHash: b2.body.txEffects[1]!.txHash,
          l2BlockNumber: 2,
          l2BlockHash: b2.hash,
          txIndexInBlock: 1,
          logIndexInTx: 0,
          fields: [hex32(3)],
        },
      ],
    ]);
    expect(answer[0]![0]).not.toHaveProperty('noteHashes');
  });

  it('match tags in any case and with leading zeros left out, and answer a repeated tag twice', async () => {
    const { logs } = await twoBlocks();
    const canonical = await logs.getPrivateLogsByTags([tagB], false, 10);
    expect(await logs.getPrivateLogsByTags(['0xB', '0x000b'], false, 10)).toEqual([canonical[0], canonical[0]]);
  });

  it("attach the tx's note hashes and nullifiers with includeEffects", async () => {
    const { logs } = await twoBlocks();
    const [logsOfA] = await logs.getPrivateLogsByTags([tagA], true, 10);
    const effect = txEffectOf({ id: 10, noteHashes: [hex32(0x11)] });
    expect(logsOfA![0]).toMatchObject({ noteHashes: [hex32(0x11)], nullifiers: effect.nullifiers });
    expect(logsOfA![2]).toMatchObject({ noteHashes: [], nullifiers: txEffectOf({ id: 21 }).nullifiers });
  });

  it('refuse a tag with more logs than the bound, reading one past it, and serve a tag at the bound', async () => {
    const { store } = await twoBlocks();
    const spy = vi.spyOn(store, 'getIndexEntries');
    const logs = createLogReader(store);
    expect((await logs.getPrivateLogsByTags([tagA], false, 3))[0]).toHaveLength(3);
    const refusal = logs.getPrivateLogsByTags([tagB, tagA], false, 2);
    await expect(refusal).rejects.toBeInstanceOf(NodeError);
    await expect(refusal).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      shortMessage: `tag ${tagA} matches more logs than the limit logsPerTagMax of 2`,
      details: { limit: 'logsPerTagMax', value: 2, requested: 3 },
    });
    expect(spy.mock.calls.every(([, limit]) => limit <= 4)).toBe(true);
    expect(spy.mock.calls.at(-1)![1]).toBe(3);
  });

  it('refuse a tag that is not hex of at most 32 bytes (INVALID_PARAMS)', async () => {
    const { logs } = await twoBlocks();
    await expect(logs.getPrivateLogsByTags([tagA, '0xnope'], false, 10)).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      details: { param: 'tags[1]' },
    });
    await expect(logs.getPrivateLogsByTags([`0x${'1'.repeat(66)}`], false, 10)).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
    });
  });

  it("answer nothing for blocks pruned, and the replacing block's logs after it is added", async () => {
    const fixture = await twoBlocks();
    await fixture.pruneTo(1);
    expect((await fixture.logs.getPrivateLogsByTags([tagA, tagB], true, 10)).map((list) => list.length)).toEqual([
      2, 0,
    ]);
    const replacement = blockWithTxs(2, [{ id: 30, privateLogs: [{ tag: tagB, fields: [hex32(6)] }] }], 1);
    await fixture.add(replacement);
    const [[found]] = (await fixture.logs.getPrivateLogsByTags([tagB], true, 10)) as [[unknown]];
    expect(found).toMatchObject({
      l2BlockHash: replacement.hash,
      fields: [hex32(6)],
      nullifiers: replacement.body.txEffects[0]!.nullifiers,
    });
  });
});

describe('public logs by tags', () => {
  it("answer only the given contract's logs, the contract in any form", async () => {
    const { logs } = await twoBlocks();
    const [[found], none] = (await logs.getPublicLogsByTags('0xC0DE', [tagA, tagB], true, 10)) as [
      [unknown],
      unknown[],
    ];
    expect(found).toMatchObject({
      l2BlockNumber: 2,
      txIndexInBlock: 1,
      logIndexInTx: 0,
      fields: [hex32(4)],
      noteHashes: [],
    });
    expect(none).toEqual([]);
    expect((await logs.getPublicLogsByTags(otherContract, [tagA], false, 10))[0]![0]).toMatchObject({
      logIndexInTx: 1,
      fields: [hex32(5)],
    });
    expect(await logs.getPublicLogsByTags(hex32(0xfeed), [tagA], false, 10)).toEqual([[]]);
    // Public and private logs of one tag are kept apart.
    expect((await logs.getPrivateLogsByTags([tagA], false, 10))[0]!.map((log) => log.fields)).toEqual([
      [hex32(1)],
      [hex32(2)],
      [hex32(3)],
    ]);
  });

  it('refuse a tag over the bound and a malformed contract address', async () => {
    const fixture = await twoBlocks();
    await fixture.add(
      blockWithTxs(3, [{ id: 40, publicLogs: [{ contractAddress: contract, tag: tagA, fields: [] }] }]),
    );
    await expect(fixture.logs.getPublicLogsByTags(contract, [tagA], false, 1)).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
      details: { limit: 'logsPerTagMax', value: 1, requested: 2 },
    });
    await expect(fixture.logs.getPublicLogsByTags('0x', [tagA], false, 1)).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      details: { param: 'contractAddress' },
    });
  });
});

describe('a prune while a query reads', () => {
  /** The fixture's store, except that the first `staleReads` block checks see the chain after a prune of block 2. */
  function racingStore(store: LogIndexStore, staleReads: number): LogIndexStore {
    let stale = staleReads;
    const gone = () => stale-- > 0;
    return {
      getIndexEntries: (prefix, limit) => store.getIndexEntries(prefix, limit),
      getBlock: async (n) => (n === 2 && gone() ? undefined : store.getBlock(n)),
      getBlockNumberByHash: async (hash) => {
        const n = await store.getBlockNumberByHash(hash);
        return n === 2 && gone() ? undefined : n;
      },
    };
  }

  it('reads the query again, and answers when a later read is consistent', async () => {
    const { store } = await twoBlocks();
    for (const includeEffects of [false, true]) {
      const logs = createLogReader(racingStore(store, LOG_QUERY_ATTEMPTS_MAX - 1));
      expect((await logs.getPrivateLogsByTags([tagA], includeEffects, 10))[0]).toHaveLength(3);
    }
  });

  it('gives up after LOG_QUERY_ATTEMPTS_MAX reads with STATE_NOT_AVAILABLE', async () => {
    const { store } = await twoBlocks();
    const logs = createLogReader(racingStore(store, LOG_QUERY_ATTEMPTS_MAX));
    await expect(logs.getPrivateLogsByTags([tagA], true, 10)).rejects.toMatchObject({
      code: 'STATE_NOT_AVAILABLE',
      details: { reason: 'prunedDuringQuery', attempts: LOG_QUERY_ATTEMPTS_MAX },
    });
  });

  it('never mixes two blocks of one number in an answer', async () => {
    const { store, kept } = await twoBlocks();
    const replaced = blockWithTxs(2, [{ id: 20, privateLogs: [{ tag: tagB, fields: [] }] }], 1);
    let reads = 0;
    const swapping: LogIndexStore = {
      // The second tag is read after block 2 was replaced: its entry names the new block 2.
      getIndexEntries: async (prefix, limit) => {
        const entries = await store.getIndexEntries(prefix, limit);
        reads++;
        return reads % 2 === 0
          ? entries.map(([key, value]) => [key, value.replace(kept[1]!.hash, replaced.hash)] as [string, string])
          : entries;
      },
      getBlock: (n) => store.getBlock(n),
      getBlockNumberByHash: async (hash) => (hash === replaced.hash ? 2 : store.getBlockNumberByHash(hash)),
    };
    await expect(createLogReader(swapping).getPrivateLogsByTags([tagA, tagB], false, 10)).rejects.toMatchObject({
      code: 'STATE_NOT_AVAILABLE',
    });
  });
});

describe('the reads of one query', () => {
  /** The fixture's store, counting the reads pending at once and failing the index read of `failing`. */
  function countingStore(store: LogIndexStore, failing?: string) {
    const counts = { pending: 0, most: 0, started: 0 };
    const counted =
      <Args extends unknown[], Result>(read: (...args: Args) => Promise<Result>) =>
      async (...args: Args): Promise<Result> => {
        counts.started++;
        counts.pending++;
        counts.most = Math.max(counts.most, counts.pending);
        try {
          await new Promise((resolve) => setImmediate(resolve));
          return await read(...args);
        } finally {
          counts.pending--;
        }
      };
    const counting: LogIndexStore = {
      getIndexEntries: counted(async (prefix: string, limit: number) => {
        if (failing !== undefined && prefix.includes(failing.slice(2).replace(/^0+/, ''))) throw new Error('disk');
        return store.getIndexEntries(prefix, limit);
      }),
      getBlock: counted((n: number) => store.getBlock(n)),
      getBlockNumberByHash: counted((hash: `0x${string}`) => store.getBlockNumberByHash(hash)),
    };
    return { counting, counts };
  }

  it(`overlap, at most LOG_QUERY_READS_IN_FLIGHT_MAX (${LOG_QUERY_READS_IN_FLIGHT_MAX}) at once, same answer`, async () => {
    const { store, logs } = await twoBlocks();
    const tags = [tagA, tagB, ...Array.from({ length: 40 }, (_, i) => hex32(0x1000 + i))];
    const { counting, counts } = countingStore(store);
    const answer = await createLogReader(counting).getPrivateLogsByTags(tags, true, 10);
    expect(answer).toEqual(await logs.getPrivateLogsByTags(tags, true, 10));
    expect(counts.started).toBe(tags.length + 2);
    expect(counts.most).toBe(LOG_QUERY_READS_IN_FLIGHT_MAX);
    expect(counts.pending).toBe(0);
  });

  it('fail the query when one read fails, with no read left pending', async () => {
    const { store } = await twoBlocks();
    const tags = Array.from({ length: 40 }, (_, i) => hex32(0x1000 + i));
    const { counting, counts } = countingStore(store, hex32(0x1005));
    await expect(createLogReader(counting).getPrivateLogsByTags(tags, false, 10)).rejects.toThrow('disk');
    expect(counts.pending).toBe(0);
    expect(counts.started).toBeLessThan(tags.length);
  });
});
