import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPublicClient, createWalletClient, http, parseEventLogs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { inboxAbi, outboxAbi, rollupAbi } from '../../contracts/artifacts/rollup.js';
import { createSvcClient } from '../../adapters/client/index.js';
import { quietNodeOptions } from './quietNodeOptions.js';
import { runLocalNetwork } from '../../adapters/node/localNetwork.js';
import type { Hex } from '../../spec/chain.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx, txToWire } from '../../spec/txBuilder.js';
import { l2ToL1MessageHash } from '../../spec/vm/storageSlots.js';
import { waitFor } from './rpc.js';

const common = quietNodeOptions;
/** anvil's default accounts 3 and 4 (the local network uses 0 to 2): the L2-to-L1 recipient and the L1-to-L2 sender. */
const RECIPIENT_KEY: Hex = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const SENDER_KEY: Hex = '0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a';
const word = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

describe('cross-chain messages on a real L1 (anvil)', () => {
  const stops: (() => Promise<void>)[] = [];
  let root = '';
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("an inbox message becomes available in its checkpoint; an L2-to-L1 message is consumed on L1 with the node's witness, once", async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-messages-'));
    const net = await runLocalNetwork({
      ...common,
      dataDirectory: path.join(root, 'local'),
      l1Port: 0,
      slotDurationSeconds: 4,
      l1BlockTimeSeconds: 1,
    });
    stops.push(() => net.stop());
    const node = createSvcClient(net.publicUrl);
    const publicClient = createPublicClient({ transport: http(net.l1RpcUrl), cacheTime: 0 });
    const recipient = privateKeyToAccount(RECIPIENT_KEY);
    const wallet = (key: Hex) =>
      createWalletClient({ account: privateKeyToAccount(key), transport: http(net.l1RpcUrl) });
    const rollup = { address: net.rollupAddress, abi: rollupAbi } as const;
    const [inbox, outbox] = await Promise.all([
      publicClient.readContract({ ...rollup, functionName: 'getInbox' }),
      publicClient.readContract({ ...rollup, functionName: 'getOutbox' }),
    ]);
    // Clients learn the two addresses from the node.
    expect(await node.svc.getL1ContractAddresses()).toEqual({
      rollupAddress: net.rollupAddress.toLowerCase(),
      inboxAddress: inbox.toLowerCase(),
      outboxAddress: outbox.toLowerCase(),
    });

    // L1 to L2: send through the inbox; the node announces the checkpoint and proves the leaf there.
    const sendHash = await wallet(SENDER_KEY).writeContract({
      address: inbox,
      abi: inboxAbi,
      functionName: 'sendL2Message',
      args: [word(0xa1), word(0xc1), word(0x5e)],
      chain: null,
    });
    const sendReceipt = await publicClient.waitForTransactionReceipt({ hash: sendHash });
    const [sent] = parseEventLogs({ abi: inboxAbi, eventName: 'MessageSent', logs: sendReceipt.logs });
    const leaf = sent!.args.leaf;
    await waitFor(
      'the inbox message to be synced',
      async () => (await node.svc.getL1ToL2MessageCheckpoint(leaf)) === Number(sent!.args.checkpointNumber),
      30_000,
    );
    await waitFor(
      'its checkpoint on L1',
      async () => (await node.svc.getCheckpointNumber('checkpointed')) >= Number(sent!.args.checkpointNumber),
      40_000,
    );
    const l1ToL2 = await node.svc.getL1ToL2MessageMembershipWitness('checkpointed', leaf);
    expect(l1ToL2?.[0]).toBe(sent!.args.index);

    // L2 to L1: a tx carrying a message for the recipient's L1 address.
    const content = word(0xbeef);
    const tx = buildTx({
      chainId: await node.svc.getChainId(),
      version: await node.svc.getVersion(),
      anchorBlockHash: (await node.svc.getBlockData('latest'))!.hash,
      feePayer: genesisTestAccounts()[0]!,
      nullifier: word(0x7e57),
      minFees: await node.svc.getCurrentMinFees(),
      expirationTimestamp: BigInt(Math.floor(Date.now() / 1000)) + 3_600n,
      sideEffects: { l2ToL1Messages: [{ recipient: recipient.address.toLowerCase() as Hex, content }] },
    });
    await node.svc.sendTx(txToWire(tx));
    const message = l2ToL1MessageHash(recipient.address.toLowerCase() as Hex, content);
    expect(await node.svc.getL2ToL1MembershipWitness(tx.txHash, message)).toBeNull();
    let witness: Awaited<ReturnType<typeof node.svc.getL2ToL1MembershipWitness>> = null;
    await waitFor(
      'a covering outbox root on L1',
      async () => (witness = await node.svc.getL2ToL1MembershipWitness(tx.txHash, message)) !== null,
      60_000,
    );
    const { epochNumber, root: outRoot, leafIndex, siblingPath } = witness!;

    const consume = (index = leafIndex) =>
      wallet(RECIPIENT_KEY).writeContract({
        address: outbox,
        abi: outboxAbi,
        functionName: 'consume',
        args: [BigInt(epochNumber), outRoot, content, index, siblingPath],
        chain: null,
      });
    const receipt = await publicClient.waitForTransactionReceipt({ hash: await consume() });
    expect(receipt.status).toBe('success');
    const [consumed] = parseEventLogs({ abi: outboxAbi, eventName: 'MessageConsumed', logs: receipt.logs });
    expect(consumed!.args.leaf).toBe(message);
    expect(
      await publicClient.readContract({
        address: outbox,
        abi: outboxAbi,
        functionName: 'isConsumed',
        args: [BigInt(epochNumber), outRoot, leafIndex, BigInt(siblingPath.length)],
      }),
    ).toBe(true);
    await expect(consume()).rejects.toThrow(/AlreadyConsumed/);
    // Index bits above the path would verify the same leaf under another position: refused.
    await expect(consume(leafIndex + (1n << BigInt(siblingPath.length)))).rejects.toThrow(/LeafIndexOutOfRange/);
  }, 120_000);
});
