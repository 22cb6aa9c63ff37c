/**
 * Followers follow the proposed chain from gossip (core/archiver/proposedBlockFollower.ts) and share txs with the
 * proposer (core/txPool/nodeTxPool.ts): in a simulated run with validators, a follower without validator keys holds
 * the proposer's blocks before L1 has their checkpoint, answers world-state queries at them, and a tx sent to it is
 * mined by the proposer.
 */
import { describe, expect, it } from 'vitest';
import type { NodeActivity } from '../../core/node/node.js';
import { drawOptions, runSimulation, type SimOptions } from '../../sim/runSimulation.js';
import type { Hex } from '../../spec/chain.js';
import { MerkleTreeId } from '../../spec/constants.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx } from '../../spec/txBuilder.js';
import type { TxValue } from '../../spec/wire/tx.js';

const options = (seed: bigint, seconds: number): SimOptions => ({
  ...drawOptions(seed, seconds),
  followerCount: 2,
  inclusionDelay: { probability: 0, blocksMax: 0 },
  validatorCount: 4,
});

/** What a sample of follower-1 saw of a block above its checkpointed tip. */
interface AheadSample {
  readonly blockNumber: number;
  readonly checkpointNumber: number;
  /** Checkpoints L1 held at that moment. */
  readonly l1Checkpoints: number;
  /** The world state's index of the block's first nullifier, asked at that block (undefined: no tx in it). */
  readonly nullifierIndex: bigint | undefined;
  readonly nullifierExpected: boolean;
}

describe('followers follow proposed blocks from gossip', () => {
  it("a follower's proposed tip runs ahead of L1, its world state serves the block, and its txs reach the proposer", async () => {
    const samples: AheadSample[] = [];
    const followed: { node: string; blockNumber: number; peer: string | undefined }[] = [];
    let sent: TxValue | undefined;
    const receipts: Record<string, string> = {};
    const result = await runSimulation(options(5n, 300), {
      onActivity: (node, activity: NodeActivity) => {
        if (activity.kind !== 'chain' || activity.event.type !== 'blocksAdded' || activity.event.origin !== 'proposed')
          return;
        for (const block of activity.event.blocks)
          followed.push({ node, blockNumber: block.header.globalVariables.blockNumber, peer: activity.event.peer });
      },
      scenario: (w) => {
        w.at(60_000, async () => {
          const follower = w.node('follower-1').service;
          const latest = await follower.chain.getBlock({ kind: 'tag', tag: 'latest' });
          sent = buildTx({
            chainId: follower.info.getChainId(),
            version: follower.info.getVersion(),
            anchorBlockHash: latest!.block.hash,
            feePayer: genesisTestAccounts()[0]!,
            nullifier: `0x${(0x4b001).toString(16).padStart(64, '0')}` as Hex,
            minFees: await follower.fees.getCurrentMinFees(),
            expirationTimestamp: 2n ** 40n,
          });
          await follower.txs.sendTx(sent);
        });
        for (let atMs = 20_000; atMs <= 280_000; atMs += 1_000) {
          w.at(atMs, async () => {
            const follower = w.node('follower-1');
            const { proposed, checkpointed } = follower.chain.tips;
            if (proposed.number <= checkpointed.block.number) return;
            for (let n = checkpointed.block.number + 1; n <= proposed.number; n++) {
              const block = (await follower.chain.store.getBlock(n))!;
              const nullifier = block.body.txEffects[0]?.nullifiers[0];
              const found = nullifier
                ? await follower.service.worldState.findLeavesIndexes(
                    { kind: 'number', number: n },
                    MerkleTreeId.NULLIFIER_TREE,
                    [nullifier],
                  )
                : [];
              samples.push({
                blockNumber: n,
                checkpointNumber: block.checkpointNumber,
                l1Checkpoints: w.l1.checkpointCount(),
                nullifierIndex: found[0]?.data,
                nullifierExpected: nullifier !== undefined,
              });
            }
          });
        }
        w.at(295_000, async () => {
          for (const name of ['sequencer-0', 'follower-1'])
            receipts[name] = (await w.node(name).service.txs.getTxReceipt(sent!.txHash, {})).status;
        });
      },
    });
    expect(result.failures).toEqual([]);
    // follower-1 runs no validators: what it follows came from gossip, from the proposer or forwarded by a peer.
    const followerBlocks = followed.filter((f) => f.node === 'follower-1');
    expect(followerBlocks.length).toBeGreaterThan(3);
    expect(followerBlocks.every((f) => f.peer !== undefined && !f.peer.startsWith('follower-1'))).toBe(true);
    expect(followed.filter((f) => f.node === 'sequencer-0').every((f) => f.peer === undefined)).toBe(true);
    // Ahead of L1: blocks of a checkpoint L1 did not hold yet, which the follower's world state answers at.
    const ahead = samples.filter((s) => s.checkpointNumber > s.l1Checkpoints);
    expect(ahead.length).toBeGreaterThan(0);
    const withTxs = ahead.filter((s) => s.nullifierExpected);
    expect(withTxs.length).toBeGreaterThan(0);
    for (const sample of withTxs) expect(sample.nullifierIndex).toBeDefined();
    // The tx sent to the follower reached the proposer's pool by gossip and was mined.
    expect(sent).toBeDefined();
    expect(['checkpointed', 'proven', 'finalized']).toContain(receipts['sequencer-0']);
    expect(['checkpointed', 'proven', 'finalized']).toContain(receipts['follower-1']);
  });
});
