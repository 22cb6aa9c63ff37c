import { describe, expect, it } from 'vitest';
import { blockWithTxs, hex32, openLogStore } from '../../test/logs/logFixtures.js';
import { txIndexer } from '../chain/txIndex.js';
import { AssertionError } from '../assert.js';
import { decodeLogIndexEntry } from './logIndexEntry.js';
import {
  privateLogEntries,
  privateLogIndexer,
  publicLogEntries,
  publicLogIndexer,
  registerLogIndexers,
} from './logIndexer.js';
import { canonicalField, privateLogKey, privateTagPrefix, publicTagPrefix } from './logKeys.js';

const tag = hex32(0x7a6);
const contract = hex32(0xc0de);

describe('log keys', () => {
  it('write tags and addresses in canonical form and positions as fixed-width decimals', () => {
    expect(privateLogKey(tag, { blockNumber: 12, txIndexInBlock: 3, logIndexInTx: 7 })).toBe(
      `logPriv:${tag}:000000000012:000003:000007`,
    );
    expect(publicTagPrefix(contract, tag)).toBe(`logPub:${contract}:${tag}:`);
  });

  it('canonical fields are lowercase 32-byte hex; anything not hex of at most 32 bytes has no canonical form', () => {
    expect(canonicalField('0xABC')).toBe(hex32(0xabc));
    expect(canonicalField(hex32(5).toUpperCase().replace('0X', '0x'))).toBe(hex32(5));
    expect(canonicalField(`0x${'f'.repeat(64)}`)).toBe(`0x${'f'.repeat(64)}`);
    for (const bad of ['0x', `0x${'1'.repeat(65)}`, '0xfg', '12', '']) expect(canonicalField(bad)).toBeUndefined();
  });

  it('refuse a non-canonical tag or a position too wide for its digits (assertions)', () => {
    expect(() => privateTagPrefix('0xABC')).toThrow(AssertionError);
    expect(() => privateLogKey(tag, { blockNumber: 10 ** 12, txIndexInBlock: 0, logIndexInTx: 0 })).toThrow(
      AssertionError,
    );
    expect(() => privateLogKey(tag, { blockNumber: 1, txIndexInBlock: -1, logIndexInTx: 0 })).toThrow(AssertionError);
  });
});

describe('log indexers', () => {
  const block = blockWithTxs(5, [
    {
      id: 1,
      privateLogs: [
        { tag, fields: [hex32(1)] },
        { tag: hex32(0x7a7), fields: [] },
      ],
    },
    { id: 2 },
    {
      id: 3,
      privateLogs: [{ tag: '0x7A6', fields: ['0xF'] }],
      publicLogs: [{ contractAddress: '0xC0DE', tag, fields: [hex32(2), hex32(3)] }],
    },
  ]);

  it('write one entry per log, keyed by its canonical tag (and contract) and its position, with what a result needs', () => {
    const privates = privateLogEntries(block);
    expect(privates.map((e) => e.key)).toEqual([
      `logPriv:${tag}:000000000005:000000:000000`,
      `logPriv:${hex32(0x7a7)}:000000000005:000000:000001`,
      `logPriv:${tag}:000000000005:000002:000000`,
    ]);
    expect(decodeLogIndexEntry(privates[2]!.value)).toEqual({
      txHash: block.body.txEffects[2]!.txHash,
      l2BlockNumber: 5,
      l2BlockHash: block.hash,
      txIndexInBlock: 2,
      logIndexInTx: 0,
      fields: [hex32(0xf)],
    });
    const publics = publicLogEntries(block);
    expect(publics.map((e) => e.key)).toEqual([`logPub:${contract}:${tag}:000000000005:000002:000000`]);
    expect(decodeLogIndexEntry(publics[0]!.value).fields).toEqual([hex32(2), hex32(3)]);
  });

  it('remove exactly the keys they added', () => {
    for (const indexer of [privateLogIndexer, publicLogIndexer]) {
      const added = indexer.blockAdded(block).map((op) => op.key);
      const removed = indexer.blockRemoved(block);
      expect(removed.every((op) => op.type === 'del')).toBe(true);
      expect(removed.map((op) => op.key)).toEqual(added);
      expect(added.every((key) => key.startsWith(indexer.keyPrefix))).toBe(true);
    }
  });

  it("order one tag's keys as the chain orders its logs, across block, tx and log indexes of different widths", () => {
    const positions = [
      [9, 0, 0],
      [9, 10, 2],
      [10, 2, 0],
      [10, 2, 11],
      [100, 0, 1],
    ] as const;
    const keys = positions.map(([blockNumber, txIndexInBlock, logIndexInTx]) =>
      privateLogKey(tag, { blockNumber, txIndexInBlock, logIndexInTx }),
    );
    expect([...keys].sort()).toEqual(keys);
  });

  it("own prefixes that overlap neither each other, the chain store's keys nor the tx index", async () => {
    const { store } = await openLogStore();
    expect(() => store.registerIndexer(txIndexer)).not.toThrow();
    expect(() => registerLogIndexers(store)).toThrow(AssertionError);
  });
});

describe('log entries in the chain store', () => {
  it('arrive with their block, leave when it is pruned, and a replacing block brings its own', async () => {
    const fixture = await openLogStore();
    await fixture.add(blockWithTxs(1, [{ id: 1, privateLogs: [{ tag, fields: [] }] }]));
    await fixture.add(
      blockWithTxs(2, [
        { id: 2, privateLogs: [{ tag, fields: [] }], publicLogs: [{ contractAddress: contract, tag, fields: [] }] },
      ]),
    );
    expect(await fixture.keysUnder('logPriv:')).toEqual([
      `logPriv:${tag}:000000000001:000000:000000`,
      `logPriv:${tag}:000000000002:000000:000000`,
    ]);
    expect(await fixture.keysUnder('logPub:')).toHaveLength(1);

    await fixture.pruneTo(1);
    expect(await fixture.keysUnder('logPriv:')).toEqual([`logPriv:${tag}:000000000001:000000:000000`]);
    expect(await fixture.keysUnder('logPub:')).toEqual([]);

    const replacement = blockWithTxs(2, [{ id: 3 }, { id: 4, privateLogs: [{ tag: hex32(0x99), fields: [] }] }], 1);
    await fixture.add(replacement);
    expect(await fixture.keysUnder('logPriv:')).toEqual([
      `logPriv:${hex32(0x99)}:000000000002:000001:000000`,
      `logPriv:${tag}:000000000001:000000:000000`,
    ]);
    const entries = await fixture.store.getIndexEntries(privateTagPrefix(hex32(0x99)), 10);
    expect(entries.map(([, value]) => decodeLogIndexEntry(value).l2BlockHash)).toEqual([replacement.hash]);
  });
});
