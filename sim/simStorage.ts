import { MemoryLevel } from 'memory-level';
import type { StoragePort } from '../core/ports.js';
import type { PlainOperation } from '../adapters/storage/plainBatch.js';
import { isPlainBatch } from '../adapters/storage/plainBatch.js';

/**
 * Simulated storage is memory-level: every operation settles through microtasks only (no real I/O), which is what
 * the scheduler's run loop needs to stay deterministic.
 *
 * Crashes: memory-level applies a `batch()` in one step (it builds the new tree, then swaps it in), so a crash
 * (which the simulator only injects between events, when every continuation has drained) sees each batch either
 * whole or not at all; a batch the node had not yet issued is simply never written. That is the same promise classic-level makes
 * on disk, so the node's recovery code is tested against the durability it gets in production.
 */

/**
 * Keys and values are kept as strings, which memory-level orders by UTF-16 code units; classic-level orders keys by
 * their UTF-8 bytes. The two orders agree on ASCII, and every key the node writes is ASCII (fixed prefixes, decimal
 * numbers, hex), so this store refuses any other key rather than let the simulator order keys unlike production.
 * (Strings rather than bytes: encoding each key and value to a buffer and comparing keys byte by byte in JavaScript
 * was a tenth of a simulated node's time.)
 */
type WriteOp = { type: 'put' | 'del'; key: string; value?: string };

/** The implementation hooks every write of an abstract-level store goes through (not part of its public types). */
interface LevelWriteHooks {
  _put(key: string, value: string, options: object): Promise<void>;
  _batch(operations: WriteOp[], options: object): Promise<void>;
}

const MemoryLevelWithHooks = MemoryLevel as unknown as new (
  options: ConstructorParameters<typeof MemoryLevel<string, string>>[0],
) => MemoryLevel<string, string> & LevelWriteHooks;

class SimLevel extends MemoryLevelWithHooks {
  constructor() {
    super({ keyEncoding: 'utf8', valueEncoding: 'utf8', storeEncoding: 'utf8' });
  }

  override async _put(key: string, value: string, options: object): Promise<void> {
    assertAsciiKey(key);
    return super._put(key, value, options);
  }

  override async _batch(operations: WriteOp[], options: object): Promise<void> {
    for (const op of operations) if (op.type === 'put') assertAsciiKey(op.key);
    return super._batch(operations, options);
  }

  /**
   * Plain string batches go straight to `_batch` (adapters/storage/plainBatch.ts), with the same checks and the same
   * single await as abstract-level's, so every batch settles after the same microtasks as before.
   */
  // One signature over abstract-level's overloads (array form, or none for a chained batch); `never` fits each.
  override batch(...args: unknown[]): never {
    const [operations, options] = args;
    if (args.length > 0 && isPlainBatch(this, operations, options)) return this.plainBatch(operations) as never;
    return (super.batch as (...rest: unknown[]) => never)(...args);
  }

  private async plainBatch(operations: readonly PlainOperation[]): Promise<void> {
    if (operations.length === 0) return;
    await this._batch(operations as WriteOp[], PLAIN_BATCH_OPTIONS);
  }
}

const PLAIN_BATCH_OPTIONS = Object.freeze({ keyEncoding: 'utf8', valueEncoding: 'utf8' });

const ASCII_RE = /^[\x00-\x7f]*$/;

function assertAsciiKey(key: string): void {
  if (!ASCII_RE.test(key))
    throw new Error(
      `simulated storage keeps ASCII keys only (production orders keys by UTF-8 bytes): ${JSON.stringify(key.slice(0, 80))}`,
    );
}

export function createSimStorage(): StoragePort {
  return new SimLevel();
}

/**
 * The storage a restarted node finds after a crash: a new store holding exactly what was committed. The crashed
 * incarnation keeps its old handle; anything its leftover promise chains still write there is lost, as it would be
 * on a real crash. Call it from outside the run loop (between `runUntil` calls).
 */
export async function crashAndRecover(storage: StoragePort): Promise<StoragePort> {
  const recovered = createSimStorage();
  await recovered.open();
  const operations: { type: 'put'; key: string; value: string }[] = [];
  for await (const [key, value] of storage.iterator({ keyEncoding: 'utf8', valueEncoding: 'utf8' })) {
    operations.push({ type: 'put', key, value });
  }
  await recovered.batch(operations);
  return recovered;
}
