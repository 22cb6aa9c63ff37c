import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openClassicLevelStorage } from '../../adapters/storage/classicLevelStorage.js';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import type { StoragePort } from '../../core/ports.js';
import { describeWorldStateStorage, type WorldStateStorageHarness } from './worldStateStorage.contract.js';

describeWorldStateStorage('memory-level', async (): Promise<WorldStateStorageHarness> => {
  const store = createMemoryStorage();
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
});

describeWorldStateStorage('classic-level', async (): Promise<WorldStateStorageHarness> => {
  const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'world-state-'));
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
});
