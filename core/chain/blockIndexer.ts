/**
 * Secondary indexes over blocks (tx hashes, logs by tag, contracts...), kept in the same storage batch as the
 * blocks they index: a block's entries appear with it and leave with it when it is pruned, so an index never
 * names a block the chain does not hold. Each indexer owns a key prefix of its own.
 */
import type { Block } from '../../spec/chain.js';

export type IndexOp =
  | { readonly type: 'put'; readonly key: string; readonly value: string }
  | { readonly type: 'del'; readonly key: string };

export interface BlockIndexer {
  /** Its key prefix: every key it writes starts with it (checked), and no two indexers share one. */
  readonly keyPrefix: string;
  /** Entries for a block being added. */
  blockAdded(block: Block): readonly IndexOp[];
  /** Removal of the entries of a block being pruned (the same keys `blockAdded` wrote for it). */
  blockRemoved(block: Block): readonly IndexOp[];
}
