import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AssertionError } from '../core/assert.js';
import type {
  CheckpointProposedLog,
  L1ReaderPort,
  ProposeCheckpointRequest,
  SubmitEpochProofRequest,
} from '../core/ports.js';
import { EPOCH_OUT_HASH_NONE, epochProofFor } from '../core/prover/epochProof.js';
import { L1Error } from '../core/l1/l1Error.js';
import type { Hex } from '../spec/chain.js';
import { bytesToHex, zeroHex } from '../spec/codec/bytes.js';
import { BLOB_SIZE_BYTES, L1_TO_L2_MESSAGES_PER_CHECKPOINT } from '../spec/constants.js';
import { inboxTreeHash, l1ToL2MessageLeaf } from '../spec/messages/inbox.js';
import { createPrng } from './prng.js';
import { createScheduler, SIM_START_TIME_MS_DEFAULT } from './scheduler.js';
import type { SimL1Options } from './simL1.js';
import { createSimL1, SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT, simVersionedHash } from './simL1.js';
import { slotAtTimestamp } from './simL1Contract.js';
import type { SimProposalInput } from './simProposal.js';
import { buildSimProposal } from './simProposal.js';
import { createTrace } from './trace.js';
import { INITIAL_ETH_PER_FEE_ASSET_DEFAULT } from '../spec/config/schema.js';

const GENESIS_ARCHIVE = `0x${'11'.repeat(32)}` as Hex;
const PUBLISHER = `0x${'aa'.repeat(20)}` as Hex;
const SENDER = `0x${'5e'.repeat(20)}` as Hex;
const word = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const START_SECONDS = BigInt(SIM_START_TIME_MS_DEFAULT / 1000);

function archiveFor(checkpointNumber: number): Hex {
  return `0x${checkpointNumber.toString(16).padStart(64, 'a')}` as Hex;
}

function setup(options: Partial<SimL1Options> = {}) {
  const scheduler = createScheduler();
  const trace = createTrace({ now: () => scheduler.now() });
  const l1 = createSimL1({
    scheduler,
    prng: createPrng(1).fork('l1'),
    genesisArchiveRoot: GENESIS_ARCHIVE,
    trace,
    ...options,
  });
  const link = l1.connect('node');
  const publisher = link.createPublisher(PUBLISHER);
  /** A proposal that every rule accepts if it lands in the next block; `tweak` breaks it. */
  const nextProposal = (tweak: Partial<SimProposalInput> = {}): ProposeCheckpointRequest => {
    const count = l1.checkpointCount();
    const timestamp = l1.head().timestamp + 12n;
    return buildSimProposal({
      checkpointNumber: count + 1,
      lastArchive: l1.archiveOf(count)!,
      archive: archiveFor(count + 1),
      slotNumber: slotAtTimestamp(timestamp, l1.constants)!,
      timestamp,
      payload: new Uint8Array([1, 2, 3, count]),
      ...tweak,
    });
  };
  /** Submits, mines the next block, and returns the receipt. */
  const land = async (request: ProposeCheckpointRequest) => {
    const { txHash } = await publisher.proposeCheckpoint(request);
    await scheduler.runFor(12_000);
    return { txHash, receipt: l1.receipt(txHash)! };
  };
  /** Mines until the next block is the first of a new slot. */
  const toSlotStart = async () => {
    while (
      slotAtTimestamp(l1.head().timestamp + 12n, l1.constants) === slotAtTimestamp(l1.head().timestamp, l1.constants)
    ) {
      await scheduler.runFor(12_000);
    }
  };
  /** The blobs the link's consensus client serves for a proposal's log (none when it has none). */
  const blobsOf = async (log: CheckpointProposedLog) =>
    (
      await link.blobSource.getBlobs({ versionedHashes: log.blobVersionedHashes, l1: { ...log.l1, timestamp: 0n } })
    ).map((candidate) => candidate.blob);
  return { scheduler, trace, l1, link, reader: link.reader, publisher, nextProposal, land, toSlotStart, blobsOf };
}

async function l1ErrorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof L1Error) return error.code;
    throw error;
  }
  return 'no error';
}

function failureOf(receipt: ReturnType<ReturnType<typeof setup>['l1']['receipt']>): string | undefined {
  expect(receipt?.status).toBe('included');
  return receipt?.status === 'included' ? receipt.failure : 'not included';
}

describe('SimL1 chain', () => {
  it('mines a block every 12 s with linked hashes and answers getBlock', async () => {
    const { scheduler, reader } = setup();
    const genesis = await reader.getBlock('latest');
    expect(genesis).toMatchObject({ number: 0n, timestamp: START_SECONDS, parentHash: zeroHex(32) });
    await scheduler.runFor(11_999);
    expect((await reader.getBlock('latest')).number).toBe(0n);
    await scheduler.runFor(1);
    await scheduler.runFor(48_000);
    const head = await reader.getBlock('latest');
    expect(head.number).toBe(5n);
    const hashes = new Set<Hex>();
    for (let n = 1n; n <= 5n; n++) {
      const block = await reader.getBlock(n);
      const parent = await reader.getBlock(n - 1n);
      expect(block.timestamp - parent.timestamp).toBe(12n);
      expect(block.parentHash).toBe(parent.hash);
      hashes.add(block.hash);
    }
    expect(hashes.size).toBe(5);
    expect(await l1ErrorCode(reader.getBlock(6n))).toBe('L1_BLOCK_NOT_FOUND');
    expect(await l1ErrorCode(reader.getBlock(-1n))).toBe('L1_BLOCK_NOT_FOUND');
  });

  it('finalized trails latest by the finality lag', async () => {
    const lagDefault = setup();
    await lagDefault.scheduler.runFor(12_000 * 10);
    expect((await lagDefault.reader.getBlock('finalized')).number).toBe(0n);
    expect(SIM_L1_FINALITY_LAG_BLOCKS_DEFAULT).toBe(64);
    const lagTwo = setup({ finalityLagBlocks: 2 });
    await lagTwo.scheduler.runFor(12_000 * 10);
    expect((await lagTwo.reader.getBlock('finalized')).number).toBe(8n);
  });

  it('reports the rollup constants and chain id', async () => {
    const { reader } = setup({
      slotDuration: 24,
      epochDuration: 8,
      proofSubmissionEpochs: 2,
      rollupVersion: 7,
      l1StartBlock: 3n,
    });
    expect(await reader.getChainId()).toBe(31337);
    expect(await reader.getRollupConstants()).toEqual({
      l1ChainId: 31337,
      rollupVersion: 7,
      l1StartBlock: 3n,
      l1GenesisTime: START_SECONDS,
      ethPerFeeAsset: INITIAL_ETH_PER_FEE_ASSET_DEFAULT,
      slotDuration: 24,
      epochDuration: 8,
      ethereumSlotDuration: 12,
      proofSubmissionEpochs: 2,
      genesisArchiveRoot: GENESIS_ARCHIVE,
    });
  });

  it('back-dates the blocks before l1StartBlock, where there is no rollup contract', async () => {
    const { reader } = setup({ l1StartBlock: 3n });
    const head = await reader.getBlock('latest');
    expect(head).toMatchObject({ number: 3n, timestamp: START_SECONDS });
    expect((await reader.getBlock(0n)).timestamp).toBe(START_SECONDS - 36n);
    expect(await reader.getCheckpointCount(3n)).toBe(0);
    expect(await l1ErrorCode(reader.getCheckpointCount(2n))).toBe('L1_NO_ROLLUP_CONTRACT');
    expect(await reader.getArchiveAt(0, 3n)).toBe(GENESIS_ARCHIVE);
  });

  it('records blocks and transactions in the trace', async () => {
    const { trace, land, nextProposal, toSlotStart } = setup();
    await toSlotStart();
    await land(nextProposal());
    const kinds = trace.recent().map((e) => e.kind);
    expect(kinds).toContain('l1.block');
    expect(kinds).toContain('l1.tx.submitted');
    expect(kinds).toContain('l1.tx.included');
  });
});

describe('SimL1 propose', () => {
  it('includes a valid proposal: receipt, status, log, state and blobs', async () => {
    const { l1, reader, publisher, nextProposal, scheduler, toSlotStart, blobsOf } = setup();
    await toSlotStart();
    const request = nextProposal();
    expect(await publisher.blobVersionedHashes(request.blobs)).toEqual(request.blobs.map(simVersionedHash));
    const { txHash } = await publisher.proposeCheckpoint(request);
    expect(await publisher.getTxStatus(txHash)).toEqual({ status: 'pending' });
    await scheduler.runFor(12_000);
    const head = await reader.getBlock('latest');
    expect(await publisher.getTxStatus(txHash)).toEqual({
      status: 'included',
      success: true,
      blockNumber: head.number,
      blockHash: head.hash,
    });
    expect(await reader.getCheckpointCount(head.number)).toBe(1);
    expect(await reader.getArchiveAt(1, head.number)).toBe(archiveFor(1));
    const logs = await reader.getCheckpointProposedLogs(0n, head.number);
    expect(logs).toEqual([
      {
        checkpointNumber: 1,
        archive: archiveFor(1),
        slotNumber: request.slotNumber,
        header: request.header,
        blobVersionedHashes: request.blobs.map(simVersionedHash),
        attestations: request.attestations,
        l1: { blockNumber: head.number, blockHash: head.hash, txHash, logIndex: 0 },
      },
    ]);
    const blobs = await blobsOf(logs[0]!);
    expect(blobs.map((b) => bytesToHex(b))).toEqual(request.blobs.map((b) => bytesToHex(b)));
    blobs[0]![5] = 0xee;
    expect((await blobsOf(logs[0]!))[0]![5]).toBe(request.blobs[0]![5]);
    expect(l1.receipt(txHash)).toMatchObject({ status: 'included', success: true, failure: undefined });
  });

  it('versioned hashes are 0x01 || sha256(blob)[1..32]', () => {
    const blob = new Uint8Array(BLOB_SIZE_BYTES);
    blob[7] = 3;
    const digest = createHash('sha256').update(blob).digest('hex');
    expect(simVersionedHash(blob)).toBe(`0x01${digest.slice(2)}`);
  });

  it('rule: checkpointNumber must be the recorded count + 1', async () => {
    const { l1, land, nextProposal, toSlotStart } = setup();
    await toSlotStart();
    const { receipt } = await land(nextProposal({ checkpointNumber: 2 }));
    expect(failureOf(receipt)).toBe('CHECKPOINT_NUMBER_INVALID');
    expect(receipt).toMatchObject({ success: false });
    expect(l1.checkpointCount()).toBe(0);
  });

  it('rule: lastArchive must be the last recorded archive', async () => {
    const { l1, land, nextProposal, toSlotStart } = setup();
    await toSlotStart();
    const { receipt } = await land(nextProposal({ lastArchive: archiveFor(99) }));
    expect(failureOf(receipt)).toBe('LAST_ARCHIVE_MISMATCH');
    expect(l1.checkpointCount()).toBe(0);
  });

  it('rule: slotNumber must be the slot of the including block', async () => {
    const { land, nextProposal, toSlotStart, l1 } = setup();
    await toSlotStart();
    const current = slotAtTimestamp(l1.head().timestamp + 12n, l1.constants)!;
    expect(failureOf((await land(nextProposal({ slotNumber: current + 1 }))).receipt)).toBe('SLOT_NOT_CURRENT');
    await toSlotStart();
    const late = nextProposal({ slotNumber: current });
    expect(failureOf((await land(late)).receipt)).toBe('SLOT_NOT_CURRENT');
  });

  it('rule: a slot before L2 genesis is never current', async () => {
    const { land, nextProposal } = setup({ l1GenesisTime: START_SECONDS + 3_600n });
    expect(failureOf((await land(nextProposal({ slotNumber: 0 }))).receipt)).toBe('SLOT_NOT_CURRENT');
  });

  it('rule: the slot must be after the previous checkpoint slot (genesis is slot 0)', async () => {
    const { land, nextProposal, l1, toSlotStart } = setup();
    // Blocks 1 and 2 are in slot 0 (36 s slots, 12 s blocks): genesis already holds slot 0.
    expect(failureOf((await land(nextProposal())).receipt)).toBe('SLOT_NOT_AFTER_PREVIOUS');
    await toSlotStart();
    expect(failureOf((await land(nextProposal())).receipt)).toBeUndefined();
    // The next block is still in the same slot as checkpoint 1.
    expect(slotAtTimestamp(l1.head().timestamp + 12n, l1.constants)).toBe(
      slotAtTimestamp(l1.head().timestamp, l1.constants),
    );
    expect(failureOf((await land(nextProposal())).receipt)).toBe('SLOT_NOT_AFTER_PREVIOUS');
    expect(l1.checkpointCount()).toBe(1);
  });

  it('rule: 1 to 6 blobs', async () => {
    const { land, nextProposal, toSlotStart } = setup();
    await toSlotStart();
    const valid = nextProposal();
    expect(failureOf((await land({ ...valid, blobs: [] })).receipt)).toBe('BLOB_COUNT_INVALID');
    await toSlotStart();
    const again = nextProposal();
    const seven = Array.from({ length: 7 }, () => again.blobs[0]!);
    expect(failureOf((await land({ ...again, blobs: seven })).receipt)).toBe('BLOB_COUNT_INVALID');
  });

  it('rule: the header blobsHash must match the blobs versioned hashes', async () => {
    const { land, nextProposal, toSlotStart } = setup();
    await toSlotStart();
    const valid = nextProposal();
    const tampered = valid.blobs[0]!.slice();
    tampered[1] = 0xff;
    expect(failureOf((await land({ ...valid, blobs: [tampered] })).receipt)).toBe('BLOBS_HASH_MISMATCH');
  });

  it('rule: the header must decode and agree with the request', async () => {
    const { land, nextProposal, toSlotStart } = setup();
    await toSlotStart();
    const valid = nextProposal();
    expect(failureOf((await land({ ...valid, header: '0x1234' })).receipt)).toBe('PROPOSAL_MALFORMED');
    await toSlotStart();
    const again = nextProposal();
    expect(failureOf((await land({ ...again, archive: '0x12' })).receipt)).toBe('PROPOSAL_MALFORMED');
    await toSlotStart();
    const third = nextProposal();
    expect(failureOf((await land({ ...third, lastArchive: archiveFor(5) })).receipt)).toBe('HEADER_MISMATCH');
  });

  it('applies the rules in inclusion order within a block', async () => {
    const { l1, link, publisher, nextProposal, scheduler, toSlotStart } = setup();
    await toSlotStart();
    // Two accounts: a second send from the same one would replace the first at its nonce.
    const first = await publisher.proposeCheckpoint(nextProposal({ archive: archiveFor(100) }));
    const second = await link
      .createPublisher(`0x${'ab'.repeat(20)}`)
      .proposeCheckpoint(nextProposal({ archive: archiveFor(200) }));
    await scheduler.runFor(12_000);
    expect(l1.receipt(first.txHash)).toMatchObject({ success: true });
    expect(failureOf(l1.receipt(second.txHash))).toBe('CHECKPOINT_NUMBER_INVALID');
    expect(l1.archiveOf(1)).toBe(archiveFor(100));
  });

  it('rejects a malformed blob at submission, as an L1 node does', async () => {
    const { publisher, nextProposal } = setup();
    const request = nextProposal();
    expect(await l1ErrorCode(publisher.proposeCheckpoint({ ...request, blobs: [new Uint8Array(10)] }))).toBe(
      'L1_TX_REJECTED',
    );
  });
});

describe('SimL1 pinned reads', () => {
  async function twoCheckpoints() {
    const env = setup();
    await env.toSlotStart();
    const one = await env.land(env.nextProposal());
    await env.toSlotStart();
    const two = await env.land(env.nextProposal());
    const b1 = (one.receipt as { blockNumber: bigint }).blockNumber;
    const b2 = (two.receipt as { blockNumber: bigint }).blockNumber;
    return { ...env, b1, b2 };
  }

  it('answers count and archives as of the given block', async () => {
    const { reader, b1, b2 } = await twoCheckpoints();
    expect(await reader.getCheckpointCount(b1 - 1n)).toBe(0);
    expect(await reader.getCheckpointCount(b1)).toBe(1);
    expect(await reader.getCheckpointCount(b2 - 1n)).toBe(1);
    expect(await reader.getCheckpointCount(b2)).toBe(2);
    expect(await reader.getArchiveAt(0, b1 - 1n)).toBe(GENESIS_ARCHIVE);
    expect(await reader.getArchiveAt(1, b1 - 1n)).toBe(zeroHex(32));
    expect(await reader.getArchiveAt(1, b1)).toBe(archiveFor(1));
    expect(await reader.getArchiveAt(2, b1)).toBe(zeroHex(32));
    expect(await reader.getArchiveAt(2, b2)).toBe(archiveFor(2));
    expect(await l1ErrorCode(reader.getCheckpointCount(b2 + 1n))).toBe('L1_BLOCK_NOT_FOUND');
  });

  it('returns logs of a block range in L1 order', async () => {
    const { reader, b1, b2 } = await twoCheckpoints();
    expect((await reader.getCheckpointProposedLogs(b1, b1)).map((l) => l.checkpointNumber)).toEqual([1]);
    expect((await reader.getCheckpointProposedLogs(b1 + 1n, b2)).map((l) => l.checkpointNumber)).toEqual([2]);
    expect((await reader.getCheckpointProposedLogs(0n, b2)).map((l) => l.checkpointNumber)).toEqual([1, 2]);
    expect(await reader.getCheckpointProposedLogs(b2, b1)).toEqual([]);
    expect(await l1ErrorCode(reader.getCheckpointProposedLogs(0n, b2 + 1n))).toBe('L1_BLOCK_NOT_FOUND');
  });
});

describe('SimL1 faults', () => {
  it('reorg drops blocks and their transactions; the chain goes on with new hashes', async () => {
    const { l1, reader, publisher, scheduler, land, nextProposal, toSlotStart, blobsOf } = setup();
    await toSlotStart();
    const { txHash } = await land(nextProposal());
    const included = await reader.getBlock('latest');
    const [log] = await reader.getCheckpointProposedLogs(0n, included.number);
    await scheduler.runFor(12_000);
    l1.reorg(2);
    expect(l1.head().number).toBe(included.number - 1n);
    expect(l1.checkpointCount()).toBe(0);
    expect(await reader.getCheckpointProposedLogs(0n, l1.head().number)).toEqual([]);
    expect(await publisher.getTxStatus(txHash)).toEqual({ status: 'unknown' });
    expect(l1.receipt(txHash)).toMatchObject({ status: 'reorgedOut' });
    expect(await blobsOf(log!)).toEqual([]);
    expect(await l1ErrorCode(reader.getBlock(included.number))).toBe('L1_BLOCK_NOT_FOUND');
    await scheduler.runFor(12_000);
    const replacement = await reader.getBlock(included.number);
    expect(replacement.hash).not.toBe(included.hash);
    expect(replacement.parentHash).toBe(included.parentHash);
    await toSlotStart();
    expect(failureOf((await land(nextProposal())).receipt)).toBeUndefined();
    expect(l1.checkpointCount()).toBe(1);
  });

  it('reorg cannot remove the rollup deployment', () => {
    const { l1 } = setup();
    expect(() => l1.reorg(1)).toThrow(AssertionError);
  });

  it('a reorged empty block still gets a different hash', async () => {
    const { l1, scheduler } = setup();
    await scheduler.runFor(24_000);
    const before = l1.head();
    l1.reorg(1);
    await scheduler.runFor(12_000);
    expect(l1.head().number).toBe(before.number);
    expect(l1.head().hash).not.toBe(before.hash);
  });

  it('a targeted fault fails exactly the calls its predicate picks, on its link only, until removed', async () => {
    const { l1, link, reader, scheduler } = setup();
    const other: L1ReaderPort = l1.connect('other').reader;
    await scheduler.runFor(36_000);
    link.failCallsWhere((method, args) => method === 'getBlock' && args[0] === 1n);
    expect(await l1ErrorCode(reader.getBlock(1n))).toBe('L1_UNREACHABLE');
    expect((await reader.getBlock(2n)).number).toBe(2n);
    expect((await reader.getBlock('latest')).number).toBe(l1.head().number);
    expect(await reader.getCheckpointCount(1n)).toBe(0);
    expect((await other.getBlock(1n)).number).toBe(1n);
    link.failCallsWhere(undefined);
    expect((await reader.getBlock(1n)).number).toBe(1n);
  });

  it('RPC failures come from the link stream and affect only that link', async () => {
    const { l1, link } = setup();
    const other: L1ReaderPort = l1.connect('other').reader;
    link.setRpcFailureRate(1);
    expect(await l1ErrorCode(link.reader.getBlock('latest'))).toBe('L1_UNREACHABLE');
    expect((await other.getBlock('latest')).number).toBe(0n);
    link.setRpcFailureRate(0);
    expect((await link.reader.getBlock('latest')).number).toBe(0n);
  });

  it('a stale link sees the head some blocks behind', async () => {
    const { link, scheduler } = setup();
    await scheduler.runFor(12_000 * 5);
    link.setStale(2);
    expect((await link.reader.getBlock('latest')).number).toBe(3n);
    expect(await l1ErrorCode(link.reader.getBlock(4n))).toBe('L1_BLOCK_NOT_FOUND');
  });

  it('latency delivers answers later in simulated time, computed at delivery', async () => {
    const { link, scheduler } = setup();
    link.setLatencyMs(13_000);
    let answered: { at: number; number: bigint } | undefined;
    void link.reader.getBlock('latest').then((block) => (answered = { at: scheduler.now(), number: block.number }));
    await scheduler.runFor(12_999);
    expect(answered).toBeUndefined();
    await scheduler.runFor(1);
    expect(answered).toEqual({ at: SIM_START_TIME_MS_DEFAULT + 13_000, number: 1n });
  });

  it('inclusion delay holds transactions back for the drawn number of blocks', async () => {
    const { l1, publisher, scheduler, nextProposal } = setup({ inclusionDelay: { probability: 1, blocksMax: 3 } });
    const { txHash } = await publisher.proposeCheckpoint(nextProposal());
    const receipt = l1.receipt(txHash);
    expect(receipt?.status).toBe('pending');
    const notBefore = receipt?.status === 'pending' ? receipt.notBeforeBlock : 0n;
    expect(notBefore >= 2n && notBefore <= 4n).toBe(true);
    await scheduler.runFor(12_000 * (Number(notBefore) - 1));
    expect(l1.receipt(txHash)?.status).toBe('pending');
    await scheduler.runFor(12_000);
    expect(l1.receipt(txHash)).toMatchObject({ status: 'included', blockNumber: notBefore });
  });

  it('blobs can be made unavailable, globally, per link, per transaction or for a while after inclusion', async () => {
    const { l1, link, reader, land, nextProposal, toSlotStart, blobsOf, scheduler } = setup();
    await toSlotStart();
    const { txHash } = await land(nextProposal());
    const [log] = await reader.getCheckpointProposedLogs(0n, l1.head().number);
    l1.setBlobsAvailable(false);
    expect(await blobsOf(log!)).toEqual([]);
    l1.setBlobsAvailable(true);
    expect(await blobsOf(log!)).toHaveLength(1);
    link.setBlobsLost(true);
    expect(await blobsOf(log!)).toEqual([]);
    link.setBlobsLost(false);
    const blockTimeMs = Number((await reader.getBlock(log!.l1.blockNumber)).timestamp) * 1000;
    l1.setBlobDelayMs(scheduler.now() - blockTimeMs + 5_000);
    expect(await blobsOf(log!)).toEqual([]);
    await scheduler.runFor(5_000);
    expect(await blobsOf(log!)).toHaveLength(1);
    l1.withholdBlobs(txHash);
    expect(await blobsOf(log!)).toEqual([]);
    expect(l1.archivedBlobsOf(txHash)).toHaveLength(1);
  });
});

describe('SimL1 epoch proofs and prunes', () => {
  /** 24 s slots (two L1 blocks), epochs of two slots (four L1 blocks), one epoch to prove each. */
  function proofSetup() {
    const env = setup({ slotDuration: 24, epochDuration: 2, proofSubmissionEpochs: 1 });
    const { l1, scheduler } = env;
    const nextSlot = () => slotAtTimestamp(l1.head().timestamp + 12n, l1.constants)!;
    /** Mines until the next block falls in `slot` or later. */
    const toSlot = async (slot: number) => {
      while (nextSlot() < slot) await scheduler.runFor(12_000);
    };
    /** The proof of checkpoints from..to as epoch `epoch`, built from the L1's own archives. */
    const proofOf = (epoch: number, fromCheckpoint: number, toCheckpoint: number): SubmitEpochProofRequest => {
      const inputs = {
        epoch,
        fromCheckpoint,
        toCheckpoint,
        previousArchive: l1.archiveOf(fromCheckpoint - 1) ?? zeroHex(32),
        endArchive: l1.archiveOf(toCheckpoint) ?? zeroHex(32),
        outHash: EPOCH_OUT_HASH_NONE,
      };
      return { ...inputs, proof: epochProofFor(inputs) };
    };
    /** Submits a proof, mines the next block, and returns the receipt. */
    const prove = async (request: SubmitEpochProofRequest) => {
      const { txHash } = await env.publisher.submitEpochProof(request);
      await scheduler.runFor(12_000);
      return { txHash, receipt: l1.receipt(txHash)! };
    };
    /** Proposes the next checkpoint in the slot of the next block. */
    const propose = async () => failureOf((await env.land(env.nextProposal())).receipt);
    return { ...env, nextSlot, toSlot, proofOf, prove, propose };
  }

  it('accepts the proof of a complete epoch once it is over: proven checkpoint, its L1 block, the EpochProven log', async () => {
    const { l1, reader, toSlot, propose, proofOf, prove } = proofSetup();
    await toSlot(1);
    expect(await propose()).toBeUndefined();
    expect(failureOf((await prove(proofOf(0, 1, 1))).receipt)).toBe('EPOCH_NOT_OVER');
    await toSlot(2);
    const { txHash, receipt } = await prove(proofOf(0, 1, 1));
    expect(failureOf(receipt)).toBeUndefined();
    const head = l1.head();
    expect(l1.provenCheckpoint()).toEqual({ checkpointNumber: 1, l1BlockNumber: head.number });
    expect(await reader.getProvenCheckpoint(head.number)).toEqual({ checkpointNumber: 1, l1BlockNumber: head.number });
    expect(await reader.getProvenCheckpoint(head.number - 1n)).toEqual({ checkpointNumber: 0, l1BlockNumber: 0n });
    expect(await reader.getEpochProvenLogs(0n, head.number)).toEqual([
      {
        epoch: 0,
        fromCheckpoint: 1,
        toCheckpoint: 1,
        endArchive: archiveFor(1),
        outHash: EPOCH_OUT_HASH_NONE,
        l1: { blockNumber: head.number, blockHash: head.hash, txHash, logIndex: 0 },
      },
    ]);
    expect(await reader.getChainPrunedLogs(0n, head.number)).toEqual([]);
  });

  it('rules: the range is exactly the epoch unproven checkpoints, in its window, ending at the recorded archive, with the commitment proof', async () => {
    const { l1, link, scheduler, toSlot, propose, proofOf } = proofSetup();
    /** Submits the proofs in order into one block, each from its own account, and returns each one's failure. */
    const failures = async (requests: SubmitEpochProofRequest[]) => {
      const hashes: Hex[] = [];
      for (const [i, request] of requests.entries()) {
        const prover = link.createPublisher(`0x${(0xc0 + i).toString(16).repeat(20)}`);
        hashes.push((await prover.submitEpochProof(request)).txHash);
      }
      await scheduler.runFor(12_000);
      return hashes.map((hash) => failureOf(l1.receipt(hash)));
    };
    await toSlot(1);
    await propose();
    await toSlot(2);
    await propose();
    // Checkpoint 1 (slot 1) is epoch 0's; checkpoint 2 (slot 2) epoch 1's, which is not over.
    expect(
      await failures([
        proofOf(1, 2, 2),
        proofOf(0, 1, 3),
        proofOf(1, 1, 1),
        { ...proofOf(0, 1, 1), endArchive: archiveFor(9) },
        { ...proofOf(0, 1, 1), outHash: `0x${'01'.repeat(32)}` },
        { ...proofOf(0, 1, 1), proof: '0x1234' },
        { ...proofOf(0, 1, 1), endArchive: '0x12' },
        proofOf(0, 1, 1),
        proofOf(1, 2, 2),
      ]),
    ).toEqual([
      'PROOF_START_INVALID',
      'PROOF_RANGE_INVALID',
      'CHECKPOINT_NOT_IN_EPOCH',
      'END_ARCHIVE_MISMATCH',
      'PROOF_INVALID',
      'PROOF_INVALID',
      'PROOF_MALFORMED',
      undefined,
      'EPOCH_NOT_OVER',
    ]);
    await toSlot(3);
    await propose();
    await toSlot(4);
    expect(await failures([proofOf(1, 2, 2), proofOf(1, 2, 3)])).toEqual(['EPOCH_INCOMPLETE', undefined]);
    expect(l1.provenCheckpoint().checkpointNumber).toBe(3);
  });

  it('rule: a proof after its window is refused', async () => {
    const { toSlot, propose, proofOf, prove } = proofSetup();
    await toSlot(1);
    await propose();
    await toSlot(4);
    expect(failureOf((await prove(proofOf(0, 1, 1))).receipt)).toBe('PROOF_WINDOW_PASSED');
  });

  it('an epoch past its window reads as pruned; the next proposal prunes it (ChainPruned before CheckpointProposed) and builds on the proven chain', async () => {
    const { l1, reader, toSlot, propose, proofOf, prove, nextProposal, land } = proofSetup();
    await toSlot(1);
    await propose();
    await toSlot(2);
    await prove(proofOf(0, 1, 1));
    await propose();
    await toSlot(3);
    await propose();
    // Epoch 1 (checkpoints 2 and 3) is never proven; its window closes when epoch 3 begins (slot 6).
    await toSlot(5);
    let head = l1.head().number;
    const beforeWindowEnd = head;
    expect(await reader.getCheckpointCount(head)).toBe(3);
    await toSlot(6);
    await toSlot(7);
    head = l1.head().number;
    expect(l1.checkpointCount()).toBe(3);
    expect(await reader.getCheckpointCount(head)).toBe(1);
    expect(await reader.getArchiveAt(2, head)).toBe(zeroHex(32));
    expect(await reader.getArchiveAt(1, head)).toBe(archiveFor(1));
    // A proposal on the unpruned chain fails; one on the proven chain prunes and lands.
    expect(failureOf((await land(nextProposal({ checkpointNumber: 4, lastArchive: archiveFor(3) }))).receipt)).toBe(
      'CHECKPOINT_NUMBER_INVALID',
    );
    expect(l1.checkpointCount()).toBe(3);
    const { txHash, receipt } = await land(
      nextProposal({ checkpointNumber: 2, lastArchive: archiveFor(1), archive: archiveFor(20) }),
    );
    expect(failureOf(receipt)).toBeUndefined();
    head = l1.head().number;
    expect(l1.checkpointCount()).toBe(2);
    expect(await reader.getArchiveAt(2, head)).toBe(archiveFor(20));
    expect(await reader.getChainPrunedLogs(0n, head)).toEqual([
      {
        provenCheckpointNumber: 1,
        pendingCheckpointCount: 3,
        l1: { blockNumber: head, blockHash: l1.head().hash, txHash, logIndex: 0 },
      },
    ]);
    expect(
      (await reader.getCheckpointProposedLogs(head, head)).map((log) => [log.checkpointNumber, log.l1.logIndex]),
    ).toEqual([[2, 1]]);
    // Reads pinned before the prune still see the old chain.
    expect(await reader.getArchiveAt(2, beforeWindowEnd)).toBe(archiveFor(2));
    expect(await reader.getCheckpointCount(beforeWindowEnd)).toBe(3);
  });

  it('a reorg that removes a proof takes the proven checkpoint back', async () => {
    const { l1, reader, toSlot, propose, proofOf, prove } = proofSetup();
    await toSlot(1);
    await propose();
    await toSlot(2);
    await prove(proofOf(0, 1, 1));
    expect(l1.provenCheckpoint().checkpointNumber).toBe(1);
    l1.reorg(1);
    expect(l1.provenCheckpoint()).toEqual({ checkpointNumber: 0, l1BlockNumber: 0n });
    expect(await reader.getProvenCheckpoint(l1.head().number)).toEqual({ checkpointNumber: 0, l1BlockNumber: 0n });
    expect(l1.checkpointCount()).toBe(1);
  });
});

describe('SimL1 inbox (contracts/Inbox.sol)', () => {
  const message = (n: number) => ({ recipient: word(0xa0 + n), content: word(0xc0 + n), secretHash: word(0x50 + n) });

  it("groups messages into the tree of the checkpoint after next, and propose checks that tree's hash as inHash", async () => {
    const { l1, reader, scheduler, nextProposal, land, toSlotStart } = setup();
    l1.sendL2Message(SENDER, message(1));
    l1.sendL2Message(SENDER, message(2));
    await scheduler.runFor(12_000);
    const early = await reader.getInboxMessageLogs(0n, l1.head().number);
    // Tree 1 is empty and sealed from the start: messages sent before checkpoint 1 go to tree 2.
    expect(early.map((log) => [log.checkpointNumber, log.index])).toEqual([
      [2, 16n],
      [2, 17n],
    ]);
    expect(early[0]!.leaf).toBe(l1ToL2MessageLeaf({ sender: SENDER, ...message(1), index: 16n }));
    expect(early[1]!.treeHash).toBe(inboxTreeHash(early.map((log) => log.leaf)));

    await toSlotStart();
    expect(failureOf((await land(nextProposal())).receipt)).toBeUndefined();
    // Proposing checkpoint 1 sealed tree 2: a new message goes to tree 3.
    l1.sendL2Message(SENDER, message(3));
    await toSlotStart();
    expect(failureOf((await land(nextProposal())).receipt)).toBe('IN_HASH_MISMATCH');
    await toSlotStart();
    expect(failureOf((await land(nextProposal({ inHash: early[1]!.treeHash }))).receipt)).toBeUndefined();
    const late = await reader.getInboxMessageLogs(0n, l1.head().number);
    expect(late.map((log) => [log.checkpointNumber, log.index])).toEqual([
      [2, 16n],
      [2, 17n],
      [3, 32n],
    ]);
  });

  it('a full tree is sealed early: the next message opens the next tree at its first index', async () => {
    const { l1, reader, scheduler } = setup();
    for (let i = 0; i < L1_TO_L2_MESSAGES_PER_CHECKPOINT + 2; i++) l1.sendL2Message(SENDER, message(i));
    await scheduler.runFor(12_000);
    const logs = await reader.getInboxMessageLogs(0n, l1.head().number);
    const perTree = L1_TO_L2_MESSAGES_PER_CHECKPOINT;
    expect(logs.map((log) => log.checkpointNumber)).toEqual([...Array<number>(perTree).fill(2), 3, 3]);
    expect(logs.map((log) => log.index)).toEqual(Array.from({ length: perTree + 2 }, (_, i) => BigInt(perTree + i)));
  });

  it('an L1 reorg takes the messages of the lost blocks with it', async () => {
    const { l1, reader, scheduler } = setup();
    l1.sendL2Message(SENDER, message(1));
    await scheduler.runFor(12_000);
    l1.sendL2Message(SENDER, message(2));
    await scheduler.runFor(12_000);
    l1.reorg(1);
    expect((await reader.getInboxMessageLogs(0n, l1.head().number)).map((log) => log.index)).toEqual([16n]);
    l1.sendL2Message(SENDER, message(3));
    await scheduler.runFor(12_000);
    const logs = await reader.getInboxMessageLogs(0n, l1.head().number);
    expect(logs.map((log) => log.index)).toEqual([16n, 17n]);
    expect(logs[1]!.leaf).toBe(l1ToL2MessageLeaf({ sender: SENDER, ...message(3), index: 17n }));
  });
});

describe('SimL1 fees and nonces', () => {
  it('a fee spike above the first attempt headroom holds a proposal; the next send replaces it at its nonce with bumped fees', async () => {
    const { l1, publisher, nextProposal, scheduler, toSlotStart, trace } = setup();
    await toSlotStart();
    const first = await publisher.proposeCheckpoint(nextProposal({ archive: archiveFor(1) }));
    l1.setFeeSpike(5);
    await scheduler.runFor(12_000);
    expect(l1.receipt(first.txHash)?.status).toBe('pending');
    const second = await publisher.proposeCheckpoint(nextProposal({ archive: archiveFor(2) }));
    expect(l1.receipt(first.txHash)).toMatchObject({ status: 'replaced', by: second.txHash });
    expect(await publisher.getTxStatus(first.txHash)).toEqual({ status: 'unknown' });
    expect(l1.pendingTxCount()).toBe(1);
    // The replacement priced from the spiked market, so it lands during the spike.
    await scheduler.runFor(12_000);
    expect(l1.receipt(second.txHash)).toMatchObject({ status: 'included', success: true });
    expect(l1.archiveOf(1)).toBe(archiveFor(2));
    const kinds = trace.recent().map((r) => r.kind);
    expect(kinds).toContain('l1.fees');
    expect(kinds).toContain('l1.tx.replaced');
  });

  it('a held transaction lands once the spike ends; later nonces of the account wait behind it', async () => {
    const { l1, link, publisher, nextProposal, scheduler, toSlotStart } = setup({ slotDuration: 24, epochDuration: 2 });
    await toSlotStart();
    const proposal = await publisher.proposeCheckpoint(nextProposal());
    l1.setFeeSpike(3);
    await scheduler.runFor(24_000);
    expect(l1.receipt(proposal.txHash)?.status).toBe('pending');
    // A proof from the same account cannot replace the blob tx: it takes the next nonce, and waits behind it.
    const proof = await publisher.submitEpochProof({
      epoch: 0,
      fromCheckpoint: 1,
      toCheckpoint: 1,
      endArchive: archiveFor(1),
      outHash: zeroHex(32),
      proof: zeroHex(32),
    });
    expect(await link.reader.getChainId()).toBe(l1.constants.l1ChainId);
    await scheduler.runFor(12_000);
    expect(l1.receipt(proof.txHash)?.status).toBe('pending');
    l1.setFeeSpike(1);
    await scheduler.runFor(12_000);
    const landed = l1.receipt(proposal.txHash);
    const after = l1.receipt(proof.txHash);
    expect(landed?.status).toBe('included');
    expect(after?.status).toBe('included');
    expect(
      landed?.status === 'included' && after?.status === 'included' && landed.blockNumber === after.blockNumber,
    ).toBe(true);
    expect(l1.head().number).toBeGreaterThan(0n);
  });

  it('refuses a replacement below the bump, of the other kind, or below the mined nonce, as an L1 node does', async () => {
    const { l1, nextProposal, scheduler, toSlotStart } = setup();
    await toSlotStart();
    const fees = { maxFeePerGas: 10n ** 10n, maxPriorityFeePerGas: 10n ** 8n, maxFeePerBlobGas: 10n ** 10n };
    l1.submit(PUBLISHER, nextProposal(), 0, fees);
    const under = {
      ...fees,
      maxFeePerBlobGas: fees.maxFeePerBlobGas * 2n - 1n,
      maxFeePerGas: fees.maxFeePerGas * 2n,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas * 2n,
    };
    expect(() => l1.submit(PUBLISHER, nextProposal({ archive: archiveFor(9) }), 0, under)).toThrow(
      expect.objectContaining({ code: 'L1_TX_UNDERPRICED' }),
    );
    const proof = {
      epoch: 0,
      fromCheckpoint: 1,
      toCheckpoint: 1,
      endArchive: archiveFor(1),
      outHash: zeroHex(32),
      proof: zeroHex(32),
    };
    expect(() =>
      l1.submitEpochProof(PUBLISHER, proof, 0, { maxFeePerGas: 10n ** 12n, maxPriorityFeePerGas: 10n ** 11n }),
    ).toThrow(expect.objectContaining({ code: 'L1_TX_KIND_CONFLICT' }));
    await scheduler.runFor(12_000);
    expect(l1.accountNonces(PUBLISHER, l1.head().number)).toEqual({ minedNonce: 1, pendingNonce: 1 });
    expect(() => l1.submit(PUBLISHER, nextProposal(), 0, fees)).toThrow(
      expect.objectContaining({ code: 'L1_TX_REJECTED' }),
    );
  });

  it('nonces live on the chain: a new publisher of the same account (a restarted node) replaces the stuck tx it does not know', async () => {
    const { l1, link, publisher, nextProposal, scheduler, toSlotStart } = setup();
    await toSlotStart();
    const stuck = await publisher.proposeCheckpoint(nextProposal({ archive: archiveFor(1) }));
    l1.setFeeSpike(4);
    await scheduler.runFor(12_000);
    const restarted = link.createPublisher(PUBLISHER);
    // It sees nonce 0 pending but not the fees there: today's fees keep the old tip, short of the blob pool's 100%
    // bump, so the node refuses; the refused fees become the floor the next try doubles.
    await expect(restarted.proposeCheckpoint(nextProposal({ archive: archiveFor(2) }))).rejects.toMatchObject({
      code: 'L1_TX_UNDERPRICED',
    });
    const replacement = await restarted.proposeCheckpoint(nextProposal({ archive: archiveFor(2) }));
    expect(l1.receipt(stuck.txHash)).toMatchObject({ status: 'replaced', by: replacement.txHash });
    await scheduler.runFor(12_000);
    expect(l1.receipt(replacement.txHash)).toMatchObject({ status: 'included', success: true });
    expect(l1.accountNonces(PUBLISHER, l1.head().number)).toEqual({ minedNonce: 1, pendingNonce: 1 });
  });

  it('a reorg takes mined nonces back; the account fills the gap first', async () => {
    const { l1, publisher, nextProposal, scheduler, toSlotStart } = setup();
    await toSlotStart();
    await publisher.proposeCheckpoint(nextProposal());
    await scheduler.runFor(12_000);
    expect(l1.accountNonces(PUBLISHER, l1.head().number).minedNonce).toBe(1);
    l1.reorg(1);
    expect(l1.accountNonces(PUBLISHER, l1.head().number)).toEqual({ minedNonce: 0, pendingNonce: 0 });
    // A stale link sees the nonce as of its head.
    await scheduler.runFor(12_000);
    await publisher.proposeCheckpoint(nextProposal());
    await scheduler.runFor(12_000);
    expect(l1.accountNonces(PUBLISHER, l1.head().number).minedNonce).toBe(1);
    expect(l1.accountNonces(PUBLISHER, l1.head().number - 1n).minedNonce).toBe(0);
  });
});
