/**
 * A forced svcAdmin_rollbackTo whose target is above the finalized block is an ordinary rollback: the tx pool's
 * database, mined-tx archive included, stays. So a tx mined in a proposed block the rollback keeps comes back to the
 * pool when that block is dropped later (its slot passed without a checkpoint), and is mined again, unless the tx
 * anchors to a block the same drop removed: then it proves against a state the chain no longer has, and the pool
 * lets it go (anchorPruned).
 */
import { expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx } from '../../spec/txBuilder.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';

async function rollBackThenDrop(anchorTag: 'checkpointed' | 'latest') {
  const errors: unknown[] = [];
  const seen: {
    minedIn?: number;
    finalized?: number;
    pooledAfterDrop?: boolean;
    dropped?: boolean;
    receiptAtEnd?: string;
  } = {};
  let tx: TxValue | undefined;
  const result = await runSimulation(
    {
      ...drawOptions(11n, 300),
      followerCount: 0,
      slotDurationSeconds: 24,
      blockDurationMs: 4_000,
      publishingAllowanceSeconds: 12,
      inclusionDelay: { probability: 0, blocksMax: 0 },
    },
    {
      onActivity: (node, a) => {
        if (
          node === 'sequencer-0' &&
          a.kind === 'chain' &&
          a.event.type === 'chainPruned' &&
          a.event.reason === 'slotPassedWithoutCheckpoint'
        )
          seen.dropped = true;
      },
      scenario: (world) => {
        const guarded = (action: () => Promise<void>) => async () => {
          try {
            await action();
          } catch (error) {
            errors.push(error);
          }
        };
        // Sent just before the block built at 100 s, the second of slot 4 (96 s to 120 s; published at 104 s).
        world.at(
          99_000,
          guarded(async () => {
            const s = world.node('sequencer-0').service;
            const anchor = await s.chain.getBlock({ kind: 'tag', tag: anchorTag });
            tx = buildTx({
              chainId: s.info.getChainId(),
              version: s.info.getVersion(),
              anchorBlockHash: anchor!.block.hash,
              feePayer: genesisTestAccounts()[0]!,
              nullifier: `0x${'0c'.repeat(32)}` as Hex,
              minFees: await s.fees.getCurrentMinFees(),
              expirationTimestamp: 2n ** 40n,
            });
            await s.txs.sendTx(tx);
          }),
        );
        // The tx is in a proposed block: roll back, forced, to the proposed tip (nothing removed), then keep the
        // sequencer from publishing slot 4's checkpoint, so the archiver drops the slot's blocks.
        world.at(
          101_000,
          guarded(async () => {
            const node = world.node('sequencer-0');
            const receipt = await node.service.txs.getTxReceipt(tx!.txHash, {});
            seen.minedIn = (receipt as { blockNumber?: number }).blockNumber;
            seen.finalized = node.chain.tips.finalized.block.number;
            await node.service.admin.rollbackTo(node.chain.tips.proposed.number, true, true);
            await node.service.admin.pauseSequencer();
          }),
        );
        world.at(
          125_000,
          guarded(async () => {
            const node = world.node('sequencer-0');
            seen.pooledAfterDrop = node.txPool.current.has(tx!.txHash);
            await node.service.admin.resumeSequencer();
          }),
        );
        world.at(
          290_000,
          guarded(async () => {
            seen.receiptAtEnd = (await world.node('sequencer-0').service.txs.getTxReceipt(tx!.txHash, {})).status;
          }),
        );
      },
    },
  );
  if (errors.length > 0) throw errors[0];
  return { seen, result };
}

it('a tx mined in a block kept by a forced rollback returns to the pool when the block is dropped', async () => {
  const { seen, result } = await rollBackThenDrop('checkpointed');
  expect(seen.minedIn).toBeGreaterThan(seen.finalized!);
  expect(seen).toMatchObject({ dropped: true, pooledAfterDrop: true, receiptAtEnd: 'checkpointed' });
  expect(result.failures).toEqual([]);
});

it('a tx of a dropped block that anchors to a block the same drop removed does not come back', async () => {
  const { seen, result } = await rollBackThenDrop('latest');
  expect(seen.minedIn).toBeGreaterThan(seen.finalized!);
  expect(seen).toMatchObject({ dropped: true, pooledAfterDrop: false, receiptAtEnd: 'dropped' });
  // Neither lost (the tx accounting) nor mined after the pool let it go (the tx lifecycle).
  expect(result.failures).toEqual([]);
});
