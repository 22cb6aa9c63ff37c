import fc from 'fast-check';
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import type { StoragePort } from '../core/ports.js';
import { isPlainBatch, type PlainOperation } from '../adapters/storage/plainBatch.js';
import { createSimStorage } from './simStorage.js';

/**
 * The simulated store against the one it replaced, memory-level under the same wrapper (sim/simStorage.ts): for any sequence of writes,
 * range reads, clears and snapshot reads over ASCII keys, both give the same answers, and each operation settles after
 * the same number of microtask turns, which is what keeps the simulator's recorded trace hashes.
 */

const KEY = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '0', '1', ':', '~'), maxLength: 4 });

const RANGE: fc.Arbitrary<RangeOptions> = fc.record(
  {
    gt: KEY,
    gte: KEY,
    lt: KEY,
    lte: KEY,
    reverse: fc.boolean(),
    limit: fc.integer({ min: -1, max: 6 }),
  },
  { requiredKeys: [] },
);

interface RangeOptions {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
  reverse?: boolean;
  limit?: number;
}

type Op =
  | { kind: 'put'; key: string; value: string }
  | { kind: 'del'; key: string }
  | { kind: 'batch'; ops: { type: 'put' | 'del'; key: string; value: string }[] }
  | { kind: 'get'; keys: string[] }
  | { kind: 'entries' | 'keys' | 'values' | 'clear' | 'snapshotEntries'; range: RangeOptions };

const OP: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), key: KEY, value: fc.string({ maxLength: 3 }) }),
  fc.record({ kind: fc.constant('del' as const), key: KEY }),
  fc.record({
    kind: fc.constant('batch' as const),
    ops: fc.array(fc.record({ type: fc.constantFrom('put' as const, 'del' as const), key: KEY, value: fc.string() }), {
      maxLength: 40,
    }),
  }),
  fc.record({ kind: fc.constant('get' as const), keys: fc.array(KEY, { maxLength: 3 }) }),
  fc.record({
    kind: fc.constantFrom(
      'entries' as const,
      'keys' as const,
      'values' as const,
      'clear' as const,
      'snapshotEntries' as const,
    ),
    range: RANGE,
  }),
);

type WriteOp = { type: 'put' | 'del'; key: string; value?: string };

const MemoryLevelWithHooks = MemoryLevel as unknown as new (options: object) => MemoryLevel<string, string> & {
  _put(key: string, value: string, options: object): Promise<void>;
  _batch(operations: WriteOp[], options: object): Promise<void>;
};

/** The simulator's store as it was over memory-level (its key checks left out): the timing runs were recorded with. */
class ReferenceLevel extends MemoryLevelWithHooks {
  constructor() {
    super({ keyEncoding: 'utf8', valueEncoding: 'utf8', storeEncoding: 'utf8' });
  }

  override async _put(key: string, value: string, options: object): Promise<void> {
    return super._put(key, value, options);
  }

  override async _batch(operations: WriteOp[], options: object): Promise<void> {
    return super._batch(operations, options);
  }

  override batch(...args: unknown[]): never {
    const [operations, options] = args;
    if (args.length > 0 && isPlainBatch(this as never, operations, options))
      return this.plainBatch(operations) as never;
    return (super.batch as (...rest: unknown[]) => never)(...args);
  }

  private async plainBatch(operations: readonly PlainOperation[]): Promise<void> {
    if (operations.length === 0) return;
    await this._batch(operations as WriteOp[], {});
  }
}

function referenceStore(): StoragePort {
  return new ReferenceLevel() as unknown as StoragePort;
}

/** Runs `op`, returning what it answered and how many microtask turns passed before it settled. */
async function run(storage: StoragePort, op: Op): Promise<{ answer: unknown; turns: number }> {
  let settled = false;
  const answer = perform(storage, op).finally(() => (settled = true));
  let turns = 0;
  while (!settled && turns < 1_000) {
    await Promise.resolve();
    turns++;
  }
  return { answer: await answer, turns };
}

async function perform(storage: StoragePort, op: Op): Promise<unknown> {
  switch (op.kind) {
    case 'put':
      return storage.put(op.key, op.value);
    case 'del':
      return storage.del(op.key);
    case 'batch':
      return storage.batch(op.ops.map((o) => (o.type === 'put' ? o : { type: 'del' as const, key: o.key })));
    case 'get':
      return [await storage.get(op.keys[0] ?? ''), await storage.getMany(op.keys)];
    case 'entries':
      return storage.iterator(op.range).all();
    case 'keys':
      return storage.keys(op.range).all();
    case 'values': {
      const values: string[] = [];
      for await (const value of storage.values(op.range)) values.push(value);
      return values;
    }
    case 'clear':
      return storage.clear(op.range);
    case 'snapshotEntries': {
      const snapshot = storage.snapshot();
      await storage.put('b', 'written after the snapshot');
      await storage.del('a');
      const seen = await storage.iterator({ ...op.range, snapshot }).all();
      const got = await storage.get('a', { snapshot });
      await snapshot.close();
      return [seen, got];
    }
  }
}

describe('sim storage against memory-level', () => {
  it('answers every sequence of operations alike, after the same microtask turns', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(OP, { maxLength: 25 }), async (ops) => {
        const sim = createSimStorage();
        const reference = referenceStore();
        await sim.open();
        await reference.open();
        for (const op of ops) {
          const [got, expected] = [await run(sim, op), await run(reference, op)];
          expect(got).toEqual(expected);
        }
        expect(await sim.iterator().all()).toEqual(await reference.iterator().all());
      }),
      { numRuns: 300 },
    );
  });

  it('clears a range of more keys than one turn deletes, as memory-level does', async () => {
    const keys = Array.from({ length: 1_203 }, (_, i) => `k${String(i).padStart(5, '0')}`);
    const sim = createSimStorage();
    const reference = referenceStore();
    for (const storage of [sim, reference]) {
      await storage.open();
      await storage.batch(keys.map((key) => ({ type: 'put' as const, key, value: key })));
      await storage.clear({ gte: 'k00100', lt: 'k01200' });
    }
    expect(await sim.keys().all()).toEqual(await reference.keys().all());
    expect(await sim.keys().all()).toHaveLength(103);
  });
});
