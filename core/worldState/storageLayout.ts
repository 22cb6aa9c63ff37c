/**
 * The world state's records in the storage port, all under the `ws:` prefix (the chain store's keys never start
 * with it). Numbers in keys are fixed-width lowercase hex, so key order is numeric order.
 *
 *   ws:meta                         WorldStateMeta (JSON)
 *   ws:b:<block>                    BlockSummary: every tree's root and size after the block (JSON)
 *   ws:j:<block>                    BlockJournal: what the block wrote, to unwind or prune it (JSON)
 *   ws:p:<tree>:<page>:<block>      a page as the block left it (base64), one version per block that changed it
 *   ws:k:<block>                    InsertedKeys: the keys the block inserted into the indexed trees (JSON). While
 *                                   the keys are in memory, these records rebuild them when the engine opens, one
 *                                   record per block rather than one per key (a batch costs mostly per record); they
 *                                   also say what an unwind takes back.
 *   ws:x:<tree>:<key>               format WORLD_STATE_FORMAT_KEYS_ON_DISK only: an indexed tree's key ->
 *                                   "<leafIndex>:<block>" (core/worldState/indexedKeys.ts)
 *   ws:i:<tree>:<value>:<leafIndex> append-only trees: value -> "<block>" (a value may repeat)
 */
import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';

export type StorageOperation =
  | { readonly type: 'put'; readonly key: string; readonly value: string }
  | { readonly type: 'del'; readonly key: string };

/** Storage layout version; a store written with another one is refused. */
export const WORLD_STATE_FORMAT_VERSION = 2;
/**
 * The same layout, with the indexed trees' keys in storage, one record a key (`ws:x:`): a store becomes this once its
 * keys pass the memory bound. Version 2 readers refuse it (they would not keep those records on unwind).
 */
export const WORLD_STATE_FORMAT_KEYS_ON_DISK = 3;
export const WORLD_STATE_KEY_PREFIX = 'ws:';
/** The first key after every world-state key. */
export const WORLD_STATE_KEY_END = 'ws;';

const BLOCK_HEX_DIGITS = 8;
const PAGE_ID_HEX_DIGITS = 12;
const LEAF_INDEX_HEX_DIGITS = 12;

/** Below this a number is a small integer to V8, whose hex digits are quick; page ids usually are not. */
const SMALL_INTEGER_LIMIT = 2 ** 30;
const LOW_HEX_DIGITS = 6;
const LOW_HEX_SPAN = 2 ** (4 * LOW_HEX_DIGITS);

/** `n` in `digits` lowercase hex digits (digits > LOW_HEX_DIGITS), a large `n` written as two small halves. */
function hexOf(n: number, digits: number): string {
  if (n < SMALL_INTEGER_LIMIT) return n.toString(16).padStart(digits, '0');
  const high = Math.floor(n / LOW_HEX_SPAN);
  return (
    high.toString(16).padStart(digits - LOW_HEX_DIGITS, '0') +
    (n - high * LOW_HEX_SPAN).toString(16).padStart(LOW_HEX_DIGITS, '0')
  );
}
const stripHex = (value: Hex): string => value.slice(2).toLowerCase();

export const worldStateKeys = {
  meta: 'ws:meta',
  summary: (block: number) => `ws:b:${hexOf(block, BLOCK_HEX_DIGITS)}`,
  journal: (block: number) => `ws:j:${hexOf(block, BLOCK_HEX_DIGITS)}`,
  pagePrefix: (tree: number, pageId: number) => `ws:p:${tree}:${hexOf(pageId, PAGE_ID_HEX_DIGITS)}:`,
  page: (tree: number, pageId: number, block: number) =>
    `ws:p:${tree}:${hexOf(pageId, PAGE_ID_HEX_DIGITS)}:${hexOf(block, BLOCK_HEX_DIGITS)}`,
  /** `page(tree, pageId, block)` for the many pages of one block: the block's digits are written once. */
  pagesOfBlock: (block: number) => {
    const blockDigits = hexOf(block, BLOCK_HEX_DIGITS);
    return (tree: number, pageId: number) => `ws:p:${tree}:${hexOf(pageId, PAGE_ID_HEX_DIGITS)}:${blockDigits}`;
  },
  insertedKeysPrefix: 'ws:k:',
  insertedKeys: (block: number) => `ws:k:${hexOf(block, BLOCK_HEX_DIGITS)}`,
  indexedKeyPrefix: (tree: number) => `ws:x:${tree}:`,
  indexedKey: (tree: number, key: Hex) => `ws:x:${tree}:${stripHex(key)}`,
  appendedValuePrefix: (tree: number, value: Hex) => `ws:i:${tree}:${stripHex(value)}:`,
  appendedValue: (tree: number, value: Hex, leafIndex: number) =>
    `ws:i:${tree}:${stripHex(value)}:${hexOf(leafIndex, LEAF_INDEX_HEX_DIGITS)}`,
} as const;

/** The leaf index that ends an append-only value key. */
export function appendedValueLeafIndex(key: string): number {
  return parseInt(key.slice(key.length - LEAF_INDEX_HEX_DIGITS), 16);
}

/** The block number that ends a block-numbered key (page version, summary, journal, inserted keys). */
export function blockOfKey(key: string): number {
  return parseInt(key.slice(key.length - BLOCK_HEX_DIGITS), 16);
}

export function encodePage(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

export function decodePage(text: string, pageBytes: number): Uint8Array {
  const bytes = new Uint8Array(Buffer.from(text, 'base64'));
  assert(bytes.length === pageBytes, `a stored page has ${pageBytes} bytes, not ${bytes.length}`);
  return bytes;
}

/** What the engine needs to resume, and the parameters the data was written with. */
export interface WorldStateMeta {
  readonly format: number;
  readonly treeHeights: readonly number[];
  readonly pageHeight: number;
  readonly txSubtreeHeight: number;
  readonly genesisBlockHash: Hex;
  readonly latestBlockNumber: number;
  readonly oldestBlockNumber: number;
  /** Set while a forced clear is under way: opening finishes it. */
  readonly clearing?: boolean;
}

/** One tree after a block: [root, nextAvailableLeafIndex]. */
export type StoredTreeState = readonly [root: Hex, size: number];

export interface BlockSummary {
  /** Indexed by MerkleTreeId. */
  readonly trees: readonly StoredTreeState[];
}

/**
 * What one block wrote. `pages[tree]` is a flat list of pairs [pageId, previousVersion] (-1: the page was never
 * written before); `keys` are the append-only value records the block added.
 */
export interface BlockJournal {
  readonly pages: readonly (readonly number[])[];
  readonly keys: readonly string[];
}

/** Keys a block inserted into the indexed trees, each as [key, leafIndex]. */
export interface InsertedKeys {
  readonly nullifier: readonly (readonly [Hex, number])[];
  readonly publicData: readonly (readonly [Hex, number])[];
}
