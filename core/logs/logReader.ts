/**
 * Log queries over the log index (logIndexer.ts): one list per tag, in the tags' order, each in chain order. A tag
 * matching more logs than the caller's bound is refused (LIMIT_EXCEEDED), never cut: at most bound + 1 entries are
 * read per tag. Each list is the tag's logs as of the moment it was read; before answering, every block the answer
 * names is checked to still be on the chain, and the query is read again if a prune removed one meanwhile.
 */
import type { Block, Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import type { ChainStore } from '../chain/chainStore.js';
import { NodeError } from '../errors.js';
import type { LogResult, LogService } from './logService.js';
import {
  LOG_QUERY_ATTEMPTS_MAX,
  LOG_QUERY_LOGS_PER_TAG_MAX,
  LOG_QUERY_READS_IN_FLIGHT_MAX,
  LOG_QUERY_TAGS_MAX,
} from './logConstants.js';
import { decodeLogIndexEntry, type LogIndexEntry } from './logIndexEntry.js';
import { canonicalField, privateTagPrefix, publicTagPrefix } from './logKeys.js';

/** What log queries read of the chain store. */
export type LogIndexStore = Pick<ChainStore, 'getIndexEntries' | 'getBlock' | 'getBlockNumberByHash'>;

/** One tag of a query and where its entries start in the index. */
interface TagRead {
  readonly tag: Hex;
  readonly keyPrefix: string;
}

/** The payload of a refusal over a list bound, as the RPC layer's own (adapters/rpc/methodHandler.ts). */
export interface LogsPerTagExceededDetails extends Record<string, unknown> {
  readonly limit: 'logsPerTagMax';
  readonly value: number;
  /** The logs found for the tag; reading stops one past the bound, so this is a lower bound of the tag's logs. */
  readonly requested: number;
}

/** The refusal of a tag matching more logs than `logsPerTagMax` (`found` is how many were read, at least one more). */
export function logsPerTagExceeded(
  tag: Hex,
  logsPerTagMax: number,
  found: number,
): NodeError<LogsPerTagExceededDetails> {
  return new NodeError(
    'LIMIT_EXCEEDED',
    `tag ${tag} matches more logs than the limit logsPerTagMax of ${logsPerTagMax}`,
    {
      limit: 'logsPerTagMax',
      value: logsPerTagMax,
      requested: found,
    },
  );
}

/** A tag or address of a query in canonical form; INVALID_PARAMS when it is not hex of at most 32 bytes. */
function queryField(value: Hex, param: string): Hex {
  const canonical = canonicalField(value);
  if (canonical === undefined) {
    throw new NodeError('INVALID_PARAMS', `${param} must be 0x-prefixed hex of at most 32 bytes, not ${value}`, {
      param,
    });
  }
  return canonical;
}

/**
 * `read` of every item, in the items' order, with at most LOG_QUERY_READS_IN_FLIGHT_MAX reads pending at once. A
 * failed read fails the whole: no read starts after it, and the call returns once those started have settled.
 */
async function readAll<Item, Result>(items: readonly Item[], read: (item: Item) => Promise<Result>): Promise<Result[]> {
  const results = new Array<Result>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await read(items[index] as Item);
      } catch (error) {
        failed = true; // the others take no new item
        throw error;
      }
    }
  };
  const workers = Array.from({ length: Math.min(LOG_QUERY_READS_IN_FLIGHT_MAX, items.length) }, worker);
  const settled = await Promise.allSettled(workers);
  const rejected = settled.find((outcome) => outcome.status === 'rejected');
  if (rejected !== undefined) throw (rejected as PromiseRejectedResult).reason;
  return results;
}

/** Each tag's entries, in the tags' order (a repeated tag is read once; the first tag over the bound is refused). */
async function readTags(
  store: LogIndexStore,
  reads: readonly TagRead[],
  logsPerTagMax: number,
): Promise<LogIndexEntry[][]> {
  const prefixes = [...new Set(reads.map((read) => read.keyPrefix))];
  const found = await readAll(prefixes, (prefix) => store.getIndexEntries(prefix, logsPerTagMax + 1));
  const byPrefix = new Map(prefixes.map((prefix, index) => [prefix, found[index] ?? []] as const));
  return reads.map(({ tag, keyPrefix }) => {
    const entries = byPrefix.get(keyPrefix) ?? [];
    if (entries.length > logsPerTagMax) throw logsPerTagExceeded(tag, logsPerTagMax, entries.length);
    return entries.map(([, value]) => decodeLogIndexEntry(value));
  });
}

/** Whether the block `entry` names is still on the chain; the block itself when `read` (its effects are wanted). */
async function blockStillKept(store: LogIndexStore, entry: LogIndexEntry, read: boolean): Promise<Block | boolean> {
  if (!read) return (await store.getBlockNumberByHash(entry.l2BlockHash)) === entry.l2BlockNumber;
  const block = await store.getBlock(entry.l2BlockNumber);
  return block?.hash === entry.l2BlockHash ? block : false;
}

/**
 * The blocks the entries name, by number (read whole only when their tx effects are wanted); undefined when one has
 * been pruned since its entries were read, or two entries name different blocks of one number (pruned and replaced).
 */
async function blocksOnChain(
  store: LogIndexStore,
  lists: readonly LogIndexEntry[][],
  includeEffects: boolean,
): Promise<Map<number, Block> | undefined> {
  const firstByNumber = new Map<number, LogIndexEntry>();
  for (const entry of lists.flat()) {
    const seen = firstByNumber.get(entry.l2BlockNumber);
    if (seen !== undefined && seen.l2BlockHash !== entry.l2BlockHash) return undefined;
    if (seen === undefined) firstByNumber.set(entry.l2BlockNumber, entry);
  }
  const named = [...firstByNumber.values()];
  const kept = await readAll(named, (entry) => blockStillKept(store, entry, includeEffects));
  if (kept.includes(false)) return undefined;
  const blocks = new Map<number, Block>();
  kept.forEach((block, index) => {
    if (typeof block !== 'boolean') blocks.set((named[index] as LogIndexEntry).l2BlockNumber, block);
  });
  return blocks;
}

function logResultOf(entry: LogIndexEntry, block: Block | undefined): LogResult {
  const { txHash, l2BlockNumber, l2BlockHash, txIndexInBlock, logIndexInTx, fields } = entry;
  const place = { txHash, l2BlockNumber, l2BlockHash, txIndexInBlock, logIndexInTx, fields: [...fields] };
  if (block === undefined) return place;
  const effect = block.body.txEffects[txIndexInBlock];
  assert(
    effect?.txHash === txHash,
    `block ${l2BlockNumber} holds tx ${txHash} at index ${txIndexInBlock}, as its log entry says`,
  );
  return { ...place, noteHashes: [...effect.noteHashes], nullifiers: [...effect.nullifiers] };
}

async function answer(
  store: LogIndexStore,
  reads: readonly TagRead[],
  includeEffects: boolean,
  logsPerTagMax: number,
): Promise<LogResult[][]> {
  assert(
    Number.isSafeInteger(logsPerTagMax) && logsPerTagMax >= 0 && logsPerTagMax <= LOG_QUERY_LOGS_PER_TAG_MAX,
    `logsPerTagMax is an integer from 0 to ${LOG_QUERY_LOGS_PER_TAG_MAX}, not ${logsPerTagMax}`,
  );
  for (let attempt = 1; attempt <= LOG_QUERY_ATTEMPTS_MAX; attempt++) {
    const lists = await readTags(store, reads, logsPerTagMax);
    const blocks = await blocksOnChain(store, lists, includeEffects);
    if (blocks !== undefined)
      return lists.map((entries) => entries.map((entry) => logResultOf(entry, blocks.get(entry.l2BlockNumber))));
  }
  throw new NodeError(
    'STATE_NOT_AVAILABLE',
    `the chain was pruned while the logs were read, ${LOG_QUERY_ATTEMPTS_MAX} times in a row; ask again`,
    {
      reason: 'prunedDuringQuery',
      attempts: LOG_QUERY_ATTEMPTS_MAX,
    },
  );
}

function tagReads(tags: readonly Hex[], keyPrefixOf: (tag: Hex) => string): TagRead[] {
  assert(
    tags.length <= LOG_QUERY_TAGS_MAX,
    `a log query carries at most ${LOG_QUERY_TAGS_MAX} tags, not ${tags.length}`,
  );
  return tags.map((tag, index) => {
    const canonical = queryField(tag, `tags[${index}]`);
    return { tag: canonical, keyPrefix: keyPrefixOf(canonical) };
  });
}

/** The LogService over the chain store's log index (the indexers must be registered on the same store). */
export function createLogReader(store: LogIndexStore): LogService {
  return {
    getPrivateLogsByTags: async (tags, includeEffects, logsPerTagMax) => {
      const reads = tagReads(tags, privateTagPrefix);
      return answer(store, reads, includeEffects, logsPerTagMax);
    },
    getPublicLogsByTags: async (contractAddress, tags, includeEffects, logsPerTagMax) => {
      const contract = queryField(contractAddress, 'contractAddress');
      const reads = tagReads(tags, (tag) => publicTagPrefix(contract, tag));
      return answer(store, reads, includeEffects, logsPerTagMax);
    },
  };
}
