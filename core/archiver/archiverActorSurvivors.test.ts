import { describe, expect, it } from 'vitest';
import { settle } from '../../test/helpers/manualClock.js';
import { MEMORY_CHAIN_CONSTANTS, openMemoryChain, proposeBlock } from '../../test/helpers/memoryChain.js';
import { checkpointProposalOf, ScriptedL1 } from '../../test/helpers/scriptedL1.js';
import { capturingLogger } from '../../test/helpers/testLogger.js';
import { RefusedCheckpoints } from '../validators/syncQuorum.js';
import { createArchiver, type ArchiverOptions } from './archiverActor.js';

const POLL_MS = 1_000;

/** An archiver on a memory chain following `l1`, with the given quorum check. */
async function archiverOn(l1: ScriptedL1, quorum: ArchiverOptions['quorum']) {
  const node = await openMemoryChain();
  const archiver = createArchiver({
    ports: { l1: l1.reader(), clock: node.clock },
    blobs: l1.blobSource(),
    chain: node.chain,
    inbox: node.inbox,
    constants: MEMORY_CHAIN_CONSTANTS,
    logger: capturingLogger(() => undefined),
    quorum,
    pollIntervalMs: () => POLL_MS,
  });
  return { archiver, node };
}

/** A scripted L1 holding one checkpoint (number 1, slot 1) built by another node. */
async function l1WithOneCheckpoint(): Promise<ScriptedL1> {
  const proposer = await openMemoryChain();
  const blocks = [await proposeBlock(proposer, 1, [])];
  const l1 = new ScriptedL1(MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot);
  l1.mineTo(2n);
  const { log, blobs } = checkpointProposalOf(1, MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot, 1, blocks, 36);
  l1.propose(log, blobs);
  return l1;
}

describe('archiver actor', () => {
  it('syncs through the quorum check it was given', async () => {
    const l1 = await l1WithOneCheckpoint();
    const refused = new RefusedCheckpoints();
    const { archiver, node } = await archiverOn(l1, {
      check: async () => ({ accepted: false, reason: 'no quorum' }),
      refused,
    });
    archiver.actor.start();
    await settle(20);
    expect(node.chain.l1Sync?.blockNumber).toBe(l1.head.number);
    expect(node.chain.tips.checkpointed.checkpoint.number).toBe(0);
    expect(refused.has(1)).toBe(true);
    archiver.actor.stop();
  });

  it('follows L1 again once resumed after a pause', async () => {
    const l1 = await l1WithOneCheckpoint();
    const { archiver, node } = await archiverOn(l1, undefined);
    archiver.actor.start();
    await archiver.pause();
    const paused = node.chain.l1Sync?.blockNumber;
    l1.mineTo(l1.head.number + 2n);
    await node.clock.advance(POLL_MS * 3);
    expect(node.chain.l1Sync?.blockNumber).toBe(paused);
    archiver.resume();
    await settle(20);
    await node.clock.advance(POLL_MS * 3);
    expect(node.chain.l1Sync?.blockNumber).toBe(l1.head.number);
    expect(node.chain.tips.checkpointed.checkpoint.number).toBe(1);
    archiver.actor.stop();
  });
});
