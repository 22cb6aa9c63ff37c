/**
 * Logs by tag, answered from the log index (logReader.ts). The index's block indexers are registered on the chain store
 * here, when the node is built and before sync writes any block, so that every block synced from now on is indexed
 * in the batch that stores it.
 */
import type { Hex } from '../../spec/chain.js';
import type { Chain } from '../chain/chain.js';
import type { LogIndexEntry } from './logIndexEntry.js';
import { registerLogIndexers } from './logIndexer.js';
import { createLogReader } from './logReader.js';

/** One log found by tag (svc_get*LogsByTags): where it is, its fields, and its tx's effects when asked for. */
export interface LogResult extends LogIndexEntry {
  readonly noteHashes?: readonly Hex[];
  readonly nullifiers?: readonly Hex[];
}

/** Logs by tag: one list per tag, in the tags' order; LIMIT_EXCEEDED when a tag has more logs than the bound. */
export interface LogService {
  getPrivateLogsByTags(tags: readonly Hex[], includeEffects: boolean, logsPerTagMax: number): Promise<LogResult[][]>;
  getPublicLogsByTags(
    contractAddress: Hex,
    tags: readonly Hex[],
    includeEffects: boolean,
    logsPerTagMax: number,
  ): Promise<LogResult[][]>;
}

export function createLogService(chain: Chain): LogService {
  registerLogIndexers(chain.store);
  return createLogReader(chain.store);
}
