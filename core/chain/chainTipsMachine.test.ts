import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { Block, ChainEvent, Checkpoint, L2Tips } from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { TransitionCoverage } from '../../test/helpers/transitionCoverage.js';
import { buildBlock } from '../sequencer/blockBuilder.js';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { createGenesis } from '../worldState/genesis.js';
import { WorldState } from '../worldState/worldState.js';
import { createChainTipsMachine } from './chainTipsMachine.js';
import { genesisTips, tipsOrdered } from './tips.js';

const genesis = createGenesis(31337, 1);
const genesisRef = { number: 0, hash: genesis.block.hash };

async function chainOf(count: number): Promise<Block[]> {
  const worldState = await WorldState.open(createMemoryStorage(), { genesisBlockHash: genesis.block.hash });
  const blocks: Block[] = [genesis.block];
  let tree = genesis.archiveTree;
  for (let i = 1; i <= count; i++) {
    const built = await buildBlock(
      {
        parent: blocks[i - 1]!,
        parentArchiveTree: tree,
        checkpointNumber: i,
        indexWithinCheckpoint: 0,
        slotNumber: i,
        timestamp: BigInt(i * 36),
        coinbase: zeroHex(20),
        feeRecipient: zeroHex(32),
        gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
        txEffects: [],
      },
      worldState,
    );
    await built.prepared.commit();
    blocks.push(built.block);
    tree = built.archiveTree;
  }
  return blocks;
}

const blocks = await chainOf(6);
const ref = (n: number) => ({ number: n, hash: blocks[n]!.hash });
const checkpointOf = (n: number): Checkpoint => ({
  number: n,
  archiveRoot: blocks[n]!.archive.root,
  hash: blocks[n]!.archive.root,
  firstBlockNumber: n,
  blockCount: 1,
  blobVersionedHashes: [],
  attestations: [],
  header: {
    lastArchiveRoot: blocks[n - 1]!.archive.root,
    slotNumber: n,
    timestamp: 0n,
    coinbase: zeroHex(20),
    feeRecipient: zeroHex(32),
    gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
    blockCount: 1,
    blobsHash: zeroHex(32),
    totalManaUsed: 0n,
    inHash: zeroHex(32),
    outHash: zeroHex(32),
  },
  l1: { blockNumber: BigInt(n), blockHash: zeroHex(32), timestamp: 0n, txHash: zeroHex(32) },
});
const settledAt = (n: number) => ({
  block: ref(n),
  checkpoint: { number: n, hash: n === 0 ? genesis.block.hash : blocks[n]!.archive.root },
});

const coverage = new TransitionCoverage();
const start = () =>
  createActor(createChainTipsMachine(), {
    input: { tips: genesisTips(genesisRef, genesisRef) },
    inspect: coverage.inspect,
  }).start();

describe('chain tips machine', () => {
  it('moves Genesis -> AheadOfL1 -> Settled -> AheadOfL1 and back to Genesis on a full prune', () => {
    const actor = start();
    expect(actor.getSnapshot().value).toBe('Genesis');
    actor.send({ type: 'blocksAdded', blocks: [blocks[1]!, blocks[2]!], origin: 'proposed' });
    expect(actor.getSnapshot().value).toBe('AheadOfL1');
    expect(actor.getSnapshot().context.tips.proposed).toEqual(ref(2));
    actor.send({ type: 'chainCheckpointed', checkpoint: checkpointOf(1), block: ref(1) });
    expect(actor.getSnapshot().value).toBe('AheadOfL1');
    actor.send({ type: 'chainCheckpointed', checkpoint: checkpointOf(2), block: ref(2) });
    expect(actor.getSnapshot().value).toBe('Settled');
    actor.send({ type: 'chainProven', checkpoint: settledAt(1).checkpoint, block: ref(1) });
    actor.send({ type: 'chainFinalized', checkpoint: settledAt(1).checkpoint, block: ref(1) });
    expect(actor.getSnapshot().context.tips.finalized.block.number).toBe(1);
    actor.send({ type: 'blocksAdded', blocks: [blocks[3]!], origin: 'proposed' });
    actor.send({
      type: 'chainPruned',
      toBlock: ref(2),
      checkpointed: settledAt(2),
      reason: 'slotPassedWithoutCheckpoint',
    });
    expect(actor.getSnapshot().value).toBe('Settled');
    const fresh = start();
    fresh.send({ type: 'blocksAdded', blocks: [blocks[1]!], origin: 'proposed' });
    fresh.send({ type: 'chainPruned', toBlock: genesisRef, checkpointed: settledAt(0), reason: 'l1Reorg' });
    expect(fresh.getSnapshot().value).toBe('Genesis');
  });

  it('starts in the state the tips it is given stand in (a restarted node)', () => {
    const startAt = (tips: L2Tips) =>
      createActor(createChainTipsMachine(), { input: { tips }, inspect: coverage.inspect }).start();
    const genesis = genesisTips(genesisRef, genesisRef);
    expect(startAt(genesis).getSnapshot().value).toBe('Genesis');
    expect(startAt({ ...genesis, proposed: ref(2) }).getSnapshot().value).toBe('AheadOfL1');
    expect(startAt({ ...genesis, proposed: ref(2), checkpointed: settledAt(2) }).getSnapshot().value).toBe('Settled');
  });

  it('refuses events that do not apply and leaves the tips unchanged', () => {
    const actor = start();
    actor.send({ type: 'blocksAdded', blocks: [blocks[2]!], origin: 'proposed' });
    actor.send({ type: 'chainCheckpointed', checkpoint: checkpointOf(1), block: ref(1) });
    actor.send({ type: 'chainFinalized', checkpoint: settledAt(1).checkpoint, block: ref(1) });
    expect(actor.getSnapshot().context.rejectedCount).toBe(3);
    expect(actor.getSnapshot().context.tips).toEqual(genesisTips(genesisRef, genesisRef));
    expect(actor.getSnapshot().value).toBe('Genesis');
  });

  it('lets proven move back (an L1 reorg removed a proof) but never below finalized; finalized never moves back', () => {
    const actor = start();
    actor.send({ type: 'blocksAdded', blocks: [blocks[1]!, blocks[2]!, blocks[3]!], origin: 'proposed' });
    for (const n of [1, 2, 3]) actor.send({ type: 'chainCheckpointed', checkpoint: checkpointOf(n), block: ref(n) });
    actor.send({ type: 'chainProven', ...settledAt(3) });
    actor.send({ type: 'chainFinalized', ...settledAt(1) });
    actor.send({ type: 'chainProven', ...settledAt(2) });
    expect(actor.getSnapshot().context.tips.proven).toEqual(settledAt(2));
    actor.send({ type: 'chainProven', ...settledAt(0) });
    actor.send({ type: 'chainFinalized', ...settledAt(0) });
    expect(actor.getSnapshot().context.rejectedCount).toBe(2);
    expect(actor.getSnapshot().context.tips.proven).toEqual(settledAt(2));
    expect(actor.getSnapshot().context.tips.finalized).toEqual(settledAt(1));
  });

  it('keeps finalized <= proven <= checkpointed <= proposed, and the state where the tips stand, for any events', () => {
    const event = fc.oneof(
      fc
        .integer({ min: 1, max: 6 })
        .map((n): ChainEvent => ({ type: 'blocksAdded', blocks: [blocks[n]!], origin: 'proposed' })),
      fc
        .integer({ min: 1, max: 6 })
        .map((n): ChainEvent => ({ type: 'chainCheckpointed', checkpoint: checkpointOf(n), block: ref(n) })),
      fc.integer({ min: 0, max: 6 }).map((n): ChainEvent => ({ type: 'chainProven', ...settledAt(n) })),
      fc.integer({ min: 0, max: 6 }).map((n): ChainEvent => ({ type: 'chainFinalized', ...settledAt(n) })),
      fc.integer({ min: 0, max: 6 }).map((n): ChainEvent => ({
        type: 'chainPruned',
        toBlock: ref(n),
        checkpointed: settledAt(Math.max(0, n - 1)),
        reason: 'rollback',
      })),
    );
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const actor = start();
        for (const e of events) {
          actor.send(e);
          const { tips } = actor.getSnapshot().context;
          expect(tipsOrdered(tips)).toBe(true);
          const standing =
            tips.proposed.number === 0
              ? 'Genesis'
              : tips.proposed.number === tips.checkpointed.block.number
                ? 'Settled'
                : 'AheadOfL1';
          expect(actor.getSnapshot().value).toBe(standing);
        }
      }),
    );
  });

  afterAll(() => {
    expect(coverage.missing(createChainTipsMachine())).toEqual([]);
  });
});
