/**
 * Logs by tag, answered from the log index (core/logs). The index's block indexers are registered on the chain store
 * here, when the node is built and before sync writes any block, so that every block synced from now on is indexed
 * in the batch that stores it.
 */
import type { Chain } from '../chain/chain.js';
import { registerLogIndexers } from '../logs/logIndexer.js';
import { createLogReader } from '../logs/logReader.js';
import type { LogService } from '../nodeService.js';

export function createLogQueries(chain: Chain): LogService {
  registerLogIndexers(chain.store);
  return createLogReader(chain.store);
}
