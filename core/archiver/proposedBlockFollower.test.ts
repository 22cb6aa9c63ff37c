import { describe, expect, it } from 'vitest';
import type { Block, BlockHeader, ChainEvent, Hex } from '../../spec/chain.js';
import { BLOCK_PROPOSALS_PER_SLOT_MAX } from '../../spec/validators/constants.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import type { TxValue } from '../../spec/wire/tx.js';
import {
  MEMORY_CHAIN_CONSTANTS,
  openMemoryChain,
  proposeBlock,
  syncInboxLeaves,
  type MemoryChain,
} from '../../test/helpers/memoryChain.js';
import { ManualClock } from '../../test/helpers/manualClock.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { createTimetable } from '../chain/timetable.js';
import { appendLeaves, treeRoot } from '../merkle/appendOnlyTree.js';
import type { NetworkAnswer, PeerOffenseSeverity } from '../ports.js';
import type { TxPool } from '../txPool/txPool.js';
import type { KeptBlockProposal } from '../validators/validatorClient.js';
import { createProposedBlockFollower } from './proposedBlockFollower.js';

const SLOT = 3;
const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const txEffect = (n: number) => minimalTxEffect(hex32(0x7000 + n), hex32(0x9000 + n));
const slotClock = (slot: number) => new ManualClock(slot * MEMORY_CHAIN_CONSTANTS.slotDuration * 1000 + 1_000);

/** The proposal of a block the proposer built, as the validator client hands it on, from peer `proposer-node`. */
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

interface Harness {
  readonly proposer: MemoryChain;
  readonly follower: MemoryChain;
  readonly followerApi: ReturnType<typeof createProposedBlockFollower>;
  readonly penalties: { peer: string; severity: PeerOffenseSeverity; reason: string }[];
  readonly events: ChainEvent[];
  readonly logs: LogLine[];
  readonly txRequests: { hashes: readonly Hex[]; peer: string | undefined }[];
  readonly held: { blockNumber: number; txs: readonly TxValue[] }[];
}

async function harness(
  options: {
    slot?: number;
    ownSequencerBuilds?: boolean;
    pooled?: readonly Hex[];
    answers?: NetworkAnswer<TxValue>[];
    badProofs?: readonly Hex[];
    requestFails?: boolean;
  } = {},
): Promise<Harness> {
  const proposer = await openMemoryChain(slotClock(SLOT));
  const follower = await openMemoryChain(slotClock(options.slot ?? SLOT));
  const penalties: Harness['penalties'] = [];
  const logs: LogLine[] = [];
  const txRequests: Harness['txRequests'] = [];
  const held: Harness['held'] = [];
  const pooled = new Set(options.pooled ?? []);
  const followerApi = createProposedBlockFollower({
    chain: follower.chain,
    inbox: follower.inbox,
    constants: MEMORY_CHAIN_CONSTANTS,
    timetable: createTimetable(MEMORY_CHAIN_CONSTANTS),
    clock: follower.clock,
    network: {
      penalize: (peer, severity, reason) => void penalties.push({ peer, severity, reason }),
      requestTxs: async (hashes, peer) => {
        txRequests.push({ hashes, peer });
        if (options.requestFails === true) throw new Error('peer gone');
        return options.answers ?? [];
      },
    },
    txPool: {
      current: { has: (hash: Hex) => pooled.has(hash) } as unknown as TxPool,
      holdMinedTxs: async (blockNumber, _hash, txs) => {
        held.push({ blockNumber, txs });
        return [...(options.badProofs ?? [])];
      },
    },
    ownSequencerBuilds: () => options.ownSequencerBuilds ?? false,
    logger: capturingLogger((line) => logs.push(line)),
  });
  const events: ChainEvent[] = [];
  follower.chain.onEvent((event) => events.push(event));
  return { proposer, follower, followerApi, penalties, events, logs, txRequests, held };
}

async function deliver(h: Harness, ...proposals: KeptBlockProposal[]): Promise<void> {
  for (const kept of proposals) h.followerApi.onBlockProposal(kept);
  await h.followerApi.settled();
  await h.followerApi.settled();
}

describe('proposed block follower', () => {
  it("applies a slot's block proposals in order: same blocks, same world state, origin proposed from the peer", async () => {
    const h = await harness({ pooled: [txEffect(1).txHash] });
    const first = await proposeBlock(h.proposer, SLOT, [txEffect(1)]);
    const second = await proposeBlock(h.proposer, SLOT, [txEffect(2), txEffect(3)]);
    await deliver(h, keptProposal(first), keptProposal(second));
    const tips = h.follower.chain.tips;
    expect(tips.proposed).toEqual({ number: 2, hash: second.hash });
    expect(tips.checkpointed.block.number).toBe(0);
    expect(await h.follower.chain.store.getBlock(1)).toEqual(first);
    expect(await h.follower.chain.store.getBlock(2)).toEqual(second);
    expect(h.follower.chain.worldState.latestBlockNumber).toBe(2);
    expect(h.events.map((e) => e.type === 'blocksAdded' && [e.origin, e.peer])).toEqual([
      ['proposed', 'proposer-node'],
      ['proposed', 'proposer-node'],
    ]);
    const applied = h.logs.filter((l) => l.message === 'block proposal applied').map((l) => l.fields);
    expect(applied).toEqual([
      { block: 1, slot: SLOT, txs: 1 },
      { block: 2, slot: SLOT, txs: 2 },
    ]);
    expect(h.penalties).toEqual([]);
    // The txs the pool did not hold are asked of the peer that sent the proposal.
    expect(h.txRequests).toEqual([{ hashes: [txEffect(2).txHash, txEffect(3).txHash], peer: 'proposer-node' }]);
  });

  it('holds a later block until the gap before it fills', async () => {
    const h = await harness();
    const first = await proposeBlock(h.proposer, SLOT, []);
    const second = await proposeBlock(h.proposer, SLOT, [txEffect(2)]);
    const third = await proposeBlock(h.proposer, SLOT, []);
    await deliver(h, keptProposal(third), keptProposal(second));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    await deliver(h, keptProposal(first));
    expect(h.follower.chain.tips.proposed).toEqual({ number: 3, hash: third.hash });
  });

  it('refuses a block whose header claims another state root, and penalizes the peer that sent it', async () => {
    const h = await harness();
    const honest = await proposeBlock(h.proposer, SLOT, [txEffect(1)]);
    const state = honest.header.state;
    const header = {
      ...honest.header,
      state: { ...state, noteHashTree: { ...state.noteHashTree, root: hex32(0xbad) } },
    };
    // The proposer signed the bad header: the archive root commits to it, so only the state check can tell.
    const genesisArchive = (await h.follower.chain.store.getArchiveTree(0))!;
    const archiveRoot = treeRoot(appendLeaves(genesisArchive, [blockHash(header)]));
    const forged = { ...honest, header, hash: blockHash(header) };
    await deliver(h, keptProposal(forged, archiveRoot));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    expect(h.follower.chain.worldState.latestBlockNumber).toBe(0);
    expect(h.penalties).toHaveLength(1);
    expect(h.penalties[0]).toMatchObject({ peer: 'proposer-node', severity: 'high' });
    expect(h.penalties[0]!.reason).toContain('noteHashTree');
    // The honest block still applies afterwards.
    await deliver(h, keptProposal(honest));
    expect(h.follower.chain.tips.proposed.hash).toBe(honest.hash);
  });

  it('refuses a header that does not give the signed archive root, and penalizes', async () => {
    const h = await harness();
    const block = await proposeBlock(h.proposer, SLOT, []);
    await deliver(h, keptProposal(block, hex32(0xa5c)));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    expect(h.penalties.map((p) => p.reason)).toEqual([
      'block proposal 1: its header does not give the signed archive root',
    ]);
  });

  it("ignores proposals of a slot that is not the current one, and its own sequencer's slot", async () => {
    const later = await harness({ slot: SLOT + 2 });
    await deliver(later, keptProposal(await proposeBlock(later.proposer, SLOT, [])));
    expect(later.follower.chain.tips.proposed.number).toBe(0);
    const own = await harness({ ownSequencerBuilds: true });
    await deliver(own, keptProposal(await proposeBlock(own.proposer, SLOT, [])));
    expect(own.follower.chain.tips.proposed.number).toBe(0);
    expect([...later.penalties, ...own.penalties]).toEqual([]);
  });

  it("inserts the checkpoint's L1-to-L2 messages with its first block, and waits for nothing it has not synced", async () => {
    const leaves = [hex32(0x1111), hex32(0x2222), hex32(0x3333)];
    const h = await harness();
    await syncInboxLeaves(h.proposer, 1, leaves);
    const first = await proposeBlock(h.proposer, SLOT, [txEffect(1)]);
    // Without the messages synced the block cannot be checked: dropped, nobody blamed.
    await deliver(h, keptProposal(first));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    expect(h.penalties).toEqual([]);
    await syncInboxLeaves(h.follower, 1, leaves);
    await deliver(h, keptProposal(first));
    expect(h.follower.chain.tips.proposed.hash).toBe(first.hash);
    expect(h.follower.chain.worldState.latestBlockNumber).toBe(1);
    expect((await h.follower.chain.store.getBlock(1))!.header.state.l1ToL2MessageTree).toEqual(
      first.header.state.l1ToL2MessageTree,
    );
  });

  it('keeps the txs the sending peer answers as mined txs of the block', async () => {
    const tx = { txHash: txEffect(1).txHash } as unknown as TxValue;
    const h = await harness({ answers: [{ value: tx, from: 'proposer-node' }] });
    const block = await proposeBlock(h.proposer, SLOT, [txEffect(1)]);
    await deliver(h, keptProposal(block));
    expect(h.held).toEqual([{ blockNumber: 1, txs: [tx] }]);
  });

  it('refuses header fields our chain would not give, and penalizes the peer', async () => {
    const h = await harness();
    const block = await proposeBlock(h.proposer, SLOT, [txEffect(1)]);
    const g = block.header.globalVariables;
    const cc = block.header.contentCommitment;
    const genesisArchive = (await h.follower.chain.store.getArchiveTree(0))!;
    /** The block with its header changed, signed as such (the archive root commits to the new header). */
    const forged = (header: BlockHeader) =>
      keptProposal(
        { ...block, header, hash: blockHash(header) },
        treeRoot(appendLeaves(genesisArchive, [blockHash(header)])),
      );
    const withGlobals = (values: Partial<BlockHeader['globalVariables']>) =>
      forged({ ...block.header, globalVariables: { ...g, ...values } });
    await deliver(
      h,
      withGlobals({ chainId: g.chainId + 1 }),
      withGlobals({ version: g.version + 1 }),
      withGlobals({ gasFees: { ...g.gasFees, feePerDaGas: g.gasFees.feePerDaGas + 1n } }),
      withGlobals({ gasFees: { ...g.gasFees, feePerL2Gas: g.gasFees.feePerL2Gas + 1n } }),
      forged({ ...block.header, contentCommitment: { ...cc, outHash: hex32(0x0b) } }),
    );
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    expect(h.penalties.map((p) => [p.peer, p.severity, p.reason])).toEqual(
      [
        'another chain id or rollup version',
        'another chain id or rollup version',
        "its DA gas fee is not the fee rule's",
        "its L2 gas fee is not the fee rule's",
        'its outHash is not the root of its L2-to-L1 messages',
      ].map((reason) => ['proposer-node', 'high', `block proposal 1: ${reason}`]),
    );
    expect(h.logs.filter((l) => l.message === 'block proposal not applied')[0]).toMatchObject({
      level: 'warn',
      fields: { block: 1, slot: SLOT, reason: 'another chain id or rollup version', peer: 'proposer-node' },
    });
    await deliver(h, keptProposal(block));
    expect(h.follower.chain.tips.proposed.hash).toBe(block.hash);
  });

  it('refuses a later block of a checkpoint that carries an inHash', async () => {
    const h = await harness();
    const first = await proposeBlock(h.proposer, SLOT, []);
    const second = await proposeBlock(h.proposer, SLOT, []);
    await deliver(h, keptProposal(first));
    const header = {
      ...second.header,
      contentCommitment: { ...second.header.contentCommitment, inHash: hex32(0x1a) },
    };
    const parentArchive = (await h.follower.chain.store.getArchiveTree(1))!;
    const archiveRoot = treeRoot(appendLeaves(parentArchive, [blockHash(header)]));
    await deliver(h, keptProposal({ ...second, header, hash: blockHash(header) }, archiveRoot));
    expect(h.penalties.map((p) => p.reason)).toEqual([
      'block proposal 2: a block after the first of its checkpoint carries an inHash',
    ]);
    expect(h.follower.chain.tips.proposed.number).toBe(1);
  });

  it('drops, without blame, a block that does not build on our proposed tip', async () => {
    const h = await harness();
    const block = await proposeBlock(h.proposer, SLOT, []);
    const header = { ...block.header, lastArchive: { ...block.header.lastArchive, root: hex32(0xa1) } };
    await deliver(h, keptProposal({ ...block, header }));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    expect(h.penalties).toEqual([]);
    expect(h.logs.filter((l) => l.message === 'block proposal not applied')).toEqual([
      expect.objectContaining({
        level: 'info',
        fields: { block: 1, slot: SLOT, reason: 'it does not build on our proposed tip', peer: 'proposer-node' },
      }),
    ]);
  });

  it(`holds at most BLOCK_PROPOSALS_PER_SLOT_MAX proposals a slot`, async () => {
    const h = await harness();
    const block = await proposeBlock(h.proposer, SLOT, []);
    const waiting = (n: number) => ({
      ...keptProposal(block),
      payload: { ...keptProposal(block).payload, blockNumber: 100 + n },
    });
    await deliver(h, ...Array.from({ length: BLOCK_PROPOSALS_PER_SLOT_MAX }, (_, n) => waiting(n)));
    await deliver(h, keptProposal(block));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    const fewer = await harness();
    await deliver(fewer, ...Array.from({ length: BLOCK_PROPOSALS_PER_SLOT_MAX - 1 }, (_, n) => waiting(n)));
    await deliver(fewer, keptProposal(block));
    expect(fewer.follower.chain.tips.proposed.number).toBe(1);
  });

  it('applies a waiting proposal once the chain moves under it, and nothing once stopped', async () => {
    const h = await harness();
    const first = await proposeBlock(h.proposer, SLOT, []);
    const second = await proposeBlock(h.proposer, SLOT, []);
    await deliver(h, keptProposal(second));
    expect(h.follower.chain.tips.proposed.number).toBe(0);
    // The follower gets block 1 another way (its own build of the same block).
    await proposeBlock(h.follower, SLOT, []);
    await h.followerApi.settled();
    await h.followerApi.settled();
    expect(h.follower.chain.tips.proposed).toEqual({ number: 2, hash: second.hash });
    const third = await proposeBlock(h.proposer, SLOT, []);
    h.followerApi.stop();
    await deliver(h, keptProposal(third));
    expect(h.follower.chain.tips.proposed.number).toBe(2);
    expect(await h.follower.chain.store.getBlock(1)).toEqual(first);
  });

  it('penalizes a peer whose answered txs have invalid proofs; a failed request is logged', async () => {
    const tx = { txHash: txEffect(1).txHash } as unknown as TxValue;
    const h = await harness({ answers: [{ value: tx, from: 'other-node' }], badProofs: [txEffect(1).txHash] });
    await deliver(h, keptProposal(await proposeBlock(h.proposer, SLOT, [txEffect(1)])));
    expect(h.penalties).toEqual([
      { peer: 'other-node', severity: 'high', reason: `txs with invalid proofs: ${txEffect(1).txHash}` },
    ]);
    const failing = await harness({ requestFails: true });
    await deliver(failing, keptProposal(await proposeBlock(failing.proposer, SLOT, [txEffect(1)])));
    expect(failing.follower.chain.tips.proposed.number).toBe(1);
    expect(failing.logs.filter((l) => l.message === 'txs of a followed block not kept')).toEqual([
      expect.objectContaining({ level: 'warn', fields: expect.objectContaining({ block: 1 }) }),
    ]);
    const anonymous = await harness();
    await deliver(anonymous, {
      ...keptProposal(await proposeBlock(anonymous.proposer, SLOT, [txEffect(1)])),
      from: undefined,
    });
    expect(anonymous.follower.chain.tips.proposed.number).toBe(1);
    expect(anonymous.txRequests).toEqual([]);
  });
});
