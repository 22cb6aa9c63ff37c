/**
 * The node's pool following its chain (core/txPool/nodeTxPool.ts): a mined tx leaves the pool and is kept in the
 * mined-tx archive, a prune of its block sends it back, a forced rollback's reset empties the pool; and what the pool
 * tells its operator and its submitters on the way.
 */
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import { SETUP_ALLOW_LIST_DEFAULTS } from '../../spec/config/allowList.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx } from '../../spec/txBuilder.js';
import {
  MEMORY_CHAIN_CONSTANTS,
  memoryGenesis,
  openMemoryChain,
  proposeBlock,
  type MemoryChain,
} from '../../test/helpers/memoryChain.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import type { GossipMessage } from '../ports.js';
import { commitmentVerifier } from '../verifier/commitmentVerifier.js';
import { openNodeTxPool, type NodeTxPool, type TxPoolActivity } from './nodeTxPool.js';

const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

interface Opened {
  readonly node: MemoryChain;
  readonly pool: NodeTxPool;
  readonly activity: TxPoolActivity[];
  readonly lines: LogLine[];
}

async function openPool(node?: MemoryChain): Promise<Opened> {
  const chain = node ?? (await openMemoryChain());
  const lines: LogLine[] = [];
  const pool = await openNodeTxPool(
    { storage: chain.storage, clock: chain.clock, verifier: commitmentVerifier },
    {
      chain: chain.chain,
      constants: MEMORY_CHAIN_CONSTANTS,
      logger: capturingLogger((line) => lines.push(line)),
      settings: () => ({ priceBumpPercentage: 10, capacity: 100, setupAllowList: SETUP_ALLOW_LIST_DEFAULTS }),
      contractClassOf: async () => undefined,
    },
  );
  const activity: TxPoolActivity[] = [];
  pool.onActivity((event) => activity.push(event));
  return { node: chain, pool, activity, lines };
}

async function txOf(pool: NodeTxPool, nullifier: number, overrides: Partial<Parameters<typeof buildTx>[0]> = {}) {
  return buildTx({
    chainId: MEMORY_CHAIN_CONSTANTS.l1ChainId,
    version: MEMORY_CHAIN_CONSTANTS.rollupVersion,
    anchorBlockHash: memoryGenesis.block.hash,
    feePayer: genesisTestAccounts()[0]!,
    nullifier: hex32(0x4a000 + nullifier),
    minFees: await pool.currentMinFees(),
    expirationTimestamp: 2n ** 40n,
    ...overrides,
  });
}

/** Waits until the pool has worked off every chain event so far (its queue runs them in order). */
async function settled(pool: NodeTxPool): Promise<void> {
  await pool.holdMinedTxs(0, hex32(0), []);
}

async function archivedKeys(node: MemoryChain): Promise<string[]> {
  return node.storage.keys({ gte: 'minedTx:', lt: 'minedTx;' }).all();
}

describe('the pool following the chain', () => {
  it('drops a mined tx and keeps it in the archive; a prune of its block brings it back', async () => {
    const { node, pool, activity } = await openPool();
    const mined = await txOf(pool, 1);
    const kept = await txOf(pool, 2);
    await pool.sendTx(mined);
    await pool.sendTx(kept);
    activity.length = 0;
    const block = await proposeBlock(node, 1, [minimalTxEffect(mined.txHash, mined.sideEffects.nullifiers[0]!)]);
    await settled(pool);
    expect(pool.current.ordered().map((p) => p.txHash)).toEqual([kept.txHash]);
    expect(activity).toEqual([{ kind: 'removed', removed: [{ txHash: mined.txHash, reason: 'mined' }] }]);
    expect(await archivedKeys(node)).toEqual([`minedTx:000000000001:${mined.txHash.toLowerCase()}`]);
    expect(block.header.globalVariables.blockNumber).toBe(1);

    activity.length = 0;
    await node.chain.update(async (u) => u.pruneTo(0, 'slotPassedWithoutCheckpoint'));
    await settled(pool);
    expect(activity).toEqual([{ kind: 'returned', txHashes: [mined.txHash] }]);
    expect(new Set(pool.current.ordered().map((p) => p.txHash))).toEqual(new Set([mined.txHash, kept.txHash]));
    expect(await archivedKeys(node)).toEqual([]);
  });

  it('a block that mines nothing of the pool changes nothing and reports nothing', async () => {
    const { node, pool, activity } = await openPool();
    const tx = await txOf(pool, 1);
    await pool.sendTx(tx);
    activity.length = 0;
    await proposeBlock(node, 1, [minimalTxEffect(hex32(0xbeef), hex32(0x4b000))]);
    await settled(pool);
    expect(activity).toEqual([]);
    expect(pool.current.ordered().map((p) => p.txHash)).toEqual([tx.txHash]);
    expect(await archivedKeys(node)).toEqual([]);
  });

  it('a prune with nothing to return reports nothing', async () => {
    const { node, pool, activity } = await openPool();
    await proposeBlock(node, 1, [minimalTxEffect(hex32(0xbeef), hex32(0x4b000))]);
    await node.chain.update(async (u) => u.pruneTo(0, 'slotPassedWithoutCheckpoint'));
    await settled(pool);
    expect(activity).toEqual([]);
  });

  it('a tx anchored to a pruned block leaves the pool', async () => {
    const { node, pool, activity } = await openPool();
    const block = await proposeBlock(node, 1, [minimalTxEffect(hex32(0xbeef), hex32(0x4b000))]);
    const anchored = await txOf(pool, 1, { anchorBlockHash: block.hash });
    await pool.sendTx(anchored);
    activity.length = 0;
    await node.chain.update(async (u) => u.pruneTo(0, 'slotPassedWithoutCheckpoint'));
    await settled(pool);
    expect(activity).toEqual([
      { kind: 'removed', removed: [{ txHash: anchored.txHash, reason: 'anchorPruned', anchorBlockHash: block.hash }] },
    ]);
    expect(pool.current.count).toBe(0);
  });

  it('a reset empties the pool and its storage, and forgets the mined txs above the kept block', async () => {
    const { node, pool, lines } = await openPool();
    const first = await txOf(pool, 1);
    const second = await txOf(pool, 2);
    const pending = await txOf(pool, 3);
    for (const tx of [first, second, pending]) await pool.sendTx(tx);
    await proposeBlock(node, 1, [minimalTxEffect(first.txHash, first.sideEffects.nullifiers[0]!)]);
    await proposeBlock(node, 2, [minimalTxEffect(second.txHash, second.sideEffects.nullifiers[0]!)]);
    await settled(pool);
    await pool.clear(1);
    expect(pool.current.count).toBe(0);
    expect(await archivedKeys(node)).toEqual([`minedTx:000000000001:${first.txHash.toLowerCase()}`]);
    expect(await node.storage.keys({ gte: 'txPool:', lt: 'txPool;' }).all()).toEqual([]);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'warn', message: 'tx pool cleared' }));
    const reopened = await openPool(node);
    expect(reopened.pool.current.count).toBe(0);
  });

  it('keeps across a restart what it pooled', async () => {
    const { node, pool } = await openPool();
    const tx = await txOf(pool, 1);
    await pool.sendTx(tx);
    const reopened = await openPool(node);
    expect(reopened.pool.current.ordered().map((p) => p.txHash)).toEqual([tx.txHash]);
    expect(reopened.pool.current.nextArrivalSequence).toBe(1);
  });
});

describe('what the pool tells', () => {
  it('logs each acceptance with what it replaced', async () => {
    const { pool, lines } = await openPool();
    const tx = await txOf(pool, 1);
    await pool.sendTx(tx);
    expect(lines).toContainEqual({
      level: 'info',
      message: 'tx accepted',
      fields: { txHash: tx.txHash, replaced: 0 },
      bindings: {},
    });
  });

  it('refuses an invalid tx over RPC with every reason', async () => {
    const { pool } = await openPool();
    const tx = await txOf(pool, 1, { chainId: 1 });
    await expect(pool.sendTx(tx)).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringMatching(/^the tx is invalid: /),
      details: { reasons: [expect.any(String)] },
    });
  });

  it('answers the setup allow list it was given, and validates with the options asked for', async () => {
    const { pool } = await openPool();
    expect(pool.setupAllowList()).toEqual(SETUP_ALLOW_LIST_DEFAULTS);
    const result = await pool.isValidTx(await txOf(pool, 1), {});
    expect(result.valid).toBe(true);
    const invalid = await pool.isValidTx(await txOf(pool, 2, { chainId: 1 }), {});
    expect(invalid.valid).toBe(false);
  });

  it('the next slot starts at the slot boundary after now', async () => {
    const { node, pool } = await openPool();
    const slotSeconds = BigInt(MEMORY_CHAIN_CONSTANTS.slotDuration);
    const nowSeconds = BigInt(Math.floor(node.clock.now() / 1000));
    const next = pool.nextSlotTimestamp();
    expect(next % slotSeconds).toBe(BigInt(MEMORY_CHAIN_CONSTANTS.l1GenesisTime) % slotSeconds);
    expect(next > nowSeconds && next <= nowSeconds + slotSeconds).toBe(true);
  });
});

describe('txs of a followed block', () => {
  it('keeps the txs the block mines whose proof verifies, and names those whose proof does not', async () => {
    const { node, pool } = await openPool();
    const mined = await txOf(pool, 1);
    const forged = { ...(await txOf(pool, 2)), proof: `0x${'ab'.repeat(32)}` as Hex };
    const other = await txOf(pool, 3);
    const block = await proposeBlock(node, 1, [
      minimalTxEffect(mined.txHash, mined.sideEffects.nullifiers[0]!),
      minimalTxEffect(forged.txHash, forged.sideEffects.nullifiers[0]!),
    ]);
    await settled(pool);
    expect(await pool.holdMinedTxs(1, block.hash, [other, forged, mined])).toEqual([forged.txHash]);
    expect(await archivedKeys(node)).toEqual([`minedTx:000000000001:${mined.txHash.toLowerCase()}`]);
    await node.chain.update(async (u) => u.pruneTo(0, 'slotPassedWithoutCheckpoint'));
    await settled(pool);
    expect(pool.current.ordered().map((p) => p.txHash)).toEqual([mined.txHash]);
  });

  it('keeps nothing for a block it does not hold at that number', async () => {
    const { node, pool } = await openPool();
    const mined = await txOf(pool, 1);
    const block = await proposeBlock(node, 1, [minimalTxEffect(mined.txHash, mined.sideEffects.nullifiers[0]!)]);
    expect(await pool.holdMinedTxs(1, hex32(5), [mined])).toEqual([]);
    expect(await pool.holdMinedTxs(2, block.hash, [mined])).toEqual([]);
    expect(await archivedKeys(node)).toEqual([]);
  });

  it('a prune to the block a tx anchors to keeps the tx', async () => {
    const { node, pool, activity } = await openPool();
    const first = await proposeBlock(node, 1, [minimalTxEffect(hex32(0xbeef), hex32(0x4b000))]);
    await proposeBlock(node, 2, [minimalTxEffect(hex32(0xbeee), hex32(0x4b001))]);
    const anchored = await txOf(pool, 1, { anchorBlockHash: first.hash });
    await pool.sendTx(anchored);
    activity.length = 0;
    await node.chain.update(async (u) => u.pruneTo(1, 'slotPassedWithoutCheckpoint'));
    await settled(pool);
    expect(activity).toEqual([]);
    expect(pool.current.ordered().map((p) => p.txHash)).toEqual([anchored.txHash]);
  });
});

describe('gossip subscription', () => {
  it('answers tx gossip until unsubscribed, and ignores other kinds', async () => {
    const { pool } = await openPool();
    let handler: ((message: GossipMessage, from: string) => unknown) | undefined;
    const unsubscribe = pool.subscribeToGossip({
      subscribe: (h) => {
        handler = h;
        return () => (handler = undefined);
      },
    });
    const tx = await txOf(pool, 1);
    expect(await handler!({ kind: 'tx', tx }, 'peer')).toBe('accept');
    expect(await handler!({ kind: 'somethingElse' } as unknown as GossipMessage, 'peer')).toBe('ignore');
    unsubscribe();
    expect(handler).toBeUndefined();
  });
});
