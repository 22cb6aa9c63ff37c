import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { quietNodeOptions } from './quietNodeOptions.js';
import { runLocalNetwork } from '../../adapters/node/localNetwork.js';
import { runNode } from '../../adapters/node/runNode.js';
import { rpc, waitFor } from './rpc.js';

type WireTip = { block: { number: number; hash: string }; checkpoint: { number: number; hash: string } };
type WireTips = {
  proposed: { number: number; hash: string };
  checkpointed: WireTip;
  proven: WireTip;
  finalized: WireTip;
};

const common = quietNodeOptions;

describe('proofs and finality on a real L1 (anvil)', () => {
  const stops: (() => Promise<void>)[] = [];
  let root = '';
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('the local network proves its epochs and they finalize; a follower sees the same proven and finalized blocks from L1', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-proving-'));
    const startedAt = Date.now();
    // 4 s slots, 1 s L1 blocks, 2-slot epochs: epoch 0 ends 8 s after genesis; anvil finalizes two blocks behind.
    const net = await runLocalNetwork({
      ...common,
      dataDirectory: path.join(root, 'local'),
      l1Port: 0,
      slotDurationSeconds: 4,
      l1BlockTimeSeconds: 1,
    });
    stops.push(() => net.stop());
    const follower = await runNode({
      ...common,
      l1RpcUrl: net.l1RpcUrl,
      l1ConsensusHostUrl: net.l1RpcUrl,
      rollupAddress: net.rollupAddress,
    });
    stops.push(() => follower.stop());

    const tipsOf = (url: string) => rpc<WireTips>(url, 'svc_getChainTips');
    await waitFor(
      'two finalized checkpoints on the local network',
      async () => (await tipsOf(net.publicUrl)).finalized.checkpoint.number >= 2,
      50_000,
    );
    const provenAfterMs = Date.now() - startedAt;
    const tips = await tipsOf(net.publicUrl);
    expect(tips.finalized.block.number).toBeLessThanOrEqual(tips.proven.block.number);
    expect(tips.proven.block.number).toBeLessThanOrEqual(tips.checkpointed.block.number);
    expect(await rpc(net.publicUrl, 'svc_getBlockNumber', ['finalized'])).toBe(tips.finalized.block.number);
    expect(await rpc(net.publicUrl, 'svc_getCheckpointNumber', ['proven'])).toBeGreaterThanOrEqual(
      tips.finalized.checkpoint.number,
    );

    // The follower learns proofs and finality from L1 alone, and agrees on the blocks.
    await waitFor(
      'the follower to finalize as far',
      async () => (await tipsOf(follower.publicUrl)).finalized.checkpoint.number >= tips.finalized.checkpoint.number,
      20_000,
    );
    const followerTips = await tipsOf(follower.publicUrl);
    const finalizedBlock = tips.finalized.block.number;
    const [ours, theirs] = await Promise.all([
      rpc(net.publicUrl, 'svc_getBlockData', [finalizedBlock]),
      rpc(follower.publicUrl, 'svc_getBlockData', [finalizedBlock]),
    ]);
    expect(theirs).toEqual(ours);
    expect(followerTips.finalized.checkpoint.number).toBeGreaterThanOrEqual(tips.finalized.checkpoint.number);
    console.info(`local network: two finalized checkpoints after ${provenAfterMs} ms`);
  }, 90_000);
});
