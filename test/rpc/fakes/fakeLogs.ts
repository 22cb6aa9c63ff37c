/**
 * Fake log answers of the fake node: canned logs of the fake chain's block 1 (its one tx, fakeNode.ts) under two
 * known tags, one private and one public of a known contract, so the RPC tests see the wire shapes. Any other tag
 * matches nothing. The bound per tag is applied as the node does (core/logs/logReader.ts).
 */
import { logsPerTagExceeded } from '../../../core/logs/logReader.js';
import type { LogResult, LogService } from '../../../core/logs/logService.js';
import type { Hex } from '../../../spec/chain.js';

const hex32 = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** A private tag with two logs in block 1. */
export const FAKE_PRIVATE_LOG_TAG = hex32(0x7a9001n);
/** A contract with one public log in block 1, under FAKE_PUBLIC_LOG_TAG. */
export const FAKE_LOG_CONTRACT = hex32(0xc0ffeen);
export const FAKE_PUBLIC_LOG_TAG = hex32(0x7a9002n);

/** Where the canned logs are: block 1 of the fake chain and its one tx (mirrors fakeNode.ts; a test checks it). */
export const FAKE_LOG_BLOCK = {
  number: 1,
  hash: hex32(0x1000n * 2n ** 200n + 1n),
  txHash: hex32(0xbeefn),
  nullifiers: [hex32(0xbeef01n)],
};

const place = {
  txHash: FAKE_LOG_BLOCK.txHash,
  l2BlockNumber: FAKE_LOG_BLOCK.number,
  l2BlockHash: FAKE_LOG_BLOCK.hash,
  txIndexInBlock: 0,
};

export const FAKE_PRIVATE_LOGS: readonly LogResult[] = [
  { ...place, logIndexInTx: 0, fields: [hex32(0xa1n), hex32(0xa2n)] },
  { ...place, logIndexInTx: 1, fields: [hex32(0xb1n)] },
];
export const FAKE_PUBLIC_LOGS: readonly LogResult[] = [
  { ...place, logIndexInTx: 0, fields: [hex32(0xc1n), hex32(0xc2n), hex32(0xc3n)] },
];

function answer(
  found: (tag: Hex) => readonly LogResult[],
  tags: readonly Hex[],
  includeEffects: boolean,
  logsPerTagMax: number,
): LogResult[][] {
  return tags.map((tag) => {
    const logs = found(tag.toLowerCase() as Hex);
    if (logs.length > logsPerTagMax) throw logsPerTagExceeded(tag, logsPerTagMax, logsPerTagMax + 1);
    return logs.map((log) =>
      includeEffects ? { ...log, noteHashes: [], nullifiers: FAKE_LOG_BLOCK.nullifiers } : log,
    );
  });
}

export const fakeLogs: LogService = {
  getPrivateLogsByTags: async (tags, includeEffects, logsPerTagMax) =>
    answer((tag) => (tag === FAKE_PRIVATE_LOG_TAG ? FAKE_PRIVATE_LOGS : []), tags, includeEffects, logsPerTagMax),
  getPublicLogsByTags: async (contractAddress, tags, includeEffects, logsPerTagMax) => {
    const known = contractAddress.toLowerCase() === FAKE_LOG_CONTRACT;
    return answer(
      (tag) => (known && tag === FAKE_PUBLIC_LOG_TAG ? FAKE_PUBLIC_LOGS : []),
      tags,
      includeEffects,
      logsPerTagMax,
    );
  },
};
