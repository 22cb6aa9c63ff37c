/**
 * Several L1 endpoints on a real L1: a follower node reads the local network's anvil through two loopback proxies
 * (test/helpers/rpcProxy.ts). While it syncs, one proxy serves a stale chain, then the current one hangs past every
 * timeout, then the other is killed. The follower keeps syncing through whichever proxy still serves the chain, its
 * tips never go down, and it never prunes or unwinds a reorg that did not happen.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLocalNetwork } from '../../adapters/node/localNetwork.js';
import { configFromSettings } from '../../adapters/node/nodeConfig.js';
import { runNode } from '../../adapters/node/runNode.js';
import type { ChainEvent } from '../../spec/chain.js';
import { startRpcProxy } from '../helpers/rpcProxy.js';
import { capturingLogger, type LogLine } from '../helpers/testLogger.js';
import { quietNodeOptions } from './quietNodeOptions.js';
import { rpc, waitFor } from './rpc.js';

type WireTip = { block: { number: number; hash: string }; checkpoint: { number: number } };
type WireTips = { proposed: { number: number }; checkpointed: WireTip; proven: WireTip };

const common = quietNodeOptions;
/** How often the test samples the follower's tips to see that none goes down. */
const TIPS_SAMPLE_INTERVAL_MS = 100;
/**
 * Each phase's bound. A phase takes a few slots (4 s each) on a quiet machine; CI's 2 cores shared with other suites
 * (load 8 and more) made the first checkpoints take over 25 s twice, so the bound leaves room for that.
 */
const PHASE_TIMEOUT_MS = 60_000;

describe('several L1 endpoints on a real L1 (anvil)', () => {
  const stops: (() => Promise<void>)[] = [];
  let root = '';
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('a follower keeps syncing while one endpoint is stale, hangs or is gone, and never prunes', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-l1-failover-'));
    const net = await runLocalNetwork({
      ...common,
      dataDirectory: path.join(root, 'local'),
      l1Port: 0,
      slotDurationSeconds: 4,
      l1BlockTimeSeconds: 1,
    });
    stops.push(() => net.stop());
    const [a, b] = [await startRpcProxy(net.l1RpcUrl), await startRpcProxy(net.l1RpcUrl)];
    stops.push(
      () => a.stop(),
      () => b.stop(),
    );
    const lines: LogLine[] = [];
    const follower = await runNode({
      config: configFromSettings(
        { ...common, rollupAddress: net.rollupAddress },
        { l1RpcUrls: [a.url, b.url], l1ConsensusHostUrls: [net.l1RpcUrl] },
      ),
      logger: capturingLogger((line) => lines.push(line)),
      print: () => undefined,
    });
    stops.push(() => follower.stop());
    // The sequencing node may drop its own unpublished blocks; a follower syncing from L1 alone has nothing to prune.
    const prunes: ChainEvent[] = [];
    follower.node.chain.onEvent((event) => event.type === 'chainPruned' && prunes.push(event));
    const watch = watchTips(follower.publicUrl);
    stops.push(() => watch.stop());
    const messages = () => lines.map((l) => l.message);
    const tipsOf = (url: string) => rpc<WireTips>(url, 'svc_getChainTips');
    /** The follower passes the local network's checkpointed tip and reaches its proven tip as they are now. */
    const keepsSyncing = async (what: string) => {
      const target = await tipsOf(net.publicUrl);
      await waitFor(
        `the follower to keep syncing ${what}`,
        async () => {
          const tips = await tipsOf(follower.publicUrl);
          return (
            tips.checkpointed.checkpoint.number > target.checkpointed.checkpoint.number &&
            tips.proven.checkpoint.number >= target.proven.checkpoint.number
          );
        },
        PHASE_TIMEOUT_MS,
      );
    };

    let followerTips: WireTips | undefined;
    await waitFor(
      'the follower to sync two checkpoints',
      async () => {
        followerTips = await tipsOf(follower.publicUrl);
        return followerTips.checkpointed.checkpoint.number >= 2;
      },
      PHASE_TIMEOUT_MS,
      () => JSON.stringify(followerTips),
    );

    // B serves a chain stuck at today's head: the highest head is A's, and the follower reads from A.
    await b.stale();
    await keepsSyncing('beside a stale endpoint');
    await waitFor(
      'the stale endpoint to be reported behind',
      async () => messages().includes('L1 endpoint is behind the best head'),
      PHASE_TIMEOUT_MS,
    );

    // A, the current endpoint, hangs; B serves the chain again.
    b.heal();
    a.hang();
    await keepsSyncing('while the current endpoint hangs');
    expect(messages()).toContain('L1 reads switch to another endpoint');

    // B is gone; A answers again (still cooling down after its failures, so asked as the last resort).
    a.heal();
    await b.kill();
    await keepsSyncing('after the other endpoint is gone');
    expect(messages()).toContain('L1 endpoint answers again');

    await watch.stop();
    expect(watch.decreases()).toEqual([]);
    expect(prunes).toEqual([]);
    expect(messages().filter((m) => /prune|reorg/i.test(m))).toEqual([]);
    const tips = await tipsOf(follower.publicUrl);
    for (let n = 1; n <= tips.checkpointed.block.number; n++) {
      const [ours, theirs] = await Promise.all([
        rpc(net.publicUrl, 'svc_getBlockData', [n]),
        rpc(follower.publicUrl, 'svc_getBlockData', [n]),
      ]);
      expect(theirs).toEqual(ours);
    }
  }, 300_000);
});

/** Samples a node's proposed, checkpointed and proven tips, recording every time one went down. */
function watchTips(url: string) {
  const found: string[] = [];
  const last = { proposed: 0, checkpointed: 0, proven: 0 };
  const sample = async () => {
    const tips = await rpc<WireTips>(url, 'svc_getChainTips').catch(() => undefined);
    if (tips === undefined) return;
    const now = {
      proposed: tips.proposed.number,
      checkpointed: tips.checkpointed.checkpoint.number,
      proven: tips.proven.checkpoint.number,
    };
    for (const tip of ['proposed', 'checkpointed', 'proven'] as const) {
      if (now[tip] < last[tip]) found.push(`${tip} went from ${last[tip]} to ${now[tip]}`);
      last[tip] = Math.max(last[tip], now[tip]);
    }
  };
  let running = true;
  const loop = (async () => {
    while (running) {
      await sample();
      await new Promise((resolve) => setTimeout(resolve, TIPS_SAMPLE_INTERVAL_MS));
    }
  })();
  return {
    decreases: () => [...found],
    async stop() {
      running = false;
      await loop;
    },
  };
}
