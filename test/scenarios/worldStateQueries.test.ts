/**
 * World-state queries of a running node (simulated network): every witness the follower answers verifies against
 * the roots in the header of the block it was asked about, with a verifier written from docs/protocol.md alone.
 */
import { expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { ARCHIVE_HEIGHT, MerkleTreeId, NULLIFIER_TREE_HEIGHT, PUBLIC_DATA_TREE_HEIGHT } from '../../spec/constants.js';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';
import {
  verifyMembership,
  verifyNullifierAbsence,
  verifyNullifierMembership,
  verifyPublicDataWitness,
} from '../worldState/witnessVerifier.js';

const h = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;

it('answers witnesses that verify against the header of the block asked about, old and new', async () => {
  const errors: unknown[] = [];
  let checked = false;
  await runSimulation(
    { ...drawOptions(5n, 400), followerCount: 1, inclusionDelay: { probability: 0, blocksMax: 0 } },
    {
      scenario: (world) => {
        world.at(390_000, async () => {
          try {
            const node = world.node('follower-1');
            const s = node.service;
            const latest = await s.chain.getBlockNumber();
            expect(latest).toBeGreaterThanOrEqual(4);
            for (const n of [2, latest]) {
              const found = await s.chain.getBlock({ kind: 'number', number: n });
              const header = found!.block.header;
              // Block n's hash is in the archive as of block n + 1 (the archive root in block n's own header is the one before it).
              const next = Math.min(n + 1, latest);
              const archiveAfter = (await s.chain.getBlock({ kind: 'number', number: next }))!.block.archive;
              const hashWitness = await s.worldState.getBlockHashMembershipWitness(
                { kind: 'number', number: next },
                found!.block.hash,
              );
              expect(verifyMembership(archiveAfter.root, found!.block.hash, hashWitness!, ARCHIVE_HEIGHT)).toBe(true);
              // Genesis nullifiers (0..63) exist; a large one does not: its low leaf proves it.
              const member = await s.worldState.getNullifierMembershipWitness({ kind: 'number', number: n }, h(7n));
              expect(
                verifyNullifierMembership(header.state.nullifierTree.root, h(7n), member!, NULLIFIER_TREE_HEIGHT),
              ).toBe(true);
              const low = await s.worldState.getLowNullifierMembershipWitness(
                { kind: 'number', number: n },
                h(10n ** 40n),
              );
              expect(
                verifyNullifierAbsence(header.state.nullifierTree.root, h(10n ** 40n), low!, NULLIFIER_TREE_HEIGHT),
              ).toBe(true);
              expect(
                await s.worldState.getLowNullifierMembershipWitness({ kind: 'number', number: n }, h(7n)),
              ).toBeUndefined();
              const slot = h(12345n);
              const data = await s.worldState.getPublicDataWitness({ kind: 'number', number: n }, slot);
              expect(
                verifyPublicDataWitness(header.state.publicDataTree.root, slot, data!, PUBLIC_DATA_TREE_HEIGHT),
              ).toBe(true);
              expect(await s.worldState.getPublicStorageAt({ kind: 'number', number: n }, h(1n), h(2n))).toBe(h(0n));
            }
            const indexes = await s.worldState.findLeavesIndexes(
              { kind: 'tag', tag: 'latest' },
              MerkleTreeId.NULLIFIER_TREE,
              [h(3n), h(10n ** 40n)],
            );
            expect(indexes).toEqual([
              {
                data: 3n,
                l2BlockNumber: 0,
                l2BlockHash: (await s.chain.getBlock({ kind: 'number', number: 0 }))!.block.hash,
              },
              undefined,
            ]);
            await expect(
              s.worldState.getPublicStorageAt({ kind: 'number', number: latest + 5 }, h(1n), h(2n)),
            ).rejects.toMatchObject({ code: 'STATE_NOT_AVAILABLE' });
            const status = await s.worldState.getWorldStateSyncStatus();
            expect(status).toMatchObject({
              latestBlockNumber: latest,
              treesAreSynced: true,
              oldestHistoricBlockNumber: 0,
            });
            checked = true;
          } catch (error) {
            errors.push(error);
          }
        });
      },
    },
  );
  if (errors.length > 0) throw errors[0];
  expect(checked).toBe(true);
});
