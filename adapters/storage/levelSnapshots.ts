/**
 * svcAdmin_startSnapshotUpload's destination in production: a local directory (an absolute path or a file:// URL)
 * that does not exist yet or is empty, where the snapshot becomes a LevelDB database of its own: open it with any
 * LevelDB tool, or point a node at it (`--data-directory` of its parent, with the database renamed to node-db). Remote
 * stores (gs://, s3://, https://) are refused by name: uploading to them is not part of this node version.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClassicLevel } from 'classic-level';
import type { SnapshotPort } from '../../core/ports.js';

/** Entries written per batch while copying. */
const SNAPSHOT_BATCH_ENTRIES = 10_000;

function directoryOf(location: string): string | undefined {
  if (location.startsWith('file://')) return fileURLToPath(location);
  return path.isAbsolute(location) ? location : undefined;
}

async function isEmptyOrMissing(directory: string): Promise<boolean> {
  try {
    return (await readdir(directory)).length === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

export function createLevelSnapshots(): SnapshotPort {
  return {
    locationProblem(location) {
      if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location) && !location.startsWith('file://')) {
        return `"${location}" is a remote store; this node writes snapshots to a local directory (an absolute path or a file:// URL)`;
      }
      return directoryOf(location) === undefined ? `"${location}" is not an absolute path or a file:// URL` : undefined;
    },
    async upload(location, entries) {
      const directory = directoryOf(location)!;
      if (!(await isEmptyOrMissing(directory))) throw new Error(`the snapshot directory ${directory} is not empty`);
      await mkdir(directory, { recursive: true });
      const database = new ClassicLevel<string, string>(directory, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
      await database.open();
      try {
        let batch: { type: 'put'; key: string; value: string }[] = [];
        for await (const [key, value] of entries) {
          batch.push({ type: 'put', key, value });
          if (batch.length >= SNAPSHOT_BATCH_ENTRIES) {
            await database.batch(batch);
            batch = [];
          }
        }
        if (batch.length > 0) await database.batch(batch);
      } finally {
        await database.close();
      }
    },
  };
}
