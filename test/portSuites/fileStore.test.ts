import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createFileStore } from '../../adapters/fileStore/fileStore.js';
import { describeFileStorePort } from './fileStore.suite.js';

async function temporaryDirectory(): Promise<{ directory: string; remove: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'file-store-contract-'));
  return { directory, remove: () => rm(directory, { recursive: true, force: true }) };
}

describeFileStorePort('file://', async () => {
  const { directory, remove } = await temporaryDirectory();
  return { store: createFileStore(pathToFileURL(join(directory, 'base')).href), cleanup: remove };
});
