import { describe, expect, it } from 'vitest';
import type { Block, BlockHeader, Hex } from '../../spec/chain.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import { TXS_BY_HASH_REQUEST_HASHES_MAX } from '../../spec/p2p/constants.js';
import { ATTESTATION_POOL_FUTURE_SLOTS_MAX } from '../../spec/validators/constants.js';
import type { TxValue } from '../../spec/wire/tx.js';
import {
  MEMORY_CHAIN_CONSTANTS,
  openMemoryChain,
  proposeBlock,
  syncInboxLeaves,
  type MemoryChain,
} from '../../test/helpers/memoryChain.js';
import { checkpointBlock } from '../../test/helpers/checkpointBlock.js';
import { ManualClock } from '../../test/helpers/manualClock.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { createTimetable } from '../chain/timetable.js';
import { appendLeaves, treeRoot } from '../merkle/appendOnlyTree.js';
import type { ClockPort, NetworkAnswer } from '../ports.js';
import type { TxPool } from '../txPool/txPool.js';
import type { KeptBlockProposal } from '../validators/validatorClient.js';
import { createProposedBlockFollower } from './proposedBlockFollower.js';

const SLOT = 3;
const SLOT_MS = MEMORY_CHAIN_CONSTANTS.slotDuration * 1000;
const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const txEffect = (n: number) => minimalTxEffect(hex32(0x7000 + n), hex32(0x9000 + n));
const slotClock = (slot: number) => new ManualClock(slot * SLOT_MS + 1_000);

function keptProposal(block: Block, archiveRoot: Hex = block.archive.root): KeptBlockProposal {
  return {
    payload: {
      l1ChainId: MEMORY_CHAIN_CONSTANTS.l1ChainId,
      rollupVersion: MEMORY_CHAIN_CONSTANTS.rollupVersion,
      slot: block.header.globalVariables.slotNumber,
      blockNumber: block.header.globalVariables.blockNumber,
      indexWithinCheckpoint: block.indexWithinCheckpoint,
      archiveRoot,
      txHashes: block.body.txEffects.map((effect) => effect.txHash),
    },
    content: { header: block.header, txEffects: block.body.txEffects },
    from: 'proposer-node',
  };
}

/** The proposal of `block` with its header changed and signed as such (the archive root commits to it). */
async function forged(node: MemoryChain, block: Block, header: BlockHeader): Promise<KeptBlockProposal> {
  const parentArchive = (await node.chain.store.getArchiveTree(block.header.globalVariables.blockNumber - 1))!;
  const archiveRoot = treeRoot(appendLeaves(parentArchive, [blockHash(header)]));
  return keptProposal({ ...block, header, hash: blockHash(header) }, archiveRoot);
}

interface Options {
  slot?: number;
  ownSequencerBuilds?: (slot: number) => boolean;
  answers?: NetworkAnswer<TxValue>[];
  badProofs?: readonly Hex[];
  followerClock?: (chainClock: ManualClock) => ClockPort;
}

async function harness(options: Options = {}) {
  const proposer = await openMemoryChain(slotClock(SLOT));
  const follower = await openMemoryChain(slotClock(options.slot ?? SLOT));
  const penalties: { peer: string; reason: string }[] = [];
  const logs: LogLine[] = [];
  const txRequests: (readonly Hex[])[] = [];
  const held: (readonly TxValue[])[] = [];
  const followerApi = createProposedBlockFollower({
    chain: follower.chain,
    inbox: follower.inbox,
    constants: MEMORY_CHAIN_CONSTANTS,
    timetable: createTimetable(MEMORY_CHAIN_CONSTANTS),
    clock: options.followerClock?.(follower.clock) ?? follower.clock,
    network: {
      penalize: (peer, _severity, reason) => void penalties.push({ peer, reason }),
      requestTxs: async (hashes) => {
        txRequests.push(hashes);
        return options.answers ?? [];
      },
    },
    txPool: {
      current: { has: () => false } as unknown as TxPool,
      holdMinedTxs: async (_blockNumber, _hash, txs) => {
        held.push(txs);
        return [...(options.badProofs ?? [])];
      },
    },
    ownSequencerBuilds: options.ownSequencerBuilds ?? (() => false),
    logger: capturingLogger((line) => logs.push(line)),
  });
  const notApplied = () => logs.filter((l) => l.message === 'block proposal not applied');
  return { proposer, follower, followerApi, penalties, logs, txRequests, held, notApplied };
}

type Harness = Awaited<ReturnType<typeof harness>>;

async function deliver(h: Harness, ...proposals: KeptBlockProposal[]): Promise<void> {
  for (const kept of proposals) h.followerApi.onBlockProposal(kept);
  await h.followerApi.settled();
  await h.followerApi.settled();
}

describe('proposed block follower: which slots it holds proposals for', () => {
  it('holds a proposal up to ATTESTATION_POOL_FUTURE_SLOTS_MAX slots ahead and applies it when its slot comes', async () => {
    const ahead = SLOT + ATTESTATION_POOL_FUTURE_SLOTS_MAX;
    const h = await harness();
    const first = await proposeBlock(h.proposer, ahead, []);
    const second = await proposeBlock(h.proposer, ahead, []);
    await deliver(h, keptProposal(second));
    await h.follower.clock.advance(ahead * SLOT_MS - SLOT * SLOT_MS);
    await deliver(h, keptProposal(first));
    expect(h.follower.chain.tips.proposed).toEqual({ number: 2, hash: second.hash });
  });

  it('ignores a proposal further ahead, even once its slot comes', async () => {
    const tooFar = SLOT + ATTESTATION_POOL_FUTURE_SLOTS_MAX + 1;
    const h = await harness();
    const first = await proposeBlock(h.proposer, tooFar, []);
    const second = await proposeBlock(h.proposer, tooFar, []);
    await deliver(h, keptProposal(second));
    await h.follower.clock.advance((tooFar - SLOT) * SLOT_MS);
    await deliver(h, keptProposal(first));
    expect(h.follower.chain.tips.proposed).toEqual({ number: 1, hash: first.hash });
  });

  it("ignores its own sequencer's slot without even trying it: nothing is logged", async () => {
    const h = await harness({ ownSequencerBuilds: () => true });
    await deliver(h, keptProposal(await proposeBlock(h.proposer, SLOT, [])));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    expect(h.logs).toEqual([]);
  });

  it('drops a held proposal, with its reason, once its own sequencer takes the slot over', async () => {
    let calls = 0;
    const h = await harness({ ownSequencerBuilds: () => ++calls > 1 });
    await deliver(h, keptProposal(await proposeBlock(h.proposer, SLOT, [])));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    expect(h.notApplied().map((l) => l.fields?.reason)).toEqual(['our sequencer builds the slot']);
  });

  it('leaves a proposal that does not fit yet waiting, untried, when its own sequencer takes the slot over', async () => {
    let calls = 0;
    const h = await harness({ ownSequencerBuilds: () => ++calls > 1 });
    await proposeBlock(h.proposer, SLOT, []);
    await deliver(h, keptProposal(await proposeBlock(h.proposer, SLOT, [])));
    expect(h.logs).toEqual([]);
  });
});

describe('proposed block follower: where a proposal fits', () => {
  it('keeps a first-of-checkpoint proposal waiting while the proposed tip is above checkpointed', async () => {
    const h = await harness();
    await proposeBlock(h.follower, SLOT, []);
    await proposeBlock(h.proposer, SLOT, []);
    const second = await proposeBlock(h.proposer, SLOT, []);
    const kept = keptProposal(second);
    await deliver(h, { ...kept, payload: { ...kept.payload, indexWithinCheckpoint: 0 } });
    expect(h.follower.chain.tips.proposed.number).toBe(1);
    expect(h.logs).toEqual([]);
  });

  it('keeps a later block waiting when its parent is not the previous index of the checkpoint', async () => {
    const h = await harness();
    await proposeBlock(h.follower, SLOT, []);
    await proposeBlock(h.proposer, SLOT, []);
    const second = await proposeBlock(h.proposer, SLOT, []);
    const kept = keptProposal(second);
    await deliver(h, { ...kept, payload: { ...kept.payload, indexWithinCheckpoint: 2 } });
    expect(h.follower.chain.tips.proposed.number).toBe(1);
    expect(h.logs).toEqual([]);
  });

  it('keeps a later block waiting when its parent is of another slot', async () => {
    const h = await harness();
    await proposeBlock(h.follower, SLOT - 1, []);
    await proposeBlock(h.proposer, SLOT - 1, []);
    const second = await proposeBlock(h.proposer, SLOT, []);
    expect(second.indexWithinCheckpoint).toBe(1);
    await deliver(h, keptProposal(second));
    expect(h.follower.chain.tips.proposed.number).toBe(1);
    expect(h.logs).toEqual([]);
  });

  it('keeps a proposal waiting when the tip moved past it before its turn to apply came', async () => {
    const h = await harness();
    const first = await proposeBlock(h.follower, SLOT, []);
    await proposeBlock(h.proposer, SLOT, []);
    const second = await proposeBlock(h.proposer, SLOT, []);
    // Block 2 is picked while the tip is block 1; by the time it applies, block 1 is checkpointed and another block 2
    // (the first of the next checkpoint, same slot) is the tip.
    h.followerApi.onBlockProposal(keptProposal(second));
    const moved = Promise.all([checkpointBlock(h.follower, first), proposeBlock(h.follower, SLOT, [txEffect(5)])]);
    await moved;
    await h.followerApi.settled();
    expect(h.follower.chain.tips.proposed.number).toBe(2);
    expect(h.follower.chain.tips.proposed.hash).not.toBe(second.hash);
    expect(h.logs).toEqual([]);
  });

  it('drops a block whose lastArchive has our root but another leaf count', async () => {
    const h = await harness();
    const block = await proposeBlock(h.proposer, SLOT, []);
    const lastArchive = block.header.lastArchive;
    const header = {
      ...block.header,
      lastArchive: { ...lastArchive, nextAvailableLeafIndex: lastArchive.nextAvailableLeafIndex + 1 },
    };
    await deliver(h, await forged(h.follower, block, header));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    expect(h.notApplied().map((l) => l.fields?.reason)).toEqual(['it does not build on our proposed tip']);
  });

  it('logs why a first block whose inbox messages are not synced is dropped', async () => {
    const h = await harness();
    await syncInboxLeaves(h.proposer, 1, [hex32(0x1111)]);
    await deliver(h, keptProposal(await proposeBlock(h.proposer, SLOT, [])));
    expect(h.notApplied().map((l) => [l.level, l.fields?.reason])).toEqual([
      ['info', "its inHash is not our inbox tree's (not synced yet?)"],
    ]);
  });

  it("logs peer 'none' for a refused proposal nobody sent", async () => {
    const h = await harness();
    const block = await proposeBlock(h.proposer, SLOT, []);
    await deliver(h, { ...keptProposal(block, hex32(0xa5c)), from: undefined });
    expect(h.notApplied().map((l) => l.fields?.peer)).toEqual(['none']);
    expect(h.penalties).toEqual([]);
  });

  it('logs a failure of the follow queue and keeps going', async () => {
    let calls = 0;
    const failOnce = (clock: ManualClock): ClockPort =>
      ({
        now: () => {
          calls++;
          if (calls === 2) throw new Error('clock gone');
          return clock.now();
        },
      }) as unknown as ClockPort;
    const h = await harness({ followerClock: failOnce });
    const first = await proposeBlock(h.proposer, SLOT, []);
    await deliver(h, keptProposal(first));
    expect(h.logs.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({ message: 'following failed', fields: { error: new Error('clock gone') } }),
    ]);
    await deliver(h, keptProposal(first));
    expect(h.follower.chain.tips.proposed.hash).toBe(first.hash);
  });
});

describe("proposed block follower: the followed block's txs", () => {
  it('asks the peer in batches of TXS_BY_HASH_REQUEST_HASHES_MAX, never with an empty batch', async () => {
    const h = await harness();
    const txs = (from: number, n: number) => Array.from({ length: n }, (_, i) => txEffect(from + i));
    const first = await proposeBlock(h.proposer, SLOT, txs(0, TXS_BY_HASH_REQUEST_HASHES_MAX));
    const second = await proposeBlock(h.proposer, SLOT, txs(1000, TXS_BY_HASH_REQUEST_HASHES_MAX + 1));
    await deliver(h, keptProposal(first), keptProposal(second));
    expect(h.follower.chain.tips.proposed.number).toBe(2);
    expect(h.txRequests.map((hashes) => hashes.length)).toEqual([
      TXS_BY_HASH_REQUEST_HASHES_MAX,
      TXS_BY_HASH_REQUEST_HASHES_MAX,
      1,
    ]);
    expect(h.txRequests[2]).toEqual([second.body.txEffects.at(-1)!.txHash]);
  });

  it('asks nobody for the txs of a proposal that came from no peer', async () => {
    const h = await harness();
    const block = await proposeBlock(h.proposer, SLOT, [txEffect(1)]);
    await deliver(h, { ...keptProposal(block), from: undefined });
    expect(h.follower.chain.tips.proposed.hash).toBe(block.hash);
    expect(h.txRequests).toEqual([]);
  });

  it('keeps each answering peer its own txs, and penalizes none when every proof is valid', async () => {
    const a = { txHash: txEffect(1).txHash } as unknown as TxValue;
    const b = { txHash: txEffect(2).txHash } as unknown as TxValue;
    const h = await harness({
      answers: [
        { value: a, from: 'peer-a' },
        { value: b, from: 'peer-b' },
      ],
    });
    await deliver(h, keptProposal(await proposeBlock(h.proposer, SLOT, [txEffect(1), txEffect(2)])));
    expect(h.held).toEqual([[a], [b]]);
    expect(h.penalties).toEqual([]);
  });
});
