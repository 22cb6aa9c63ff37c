import { MemoryLevel } from 'memory-level';
import type { StoragePort } from '../core/ports.js';

/**
 * Simulated storage is memory-level: every operation settles through microtasks only (no real I/O), which is what
 * the scheduler's run loop needs to stay deterministic.
 *
 * Crashes: memory-level applies a `batch()` in one step (it builds the new tree, then swaps it in), so a crash
 * (which the simulator only injects between events, when every continuation has drained) sees each batch either
 * whole or not at all; a batch the node had not yet issued is simply never written. That is the same promise classic-level makes
 * on disk, so the node's recovery code is tested against the durability it gets in production.
 */

/** Keys are stored as bytes, so iteration order is byte order, as in classic-level (a 'utf8' store would sort by
 * UTF-16 code units and differ from production on non-ASCII keys). */
export function createSimStorage(): StoragePort {
  return new MemoryLevel<string, string>({ keyEncoding: 'utf8', valueEncoding: 'utf8', storeEncoding: 'buffer' });
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
