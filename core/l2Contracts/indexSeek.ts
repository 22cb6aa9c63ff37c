/**
 * Seeks in the contract index through the reads the chain store offers indexers today: one key, or the first
 * entries under a prefix. The store has no seek from a key, so `firstEntryAtOrAfter` narrows prefixes digit by
 * digit instead. Once the store can scan from a key (`iterator({ gte, lt, limit: 1 })`), this becomes one read.
 */
import { assert } from '../assert.js';
import type { ChainStore } from '../chain/chainStore.js';
import { CONTRACT_KEY_BLOCK_NUMBER_DIGITS } from './contractConstants.js';

/** The chain store reads the contract index uses. */
export type ContractIndexStore = Pick<ChainStore, 'getIndexEntry' | 'getIndexEntries'>;

export type IndexEntry = readonly [key: string, value: string];

const DECIMAL_DIGIT_MAX = 9;

/** The first entry under `prefix`, in key order. */
export async function firstEntry(store: ContractIndexStore, prefix: string): Promise<IndexEntry | undefined> {
  const [entry] = await store.getIndexEntries(prefix, 1);
  return entry;
}

/**
 * The first entry under `prefix` whose key is at or after `prefix + suffix`, where every key under the prefix ends in
 * a suffix of CONTRACT_KEY_BLOCK_NUMBER_DIGITS decimal digits. One read when the first entry already qualifies (the
 * common case: the newest version is at or before the reference); else at most 1 + digits x 9 further reads.
 */
export async function firstEntryAtOrAfter(
  store: ContractIndexStore,
  prefix: string,
  suffix: string,
): Promise<IndexEntry | undefined> {
  assert(
    suffix.length === CONTRACT_KEY_BLOCK_NUMBER_DIGITS && /^\d+$/.test(suffix),
    `a seek suffix is ${CONTRACT_KEY_BLOCK_NUMBER_DIGITS} digits, not ${suffix}`,
  );
  const target = `${prefix}${suffix}`;
  const first = await firstEntry(store, prefix);
  if (first === undefined || first[0] >= target) return first;
  const exact = await store.getIndexEntry(target);
  if (exact !== undefined) return [target, exact];
  // A key after the target shares its first `shared` digits, then has a larger digit: the longest shared run and
  // the smallest larger digit give the nearest such keys, and the first entry under that prefix is the answer.
  for (let shared = CONTRACT_KEY_BLOCK_NUMBER_DIGITS - 1; shared >= 0; shared--) {
    for (let digit = Number(suffix[shared]) + 1; digit <= DECIMAL_DIGIT_MAX; digit++) {
      const found = await firstEntry(store, `${prefix}${suffix.slice(0, shared)}${digit}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
