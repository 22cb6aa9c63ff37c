/**
 * World-state constants and limits. They belong in spec/constants.ts; they live here until the lead moves them
 * (see the world-state report). Names carry their unit last.
 */

/** Note hashes one tx may emit; each tx's note hashes fill one subtree of this many leaves, zero-padded. */
export const NOTE_HASHES_PER_TX_MAX = 64;
/** Nullifiers one tx may emit; each tx's nullifiers fill one subtree of this many leaves, zero-padded, unlinked. */
export const NULLIFIERS_PER_TX_MAX = 64;
/** Public data writes one tx may make (no padding: each new slot takes the next leaf). */
export const PUBLIC_DATA_WRITES_PER_TX_MAX = 64;
/** Height of the per-tx subtree of the note hash and nullifier trees: 2^6 = 64 leaves. */
export const TX_SUBTREE_HEIGHT = 6;

/**
 * Genesis of the nullifier tree: 64 leaves with nullifiers 0..63, a sorted linked list (leaf i points to i + 1, the
 * last to 0/0). Every later nullifier is above 63 or a duplicate, so it always has a low leaf; and 64 leaves keep the
 * per-tx subtrees aligned on 64.
 */
export const NULLIFIER_TREE_PREFILL_LEAVES = 2 ** TX_SUBTREE_HEIGHT;
/** Genesis of the public data tree: one leaf, slot 0 with value 0, pointing to 0/0: every slot has a low leaf. */
export const PUBLIC_DATA_TREE_PREFILL_LEAVES = 1;

/** Txs one block may carry. */
export const TXS_PER_BLOCK_MAX = 1_024;
/** L1-to-L2 messages one block may insert. */
export const L1_TO_L2_MESSAGES_PER_BLOCK_MAX = 1_024;

/**
 * Levels per storage page. A tree is stored as pages, each the nodes of `WORLD_STATE_PAGE_HEIGHT` levels of one
 * subtree; a sibling path reads ceil(height / this) pages. See core/merkle/treeGeometry.ts.
 */
export const WORLD_STATE_PAGE_HEIGHT = 3;
/** Latest-state pages kept in memory per tree (a page is under 2 KiB); the least recently written go first. */
export const WORLD_STATE_PAGE_CACHE_PAGES_MAX = 200_000;
/** Keys per chunk of the in-memory sorted key index of an indexed tree. */
export const SORTED_INDEX_CHUNK_KEYS_MAX = 512;
/** A read that an unwind or a clear overtook is retried this many times in all before it fails. */
export const WORLD_STATE_READ_ATTEMPTS_MAX = 3;
/** Leaves (or values) one lookup call may ask about. */
export const WORLD_STATE_LOOKUP_VALUES_MAX = 1_024;
