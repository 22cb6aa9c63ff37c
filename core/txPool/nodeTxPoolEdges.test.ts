/**
 * The node's pool (core/txPool/nodeTxPool.ts) at its edges: the bound on sendTx calls in flight, what it publishes
 * and counts, what it logs of a gossiped tx it refuses or cannot process, a restart into a smaller pool, a block
 * mining txs it never held, the release of finalized blocks' mined txs, and a chain event it fails to follow.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ChainEvent, Hex } from '../../spec/chain.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import { SETUP_ALLOW_LIST_DEFAULTS } from '../../spec/config/allowList.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { GOSSIP_TXS_AWAITING_VALIDATION_MAX } from '../../spec/p2p/constants.js';
import { buildTx } from '../../spec/txBuilder.js';
import type { TxValue } from '../../spec/wire/tx.js';
import {
  MEMORY_CHAIN_CONSTANTS,
  memoryGenesis,
  openMemoryChain,
  proposeBlock,
  type MemoryChain,
} from '../../test/helpers/memoryChain.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import type { Chain } from '../chain/chain.js';
import type { GossipMessage, MetricsEvent, NetworkPort } from '../ports.js';
import { commitmentVerifier } from '../verifier/commitmentVerifier.js';
import { makeTx, txHashOf } from '../../test/txPool/txFixtures.js';
import { archiveOps } from './minedTxArchive.js';
import { NodeTxPool, openNodeTxPool, SEND_TX_ADMISSIONS_IN_FLIGHT_MAX } from './nodeTxPool.js';

const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

interface Opened {
  readonly node: MemoryChain;
  readonly pool: NodeTxPool;
  readonly published: GossipMessage[];
  readonly reported: MetricsEvent[];
  readonly lines: LogLine[];
}

async function openPool(options: { node?: MemoryChain; capacity?: number } = {}): Promise<Opened> {
  const node = options.node ?? (await openMemoryChain());
  const published: GossipMessage[] = [];
  const reported: MetricsEvent[] = [];
  const lines: LogLine[] = [];
  const pool = await openNodeTxPool(
    {
      storage: node.storage,
      clock: node.clock,
      verifier: commitmentVerifier,
      network: { publish: (message: GossipMessage) => void published.push(message) } as unknown as NetworkPort,
      metrics: { report: (event) => void reported.push(event) },
    },
    {
      chain: node.chain,
      constants: MEMORY_CHAIN_CONSTANTS,
      logger: capturingLogger((line) => lines.push(line)),
      settings: () => ({
        priceBumpPercentage: 10,
        capacity: options.capacity ?? 100,
        setupAllowList: SETUP_ALLOW_LIST_DEFAULTS,
      }),
      contractClassOf: async () => undefined,
    },
  );
  return { node, pool, published, reported, lines };
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

const hashes = (pool: NodeTxPool): Hex[] => pool.current.ordered().map((pooled) => pooled.txHash);

describe('sendTx', () => {
  it('publishes every tx it admits through the ports it was opened with, and counts each refusal', async () => {
    const { pool, published, reported } = await openPool();
    const [first, second] = [await txOf(pool, 1), await txOf(pool, 2)];
    await pool.sendTx(first);
    await pool.sendTx(second);
    expect(published).toEqual([
      { kind: 'tx', tx: first },
      { kind: 'tx', tx: second },
    ]);
    const conflicting = await txOf(pool, 1, { expirationTimestamp: 2n ** 40n + 1n });
    await expect(pool.sendTx(conflicting)).rejects.toMatchObject({ code: 'NULLIFIER_CONFLICT' });
    expect(reported).toEqual([{ kind: 'txRejected', code: 'NULLIFIER_CONFLICT' }]);
  });

  it('names every reason of an invalid tx in its message', async () => {
    const { pool } = await openPool();
    const tx = await txOf(pool, 1, { chainId: 1, version: 7 });
    const error = await pool.sendTx(tx).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
    const { reasons } = (error as { details: { reasons: string[] } }).details;
    expect(reasons.length).toBeGreaterThanOrEqual(2);
    expect((error as Error).message).toBe(`the tx is invalid: ${reasons.join('; ')}`);
  });

  it(`refuses the call beyond ${SEND_TX_ADMISSIONS_IN_FLIGHT_MAX} in flight, saying its limit`, async () => {
    const { pool } = await openPool();
    const tx = await txOf(pool, 1);
    const calls = Array.from({ length: SEND_TX_ADMISSIONS_IN_FLIGHT_MAX + 1 }, () =>
      pool.sendTx(tx).catch((error: unknown) => error),
    );
    const outcomes = await Promise.all(calls);
    expect(outcomes.slice(0, SEND_TX_ADMISSIONS_IN_FLIGHT_MAX).every((outcome) => outcome === undefined)).toBe(true);
    const max = SEND_TX_ADMISSIONS_IN_FLIGHT_MAX;
    expect(outcomes[max]).toMatchObject({
      code: 'LIMIT_EXCEEDED',
      message: `the node is already admitting ${max} txs, its limit: send again once earlier calls are answered`,
      details: { limit: 'sendTxAdmissionsInFlightMax', value: max, requested: max + 1 },
    });
  });

  it("validates a payer's balance when asked to, and skips it when fees are not enforced", async () => {
    const { pool } = await openPool();
    const tx = await txOf(pool, 1, { feePayer: hex32(0x5eed) });
    expect((await pool.isValidTx(tx, {})).valid).toBe(false);
    expect((await pool.isValidTx(tx, { skipFeeEnforcement: true })).valid).toBe(true);
  });
});

describe('gossiped txs', () => {
  it(`takes a tx after more than ${GOSSIP_TXS_AWAITING_VALIDATION_MAX} others were answered one at a time`, async () => {
    const { pool } = await openPool();
    for (let n = 0; n <= GOSSIP_TXS_AWAITING_VALIDATION_MAX; n++) {
      expect(await pool.receiveGossipTx(await txOf(pool, n))).toBe('accept');
    }
    expect(await pool.receiveGossipTx(await txOf(pool, 1_000))).toBe('accept');
  });

  it('logs the reasons of a tx it rejects, and a tx it cannot process', async () => {
    const { pool, lines } = await openPool();
    const invalid = await txOf(pool, 1, { chainId: 1 });
    expect(await pool.receiveGossipTx(invalid)).toBe('reject');
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        message: 'gossiped tx rejected',
        fields: { txHash: invalid.txHash, reasons: expect.stringContaining('chain') },
      }),
    );
    await pool.receiveGossipTx({ txHash: hex32(1) } as unknown as TxValue);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'gossiped tx not processed',
        fields: { txHash: hex32(1), error: expect.any(String) },
      }),
    );
  });
});

describe('the pool and its chain', () => {
  it('a restart into a smaller pool deletes the stored txs it leaves out', async () => {
    const { node, pool } = await openPool();
    const [high, low] = [await txOf(pool, 1, { priorityFeePerGas: 9n }), await txOf(pool, 2)];
    await pool.sendTx(high);
    await pool.sendTx(low);
    expect(hashes((await openPool({ node, capacity: 1 })).pool)).toEqual([high.txHash]);
    expect(hashes((await openPool({ node })).pool)).toEqual([high.txHash]);
  });

  it('drops and archives its own tx from a block that also mines a tx it never held', async () => {
    const { node, pool } = await openPool();
    const own = await txOf(pool, 1);
    await pool.sendTx(own);
    await proposeBlock(node, 1, [
      minimalTxEffect(hex32(0xbeef), hex32(0x4b000)),
      minimalTxEffect(own.txHash, own.sideEffects.nullifiers[0]!),
    ]);
    await settled(pool);
    expect(pool.current.count).toBe(0);
    expect(await node.storage.keys({ gte: 'minedTx:', lt: 'minedTx;' }).all()).toEqual([
      `minedTx:000000000001:${own.txHash.toLowerCase()}`,
    ]);
  });
});

describe('chain events over a chain stub', () => {
  /** A pool following a chain whose events the test sends itself. */
  async function openOnStub() {
    const node = await openMemoryChain();
    const listeners: ((event: ChainEvent) => void)[] = [];
    const lines: LogLine[] = [];
    const chain = { onEvent: (listener: (event: ChainEvent) => void) => void listeners.push(listener) };
    await NodeTxPool.open({
      chain: chain as unknown as Chain,
      storage: node.storage,
      constants: MEMORY_CHAIN_CONSTANTS,
      clock: node.clock,
      verifier: commitmentVerifier,
      logger: capturingLogger((line) => lines.push(line)),
      settings: () => ({ priceBumpPercentage: 10, capacity: 10, setupAllowList: SETUP_ALLOW_LIST_DEFAULTS }),
      contractClassOf: async () => undefined,
    });
    const send = (event: unknown) => listeners.forEach((listener) => listener(event as ChainEvent));
    return { node, send, lines };
  }

  it('a finalized block releases the mined txs kept for it and below, keeping those above', async () => {
    const { node, send } = await openOnStub();
    await node.storage.batch([...archiveOps(1, [makeTx({ hash: 1 })]), ...archiveOps(2, [makeTx({ hash: 2 })])]);
    send({ type: 'chainFinalized', block: { number: 1, hash: hex32(1) }, checkpoint: { number: 1, hash: hex32(2) } });
    await vi.waitFor(async () =>
      expect(await node.storage.keys({ gte: 'minedTx:', lt: 'minedTx;' }).all()).toEqual([
        `minedTx:000000000002:${txHashOf(2)}`,
      ]),
    );
  });

  it('logs a chain event it fails to follow, with the error, and goes on', async () => {
    const { send, lines } = await openOnStub();
    send({ type: 'blocksAdded', blocks: undefined });
    await vi.waitFor(() =>
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 'error',
          message: 'tx pool maintenance failed',
          fields: { error: expect.stringMatching(/TypeError[^]*\n\s+at /) },
        }),
      ),
    );
  });
});
