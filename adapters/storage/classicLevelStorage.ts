/**
 * The production storage port: LevelDB through classic-level, at `<dataDirectory>/node-db`.
 *
 * Durability. LevelDB writes are atomic either way, but without `sync` a write acknowledged to the node can still be
 * lost if the machine (not just the process) goes down. classic-level only takes `sync` per call and has no database-wide
 * default, and the port's type (abstract-level's option types) has no `sync` field for the core to pass. So the database
 * opened here is a `ClassicLevel` subclass whose private write methods (abstract-level's implementer API: `_put`,
 * `_del`, `_batch`, `_chainedBatch`) write with `sync: true` unless the caller passed `sync` itself. Being a subclass,
 * it is still a `ClassicLevel`: sublevels, iterators, hooks and events are untouched, and a sublevel's writes reach
 * the root's `_batch`, so they are synced too.
 *
 * `clear()`. classic-level 3.0.0's native clear (binding.cc, ClearWorker) deletes in chunks and stops at a chunk whose
 * keys add up to zero bytes, so it leaves the empty key behind when that key is alone in the last chunk (found by the
 * storage contract's model test). The subclass clears instead with a key iterator and synced batches. Like LevelDB's,
 * a clear is atomic per batch of CLEAR_KEYS_PER_BATCH keys, not as a whole.
 */
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { AbstractChainedBatch } from 'abstract-level';
import { ClassicLevel } from 'classic-level';
import type { AbstractClearOptions } from 'abstract-level';
import type { StoragePort } from '../../core/ports.js';
import type { PlainOperation } from './plainBatch.js';
import { isPlainBatch } from './plainBatch.js';
import { StorageError } from './storageError.js';

/** Name of the database directory inside the node's data directory. */
export const NODE_DATABASE_DIRECTORY_NAME = 'node-db';

/** Opens (creating if missing) the node's database in `dataDirectory`. Throws StorageError. */
export async function openClassicLevelStorage(dataDirectory: string): Promise<StoragePort> {
  const location = path.join(dataDirectory, NODE_DATABASE_DIRECTORY_NAME);
  const details = { dataDirectory, location };
  try {
    await mkdir(location, { recursive: true });
    const database = new DurableClassicLevel(location, {
      keyEncoding: 'utf8',
      valueEncoding: 'utf8',
      createIfMissing: true,
      errorIfExists: false,
    });
    await database.open();
    return database;
  } catch (error) {
    if (isLockedError(error)) {
      throw new StorageError(
        'STORAGE_LOCKED',
        `data directory ${dataDirectory} is in use by another node (its database ${location} is locked): ` +
          'stop that node, or give this one its own data directory',
        details,
        { cause: error },
      );
    }
    throw new StorageError(
      'STORAGE_OPEN_FAILED',
      `Could not open the database in ${location}: ${messageOf(error)}`,
      details,
      { cause: error },
    );
  }
}

/**
 * Refuses (STORAGE_LOCKED, as openClassicLevelStorage) a data directory whose database another node has open, by
 * opening and closing it; a data directory without a database passes, and none is created. For work done in the data
 * directory before the node opens its database (a snapshot install), which must not touch a running node's files.
 */
export async function assertDataDirectoryFree(dataDirectory: string): Promise<void> {
  const location = path.join(dataDirectory, NODE_DATABASE_DIRECTORY_NAME);
  try {
    await stat(location);
  } catch {
    return;
  }
  const storage = await openClassicLevelStorage(dataDirectory);
  await storage.close();
}

// ---------------------------------------------------------------------------------------------------------------

/** Keys deleted per batch by `clear()`. */
const CLEAR_KEYS_PER_BATCH = 1_000;

type EncodedKey = string | Uint8Array;

interface WriteOptions {
  readonly sync?: boolean;
}

/** An operation as abstract-level hands it to an implementation: key and value already encoded. */
interface EncodedOperation {
  readonly type: 'put' | 'del';
  readonly key: unknown;
  readonly value?: unknown;
  readonly keyEncoding?: string;
}

/** classic-level's private write methods, which its type declarations leave out. */
interface ClassicLevelWrites {
  _put(key: unknown, value: unknown, options: WriteOptions): Promise<void>;
  _del(key: unknown, options: WriteOptions): Promise<void>;
  _batch(operations: readonly EncodedOperation[], options: WriteOptions): Promise<void>;
}

const classicLevelWrites = ClassicLevel.prototype as unknown as ClassicLevelWrites;

/** `options` with `sync: true` unless the caller chose. */
function durable(options: WriteOptions): WriteOptions {
  return options.sync === undefined ? { ...options, sync: true } : options;
}

class DurableClassicLevel extends ClassicLevel<string, string> {
  _put(key: unknown, value: unknown, options: WriteOptions): Promise<void> {
    return classicLevelWrites._put.call(this, key, value, durable(options));
  }

  _del(key: unknown, options: WriteOptions): Promise<void> {
    return classicLevelWrites._del.call(this, key, durable(options));
  }

  _batch(operations: readonly EncodedOperation[], options: WriteOptions): Promise<void> {
    return classicLevelWrites._batch.call(this, operations, durable(options));
  }

  /** Plain string batches skip abstract-level's copy of each operation (./plainBatch.ts). */
  // One signature over abstract-level's overloads (array form, or none for a chained batch); `never` fits each.
  override batch(...args: unknown[]): never {
    const [operations, options] = args;
    if (args.length > 0 && isPlainBatch(this, operations, options))
      return this.plainBatch(operations, (options ?? {}) as WriteOptions) as never;
    return (super.batch as (...rest: unknown[]) => never)(...args);
  }

  private async plainBatch(operations: readonly PlainOperation[], options: WriteOptions): Promise<void> {
    if (operations.length === 0) return;
    await this._batch(operations, options);
  }

  /**
   * abstract-level has already encoded the range: with the key encoding set to that encoding's format, iterating
   * with the same options visits exactly the keys to delete.
   */
  async _clear(options: AbstractClearOptions<EncodedKey> & { readonly keyEncoding: string }): Promise<void> {
    const iterator = this.keys<EncodedKey>(options);
    try {
      for (;;) {
        const keys = await iterator.nextv(CLEAR_KEYS_PER_BATCH);
        if (keys.length === 0) return;
        await this._batch(
          keys.map((key) => ({ type: 'del', key, keyEncoding: options.keyEncoding })),
          {},
        );
      }
    } finally {
      await iterator.close();
    }
  }

  /** Chained batches collect operations and commit them through `_batch`, so they are synced the same way. */
  _chainedBatch(): DurableChainedBatch {
    return new DurableChainedBatch(this);
  }
}

class DurableChainedBatch extends AbstractChainedBatch<DurableClassicLevel, string, string> {
  #operations: EncodedOperation[] = [];

  _put(_key: unknown, _value: unknown, operation: EncodedOperation): void {
    this.#operations.push(operation);
  }

  _del(_key: unknown, operation: EncodedOperation): void {
    this.#operations.push(operation);
  }

  _clear(): void {
    this.#operations = [];
  }

  _write(options: WriteOptions): Promise<void> {
    return this.db._batch(this.#operations, options);
  }
}

// ---------------------------------------------------------------------------------------------------------------

/** How far down an error's `cause` chain to look for LevelDB's lock error. */
const ERROR_CAUSE_DEPTH_MAX = 8;

/** classic-level reports a held LevelDB LOCK file as code LEVEL_LOCKED, wrapped by abstract-level's open error. */
function isLockedError(error: unknown): boolean {
  let cause = error;
  for (let depth = 0; cause instanceof Error && depth < ERROR_CAUSE_DEPTH_MAX; depth++, cause = cause.cause) {
    if ((cause as { code?: unknown }).code === 'LEVEL_LOCKED') return true;
  }
  return false;
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}
