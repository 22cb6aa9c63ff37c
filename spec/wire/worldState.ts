/**
 * Wire shapes of world-state answers. docs/protocol.md, Witness shapes, fixes the witnesses and
 * DataInBlock<bigint>; WorldStateSyncStatus is this project's layout:
 *
 * WorldStateSyncStatus = { latestBlockNumber, latestBlockHash, finalizedBlockNumber, oldestHistoricBlockNumber,
 *                          treesAreSynced }
 *   `oldestHistoricBlockNumber` is the oldest block witnesses can still be asked against (older ones are -32006).
 * The L1-to-L2 message witness is the tuple [leafIndex, SiblingPath].
 */
import { z } from 'zod';
import { bigUint, blockHash, blockNumber, fr } from './scalars.js';

/** `MembershipWitness`: the leaf's index and its sibling path, the sibling nearest the leaf first. */
export const membershipWitness = z.object({ leafIndex: bigUint, siblingPath: z.array(fr).readonly() });

/** `SiblingPath`: the same shape as MembershipWitness (docs/protocol.md, Witness shapes). */
export const siblingPath = membershipWitness;

export const nullifierMembershipWitness = z.object({
  index: bigUint,
  leafPreimage: z.object({ nullifier: fr, nextNullifier: fr, nextIndex: bigUint }),
  siblingPath: z.array(fr).readonly(),
});

export const publicDataWitness = z.object({
  index: bigUint,
  leafPreimage: z.object({ slot: fr, value: fr, nextSlot: fr, nextIndex: bigUint }),
  siblingPath: z.array(fr).readonly(),
});

/** `DataInBlock<T>`: a value with the block it was inserted in. */
export function dataInBlock<Data extends z.ZodType>(data: Data) {
  return z.object({ data, l2BlockNumber: blockNumber, l2BlockHash: blockHash });
}

/** `DataInBlock<bigint>`: a leaf index and the block whose insertion put it there. */
export const leafIndexInBlock = dataInBlock(bigUint);

/** svc_getL1ToL2MessageMembershipWitness: `[leafIndex, SiblingPath]`. */
export const l1ToL2MessageWitness = z.tuple([bigUint, siblingPath]).readonly();

export const worldStateSyncStatus = z.object({
  latestBlockNumber: blockNumber,
  latestBlockHash: blockHash,
  finalizedBlockNumber: blockNumber,
  oldestHistoricBlockNumber: blockNumber,
  treesAreSynced: z.boolean(),
});
