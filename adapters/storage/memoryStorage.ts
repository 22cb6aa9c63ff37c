/**
 * The in-memory storage port, for the simulator and tests. memory-level stores keys as bytes (`storeEncoding:
 * 'buffer'`) so that it orders keys exactly as LevelDB does (bytewise over UTF-8), not by UTF-16 code units. Data
 * lives as long as the instance: closing and reopening the same instance keeps it. `sync` is accepted and ignored.
 */
import { MemoryLevel } from 'memory-level';
import type { StoragePort } from '../../core/ports.js';

export function createMemoryStorage(): StoragePort {
  return new MemoryLevel<string, string>({ keyEncoding: 'utf8', valueEncoding: 'utf8', storeEncoding: 'buffer' });
}
