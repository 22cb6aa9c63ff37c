/**
 * The witnesses the world state answers, in the shapes of docs/protocol.md, Witness shapes: sibling paths list
 * the sibling nearest the leaf first.
 */
import type { Hex } from '../../spec/chain.js';
import type { NullifierLeafPreimage, PublicDataLeafPreimage } from '../merkle/indexedLeaf.js';

export type { NullifierLeafPreimage, PublicDataLeafPreimage } from '../merkle/indexedLeaf.js';

/** `MembershipWitness` (also `SiblingPath`). */
export interface MembershipWitness {
  readonly leafIndex: bigint;
  readonly siblingPath: readonly Hex[];
}

export interface NullifierMembershipWitness {
  readonly index: bigint;
  readonly leafPreimage: NullifierLeafPreimage;
  readonly siblingPath: readonly Hex[];
}

export interface PublicDataWitness {
  readonly index: bigint;
  readonly leafPreimage: PublicDataLeafPreimage;
  readonly siblingPath: readonly Hex[];
}

/** `DataInBlock<T>`: a value with the block whose insertion put it there. */
export interface DataInBlock<T> {
  readonly data: T;
  readonly l2BlockNumber: number;
  readonly l2BlockHash: Hex;
}
