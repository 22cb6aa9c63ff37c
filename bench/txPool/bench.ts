/**
 * `npm run bench -- txpool`: the pool with 10,000 pending txs.
 * - direct: decide + apply of new txs straight into the pure pool (core/txPool), with one payer per tx and with 4
 *   payers; and with 4 payers whose balance falls one short of their pending txs and the newcomer, so that every
 *   decision walks the payer's 2,500 txs (the walk's worst case, not a shortcut);
 * - sendTx: the JSON-RPC dispatcher's svc_sendTx on a real node's NodeTxPool (wire decoding, validation against
 *   the world state, admission, one classic-level batch per tx), in process (the HTTP layer is `bench -- rpc`'s);
 * - memory per pending tx (heap after filling, over the empty pool's);
 * - block building for a full checkpoint: txs selected by priority and executed, blocks applied to the world state
 *   on classic-level, until the checkpoint's DA budget is spent.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRpcDispatcher } from '../../adapters/rpc/dispatcher.js';
import { silentLogger } from '../../adapters/rpc/jsonRpcServer.js';
import { openClassicLevelStorage } from '../../adapters/storage/classicLevelStorage.js';
import { createNode, type RollupNode } from '../../core/node/node.js';
import type { NodePorts } from '../../core/ports.js';
import { blockBudget } from '../../core/sequencer/blockBudget.js';
import { blockStateEffects } from '../../core/worldState/blockEffects.js';
import { selectTxs } from '../../core/sequencer/txSelection.js';
import { latestPublicStateOf } from '../../core/txs/txService.js';
import { decideAdmission } from '../../core/txPool/admitTx.js';
import { TxPool } from '../../core/txPool/txPool.js';
import { txMaxCost } from '../../core/txPool/txPriority.js';
import { latestContractReader } from '../../core/l2Contracts/contractStore.js';
import type { WorldState } from '../../core/worldState/worldState.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import type { Hex } from '../../spec/chain.js';
import { SETUP_ALLOW_LIST_DEFAULTS } from '../../spec/config/allowList.js';
import { L1_CHAIN_ID_LOCAL_NETWORK } from '../../spec/constants.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { PUBLIC_RPC_LIMITS_DEFAULT } from '../../spec/rpc/limits.js';
import { buildTx, txToWire } from '../../spec/txBuilder.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { SIM_NODE_VERSION } from '../../sim/cluster.js';
import { createScheduler } from '../../sim/scheduler.js';
import { createNodeClock } from '../../sim/simClock.js';
import { createSimL1 } from '../../sim/simL1.js';
import { l1PortsOverLink } from '../../sim/simBlobStores.js';
import { createPrng, createSimRandomness } from '../../sim/prng.js';
import { createTrace } from '../../sim/trace.js';

const PENDING = 10_000;
const MEASURED = 2_000;
const MIN_FEES = { feePerDaGas: 100n, feePerL2Gas: 1_000n };

const field = (n: number): Hex => `0x${(n + 1_000_000).toString(16).padStart(64, '0')}`;

/** `payers`: the fee payers, used in turn (the test accounts, or one fresh payer per tx). */
function makeTxs(count: number, anchor: Hex, offset = 0, payers: readonly Hex[] = genesisTestAccounts()): TxValue[] {
  return Array.from({ length: count }, (_, i) =>
    buildTx({
      chainId: L1_CHAIN_ID_LOCAL_NETWORK,
      version: 1,
      anchorBlockHash: anchor,
      feePayer: payers[i % payers.length]!,
      nullifier: field(offset + i),
      minFees: MIN_FEES,
      expirationTimestamp: 2n ** 40n,
      gasLimits: { daGas: 4_000, l2Gas: 20_000 },
      priorityFeePerGas: BigInt(1 + ((offset + i) % 997)),
    }),
  );
}

function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Fills a pool with PENDING txs from `make`, then times MEASURED more decisions (each applied when accepted); memory
 * counts the txs themselves too. `shortBalance`: while timing, each payer's balance is one below what its pending txs
 * and the newcomer cost together.
 */
function benchDirect(
  make: (count: number, offset: number) => TxValue[],
  shortBalance = false,
): { admissionsPerSecond: number; bytesPerPendingTx: number } {
  const gc = collectGarbage();
  const extra = make(MEASURED, PENDING);
  gc();
  const before = process.memoryUsage().heapUsed;
  const txs = make(PENDING, 0);
  const pool = TxPool.empty(PENDING + MEASURED);
  const context = { feePayerBalance: 10n ** 30n, priceBumpPercentage: 10 };
  for (const tx of txs) {
    const decision = decideAdmission(pool, tx, context);
    if (decision.kind === 'accepted') pool.apply(decision.change);
  }
  gc();
  const bytesPerPendingTx = Math.round((process.memoryUsage().heapUsed - before) / pool.count);
  const started = performance.now();
  for (const tx of extra) {
    const balance = shortBalance
      ? pool.feePayerMaxCostTotal(tx.feePayer) + txMaxCost(tx) - 1n
      : context.feePayerBalance;
    const decision = decideAdmission(pool, tx, { ...context, feePayerBalance: balance });
    if (decision.kind === 'accepted') pool.apply(decision.change);
  }
  const admissionsPerSecond = Math.round(extra.length / ((performance.now() - started) / 1000));
  return { admissionsPerSecond, bytesPerPendingTx };
}

/** A node over classic-level and a simulated L1 (never started: the pool and the world state are all we use). */
async function openNode(dir: string) {
  const scheduler = createScheduler();
  const trace = createTrace({ now: () => scheduler.now(), keepLast: 0 });
  const genesis = createGenesis(L1_CHAIN_ID_LOCAL_NETWORK, 1);
  const l1 = createSimL1({
    scheduler,
    prng: createPrng(1n).fork('l1'),
    genesisArchiveRoot: genesis.block.archive.root,
    slotDuration: 36,
    rollupVersion: 1,
    l1ChainId: L1_CHAIN_ID_LOCAL_NETWORK,
    l1StartBlock: 1n,
    inclusionDelay: { probability: 0, blocksMax: 0 },
    trace,
  });
  const ports: NodePorts = {
    clock: createNodeClock(scheduler, { owner: 'bench' }),
    randomness: createSimRandomness(createPrng(2n)),
    logger: silentLogger,
    storage: await openClassicLevelStorage(dir),
    ...l1PortsOverLink(l1.connect('bench')),
  };
  const txPool = { priceBumpPercentage: 10, capacity: PENDING + MEASURED, setupAllowList: SETUP_ALLOW_LIST_DEFAULTS };
  return {
    node: await createNode(
      ports,
      { rollupAddress: `0x${'00'.repeat(19)}01`, archiverPollIntervalMs: 1_000, txPool },
      { nodeVersion: SIM_NODE_VERSION },
    ),
    ports,
    genesis,
  };
}

export async function benchTxPool(): Promise<{ name: string; figures: Record<string, number | string> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'svc-bench-txpool-'));
  try {
    const { node, ports, genesis } = await openNode(path.join(dir, 'node'));
    const anchor = genesis.block.hash;
    const freshPayers = (count: number, offset: number) =>
      Array.from({ length: count }, (_, i) => field(10_000_000 + offset + i));
    const typical = benchDirect((count, offset) => makeTxs(count, anchor, offset, freshPayers(count, offset)));
    const fourPayers = benchDirect((count, offset) => makeTxs(count, anchor, offset));
    const fourPayersWalked = benchDirect((count, offset) => makeTxs(count, anchor, offset), true);
    const txs = makeTxs(PENDING, anchor);
    const extra = makeTxs(MEASURED, anchor, PENDING);

    const dispatch = createRpcDispatcher({
      node: node.service,
      namespace: 'public',
      limits: PUBLIC_RPC_LIMITS_DEFAULT,
      logger: silentLogger,
    });
    const send = (tx: TxValue, id: number) =>
      dispatch({ jsonrpc: '2.0', id, method: 'svc_sendTx', params: [txToWire(tx)] });
    for (const [i, tx] of txs.entries()) await send(tx, i);
    const pending = await node.service.txs.getPendingTxCount();
    const started = performance.now();
    for (const [i, tx] of extra.entries()) await send(tx, i);
    const sendTxPerSecond = Math.round(extra.length / ((performance.now() - started) / 1000));

    const building = await benchCheckpointBuild(node);
    await node.stop();
    await ports.storage.close();
    return {
      name: 'txpool',
      figures: {
        pendingTxs: pending,
        directAdmissionsPerSecond: typical.admissionsPerSecond,
        directAdmissionsPerSecondFourPayers: fourPayers.admissionsPerSecond,
        directDecisionsPerSecondFourPayersWalked: fourPayersWalked.admissionsPerSecond,
        directNote:
          "one payer per tx (typical); all txs from 4 payers (2,500 pending each: the payer's ordered index and cost total spare the walk); " +
          'and 4 payers one short of covering their txs, so each decision walks 2,500 txs and evicts or rejects one',
        sendTxPerSecond,
        sendTxPath:
          'dispatcher in process: wire decode, validation on the world state, admission, classic-level batch; 4 payers',
        bytesPerPendingTx: typical.bytesPerPendingTx,
        ...building,
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Blocks built from the pool until the checkpoint's DA budget is spent, each applied to the world state. */
async function benchCheckpointBuild(node: RollupNode) {
  const { chain } = node;
  const worldState: WorldState = chain.worldState;
  const state = latestPublicStateOf(chain, latestContractReader(chain));
  let used = { manaUsed: 0, daGasUsed: 0, txCount: 0 };
  let remaining = node.txPool.current.ordered().map((pooled) => pooled.tx);
  let blocks = 0;
  const started = performance.now();
  while (remaining.length > 0) {
    const budget = blockBudget({ perBlockAllocationMultiplier: 1 }, 4, used);
    if (budget.daGas <= 0 || budget.txCount <= 0) break;
    const selection = await selectTxs({
      candidates: remaining,
      budget,
      gasFees: MIN_FEES,
      timestamp: 0n,
      state,
      anchorOnChain: async () => true,
    });
    if (selection.effects.length === 0) break;
    const draft = await worldState.prepareBlock(worldState.latestBlockNumber + 1, blockStateEffects(selection.effects));
    await draft.finish(field(blocks)).commit();
    const included = new Set(selection.effects.map((effect) => effect.txHash));
    remaining = remaining.filter((tx) => !included.has(tx.txHash));
    used = {
      manaUsed: used.manaUsed + selection.manaUsed,
      daGasUsed: used.daGasUsed + selection.daGasUsed,
      txCount: used.txCount + selection.effects.length,
    };
    blocks++;
  }
  const wallMs = performance.now() - started;
  return {
    checkpointBlocks: blocks,
    checkpointTxs: used.txCount,
    checkpointBuildMs: Math.round(wallMs),
    checkpointDaGasUsed: used.daGasUsed,
  };
}
