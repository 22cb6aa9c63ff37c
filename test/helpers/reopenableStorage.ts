/**
 * Stores a contract suite can reopen, as the adapters' suites need them: the same data seen through a freshly opened
 * store. memory-level keeps its data as long as the instance, so it reopens the same instance; classic-level closes
 * and opens its directory again. `store` is always the store open now.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openClassicLevelStorage } from '../../adapters/storage/classicLevelStorage.js';
import type { StoragePort } from '../../core/ports.js';

export interface ReopenableStore {
  readonly store: StoragePort;
  reopen(): Promise<StoragePort>;
  /** Closes whatever store is open and removes what was created. */
  cleanup(): Promise<void>;
}

/** An in-memory store (memory-level, or the simulator's), opened; reopening closes and opens the same instance. */
export async function reopenableInMemoryStore(store: StoragePort): Promise<ReopenableStore> {
  await store.open();
  return {
    store,
    async reopen() {
      await store.close();
      await store.open();
      return store;
    },
    cleanup: () => store.close(),
  };
}

/** A classic-level store in a new temporary directory named after `prefix`, removed on cleanup. */
export async function reopenableClassicLevelStore(prefix: string): Promise<ReopenableStore> {
  const dataDirectory = await mkdtemp(path.join(os.tmpdir(), prefix));
  let open: StoragePort = await openClassicLevelStorage(dataDirectory);
  return {
    get store() {
      return open;
    },
    async reopen() {
      await open.close();
      open = await openClassicLevelStorage(dataDirectory);
      return open;
    },
    async cleanup() {
      await open.close();
      await rm(dataDirectory, { recursive: true, force: true });
    },
  };
}
