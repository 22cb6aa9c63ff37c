import type { StoragePort } from '../core/ports.js';
import { SimLevel } from './simLevel.js';

/**
 * Simulated storage is a SimLevel (sim/simLevel.ts): every operation settles through microtasks only (no real I/O),
 * which is what the scheduler's run loop needs to stay deterministic.
 *
 * Crashes: a `batch()` applies in one synchronous step, so a crash (which the simulator only injects between events,
 * when every continuation has drained) sees each batch either whole or not at all; a batch the node had not yet
 * issued is simply never written. That is the same promise classic-level makes on disk, so the node's recovery code
 * is tested against the durability it gets in production.
 */
export function createSimStorage(): StoragePort {
  return new SimLevel();
}

/**
 * The storage a restarted node finds after a crash: a new store holding exactly what was committed. The crashed
 * incarnation keeps its old handle; anything its leftover promise chains still write there is lost, as it would be
 * on a real crash. Call it from outside the run loop (between `runUntil` calls).
 */
export async function crashAndRecover(storage: StoragePort): Promise<StoragePort> {
  if (storage instanceof SimLevel) {
    const recovered = storage.copy();
    await recovered.open();
    return recovered;
  }
  const recovered = createSimStorage();
  await recovered.open();
  const operations: { type: 'put'; key: string; value: string }[] = [];
  for await (const [key, value] of storage.iterator({ keyEncoding: 'utf8', valueEncoding: 'utf8' })) {
    operations.push({ type: 'put', key, value });
  }
  await recovered.batch(operations);
  return recovered;
}
