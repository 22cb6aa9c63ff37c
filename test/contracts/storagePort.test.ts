import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openClassicLevelStorage } from '../../adapters/storage/classicLevelStorage.js';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import type { StoragePort } from '../../core/ports.js';
import { describeStoragePort, type StorageHarness } from './storagePort.contract.js';

describeStoragePort('memory-level', async (): Promise<StorageHarness> => {
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

describeStoragePort('classic-level', async (): Promise<StorageHarness> => {
  const dataDirectory = await mkdtemp(path.join(os.tmpdir(), 'storage-contract-'));
  let open: StoragePort = await openClassicLevelStorage(dataDirectory);
  return {
    store: open,
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
