/**
 * The pool's gossip (core/txPool/nodeTxPool.ts): what a node publishes of the txs its RPC admits, and the verdict it
 * answers for a tx a peer gossiped.
 */
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { SETUP_ALLOW_LIST_DEFAULTS } from '../../spec/config/allowList.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { GOSSIP_TXS_AWAITING_VALIDATION_MAX } from '../../spec/p2p/constants.js';
import { buildTx } from '../../spec/txBuilder.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { MEMORY_CHAIN_CONSTANTS, memoryGenesis, openMemoryChain } from '../../test/helpers/memoryChain.js';
import { silentLogger } from '../../test/helpers/testLogger.js';
import type { GossipMessage, MetricsPort } from '../ports.js';
import { createSimMetrics } from '../../sim/simMetrics.js';
import { commitmentVerifier } from '../verifier/commitmentVerifier.js';
import { NodeTxPool, TX_INVALID_METRICS_CODE } from './nodeTxPool.js';

const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

async function openPool(
  capacity = 100,
  metrics?: MetricsPort,
): Promise<{ pool: NodeTxPool; published: GossipMessage[] }> {
  const { chain, storage, clock } = await openMemoryChain();
  const published: GossipMessage[] = [];
  const pool = await NodeTxPool.open({
    chain,
    storage,
    constants: MEMORY_CHAIN_CONSTANTS,
    clock,
    verifier: commitmentVerifier,
    logger: silentLogger,
    settings: () => ({ priceBumpPercentage: 10, capacity, setupAllowList: SETUP_ALLOW_LIST_DEFAULTS }),
    contractClassOf: async () => undefined,
    network: { publish: (message) => void published.push(message) },
    ...(metrics !== undefined ? { metrics } : {}),
  });
  return { pool, published };
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

describe('tx gossip', () => {
  it('publishes a tx its RPC admits, once; a gossiped one it admits is not published again', async () => {
    const { pool, published } = await openPool();
    const tx = await txOf(pool, 1);
    await pool.sendTx(tx);
    await pool.sendTx(tx);
    expect(published).toEqual([{ kind: 'tx', tx }]);
    expect(await pool.receiveGossipTx(await txOf(pool, 2))).toBe('accept');
    expect(published).toHaveLength(1);
    expect(pool.current.ordered()).toHaveLength(2);
  });

  it('accepts a valid tx, ignores one already pooled or refused by the pool policy', async () => {
    const { pool } = await openPool(1);
    const tx = await txOf(pool, 1);
    expect(await pool.receiveGossipTx(tx)).toBe('accept');
    expect(await pool.receiveGossipTx(tx)).toBe('ignore');
    // Same nullifier without the bump: NULLIFIER_CONFLICT; a second tx in a full pool at the same fee: LOW_PRIORITY_FEE.
    expect(await pool.receiveGossipTx(await txOf(pool, 1, { expirationTimestamp: 2n ** 40n + 1n }))).toBe('ignore');
    expect(await pool.receiveGossipTx(await txOf(pool, 2))).toBe('ignore');
    expect(pool.current.ordered().map((p) => p.txHash)).toEqual([tx.txHash]);
  });

  it('rejects what is invalid whatever the time: another chain, a bad proof, a wrong hash', async () => {
    const { pool } = await openPool();
    expect(await pool.receiveGossipTx(await txOf(pool, 1, { chainId: 1 }))).toBe('reject');
    const good = await txOf(pool, 2);
    expect(await pool.receiveGossipTx({ ...good, proof: `0x${'ab'.repeat(32)}` })).toBe('reject');
    expect(await pool.receiveGossipTx({ ...good, txHash: hex32(7) })).toBe('reject');
    // A nullifier above the field modulus would make every block holding the tx fail to build.
    const outOfField = await txOf(pool, 3, { sideEffects: { nullifiers: [`0x${'4b'.repeat(32)}`] } });
    expect(await pool.receiveGossipTx(outOfField)).toBe('reject');
    await expect(pool.sendTx(outOfField)).rejects.toThrow('not below the BN254 field modulus');
    expect(pool.current.ordered()).toEqual([]);
  });

  it('ignores what time or its own view decides: expired, below the minimum fees, an anchor it does not know', async () => {
    const { pool } = await openPool();
    expect(await pool.receiveGossipTx(await txOf(pool, 1, { expirationTimestamp: 1n }))).toBe('ignore');
    const cheap = await txOf(pool, 2, { minFees: { feePerDaGas: 0n, feePerL2Gas: 0n }, feePaddingPercent: 0 });
    expect(await pool.receiveGossipTx(cheap)).toBe('ignore');
    expect(await pool.receiveGossipTx(await txOf(pool, 3, { anchorBlockHash: hex32(0xdead) }))).toBe('ignore');
    expect(pool.current.ordered()).toEqual([]);
  });

  it('never throws for a malformed tx', async () => {
    const { pool } = await openPool();
    const verdict = await pool.receiveGossipTx({ txHash: hex32(1) } as unknown as TxValue);
    expect(['ignore', 'reject']).toContain(verdict);
  });

  it('bounds a flood: extra gossiped txs are ignored unheard, and a local tx waits behind at most one', async () => {
    const { pool } = await openPool(1_000);
    const flood = await Promise.all(
      Array.from({ length: GOSSIP_TXS_AWAITING_VALIDATION_MAX + 6 }, (_, i) => txOf(pool, 100 + i)),
    );
    const local = await txOf(pool, 1);
    const order: string[] = [];
    const gossiped = flood.map((tx, i) => pool.receiveGossipTx(tx).then((v) => (order.push(`gossip ${i}`), v)));
    const sent = pool.sendTx(local).then(() => order.push('local'));
    const verdicts = await Promise.all(gossiped);
    await sent;
    expect(verdicts.filter((v) => v === 'accept')).toHaveLength(GOSSIP_TXS_AWAITING_VALIDATION_MAX);
    expect(verdicts.slice(GOSSIP_TXS_AWAITING_VALIDATION_MAX)).toEqual(Array(6).fill('ignore'));
    const firstValidated = order.filter((o) => o !== 'local' && Number(o.split(' ')[1]) < 64);
    expect(order.indexOf('local')).toBeLessThanOrEqual(order.indexOf(firstValidated[1]!));
  });

  it('answers the pooled txs among the hashes a peer asks for', async () => {
    const { pool } = await openPool();
    const tx = await txOf(pool, 1);
    await pool.sendTx(tx);
    expect(pool.pooledTxs([hex32(5), tx.txHash, tx.txHash])).toEqual([tx]);
  });
});

describe('tx pool metrics', () => {
  it('counts each refused tx by its rejection code, from RPC and from gossip alike', async () => {
    const metrics = createSimMetrics();
    const { pool } = await openPool(1, metrics.port);
    await pool.sendTx(await txOf(pool, 1));
    // Same nullifier without the bump, over RPC then from gossip; a full pool at the same fee; an invalid tx.
    const conflicting = await txOf(pool, 1, { expirationTimestamp: 2n ** 40n + 1n });
    await expect(pool.sendTx(conflicting)).rejects.toThrow();
    expect(await pool.receiveGossipTx(conflicting)).toBe('ignore');
    await expect(pool.sendTx(await txOf(pool, 2))).rejects.toThrow();
    await expect(pool.sendTx(await txOf(pool, 3, { chainId: 1 }))).rejects.toThrow();
    expect(metrics.reading().txRejections).toEqual({
      NULLIFIER_CONFLICT: 2,
      LOW_PRIORITY_FEE: 1,
      [TX_INVALID_METRICS_CODE]: 1,
    });
  });
});
