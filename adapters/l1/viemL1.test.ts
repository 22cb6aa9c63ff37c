/**
 * The rollup contract, deployRollup, the viem L1 reader and publisher, against a real anvil. Time is driven by
 * block count: anvil starts at T0 and every block is 12 s after its parent (anvil_setBlockTimestampInterval), so
 * block n has timestamp T0 + 12n, its beacon slot is n, and L2 slots advance by mining empty blocks.
 */
import {
  CHECKPOINT_HEADER_BLOBS_HASH_OFFSET,
  CHECKPOINT_HEADER_IN_HASH_OFFSET,
  blobsHash as specBlobsHash,
} from '../../spec/codec/checkpointHeader.js';
import { inboxTreeHash, l1ToL2MessageLeaf } from '../../spec/messages/inbox.js';
import { bytesToHex as specBytesToHex, hexToBytes as specHexToBytes } from '../../spec/codec/bytes.js';
import { blobsToCommitments, blobsToProofs, createWalletClient, http, toBlobSidecars, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckpointProposedLog,
  type L1PublisherPort,
  type L1ReaderPort,
  type L1TxStatus,
  type ProposeCheckpointRequest,
  type SubmitEpochProofRequest,
} from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import { EPOCH_OUT_HASH_NONE, epochProofFor } from '../../core/prover/epochProof.js';
import { inboxAbi, rollupAbi } from '../../contracts/artifacts/rollup.js';
import type { BlockHeader, CheckpointHeader, Hex } from '../../spec/chain.js';
import { bytesToHex, zeroHex } from '../../spec/codec/bytes.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import {
  blobsToPayload,
  decodeCheckpointPayload,
  encodeCheckpointPayload,
  payloadToBlobs,
  type CheckpointBlobBlock,
} from '../../spec/codec/checkpointBlobs.js';
import { blobsHash, decodeCheckpointHeader, encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { startAnvil, type AnvilInstance } from './anvil.js';
import { deployRollup } from './deployRollup.js';
import { blobVersionedHashes, getKzg } from './kzg.js';
import { createL1PublicClient, rawRequest } from './l1Rpc.js';
import { createViemL1Publisher, encodeProposeCall, simulatePropose } from './viemL1Publisher.js';
import { createViemL1Reader } from './viemL1Reader.js';
import { createConsensusBlobSource } from '../blobs/consensusBlobSource.js';
import { EMPTY_CHECKPOINT_ATTESTATIONS } from '../../spec/validators/checkpointAttestations.js';

// anvil's default dev accounts 0 and 1
const DEPLOYER_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const PUBLISHER_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const T0 = 1_800_000_000n;
const L1_BLOCK_SECONDS = 12n;
const SLOT_DURATION = 36;
const GENESIS_ARCHIVE = fill(0x11);
const ARCHIVE_1 = fill(0x21);
const ARCHIVE_2 = fill(0x22);

function fill(byte: number, size = 32): Hex {
  return `0x${byte.toString(16).padStart(2, '0').repeat(size)}`;
}

function makeBlockHeader(blockNumber: number, slotNumber: number, timestamp: bigint): BlockHeader {
  const snapshot = (b: number, next: number) => ({ root: fill(b), nextAvailableLeafIndex: next });
  return {
    lastArchive: snapshot(0x01, blockNumber),
    state: {
      l1ToL2MessageTree: snapshot(0x02, 0),
      noteHashTree: snapshot(0x03, 64 * blockNumber),
      nullifierTree: snapshot(0x04, 64 * blockNumber + 128),
      publicDataTree: snapshot(0x05, 7),
    },
    globalVariables: {
      chainId: 31337,
      version: 1,
      blockNumber,
      slotNumber,
      timestamp,
      coinbase: fill(0xc0, 20),
      feeRecipient: fill(0xfe),
      gasFees: { feePerDaGas: 3n, feePerL2Gas: 5n },
    },
    contentCommitment: { txsEffectsHash: fill(0x06), inHash: fill(0x07), outHash: fill(0x08) },
    totalFees: 1_000n,
    totalManaUsed: 42n,
  };
}

/** A checkpoint proposal whose blobs carry `blocks`. */
function makeProposal(args: {
  checkpointNumber: number;
  slotNumber: number;
  timestamp: bigint;
  lastArchive: Hex;
  archive: Hex;
  blocks: CheckpointBlobBlock[];
}): ProposeCheckpointRequest {
  const blobs = payloadToBlobs(encodeCheckpointPayload(args.blocks));
  const header: CheckpointHeader = {
    lastArchiveRoot: args.lastArchive,
    slotNumber: args.slotNumber,
    timestamp: args.timestamp,
    coinbase: fill(0xc0, 20),
    feeRecipient: fill(0xfe),
    gasFees: { feePerDaGas: 3n, feePerL2Gas: 5n },
    blockCount: args.blocks.length,
    blobsHash: blobsHash(blobVersionedHashes(blobs)),
    totalManaUsed: 42n,
    inHash: zeroHex(32),
    outHash: zeroHex(32),
  };
  return {
    checkpointNumber: args.checkpointNumber,
    archive: args.archive,
    lastArchive: args.lastArchive,
    slotNumber: args.slotNumber,
    header: bytesToHex(encodeCheckpointHeader(header)),
    blobs,
    attestations: EMPTY_CHECKPOINT_ATTESTATIONS,
  };
}

async function expectL1Error(promise: Promise<unknown>, code: L1Error['code'], message: RegExp): Promise<L1Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(L1Error);
  expect((error as L1Error).code).toBe(code);
  expect((error as L1Error).message).toMatch(message);
  return error as L1Error;
}

describe('L1 adapters against anvil', () => {
  let anvil: AnvilInstance;
  let client: PublicClient;
  let rollupAddress: Hex;
  let deployBlock: bigint;
  let genesisTime: bigint;
  let reader: L1ReaderPort;
  /** The blobs of a log as anvil's beacon routes serve them (the log's versioned hashes), none it lacks. */
  const blobsOf = async (log: CheckpointProposedLog) => {
    const source = createConsensusBlobSource({ url: anvil.url });
    const request = { versionedHashes: log.blobVersionedHashes, l1: { ...log.l1, timestamp: 0n } };
    return (await source.getBlobs(request)).map((candidate) => candidate.blob);
  };
  let publisher: L1PublisherPort;
  const timings: Record<string, number> = {};

  /** Polls the publisher until `txHash` is in a block (anvil answers a blob tx before it has mined it). */
  async function waitForInclusion(txHash: Hex): Promise<L1TxStatus> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const status = await publisher.getTxStatus(txHash);
      if (status.status === 'included' || Date.now() > deadline) return status;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** The L2 slot of the next block, i.e. the slot a tx sent now lands in. */
  async function pendingSlot(): Promise<{ slot: number; timestamp: bigint }> {
    const latest = await client.getBlock({ blockTag: 'latest' });
    const timestamp = latest.timestamp + L1_BLOCK_SECONDS;
    return { slot: Number((timestamp - genesisTime) / BigInt(SLOT_DURATION)), timestamp };
  }

  /** Mines empty blocks until the next block falls in L2 slot `slot`. */
  async function advanceToSlot(slot: number): Promise<{ slot: number; timestamp: bigint }> {
    const latest = await client.getBlock({ blockTag: 'latest' });
    const slotStart = genesisTime + BigInt(slot * SLOT_DURATION);
    const missing = slotStart - (latest.timestamp + L1_BLOCK_SECONDS);
    if (missing > 0n) {
      const blocks = (missing + L1_BLOCK_SECONDS - 1n) / L1_BLOCK_SECONDS;
      await rawRequest(client, 'anvil_mine', [`0x${blocks.toString(16)}`]);
    }
    const pending = await pendingSlot();
    expect(pending.slot).toBe(slot);
    return pending;
  }

  beforeAll(async () => {
    anvil = await startAnvil({ timestamp: T0 });
    client = createL1PublicClient(anvil.url);
    await rawRequest(client, 'anvil_setBlockTimestampInterval', [Number(L1_BLOCK_SECONDS)]);
    const kzgStart = performance.now();
    getKzg();
    timings.kzgLoadMs = performance.now() - kzgStart;
    ({ rollupAddress, deployBlock } = await deployRollup({
      l1RpcUrl: anvil.url,
      deployerPrivateKey: DEPLOYER_KEY,
      genesisArchive: GENESIS_ARCHIVE,
      slotDuration: SLOT_DURATION,
      epochDuration: 32,
      proofSubmissionEpochs: 1,
      rollupVersion: 7,
      ethPerFeeAsset: 20_000_000n,
    }));
    genesisTime = (await client.getBlock({ blockNumber: deployBlock })).timestamp;
    reader = createViemL1Reader({ l1RpcUrl: anvil.url, rollupAddress, chainId: 31337 });
    publisher = createViemL1Publisher({ l1RpcUrl: anvil.url, rollupAddress, publisherPrivateKey: PUBLISHER_KEY });
  });

  afterAll(async () => {
    await anvil?.stop();
    console.info(
      `L1 timings (ms): ${JSON.stringify(timings, (_, v: unknown) => (typeof v === 'number' ? Math.round(v) : v))}`,
    );
  });

  it('reads the rollup constants the contract was deployed with', async () => {
    expect(await reader.getRollupConstants()).toEqual({
      l1ChainId: 31337,
      rollupVersion: 7,
      l1StartBlock: deployBlock,
      l1GenesisTime: genesisTime,
      slotDuration: SLOT_DURATION,
      epochDuration: 32,
      ethereumSlotDuration: 12,
      proofSubmissionEpochs: 1,
      genesisArchiveRoot: GENESIS_ARCHIVE,
      ethPerFeeAsset: 20_000_000n,
    });
    expect(genesisTime).toBe(T0 + L1_BLOCK_SECONDS * deployBlock);
    expect(await reader.getChainId()).toBe(31337);
  });

  it('proposes a two-blob checkpoint and reads its log and blobs back (execution node and beacon route)', async () => {
    const { slot, timestamp } = await advanceToSlot(1);
    // 1,500 minimal tx effects (105 bytes each) overflow one blob (126,976 payload bytes): the payload spans two.
    const txEffects = Array.from({ length: 1_500 }, (_, i) =>
      minimalTxEffect(`0x${i.toString(16).padStart(64, '0')}`, `0x${(i + 1).toString(16).padStart(64, '0')}`),
    );
    const blocks = [
      { header: makeBlockHeader(1, slot, timestamp), txEffects: txEffects.slice(0, 10) },
      { header: makeBlockHeader(2, slot, timestamp), txEffects: txEffects.slice(10) },
    ];
    const request = makeProposal({
      checkpointNumber: 1,
      slotNumber: slot,
      timestamp,
      lastArchive: GENESIS_ARCHIVE,
      archive: ARCHIVE_1,
      blocks,
    });
    expect(request.blobs).toHaveLength(2);

    const sendStart = performance.now();
    const { txHash } = await publisher.proposeCheckpoint(request);
    timings.firstBlobTxMs = performance.now() - sendStart;

    const status = await waitForInclusion(txHash);
    timings.firstBlobTxIncludedMs = performance.now() - sendStart;
    expect(status).toMatchObject({ status: 'included', success: true });
    const inBlock = status.status === 'included' ? status.blockNumber : -1n;

    const logs = await reader.getCheckpointProposedLogs(deployBlock, inBlock);
    expect(logs).toHaveLength(1);
    const log = logs[0]!;
    const hashes = await publisher.blobVersionedHashes(request.blobs);
    expect(log).toMatchObject({
      checkpointNumber: 1,
      archive: ARCHIVE_1,
      slotNumber: slot,
      header: request.header,
      blobVersionedHashes: hashes,
      l1: { blockNumber: inBlock, txHash },
    });
    expect(decodeCheckpointHeader(Buffer.from(log.header.slice(2), 'hex')).blobsHash).toBe(blobsHash(hashes));

    const blobs = await blobsOf(log);
    expect(blobs.map((b) => bytesToHex(b))).toEqual(request.blobs.map((b) => bytesToHex(b)));
    expect(decodeCheckpointPayload(blobsToPayload(blobs))).toEqual(blocks);

    expect(await reader.getCheckpointCount(inBlock)).toBe(1);
    expect(await reader.getCheckpointCount(inBlock - 1n)).toBe(0);
    expect(await reader.getArchiveAt(1, inBlock)).toBe(ARCHIVE_1);
    expect(await reader.getArchiveAt(0, inBlock)).toBe(GENESIS_ARCHIVE);
    const block = await reader.getBlock(inBlock);
    expect(block).toMatchObject({
      number: inBlock,
      hash: log.l1.blockHash,
      timestamp: T0 + L1_BLOCK_SECONDS * inBlock,
    });
  });

  it('rejects a second checkpoint in the same slot, naming SlotNotAfterPreviousCheckpoint', async () => {
    const { slot, timestamp } = await pendingSlot();
    expect(slot).toBe(1);
    const request = makeProposal({
      checkpointNumber: 2,
      slotNumber: slot,
      timestamp,
      lastArchive: ARCHIVE_1,
      archive: ARCHIVE_2,
      blocks: [{ header: makeBlockHeader(3, slot, timestamp), txEffects: [] }],
    });
    const sendStart = performance.now();
    await expectL1Error(
      publisher.proposeCheckpoint(request),
      'L1_TX_REJECTED',
      /SlotNotAfterPreviousCheckpoint\(previousSlot: 1, given: 1\)/,
    );
    timings.rejectedProposalMs = performance.now() - sendStart;
  });

  it('rejects a wrong checkpoint number, lastArchive or slot, naming the contract error and its figures', async () => {
    const { slot, timestamp } = await advanceToSlot(3);
    const base = { checkpointNumber: 2, slotNumber: slot, timestamp, lastArchive: ARCHIVE_1, archive: ARCHIVE_2 };
    const blocks = [{ header: makeBlockHeader(3, slot, timestamp), txEffects: [] }];
    await expectL1Error(
      publisher.proposeCheckpoint(makeProposal({ ...base, checkpointNumber: 3, blocks })),
      'L1_TX_REJECTED',
      /WrongCheckpointNumber\(expected: 2, given: 3\)/,
    );
    await expectL1Error(
      publisher.proposeCheckpoint(makeProposal({ ...base, lastArchive: fill(0x99), blocks })),
      'L1_TX_REJECTED',
      new RegExp(`WrongLastArchive\\(expected: ${ARCHIVE_1}, given: ${fill(0x99)}\\)`),
    );
    await expectL1Error(
      publisher.proposeCheckpoint(makeProposal({ ...base, slotNumber: slot + 1, blocks })),
      'L1_TX_REJECTED',
      new RegExp(`WrongSlot\\(currentSlot: ${slot}, given: ${slot + 1}\\)`),
    );
    await expectL1Error(
      publisher.proposeCheckpoint({ ...makeProposal({ ...base, blocks }), blobs: [] }),
      'L1_TX_REJECTED',
      /WrongBlobCount\(count: 0, max: 6\)/,
    );
    expect(await reader.getCheckpointCount(await client.getBlockNumber())).toBe(1);
  });

  it('rejects blobs that do not match the blob hashes argument (simulated and on chain)', async () => {
    const { slot, timestamp } = await pendingSlot();
    const request = makeProposal({
      checkpointNumber: 2,
      slotNumber: slot,
      timestamp,
      lastArchive: ARCHIVE_1,
      archive: ARCHIVE_2,
      blocks: [{ header: makeBlockHeader(3, slot, timestamp), txEffects: [] }],
    });
    const realHashes = blobVersionedHashes(request.blobs);
    const otherHash = `0x01${'ab'.repeat(31)}` as Hex;
    const from = privateKeyToAccount(PUBLISHER_KEY).address;
    // The header commits to the blob hashes argument; keep it consistent so the blob checks themselves are reached.
    const headerFor = (blobHashes: Hex[]): Hex => {
      const bytes = specHexToBytes(request.header);
      bytes.set(specHexToBytes(specBlobsHash(blobHashes)), CHECKPOINT_HEADER_BLOBS_HASH_OFFSET);
      return specBytesToHex(bytes);
    };
    const simulate = (blobHashes: Hex[], txBlobVersionedHashes: Hex[]) =>
      simulatePropose({
        l1RpcUrl: anvil.url,
        rollupAddress,
        from,
        call: { ...request, blobHashes, header: headerFor(blobHashes) },
        txBlobVersionedHashes,
      });

    await expectL1Error(
      simulatePropose({
        l1RpcUrl: anvil.url,
        rollupAddress,
        from,
        call: { ...request, blobHashes: [otherHash] },
        txBlobVersionedHashes: realHashes,
      }),
      'L1_TX_REJECTED',
      /HeaderMismatch\(field: blobsHash\)/,
    );
    await expectL1Error(
      simulate([otherHash], realHashes),
      'L1_TX_REJECTED',
      new RegExp(`BlobHashMismatch\\(index: 0, expected: ${otherHash}, actual: ${realHashes[0]}\\)`),
    );
    await expectL1Error(
      simulate(realHashes, [...realHashes, otherHash]),
      'L1_TX_REJECTED',
      new RegExp(`ExtraBlob\\(index: 1, actual: ${otherHash}\\)`),
    );
    await expectL1Error(
      simulate([...realHashes, otherHash], realHashes),
      'L1_TX_REJECTED',
      /BlobHashMismatch\(index: 1, expected: 0x01abab.*, actual: 0x0{64}\)/,
    );

    // The same mismatch in a real blob transaction (bypassing the publisher's simulation) reverts on chain.
    const account = privateKeyToAccount(PUBLISHER_KEY);
    const kzg = getKzg();
    const blobs = request.blobs.map((b) => bytesToHex(b));
    const commitments = blobsToCommitments({ blobs, kzg });
    const proofs = blobsToProofs({ blobs, commitments, kzg });
    const serialized = await account.signTransaction({
      type: 'eip4844',
      chainId: 31337,
      nonce: await client.getTransactionCount({ address: account.address, blockTag: 'pending' }),
      to: rollupAddress,
      data: encodeProposeCall({ ...request, blobHashes: [otherHash], header: headerFor([otherHash]) }),
      gas: 500_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
      maxFeePerBlobGas: 1_000n,
      blobVersionedHashes: realHashes,
      sidecars: toBlobSidecars({ blobs, commitments, proofs }),
    });
    const txHash = await client.sendRawTransaction({ serializedTransaction: serialized });
    expect(await waitForInclusion(txHash)).toMatchObject({ status: 'included', success: false });
  });

  it("reads inbox messages back with the leaves and indices of spec/messages/inbox.ts, and rejects an inHash that is not the consumed tree's", async () => {
    // The message would change what later checkpoints consume: the chain goes back to this point afterwards.
    const snapshot = await rawRequest(client, 'evm_snapshot', []);
    try {
      await inboxMessageRoundTrip();
    } finally {
      await rawRequest(client, 'evm_revert', [snapshot]);
    }
  });

  async function inboxMessageRoundTrip(): Promise<void> {
    const sender = privateKeyToAccount(DEPLOYER_KEY);
    const inbox = await client.readContract({ address: rollupAddress, abi: rollupAbi, functionName: 'getInbox' });
    const wallet = createWalletClient({ account: sender, transport: http(anvil.url) });
    const message = { recipient: fill(0x0a), content: fill(0x0c), secretHash: fill(0x05) };
    const hash = await wallet.writeContract({
      address: inbox,
      abi: inboxAbi,
      functionName: 'sendL2Message',
      args: [message.recipient, message.content, message.secretHash],
      chain: null,
    });
    const included = await client.waitForTransactionReceipt({ hash });
    const logs = await reader.getInboxMessageLogs(deployBlock, included.blockNumber);
    // Checkpoint 1 is on L1, so tree 2 is sealed: the message goes to tree 3, the first index of checkpoint 3's subtree.
    const leaf = l1ToL2MessageLeaf({ sender: sender.address.toLowerCase() as Hex, ...message, index: 32n });
    expect(logs.map((l) => [l.checkpointNumber, l.index, l.leaf, l.treeHash])).toEqual([
      [3, 32n, leaf, inboxTreeHash([leaf])],
    ]);

    const { slot, timestamp } = await pendingSlot();
    const request = makeProposal({
      checkpointNumber: 2,
      slotNumber: slot,
      timestamp,
      lastArchive: ARCHIVE_1,
      archive: ARCHIVE_2,
      blocks: [{ header: makeBlockHeader(3, slot, timestamp), txEffects: [] }],
    });
    const header = specHexToBytes(request.header);
    header.set(specHexToBytes(inboxTreeHash([leaf])), CHECKPOINT_HEADER_IN_HASH_OFFSET);
    const call = { ...request, header: specBytesToHex(header), blobHashes: blobVersionedHashes(request.blobs) };
    const from = privateKeyToAccount(PUBLISHER_KEY).address;
    await expectL1Error(
      simulatePropose({ l1RpcUrl: anvil.url, rollupAddress, from, call, txBlobVersionedHashes: call.blobHashes }),
      'L1_TX_REJECTED',
      new RegExp(`WrongInHash\\(expected: 0x0{64}, given: ${inboxTreeHash([leaf])}\\)`),
    );
  }

  it('reports a pending transaction, then its inclusion', async () => {
    const { slot } = await advanceToSlot(4);
    await rawRequest(client, 'evm_setAutomine', [false]);
    try {
      const timestamp = (await pendingSlot()).timestamp;
      const request = makeProposal({
        checkpointNumber: 2,
        slotNumber: slot,
        timestamp,
        lastArchive: ARCHIVE_1,
        archive: ARCHIVE_2,
        blocks: [{ header: makeBlockHeader(3, slot, timestamp), txEffects: [minimalTxEffect(fill(0x77), fill(0x78))] }],
      });
      const sendStart = performance.now();
      const { txHash } = await publisher.proposeCheckpoint(request);
      timings.laterBlobTxMs = performance.now() - sendStart;
      expect(await publisher.getTxStatus(txHash)).toEqual({ status: 'pending' });
      await rawRequest(client, 'evm_mine', []);
      const status = await publisher.getTxStatus(txHash);
      expect(status).toMatchObject({ status: 'included', success: true });
      const latest = await client.getBlockNumber();
      expect(await reader.getCheckpointCount(latest)).toBe(2);
      const logs = await reader.getCheckpointProposedLogs(deployBlock, latest);
      expect(logs.map((l) => [l.checkpointNumber, l.archive, l.slotNumber])).toEqual([
        [1, ARCHIVE_1, 1],
        [2, ARCHIVE_2, slot],
      ]);
      expect(decodeCheckpointPayload(blobsToPayload(await blobsOf(logs[1]!)))[0]!.txEffects).toEqual([
        minimalTxEffect(fill(0x77), fill(0x78)),
      ]);
    } finally {
      await rawRequest(client, 'evm_setAutomine', [true]);
    }
    expect(await publisher.getTxStatus(fill(0x42))).toEqual({ status: 'unknown' });
  });

  it('answers L1_BLOCK_NOT_FOUND for blocks past the head', async () => {
    const beyond = (await client.getBlockNumber()) + 1_000n;
    await expectL1Error(reader.getBlock(beyond), 'L1_BLOCK_NOT_FOUND', new RegExp(`${beyond}`));
    await expectL1Error(reader.getCheckpointCount(beyond), 'L1_BLOCK_NOT_FOUND', new RegExp(`${beyond}`));
    expect((await reader.getBlock('finalized')).number).toBe(0n);
  });

  it('serves no blob a log does not name', async () => {
    const [log] = await reader.getCheckpointProposedLogs(deployBlock, await client.getBlockNumber());
    const forged = { ...log!, blobVersionedHashes: [`0x01${'cd'.repeat(31)}` as Hex] };
    expect(await blobsOf(forged)).toEqual([]);
  });

  it('answers L1_NO_ROLLUP_CONTRACT where there is no contract or the chain differs', async () => {
    const empty = createViemL1Reader({ l1RpcUrl: anvil.url, rollupAddress: fill(0x0d, 20) });
    await expectL1Error(empty.getRollupConstants(), 'L1_NO_ROLLUP_CONTRACT', /no contract code at 0x0d0d/);
    await expectL1Error(empty.getCheckpointCount(0n), 'L1_NO_ROLLUP_CONTRACT', /no rollup contract/);
    const otherChain = createViemL1Reader({ l1RpcUrl: anvil.url, rollupAddress, chainId: 1 });
    await expectL1Error(
      otherChain.getRollupConstants(),
      'L1_NO_ROLLUP_CONTRACT',
      /chain 31337, configured for chain 1/,
    );
  });

  it('answers L1_UNREACHABLE, naming the URL, when no L1 node listens', async () => {
    const url = 'http://127.0.0.1:1';
    const offline = createViemL1Reader({ l1RpcUrl: url, rollupAddress });
    await expectL1Error(offline.getRollupConstants(), 'L1_UNREACHABLE', /127\.0\.0\.1:1/);
    await expectL1Error(offline.getCheckpointProposedLogs(0n, 10n), 'L1_UNREACHABLE', /127\.0\.0\.1:1/);
    const offlinePublisher = createViemL1Publisher({
      l1RpcUrl: url,
      rollupAddress,
      publisherPrivateKey: PUBLISHER_KEY,
    });
    await expectL1Error(offlinePublisher.getTxStatus(fill(0x42)), 'L1_UNREACHABLE', /127\.0\.0\.1:1/);
  });

  describe('epoch proofs and prunes (32-slot epochs, one epoch to prove each)', () => {
    const ARCHIVE_3 = fill(0x23);
    const ARCHIVE_3B = fill(0x33);
    /** The proof of checkpoints from..to of `epoch`, as the node's prover builds it. */
    const proofOf = (
      epoch: number,
      fromCheckpoint: number,
      toCheckpoint: number,
      previousArchive: Hex,
      endArchive: Hex,
    ): SubmitEpochProofRequest => {
      const inputs = { epoch, fromCheckpoint, toCheckpoint, previousArchive, endArchive, outHash: EPOCH_OUT_HASH_NONE };
      return { ...inputs, proof: epochProofFor(inputs) };
    };
    const proposeIn = async (slot: number, checkpointNumber: number, lastArchive: Hex, archive: Hex) => {
      const { timestamp } = await advanceToSlot(slot);
      const blocks = [{ header: makeBlockHeader(checkpointNumber + 2, slot, timestamp), txEffects: [] }];
      const { txHash } = await publisher.proposeCheckpoint(
        makeProposal({ checkpointNumber, slotNumber: slot, timestamp, lastArchive, archive, blocks }),
      );
      return waitForInclusion(txHash);
    };

    it('proves epoch 0 once it is over (wrong and early proofs rejected by name): proven checkpoint, its L1 block, EpochProven', async () => {
      // Checkpoints 1 (slot 1) and 2 (slot 4) are epoch 0's.
      const good = proofOf(0, 1, 2, GENESIS_ARCHIVE, ARCHIVE_2);
      await expectL1Error(
        publisher.submitEpochProof(good),
        'L1_TX_REJECTED',
        /EpochNotOver\(epoch: 0, currentEpoch: 0\)/,
      );
      await advanceToSlot(32);
      await expectL1Error(
        publisher.submitEpochProof({ ...good, outHash: fill(0x01) }),
        'L1_TX_REJECTED',
        /InvalidEpochProof\(\)/,
      );
      await expectL1Error(
        publisher.submitEpochProof(proofOf(0, 1, 1, GENESIS_ARCHIVE, ARCHIVE_1)),
        'L1_TX_REJECTED',
        /EpochIncomplete\(epoch: 0, nextCheckpointNumber: 2\)/,
      );
      await expectL1Error(
        publisher.submitEpochProof(proofOf(0, 1, 2, GENESIS_ARCHIVE, ARCHIVE_1)),
        'L1_TX_REJECTED',
        new RegExp(`WrongEndArchive\\(expected: ${ARCHIVE_2}`),
      );
      await expectL1Error(
        publisher.submitEpochProof(proofOf(0, 2, 2, ARCHIVE_1, ARCHIVE_2)),
        'L1_TX_REJECTED',
        /EpochProofWrongStart\(expected: 1, given: 2\)/,
      );
      const sendStart = performance.now();
      const { txHash } = await publisher.submitEpochProof(good);
      const status = await waitForInclusion(txHash);
      timings.epochProofIncludedMs = performance.now() - sendStart;
      expect(status).toMatchObject({ status: 'included', success: true });
      const inBlock = status.status === 'included' ? status.blockNumber : -1n;
      expect(await reader.getProvenCheckpoint(inBlock)).toEqual({ checkpointNumber: 2, l1BlockNumber: inBlock });
      expect(await reader.getProvenCheckpoint(inBlock - 1n)).toEqual({ checkpointNumber: 0, l1BlockNumber: 0n });
      const logs = await reader.getEpochProvenLogs(deployBlock, inBlock);
      expect(logs).toEqual([
        {
          epoch: 0,
          fromCheckpoint: 1,
          toCheckpoint: 2,
          endArchive: ARCHIVE_2,
          outHash: EPOCH_OUT_HASH_NONE,
          l1: expect.objectContaining({ blockNumber: inBlock, txHash }),
        },
      ]);
      await expectL1Error(
        publisher.submitEpochProof(good),
        'L1_TX_REJECTED',
        /EpochProofWrongStart\(expected: 3, given: 1\)/,
      );
    });

    it('an epoch past its window reads as pruned; prune() rolls back with ChainPruned, and the chain goes on from the proven checkpoint', async () => {
      expect(await proposeIn(33, 3, ARCHIVE_2, ARCHIVE_3)).toMatchObject({ status: 'included', success: true });
      // Epoch 1's window closes when epoch 3 (slot 96) begins.
      await advanceToSlot(96);
      let latest = await client.getBlockNumber();
      expect(await reader.getCheckpointCount(latest)).toBe(3);
      await rawRequest(client, 'evm_mine', []);
      latest = await client.getBlockNumber();
      expect(await reader.getCheckpointCount(latest)).toBe(2);
      expect(await reader.getArchiveAt(3, latest)).toBe(fill(0x00));
      expect(
        await client.readContract({
          address: rollupAddress,
          abi: rollupAbi,
          functionName: 'canPrune',
          blockNumber: latest,
        }),
      ).toBe(true);
      await expectL1Error(
        publisher.submitEpochProof(proofOf(1, 3, 3, ARCHIVE_2, ARCHIVE_3)),
        'L1_TX_REJECTED',
        /ProofWindowPassed\(epoch: 1, currentEpoch: 3\)/,
      );

      const wallet = createWalletClient({ account: privateKeyToAccount(DEPLOYER_KEY), transport: http(anvil.url) });
      const pruneTx = await wallet.writeContract({
        address: rollupAddress,
        abi: rollupAbi,
        functionName: 'prune',
        chain: null,
      });
      const receipt = await client.waitForTransactionReceipt({ hash: pruneTx });
      expect(receipt.status).toBe('success');
      expect(await reader.getChainPrunedLogs(deployBlock, receipt.blockNumber)).toEqual([
        {
          provenCheckpointNumber: 2,
          pendingCheckpointCount: 3,
          l1: expect.objectContaining({ blockNumber: receipt.blockNumber, txHash: pruneTx }),
        },
      ]);
      await expect(
        wallet.writeContract({ address: rollupAddress, abi: rollupAbi, functionName: 'prune', chain: null }),
      ).rejects.toThrow(/NothingToPrune/);

      const { slot } = await pendingSlot();
      expect(await proposeIn(slot, 3, ARCHIVE_2, ARCHIVE_3B)).toMatchObject({ status: 'included', success: true });
      latest = await client.getBlockNumber();
      expect(await reader.getCheckpointCount(latest)).toBe(3);
      expect(await reader.getArchiveAt(3, latest)).toBe(ARCHIVE_3B);
    });
  });

  it('a pending proposal is replaced at its nonce by the next send, with bumped fees that cover a base-fee spike, and lands', async () => {
    const ARCHIVE_4 = fill(0x24);
    const latest = await client.getBlockNumber();
    const lastArchive = await reader.getArchiveAt(3, latest);
    const proposalAt = async () => {
      const { slot, timestamp } = await pendingSlot();
      const blocks = [{ header: makeBlockHeader(9, slot, timestamp), txEffects: [] }];
      return makeProposal({
        checkpointNumber: 4,
        slotNumber: slot,
        timestamp,
        lastArchive,
        archive: ARCHIVE_4,
        blocks,
      });
    };
    await advanceToSlot((await pendingSlot()).slot + 1);
    const account = privateKeyToAccount(PUBLISHER_KEY).address;
    await rawRequest(client, 'evm_setAutomine', [false]);
    try {
      const stuck = await publisher.proposeCheckpoint(await proposalAt());
      const nonce = await client.getTransactionCount({ address: account, blockTag: 'latest' });
      const stuckTx = await client.getTransaction({ hash: stuck.txHash });
      // The spike: the next block's base fee is far above the first attempt's 2x headroom. (anvil drops a tx whose
      // fee cap is below the base fee when it mines, where geth keeps it waiting, so the send comes before the block.)
      const spikedBaseFee = stuckTx.maxFeePerGas! * 4n;
      await rawRequest(client, 'anvil_setNextBlockBaseFeePerGas', [`0x${spikedBaseFee.toString(16)}`]);
      expect(await publisher.getTxStatus(stuck.txHash)).toEqual({ status: 'pending' });
      expect(await client.getTransactionCount({ address: account, blockTag: 'latest' })).toBe(nonce);

      const replacement = await publisher.proposeCheckpoint(await proposalAt());
      const replacementTx = await client.getTransaction({ hash: replacement.txHash });
      expect(replacementTx.nonce).toBe(stuckTx.nonce);
      expect(replacementTx.maxFeePerGas! >= stuckTx.maxFeePerGas! * 2n).toBe(true);
      expect(replacementTx.maxFeePerGas! >= spikedBaseFee).toBe(true);
      expect(replacementTx.maxPriorityFeePerGas! >= stuckTx.maxPriorityFeePerGas! * 2n).toBe(true);
      expect(replacementTx.maxFeePerBlobGas! >= stuckTx.maxFeePerBlobGas! * 2n).toBe(true);
      await rawRequest(client, 'evm_mine', []);
      expect(await publisher.getTxStatus(replacement.txHash)).toMatchObject({ status: 'included', success: true });
      expect(await publisher.getTxStatus(stuck.txHash)).toEqual({ status: 'unknown' });
      expect(await reader.getCheckpointCount(await client.getBlockNumber())).toBe(4);
    } finally {
      await rawRequest(client, 'evm_setAutomine', [true]);
    }
  });
});
