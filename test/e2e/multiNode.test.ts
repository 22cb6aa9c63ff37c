/**
 * Four node processes on one anvil, talking over libp2p on loopback (`svc start --local-network --nodes 4`): each
 * holds one of the four validators, so no node alone has a quorum. A tx sent to a follower is gossiped and mined by
 * whichever node proposes; checkpoints land on L1 with attestations from validators in other processes; followers'
 * proposed tips run ahead of L1; the p2p methods answer real data; a process killed with SIGKILL and started again
 * keeps its peer id and catches up; a hostile peer sending garbage is disconnected and banned while the network goes
 * on.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ENR } from '@chainsafe/enr';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../adapters/config/resolveConfig.js';
import { findFreePort } from '../../adapters/l1/anvil.js';
import type * as MultiNodeLocalNetwork from '../../adapters/node/multiNodeLocalNetwork.js';
import { gossipTopic } from '../../spec/p2p/gossipCodec.js';
import { compressed, startHostilePeer } from '../p2p/hostilePeer.js';
import { rpc, waitFor } from './rpc.js';
import { importPrebuiltOrSource, svcNodeArgs } from '../helpers/svcCommand.js';

const exec = promisify(execFile);
const NODES = 4;

interface Tips {
  readonly proposed: { readonly number: number };
  readonly checkpointed: {
    readonly block: { readonly number: number };
    readonly checkpoint: { readonly number: number };
  };
}
interface Peer {
  readonly id: string;
  readonly status: string;
}

async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await findFreePort());
  return [...ports];
}

describe('a local network of four node processes over libp2p', () => {
  let net: MultiNodeLocalNetwork.RunningMultiNodeLocalNetwork | undefined;
  let root = '';
  const printed: string[] = [];
  afterAll(async () => {
    await net?.stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('mines a tx sent to a follower, attests across processes, and survives a killed process', async () => {
    try {
      await scenario();
    } catch (error) {
      process.stderr.write(`last lines the nodes printed:\n${printed.slice(-80).join('\n')}\n`);
      throw error;
    }
  }, 600_000);

  async function scenario(): Promise<void> {
    root = await mkdtemp(path.join(tmpdir(), 'svc-multinode-'));
    const ports = await freePorts(3 * NODES + 1);
    const config = resolveConfig({
      env: {
        LOCAL_NETWORK_NODES: String(NODES),
        DATA_DIRECTORY: root,
        LOCAL_NETWORK_L1_PORT: String(ports[3 * NODES]),
        LOCAL_NETWORK_SLOT_DURATION_SECONDS: '8',
        LOCAL_NETWORK_L1_BLOCK_TIME_SECONDS: '1',
        LOG_LEVEL: 'warn',
      },
    });
    // From the prebuilt tree, so that the four nodes it starts run prebuilt JavaScript rather than tsx.
    const { runMultiNodeLocalNetwork } = (await importPrebuiltOrSource(
      'adapters/node/multiNodeLocalNetwork.ts',
    )) as typeof MultiNodeLocalNetwork;
    net = await runMultiNodeLocalNetwork({
      config,
      print: (line) => printed.push(line),
      ports: {
        public: ports.slice(0, NODES),
        admin: ports.slice(NODES, 2 * NODES),
        p2p: ports.slice(2 * NODES, 3 * NODES),
      },
      childEnv: { SVC_DISABLE_ADMIN_API_KEY: 'true' },
    });
    const urls = net.nodes.map((node) => node.publicUrl);

    // Everyone meets everyone; svc_getPeers and svc_getEncodedEnr answer real data.
    for (const url of urls)
      await waitFor(
        `${url} to see ${NODES - 1} peers`,
        async () =>
          (await rpc<Peer[]>(url, 'svc_getPeers')).filter((p) => p.status === 'connected').length >= NODES - 1,
        60_000,
      );
    const enrText = await rpc<string>(urls[1]!, 'svc_getEncodedEnr');
    expect(enrText).toMatch(/^enr:/);
    expect(ENR.decodeTxt(enrText).peerId.toString()).toBe(net.nodes[1]!.plan.peerId);

    // A tx sent to node 3 (a follower most slots) is mined, and every node serves its receipt.
    const sent = await exec(process.execPath, svcNodeArgs('tx', 'send', '--rpc-url', urls[3]!, '--wait'), {
      env: { PATH: process.env.PATH ?? '' },
    });
    const txHash = /sent tx (0x[0-9a-f]{64})/.exec(sent.stdout)?.[1];
    expect(txHash).toBeDefined();
    for (const url of urls)
      await waitFor(
        `${url} to serve the tx's receipt`,
        async () =>
          ['proposed', 'checkpointed'].includes(
            (await rpc<{ status: string }>(url, 'svc_getTxReceipt', [txHash])).status,
          ),
        60_000,
      );

    // Checkpoints land with a quorum of attestations from validators run by at least three processes.
    const nodeOfValidator = new Map(
      net.nodes.flatMap((node) => node.plan.validators.map((v) => [v.address.toLowerCase(), node.plan.index] as const)),
    );
    await waitFor(
      'a checkpoint attested from three processes',
      async () => {
        const tips = await rpc<Tips>(urls[0]!, 'svc_getChainTips');
        const block = await rpc<{ attestations?: { attester: string }[] }>(urls[0]!, 'svc_getBlock', [
          tips.checkpointed.block.number,
          { includeAttestations: true },
        ]);
        const processes = new Set((block.attestations ?? []).map((a) => nodeOfValidator.get(a.attester.toLowerCase())));
        return processes.size >= 3;
      },
      90_000,
    );

    // A follower's proposed tip runs ahead of its checkpointed tip (blocks heard on gossip before L1 has them).
    await waitFor(
      'a follower with proposed blocks above checkpointed',
      async () => {
        for (const url of urls.slice(1)) {
          const tips = await rpc<Tips>(url, 'svc_getChainTips');
          if (tips.proposed.number > tips.checkpointed.block.number) return true;
        }
        return false;
      },
      60_000,
    );

    // What a node heard from the network: the proposals and attestations of a recent slot, from other processes.
    const slotOf = async (url: string) => {
      const tips = await rpc<Tips>(url, 'svc_getChainTips');
      const block = await rpc<{ header: { globalVariables: { slotNumber: string | number } } }>(url, 'svc_getBlock', [
        tips.checkpointed.block.number,
      ]);
      return Number(block.header.globalVariables.slotNumber);
    };
    await waitFor(
      "node 3 to hold a checkpointed slot's proposals and attestations from three processes",
      async () => {
        const slot = await slotOf(urls[0]!);
        const proposals = await rpc<{ blockProposals: unknown[]; checkpointProposals: unknown[] }>(
          urls[3]!,
          'svc_getProposalsForSlot',
          [slot],
        );
        const attestations = await rpc<{ attester: string }[]>(urls[3]!, 'svc_getCheckpointAttestationsForSlot', [
          slot,
        ]);
        const attesting = new Set(attestations.map((a) => nodeOfValidator.get(a.attester.toLowerCase())));
        return proposals.checkpointProposals.length > 0 && proposals.blockProposals.length > 0 && attesting.size >= 3;
      },
      60_000,
    );

    // Node 2 killed with SIGKILL, started again: same peer id, reconnected, caught up with the others.
    const victim = net.nodes[2]!;
    await victim.kill();
    const before = await rpc<Tips>(urls[0]!, 'svc_getChainTips');
    await victim.restart();
    await waitFor(
      'the restarted node to reconnect',
      async () =>
        (await rpc<Peer[]>(urls[0]!, 'svc_getPeers')).some(
          (p) => p.id === victim.plan.peerId && p.status === 'connected',
        ),
      60_000,
    );
    await waitFor(
      'the restarted node to catch up',
      async () =>
        (await rpc<Tips>(victim.publicUrl, 'svc_getChainTips')).checkpointed.checkpoint.number >
        before.checkpointed.checkpoint.number,
      90_000,
    );

    // A hostile peer sending garbage on our topics is scored down, hung up on and banned; the network goes on.
    const target = net.nodes[1]!;
    const hostile = await startHostilePeer();
    try {
      await hostile.dial(target.plan.multiaddr);
      await waitFor('the hostile peer to connect', async () => hostile.isConnectedTo(target.plan.peerId), 30_000);
      await waitFor(
        'the target to hang up on the hostile peer',
        async () => {
          for (let i = 0; i < 10; i++)
            hostile.sendGossip(target.plan.peerId, gossipTopic('tx'), compressed(garbage(i)));
          return !hostile.isConnectedTo(target.plan.peerId);
        },
        60_000,
      );
      await hostile.dial(target.plan.multiaddr).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(hostile.isConnectedTo(target.plan.peerId)).toBe(false);
      const peers = await rpc<Peer[]>(target.publicUrl, 'svc_getPeers');
      expect(peers.some((p) => p.id === hostile.peerId && p.status === 'connected')).toBe(false);
    } finally {
      await hostile.stop();
    }
    const afterAttack = await rpc<Tips>(target.publicUrl, 'svc_getChainTips');
    await waitFor(
      'another checkpoint after the attack',
      async () =>
        (await rpc<Tips>(target.publicUrl, 'svc_getChainTips')).checkpointed.checkpoint.number >
        afterAttack.checkpointed.checkpoint.number,
      90_000,
    );
  }
});

/** Bytes that decode to nothing valid. */
function garbage(seed: number): Uint8Array {
  return Uint8Array.from({ length: 64 }, (_, i) => (seed * 31 + i * 7) % 256);
}
