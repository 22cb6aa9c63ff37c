/**
 * The L1-reorg scenario on a real L1: anvil reorgs away the L1 blocks holding the newest checkpoint a follower has
 * synced (`anvil_reorg`, above anvil's finalized block). Both the local network and the follower must drop what L1
 * no longer holds and agree again, with every checkpoint they keep matching the rollup contract on the new chain.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPublicClient, http, type Hex, type PublicClient } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { rollupAbi } from '../../contracts/artifacts/rollup.js';
import { quietNodeOptions } from './quietNodeOptions.js';
import { runLocalNetwork } from '../../adapters/node/localNetwork.js';
import { runNode } from '../../adapters/node/runNode.js';
import { rpc, waitFor } from './rpc.js';

type WireCheckpoint = {
  number: number;
  hash: string;
  archiveRoot: string;
  l1: { blockNumber: string; blockHash: Hex };
};
type WireTips = { checkpointed: { checkpoint: { number: number; hash: string } } };

const common = quietNodeOptions;
/** Anvil's finalized block trails its head by twice this; the reorg stays well above it. */
const L1_SLOTS_IN_AN_EPOCH = 16;

/**
 * `anvil_reorg` mines its replacement blocks at the timestamps of the blocks it removed, and anvil's clock stays that
 * far behind the wall clock afterwards (depth + 1 s), so the rollup contract would see every later slot late: a
 * proposal sent a few seconds into its slot is refused as `WrongSlot(currentSlot: n - 1, given: n)`, slot after slot.
 * A real L1 reorg does not rewind time, so the next block goes back to the wall clock.
 */
async function restoreL1Time(l1: PublicClient): Promise<void> {
  const head = await l1.getBlock({ blockTag: 'latest' });
  const now = BigInt(Math.ceil(Date.now() / 1000));
  const next = now > head.timestamp ? now : head.timestamp + 1n;
  await l1.request({ method: 'evm_setNextBlockTimestamp' as never, params: [Number(next)] as never });
}

describe('L1 reorg on a real L1 (anvil)', () => {
  const stops: (() => Promise<void>)[] = [];
  let root = '';
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('a reorg removing a synced checkpoint is unwound by the proposer and a follower, which converge on the new L1 chain', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-reorg-'));
    const net = await runLocalNetwork({
      ...common,
      dataDirectory: path.join(root, 'local'),
      l1Port: 0,
      // Longer slots than the other e2e tests: this one shares the machine with them in CI, and a slot the proposer
      // misses under load delays the chain it must rebuild after the reorg.
      slotDurationSeconds: 6,
      l1BlockTimeSeconds: 1,
      l1SlotsInAnEpoch: L1_SLOTS_IN_AN_EPOCH,
    });
    stops.push(() => net.stop());
    const follower = await runNode({
      ...common,
      l1RpcUrl: net.l1RpcUrl,
      l1ConsensusHostUrl: net.l1RpcUrl,
      rollupAddress: net.rollupAddress,
    });
    stops.push(() => follower.stop());
    const l1 = createPublicClient({ transport: http(net.l1RpcUrl) });
    const checkpointed = async (url: string) =>
      (await rpc<WireTips>(url, 'svc_getChainTips')).checkpointed.checkpoint.number;

    await waitFor(
      'the follower to sync two checkpoints',
      async () => (await checkpointed(follower.publicUrl)) >= 2,
      60_000,
    );
    const target = await checkpointed(follower.publicUrl);
    const before = await rpc<WireCheckpoint>(follower.publicUrl, 'svc_getCheckpoint', [target]);
    const head = await l1.getBlockNumber({ cacheTime: 0 });
    const depth = Number(head - BigInt(before.l1.blockNumber)) + 1;
    expect(depth).toBeLessThan(2 * L1_SLOTS_IN_AN_EPOCH);
    await l1.request({ method: 'anvil_reorg' as never, params: [depth, []] as never });
    await restoreL1Time(l1);
    expect(await l1.getBlock({ blockNumber: BigInt(before.l1.blockNumber) })).not.toMatchObject({
      hash: before.l1.blockHash,
    });

    // Both nodes go on past the checkpoint the reorg took, on the chain L1 now holds.
    const onL1 = async (n: number) =>
      l1.readContract({ address: net.rollupAddress, abi: rollupAbi, functionName: 'getArchive', args: [BigInt(n)] });
    let seen = 'nothing yet';
    await waitFor(
      'both nodes to pass the reorged checkpoint',
      async () => {
        const [a, b] = await Promise.all([
          rpc<WireTips & Record<string, unknown>>(net.publicUrl, 'svc_getChainTips'),
          rpc<WireTips & Record<string, unknown>>(follower.publicUrl, 'svc_getChainTips'),
        ]);
        seen = `target ${target}, proposer ${JSON.stringify(a)}, follower ${JSON.stringify(b)}`;
        return a.checkpointed.checkpoint.number > target && b.checkpointed.checkpoint.number > target;
      },
      120_000,
      () => seen,
    );
    const upTo = Math.min(await checkpointed(net.publicUrl), await checkpointed(follower.publicUrl));
    for (let n = 1; n <= upTo; n++) {
      const [ours, theirs] = await Promise.all([
        rpc<WireCheckpoint>(net.publicUrl, 'svc_getCheckpoint', [n]),
        rpc<WireCheckpoint>(follower.publicUrl, 'svc_getCheckpoint', [n]),
      ]);
      expect(theirs).toEqual(ours);
      expect(theirs.archiveRoot).toBe(await onL1(n));
      // Published in an L1 block that is on the canonical chain now.
      expect((await l1.getBlock({ blockNumber: BigInt(theirs.l1.blockNumber) })).hash).toBe(theirs.l1.blockHash);
    }
    const after = await rpc<WireCheckpoint>(follower.publicUrl, 'svc_getCheckpoint', [target]);
    expect(after.l1.blockHash).not.toBe(before.l1.blockHash);
  }, 240_000);
});
