import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { runLocalNetwork, type RunningLocalNetwork } from '../../adapters/node/localNetwork.js';
import { runNode, type RunningNode } from '../../adapters/node/runNode.js';
import type { L2Tips } from '../../spec/chain.js';
import { rpc, waitFor } from './rpc.js';
import { svcNodeArgs } from '../helpers/svcCommand.js';

type WireTips = {
  proposed: { number: number; hash: string };
  checkpointed: { block: { number: number; hash: string }; checkpoint: { number: number } };
};

const exec = promisify(execFile);
const logger = createPinoLogger({ level: 'silent' });
const common = {
  port: 0,
  adminPort: 0,
  adminHost: '127.0.0.1',
  adminApiKey: { disabled: false, reset: false },
  logger,
} as const;

describe('a local network on a real L1 (anvil), and a node that follows it from L1 alone', () => {
  const stops: (() => Promise<void>)[] = [];
  let root = '';
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('builds blocks, checkpoints them through blob transactions, and a second node syncs the same chain', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-'));
    const printed: string[] = [];
    const net: RunningLocalNetwork = await runLocalNetwork({
      ...common,
      dataDirectory: path.join(root, 'local'),
      l1Port: 0,
      slotDurationSeconds: 4,
      l1BlockTimeSeconds: 1,
      print: (line) => printed.push(line),
    });
    stops.push(() => net.stop());
    expect(printed.filter((l) => l.includes('admin API key'))).toHaveLength(1);
    expect(printed.some((l) => l.startsWith('rollup contract: 0x'))).toBe(true);
    expect(printed.some((l) => l.startsWith('L1 RPC URL: http://127.0.0.1:'))).toBe(true);

    const followerDir = path.join(root, 'follower');
    const followerPrinted: string[] = [];
    let follower: RunningNode = await runNode({
      ...common,
      l1RpcUrl: net.l1RpcUrl,
      l1ConsensusHostUrl: net.l1RpcUrl,
      rollupAddress: net.rollupAddress,
      dataDirectory: followerDir,
      print: (l) => followerPrinted.push(l),
    });
    stops.push(() => follower.stop());

    await waitFor(
      'two checkpoints on the follower',
      async () => (await rpc<WireTips>(follower.publicUrl, 'svc_getChainTips')).checkpointed.checkpoint.number >= 2,
      60_000,
    );
    expect(await rpc(follower.publicUrl, 'svc_isReady')).toBe(true);
    const followerTips = await rpc<WireTips>(follower.publicUrl, 'svc_getChainTips');
    const height = followerTips.checkpointed.block.number;
    for (let n = 0; n <= height; n++) {
      const [ours, theirs] = await Promise.all([
        rpc(net.publicUrl, 'svc_getBlockData', [n]),
        rpc(follower.publicUrl, 'svc_getBlockData', [n]),
      ]);
      expect(theirs).toEqual(ours);
    }
    const block = await rpc<{ l1: { txHash: string } | null; checkpointNumber: number }>(
      follower.publicUrl,
      'svc_getBlock',
      [height, { includeL1PublishInfo: true }],
    );
    expect(block.l1?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await rpc(follower.publicUrl, 'svc_getL1Constants')).toEqual(await rpc(net.publicUrl, 'svc_getL1Constants'));
    expect(printed.filter((l) => l.startsWith('test account '))).toHaveLength(4);

    // `svc tx send --wait` builds a tx paid by a test account, sends it, and prints its receipt once mined; the
    // follower then learns the tx from L1 alone.
    const sent = await exec(process.execPath, svcNodeArgs('tx', 'send', '--rpc-url', net.publicUrl, '--wait'), {
      env: { PATH: process.env.PATH ?? '' },
    });
    const txHash = /sent tx (0x[0-9a-f]{64})/.exec(sent.stdout)?.[1];
    expect(txHash).toBeDefined();
    const receipt = JSON.parse(sent.stdout.trim().split('\n').at(-1)!) as {
      status: string;
      transactionFee: string;
      executionResult: string;
    };
    expect(receipt).toMatchObject({ executionResult: 'success' });
    expect(BigInt(receipt.transactionFee)).toBeGreaterThan(0n);
    await waitFor(
      'the follower to know the tx',
      async () =>
        (await rpc<{ status: string }>(follower.publicUrl, 'svc_getTxReceipt', [txHash])).status === 'checkpointed',
      30_000,
    );

    // Restarted on the same data directory, the follower resumes from what it stored and keeps its admin key.
    await follower.stop();
    stops.pop();
    const restartPrinted: string[] = [];
    follower = await runNode({
      ...common,
      l1RpcUrl: net.l1RpcUrl,
      l1ConsensusHostUrl: net.l1RpcUrl,
      rollupAddress: net.rollupAddress,
      dataDirectory: followerDir,
      print: (l) => restartPrinted.push(l),
    });
    stops.push(() => follower.stop());
    const resumed = await rpc<WireTips>(follower.publicUrl, 'svc_getChainTips');
    expect(resumed.checkpointed.checkpoint.number).toBeGreaterThanOrEqual(followerTips.checkpointed.checkpoint.number);
    expect(restartPrinted.some((l) => l.includes('admin API key'))).toBe(false);
    await waitFor(
      'the follower to catch up again',
      async () => {
        const [a, b] = await Promise.all([
          rpc<L2Tips>(net.publicUrl, 'svc_getChainTips'),
          rpc<L2Tips>(follower.publicUrl, 'svc_getChainTips'),
        ]);
        return (
          b.checkpointed.checkpoint.number > followerTips.checkpointed.checkpoint.number &&
          b.checkpointed.checkpoint.number <= a.checkpointed.checkpoint.number
        );
      },
      30_000,
    );
  }, 120_000);
});
