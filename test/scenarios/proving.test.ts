import { SIM_NODE_VERSION } from '../../sim/cluster.js';
import { l1PortsOverLink } from '../../sim/simBlobStores.js';
import { describe, expect, it } from 'vitest';
import type { BlockRef, ChainPruneReason, Hex } from '../../spec/chain.js';
import { createNode, type NodeActivity, type RollupNode } from '../../core/node/node.js';
import { createPrng, createSimRandomness } from '../../sim/prng.js';
import { runSimulation, type SimWorld } from '../../sim/runSimulation.js';
import { createNodeClock } from '../../sim/simClock.js';
import type { SimL1Link } from '../../sim/simL1.js';
import { createSimLogger } from '../../sim/simLogger.js';
import { createSimStorage } from '../../sim/simStorage.js';
import { createTrace } from '../../sim/trace.js';
import { provingOptions } from '../helpers/provingOptions.js';

/**
 * Proofs and finality on a simulated network: a sequencer, a follower and a prover node, 24 s slots, epochs of four
 * slots (96 s) with one epoch to land each proof, and L1 finality four blocks (48 s) behind its head.
 */
const NODES = ['sequencer-0', 'follower-1', 'prover-1'];

interface Observed {
  readonly proven: Map<string, BlockRef[]>;
  readonly finalized: Map<string, BlockRef[]>;
  readonly prunes: { node: string; reason: ChainPruneReason; toBlock: number; atMs: number }[];
  readonly proofs: { node: string; kind: string; success?: boolean }[];
}

function observer(now: () => number) {
  const seen: Observed = {
    proven: new Map(NODES.map((n) => [n, []])),
    finalized: new Map(NODES.map((n) => [n, []])),
    prunes: [],
    proofs: [],
  };
  const onActivity = (node: string, a: NodeActivity) => {
    if (a.kind === 'proof')
      seen.proofs.push({
        node,
        kind: a.outcome.kind,
        ...(a.outcome.kind === 'included' ? { success: a.outcome.success } : {}),
      });
    if (a.kind !== 'chain') return;
    const e = a.event;
    if (e.type === 'chainProven') seen.proven.get(node)!.push(e.block);
    if (e.type === 'chainFinalized') seen.finalized.get(node)!.push(e.block);
    if (e.type === 'chainPruned') seen.prunes.push({ node, reason: e.reason, toBlock: e.toBlock.number, atMs: now() });
  };
  return { seen, onActivity };
}

describe('proofs and finality on a simulated network', () => {
  it('proven and finalized move on every node as the prover lands a proof per epoch', async () => {
    let world: SimWorld | undefined;
    const { seen, onActivity } = observer(() => world!.scheduler.now());
    const result = await runSimulation(provingOptions(21n, 600), { scenario: (w) => (world = w), onActivity });
    expect(result.failures).toEqual([]);
    const included = seen.proofs.filter((p) => p.kind === 'included');
    expect(included.length).toBeGreaterThanOrEqual(3);
    expect(included.every((p) => p.success)).toBe(true);
    expect(seen.prunes.filter((p) => p.reason === 'epochNotProven')).toEqual([]);
    for (const node of result.nodes) {
      expect(seen.proven.get(node.name)!.length, node.name).toBeGreaterThanOrEqual(3);
      expect(seen.finalized.get(node.name)!.length, node.name).toBeGreaterThanOrEqual(2);
      expect(node.finalizedBlock!).toBeGreaterThan(0);
      expect(node.finalizedBlock!).toBeLessThanOrEqual(node.provenBlock!);
      expect(node.provenBlock!).toBeLessThanOrEqual(node.checkpointedBlock);
    }
    // Every node proved and finalized the same blocks (the follower and prover trail by at most a step).
    const reference = seen.finalized.get('sequencer-0')!.map((b) => b.hash);
    for (const node of NODES) {
      const theirs = seen.finalized.get(node)!.map((b) => b.hash);
      expect(reference.slice(0, theirs.length - 1)).toEqual(theirs.slice(0, -1));
    }
    expect(world!.l1.provenCheckpoint().checkpointNumber).toBeGreaterThan(0);
  });

  it('an epoch whose proof window passes is pruned on every node no later than on L1, and the chain goes on', async () => {
    let world: SimWorld | undefined;
    const { seen, onActivity } = observer(() => world!.scheduler.now());
    const result = await runSimulation(provingOptions(22n, 640), {
      scenario: (w) => {
        world = w;
        // The prover misses epochs 0 and 1 (windows close at 192 s and 288 s), then proves again.
        w.at(0, () => w.node('prover-1').proverActor!.send({ type: 'prover.pause' }));
        w.at(300_000, () => w.node('prover-1').proverActor!.send({ type: 'prover.resume' }));
      },
      onActivity,
    });
    expect(result.failures).toEqual([]);
    const l1 = world!.l1;
    const reader = l1.connect('checker').reader;
    const l1Prunes = await reader.getChainPrunedLogs(0n, l1.head().number);
    expect(l1Prunes.length).toBeGreaterThanOrEqual(1);
    const firstL1PruneMs = Number((await reader.getBlock(l1Prunes[0]!.l1.blockNumber)).timestamp) * 1000;
    for (const node of NODES) {
      const prunes = seen.prunes.filter((p) => p.node === node && p.reason === 'epochNotProven');
      expect(prunes.length, node).toBeGreaterThanOrEqual(1);
      expect(prunes[0]!.atMs, `${node} prunes before or when L1 does`).toBeLessThanOrEqual(firstL1PruneMs);
    }
    // After the prover came back, epochs are proven and finalized again, on top of the pruned chain.
    for (const node of result.nodes) {
      expect(node.provenBlock!, node.name).toBeGreaterThan(0);
      expect(node.finalizedBlock!, node.name).toBeGreaterThan(0);
      expect(node.checkpoint).toBeGreaterThan(0);
    }
    expect(l1.provenCheckpoint().checkpointNumber).toBeGreaterThan(0);
  });

  it('a reorg that removes a proof moves proven back on every node; the prover proves the epoch again', async () => {
    let world: SimWorld | undefined;
    let reorgedAtMs: number | undefined;
    const { seen, onActivity } = observer(() => world!.scheduler.now());
    const result = await runSimulation(provingOptions(23n, 420), {
      scenario: (w) => {
        world = w;
        // Once every node has seen the first proof, drop the L1 block holding it (and any after it).
        const watch = () => {
          const proven = w.l1.provenCheckpoint();
          const everyNodeSawIt = NODES.every((n) => w.node(n).chain.tips.proven.checkpoint.number > 0);
          if (reorgedAtMs === undefined && proven.checkpointNumber > 0 && everyNodeSawIt) {
            w.l1.reorg(Number(w.l1.head().number - proven.l1BlockNumber) + 1);
            reorgedAtMs = w.scheduler.now();
            return;
          }
          if (reorgedAtMs === undefined) w.scheduler.schedule(1_000, watch);
        };
        w.scheduler.schedule(1_000, watch);
      },
      onActivity,
    });
    expect(result.failures).toEqual([]);
    expect(reorgedAtMs).toBeDefined();
    for (const node of NODES) {
      const proven = seen.proven.get(node)!.map((b) => b.number);
      const wentBack = proven.some((n, i) => i > 0 && n < proven[i - 1]!);
      expect(wentBack, `${node} proven: ${proven.join(',')}`).toBe(true);
      expect(proven.at(-1)!, node).toBeGreaterThan(0);
    }
    expect(seen.proofs.filter((p) => p.kind === 'included' && p.success).length).toBeGreaterThanOrEqual(2);
  });

  it('a follower whose L1 reads fail or lag never prunes early: it prunes only once the L1 it can read says so', async () => {
    const WINDOW_CLOSES_MS = 192_000; // epoch 0's window: epoch 1 (96 s to 192 s)
    const FAILING_UNTIL_MS = 300_000;
    const STALE_BLOCKS = 6;
    let world: SimWorld | undefined;
    const extra: {
      name: string;
      node: RollupNode;
      link: SimL1Link;
      prunes: { atMs: number; reason: ChainPruneReason }[];
    }[] = [];
    /** A follower of our own on its own L1 link, so the test can set the link's faults. */
    const addFollower = async (w: SimWorld, name: string) => {
      const link = w.l1.connect(name);
      const trace = createTrace({ now: () => w.scheduler.now(), keepLast: 0 });
      const node = await createNode(
        {
          clock: createNodeClock(w.scheduler, { owner: name }),
          randomness: createSimRandomness(createPrng(7n).fork(name)),
          logger: createSimLogger({ trace }),
          storage: createSimStorage(),
          ...l1PortsOverLink(link),
        },
        { rollupAddress: `0x${'00'.repeat(19)}01` as Hex, archiverPollIntervalMs: 1_000 },
        { nodeVersion: SIM_NODE_VERSION },
      );
      const entry = { name, node, link, prunes: [] as { atMs: number; reason: ChainPruneReason }[] };
      node.onActivity((a) => {
        if (a.kind === 'chain' && a.event.type === 'chainPruned')
          entry.prunes.push({ atMs: w.scheduler.now() - startMs, reason: a.event.reason });
      });
      extra.push(entry);
      node.start();
      return entry;
    };
    let startMs = 0;
    const result = await runSimulation(provingOptions(24n, 420), {
      scenario: (w) => {
        world = w;
        startMs = w.scheduler.now();
        w.at(0, () => w.node('prover-1').proverActor!.send({ type: 'prover.pause' }));
        w.at(0, async () => {
          (await addFollower(w, 'stale-1')).link.setStale(STALE_BLOCKS);
          await addFollower(w, 'failing-1');
        });
        w.at(150_000, () => extra.find((e) => e.name === 'failing-1')!.link.setRpcFailureRate(1));
        w.at(FAILING_UNTIL_MS, () => extra.find((e) => e.name === 'failing-1')!.link.setRpcFailureRate(0));
      },
    });
    expect(result.failures).toEqual([]);
    const checker = world!.l1.connect('checker').reader;
    expect(world!.l1.checkpointCount()).toBeGreaterThan(0);
    for (const { name, node, prunes } of extra) {
      const epochPrunes = prunes.filter((p) => p.reason === 'epochNotProven');
      expect(epochPrunes.length, name).toBeGreaterThanOrEqual(1);
      const earliest = name === 'failing-1' ? FAILING_UNTIL_MS : WINDOW_CLOSES_MS + STALE_BLOCKS * 12_000;
      expect(epochPrunes[0]!.atMs, name).toBeGreaterThanOrEqual(earliest);
      // It holds exactly the checkpoints L1 held at the L1 block it last synced (a stale follower may be a prune behind).
      const syncedTo = node.chain.l1Sync!.blockNumber;
      expect(node.chain.tips.checkpointed.checkpoint.number, name).toBe(await checker.getCheckpointCount(syncedTo));
      for (let n = 1; n <= node.chain.tips.checkpointed.checkpoint.number; n++) {
        expect((await node.chain.store.getCheckpoint(n))?.archiveRoot, `${name} checkpoint ${n}`).toBe(
          await checker.getArchiveAt(n, syncedTo),
        );
      }
      await node.stop();
    }
  });
});
