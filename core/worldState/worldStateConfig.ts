import type { Hex } from '../../spec/chain.js';
import {
  ARCHIVE_HEIGHT,
  MerkleTreeId,
  TX_SUBTREE_HEIGHT,
  WORLD_STATE_HISTORICAL_PAGE_CACHE_BYTES_MAX,
  WORLD_STATE_KEY_INDEX_MEMORY_KEYS_MAX,
  WORLD_STATE_PAGE_CACHE_PAGES_MAX,
  WORLD_STATE_PAGE_HEIGHT,
} from '../../spec/constants.js';
import type { IndexedTreeKind } from '../merkle/indexedLeaf.js';
import { preimageBytesOf } from '../merkle/indexedLeaf.js';
import type { TreeGeometry } from '../merkle/treeGeometry.js';
import { createTreeGeometry } from '../merkle/treeGeometry.js';
import { assert } from '../assert.js';
import type { StateTreeHeights } from './genesisState.js';
import { PROTOCOL_STATE_TREE_HEIGHTS } from './genesisState.js';

export interface WorldStateTreeHeights extends StateTreeHeights {
  readonly archive: number;
}

export const PROTOCOL_TREE_HEIGHTS: WorldStateTreeHeights = { ...PROTOCOL_STATE_TREE_HEIGHTS, archive: ARCHIVE_HEIGHT };

export interface WorldStateOptions {
  /** Leaf 0 of the archive: the genesis block's hash (core/worldState/genesis.ts, createGenesis). */
  readonly genesisBlockHash: Hex;
  /** The protocol's heights unless given (tests use small trees). */
  readonly treeHeights?: WorldStateTreeHeights;
  /** Height of the per-tx subtree of the note hash and nullifier trees (TX_SUBTREE_HEIGHT unless given). */
  readonly txSubtreeHeight?: number;
  /** Levels per storage page (WORLD_STATE_PAGE_HEIGHT unless given). */
  readonly pageHeight?: number;
  /** Latest-state pages kept in memory per tree (WORLD_STATE_PAGE_CACHE_PAGES_MAX unless given). */
  readonly pageCachePagesMax?: number;
  /** Bytes of past blocks' pages kept in memory (WORLD_STATE_HISTORICAL_PAGE_CACHE_BYTES_MAX unless given). */
  readonly historicalPageCacheBytesMax?: number;
  /**
   * Keys of the indexed trees kept sorted in memory before they move to storage (WORLD_STATE_KEY_INDEX_MEMORY_KEYS_MAX
   * unless given; core/worldState/indexedKeys.ts).
   */
  readonly keyIndexMemoryKeysMax?: number;
}

/** The trees in MerkleTreeId order. */
export const TREE_IDS = [
  MerkleTreeId.NULLIFIER_TREE,
  MerkleTreeId.NOTE_HASH_TREE,
  MerkleTreeId.PUBLIC_DATA_TREE,
  MerkleTreeId.L1_TO_L2_MESSAGE_TREE,
  MerkleTreeId.ARCHIVE,
] as const;

export interface WorldStateConfig {
  readonly genesisBlockHash: Hex;
  readonly treeHeights: WorldStateTreeHeights;
  readonly txSubtreeHeight: number;
  readonly pageHeight: number;
  readonly pageCachePagesMax: number;
  readonly historicalPageCacheBytesMax: number;
  readonly keyIndexMemoryKeysMax: number;
  /** By MerkleTreeId. */
  readonly geometries: readonly TreeGeometry[];
}

/** The indexed trees' kinds by id; the others are append-only. */
export function indexedKindOf(treeId: number): IndexedTreeKind | undefined {
  if (treeId === MerkleTreeId.NULLIFIER_TREE) return 'nullifier';
  if (treeId === MerkleTreeId.PUBLIC_DATA_TREE) return 'publicData';
  return undefined;
}

export function heightsInIdOrder(heights: WorldStateTreeHeights): number[] {
  return [heights.nullifier, heights.noteHash, heights.publicData, heights.l1ToL2Message, heights.archive];
}

export function resolveWorldStateConfig(options: WorldStateOptions): WorldStateConfig {
  const treeHeights = options.treeHeights ?? PROTOCOL_TREE_HEIGHTS;
  const txSubtreeHeight = options.txSubtreeHeight ?? TX_SUBTREE_HEIGHT;
  const pageHeight = options.pageHeight ?? WORLD_STATE_PAGE_HEIGHT;
  assert(
    txSubtreeHeight >= 0 && txSubtreeHeight <= Math.min(treeHeights.nullifier, treeHeights.noteHash),
    'the tx subtree fits the trees',
  );
  const geometries = heightsInIdOrder(treeHeights).map((height, treeId) => {
    const kind = indexedKindOf(treeId);
    return createTreeGeometry(height, pageHeight, kind === undefined ? 0 : preimageBytesOf(kind));
  });
  return {
    genesisBlockHash: options.genesisBlockHash.toLowerCase() as Hex,
    treeHeights,
    txSubtreeHeight,
    pageHeight,
    pageCachePagesMax: options.pageCachePagesMax ?? WORLD_STATE_PAGE_CACHE_PAGES_MAX,
    historicalPageCacheBytesMax: options.historicalPageCacheBytesMax ?? WORLD_STATE_HISTORICAL_PAGE_CACHE_BYTES_MAX,
    keyIndexMemoryKeysMax: options.keyIndexMemoryKeysMax ?? WORLD_STATE_KEY_INDEX_MEMORY_KEYS_MAX,
    geometries,
  };
}
