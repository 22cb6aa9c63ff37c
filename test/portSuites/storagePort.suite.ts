/**
 * The storage port's contract: what the core may rely on from any adapter. Run against every adapter (see
 * storagePort.test.ts), so the in-memory store and LevelDB provably behave the same.
 */
import type { AbstractBatchOperation } from 'abstract-level';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoragePort } from '../../core/ports.js';

export interface StorageHarness {
  /** An open, empty store. */
  readonly store: StoragePort;
  /**
   * The same data seen through a freshly opened store: close and open again where the adapter persists, the same
   * instance closed and reopened where it does not. Writes not yet issued at the call are lost, as in a crash.
   */
  reopen(): Promise<StoragePort>;
  /** Closes whatever store is open and removes what the harness created. */
  cleanup(): Promise<void>;
}

type Entry = readonly [key: string, value: string];
type BatchOperation = { type: 'put'; key: string; value: string } | { type: 'del'; key: string };

/** Fixed-width decimal, as the core keys numbered records: lexicographic order is then numeric order. */
const padded = (n: number): string => n.toString().padStart(12, '0');

/** LevelDB's order: bytewise over the UTF-8 encoding (not JavaScript's UTF-16 code unit order). */
const compareUtf8 = (a: string, b: string): number => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

const entriesOf = async (store: StoragePort): Promise<Entry[]> => store.iterator().all();

/**
 * Which keys a store takes: any Unicode text, or ASCII only (the simulated store, which orders keys as JavaScript
 * strings and so refuses keys whose UTF-16 order could differ from production's UTF-8 byte order).
 */
export type StorageKeys = 'unicode' | 'ascii';

export function describeStoragePort(
  name: string,
  makeStore: () => Promise<StorageHarness>,
  keys: StorageKeys = 'unicode',
): void {
  describe(`StoragePort contract: ${name}`, () => {
    let harness: StorageHarness;
    beforeEach(async () => {
      harness = await makeStore();
    });
    afterEach(async () => {
      await harness.cleanup();
    });

    describeReadsAndWrites(() => harness);
    describeBatches(() => harness);
    describeIteration(() => harness, keys);
    describeClear(() => harness);
    describeSublevels(() => harness);
    describePersistence(() => harness);
    describeModelEquivalence(() => harness, keys);
  });
}

// ---------------------------------------------------------------------------------------------------------------

function describeReadsAndWrites(current: () => StorageHarness): void {
  describe('put, get, del', () => {
    it('reads back what was put, the latest value winning', async () => {
      const { store } = current();
      await store.put('meta:tips', 'first');
      await store.put('meta:tips', 'second');
      expect(await store.get('meta:tips')).toBe('second');
      expect(await store.has('meta:tips')).toBe(true);
    });

    it('returns undefined for a missing key, also in getMany', async () => {
      const { store } = current();
      await store.put('present', 'yes');
      expect(await store.get('absent')).toBeUndefined();
      expect(await store.has('absent')).toBe(false);
      expect(await store.getMany(['absent', 'present'])).toEqual([undefined, 'yes']);
    });

    it('deletes a key, and deleting a missing key is not an error', async () => {
      const { store } = current();
      await store.put('k', 'v');
      await store.del('k');
      await store.del('never-written');
      expect(await store.get('k')).toBeUndefined();
      expect(await entriesOf(store)).toEqual([]);
    });

    it('stores the empty string as a key and as a value, and any Unicode text unchanged', async () => {
      const { store } = current();
      await store.put('', 'empty key');
      await store.put('empty value', '');
      await store.put('text', 'é 😀 \u0000 \uFFFF');
      expect(await store.get('')).toBe('empty key');
      expect(await store.get('empty value')).toBe('');
      expect(await store.get('text')).toBe('é 😀 \u0000 \uFFFF');
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------

/** Batches that abstract-level must refuse as a whole, each with one bad operation last. */
const invalidOperations: readonly [string, unknown][] = [
  ['an undefined value', { type: 'put', key: 'bad', value: undefined }],
  ['a null key', { type: 'put', key: null, value: 'v' }],
  ['an unknown type', { type: 'merge', key: 'bad', value: 'v' }],
];

function describeBatches(current: () => StorageHarness): void {
  describe('batch', () => {
    it('applies puts and deletes together, in order within the batch', async () => {
      const { store } = current();
      await store.put('old', 'x');
      await store.batch([
        { type: 'put', key: 'a', value: '1' },
        { type: 'del', key: 'old' },
        { type: 'put', key: 'b', value: '2' },
        { type: 'put', key: 'a', value: '3' },
        { type: 'del', key: 'b' },
      ]);
      expect(await entriesOf(store)).toEqual([['a', '3']]);
    });

    for (const [description, invalid] of invalidOperations) {
      it(`writes nothing of a batch with ${description}`, async () => {
        const { store } = current();
        await store.put('kept', 'before');
        const operations = [
          { type: 'put', key: 'new', value: 'v' },
          { type: 'del', key: 'kept' },
          invalid,
        ] as BatchOperation[];
        await expect(store.batch(operations)).rejects.toThrow();
        expect(await entriesOf(store)).toEqual([['kept', 'before']]);
      });
    }

    it('commits a chained batch on write, and nothing of one that is closed unwritten', async () => {
      const { store } = current();
      await store.batch().put('a', '1').put('b', '2').del('a').write();
      const abandoned = store.batch().put('c', '3').del('b');
      await abandoned.close();
      expect(await entriesOf(store)).toEqual([['b', '2']]);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------

/** Block numbers written out of order, spanning several decimal widths. */
const blockNumbers = [7, 1000, 0, 42, 9, 10, 999, 100, 1, 11];
const blockKey = (n: number): string => `block:${padded(n)}`;
const sortedBlockKeys = [...blockNumbers].sort((a, b) => a - b).map(blockKey);

function describeIteration(current: () => StorageHarness, keys: StorageKeys): void {
  describe('iteration', () => {
    const fill = async (store: StoragePort): Promise<void> => {
      await store.batch(blockNumbers.map((n) => ({ type: 'put' as const, key: blockKey(n), value: String(n) })));
    };

    it('visits fixed-width decimal keys in numeric order, values beside their keys', async () => {
      const { store } = current();
      await fill(store);
      const entries = await entriesOf(store);
      expect(entries.map(([key]) => key)).toEqual(sortedBlockKeys);
      for (const [key, value] of entries) expect(key).toBe(blockKey(Number(value)));
      expect(await store.values().all()).toEqual(sortedBlockKeys.map((key) => String(Number(key.slice(6)))));
    });

    it('orders unpadded decimals as text, which is why the core pads them', async () => {
      const { store } = current();
      await store.batch(['9', '10', '100', '11'].map((key) => ({ type: 'put' as const, key, value: key })));
      expect(await store.keys().all()).toEqual(['10', '100', '11', '9']);
    });

    it('bounds a range with gt, gte, lt and lte', async () => {
      const { store } = current();
      await fill(store);
      expect(await store.keys({ gte: blockKey(9), lte: blockKey(100) }).all()).toEqual(
        [9, 10, 11, 42, 100].map(blockKey),
      );
      expect(await store.keys({ gt: blockKey(9), lt: blockKey(100) }).all()).toEqual([10, 11, 42].map(blockKey));
      expect(await store.keys({ gt: blockKey(999) }).all()).toEqual([1000].map(blockKey));
      expect(await store.keys({ lt: blockKey(1) }).all()).toEqual([0].map(blockKey));
      expect(await store.keys({ gte: blockKey(5), lte: blockKey(6) }).all()).toEqual([]);
    });

    it('walks backwards with reverse, and stops after limit entries from the start of the walk', async () => {
      const { store } = current();
      await fill(store);
      expect(await store.keys({ reverse: true }).all()).toEqual([...sortedBlockKeys].reverse());
      expect(await store.keys({ limit: 3 }).all()).toEqual(sortedBlockKeys.slice(0, 3));
      expect(await store.keys({ reverse: true, limit: 2 }).all()).toEqual([1000, 999].map(blockKey));
      expect(await store.keys({ lt: blockKey(100), reverse: true, limit: 1 }).all()).toEqual([42].map(blockKey));
      expect(await store.iterator({ gte: blockKey(10), limit: 2 }).all()).toEqual([
        [blockKey(10), '10'],
        [blockKey(11), '11'],
      ]);
      expect(await store.keys({ limit: 0 }).all()).toEqual([]);
    });

    it.runIf(keys === 'unicode')('orders keys by their UTF-8 bytes', async () => {
      const { store } = current();
      const keys = ['😀', '\uFFFF', 'é', 'a', 'Z', '', 'a\u0000'];
      await store.batch(keys.map((key) => ({ type: 'put' as const, key, value: 'v' })));
      expect(await store.keys().all()).toEqual([...keys].sort(compareUtf8));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------

function describeClear(current: () => StorageHarness): void {
  describe('clear', () => {
    it('removes every key, the empty key and sublevels included', async () => {
      const { store } = current();
      await store.put('', 'empty key');
      await store.put('a', '1');
      await store.sublevel('blocks').put(padded(1), 'block one');
      await store.clear();
      expect(await entriesOf(store)).toEqual([]);
      await store.put('', 'alone');
      await store.clear();
      expect(await entriesOf(store)).toEqual([]);
    });

    it('removes only the keys in range, honouring reverse and limit', async () => {
      const { store } = current();
      const keys = [0, 1, 2, 3, 4, 5].map(padded);
      await store.batch(keys.map((key) => ({ type: 'put' as const, key, value: key })));
      await store.clear({ gte: padded(1), lt: padded(3) });
      expect(await store.keys().all()).toEqual([0, 3, 4, 5].map(padded));
      await store.clear({ reverse: true, limit: 2 });
      expect(await store.keys().all()).toEqual([0, 3].map(padded));
      await store.clear({ gt: padded(0), limit: 0 });
      expect(await store.keys().all()).toEqual([0, 3].map(padded));
    });

    it('clears a sublevel without touching the root or other sublevels', async () => {
      const { store } = current();
      const blocks = store.sublevel('blocks');
      const tips = store.sublevel('tips');
      await blocks.batch([1, 2].map((n) => ({ type: 'put' as const, key: padded(n), value: String(n) })));
      await tips.put('proposed', padded(2));
      await store.put('meta:identity', 'chain');
      await blocks.clear();
      expect(await blocks.keys().all()).toEqual([]);
      expect(await tips.get('proposed')).toBe(padded(2));
      expect(await store.get('meta:identity')).toBe('chain');
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------

function describeSublevels(current: () => StorageHarness): void {
  describe('sublevels', () => {
    it('keeps the same key apart in different sublevels and the root', async () => {
      const { store } = current();
      const blocks = store.sublevel('blocks');
      const checkpoints = store.sublevel('checkpoints');
      await blocks.put(padded(1), 'block one');
      await checkpoints.put(padded(1), 'checkpoint one');
      await store.put(padded(1), 'root one');
      expect(await blocks.get(padded(1))).toBe('block one');
      expect(await checkpoints.get(padded(1))).toBe('checkpoint one');
      expect(await store.get(padded(1))).toBe('root one');
      expect(await blocks.iterator().all()).toEqual([[padded(1), 'block one']]);
      await blocks.del(padded(1));
      expect(await checkpoints.get(padded(1))).toBe('checkpoint one');
    });

    it('iterates a sublevel over its own keys only, with ranges relative to it', async () => {
      const { store } = current();
      const blocks = store.sublevel('blocks');
      await store.put('a', 'root');
      await store.put('z', 'root');
      await blocks.batch([3, 1, 2].map((n) => ({ type: 'put' as const, key: padded(n), value: String(n) })));
      expect(await blocks.keys().all()).toEqual([1, 2, 3].map(padded));
      expect(await blocks.keys({ gt: padded(1), reverse: true }).all()).toEqual([3, 2].map(padded));
    });

    it('commits a root batch spanning two sublevels as one', async () => {
      const { store } = current();
      const blocks = store.sublevel('blocks');
      const tips = store.sublevel('tips');
      await store.batch([
        { type: 'put', sublevel: blocks, key: padded(1), value: 'block one' },
        { type: 'put', sublevel: tips, key: 'proposed', value: padded(1) },
      ]);
      const failing = [
        { type: 'put', sublevel: blocks, key: padded(2), value: 'block two' },
        { type: 'put', sublevel: tips, key: 'proposed', value: padded(2) },
        { type: 'put', sublevel: tips, key: 'checkpointed', value: undefined },
      ] as AbstractBatchOperation<StoragePort, string, string>[];
      await expect(store.batch(failing)).rejects.toThrow();
      expect(await blocks.iterator().all()).toEqual([[padded(1), 'block one']]);
      expect(await tips.iterator().all()).toEqual([['proposed', padded(1)]]);
    });

    it('commits a chained batch spanning two sublevels as one', async () => {
      const { store } = current();
      const blocks = store.sublevel('blocks');
      const tips = store.sublevel('tips');
      await store
        .batch()
        .put(padded(1), 'block one', { sublevel: blocks })
        .put('proposed', padded(1), { sublevel: tips })
        .write();
      expect(await blocks.get(padded(1))).toBe('block one');
      expect(await tips.get('proposed')).toBe(padded(1));
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------

function describePersistence(current: () => StorageHarness): void {
  describe('persistence', () => {
    it('keeps puts, deletes, batches and sublevels across a reopen', async () => {
      const { store } = current();
      await store.put('a', '1');
      await store.put('gone', 'x');
      await store.del('gone');
      await store.batch([
        { type: 'put', key: 'b', value: '2' },
        { type: 'put', sublevel: store.sublevel('blocks'), key: padded(1), value: 'block one' },
      ]);
      const reopened = await current().reopen();
      expect(await reopened.get('a')).toBe('1');
      expect(await reopened.get('gone')).toBeUndefined();
      expect(await reopened.get('b')).toBe('2');
      expect(await reopened.sublevel('blocks').get(padded(1))).toBe('block one');
    });

    it('after a crash between two batches, has all of the first and nothing of the second', async () => {
      const { store } = current();
      const blocks = store.sublevel('blocks');
      await store.batch([
        { type: 'put', sublevel: blocks, key: padded(1), value: 'block one' },
        { type: 'put', key: 'meta:tips', value: padded(1) },
      ]);
      // The second batch is prepared but the node stops before issuing it.
      store
        .batch()
        .put(padded(2), 'block two', { sublevel: blocks })
        .put('meta:tips', padded(2))
        .del(padded(1), { sublevel: blocks });
      const reopened = await current().reopen();
      expect(await reopened.get('meta:tips')).toBe(padded(1));
      expect(await reopened.sublevel('blocks').iterator().all()).toEqual([[padded(1), 'block one']]);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------

interface RangeQuery {
  readonly gte?: string;
  readonly lt?: string;
  readonly reverse: boolean;
  readonly limit: number;
}

type Command =
  | { readonly kind: 'put'; readonly key: string; readonly value: string }
  | { readonly kind: 'del'; readonly key: string }
  | { readonly kind: 'batch'; readonly operations: readonly BatchOperation[] }
  | { readonly kind: 'clear'; readonly range: RangeQuery };

/** A few keys that commands keep returning to, so that overwrites and deletes of present keys are common. */
const keyPools: Record<StorageKeys, readonly string[]> = {
  unicode: ['', 'a', 'b', 'é', '😀', '\uFFFF', padded(1), padded(10), padded(2)],
  ascii: ['', 'a', 'b', 'a\u0000', '\u007f', padded(1), padded(10), padded(2)],
};
const asciiUnit = fc.integer({ min: 0, max: 0x7f }).map((code) => String.fromCharCode(code));
const valueArbitrary = fc.string({ unit: 'binary', maxLength: 8 });

function commandArbitraries(keys: StorageKeys): {
  command: fc.Arbitrary<Command>;
  range: fc.Arbitrary<RangeQuery>;
} {
  const key = fc.oneof(
    fc.constantFrom(...keyPools[keys]),
    fc.string({ unit: keys === 'ascii' ? asciiUnit : 'binary', maxLength: 4 }),
  );
  const batchOperation: fc.Arbitrary<BatchOperation> = fc.oneof(
    fc.record({ type: fc.constant('put' as const), key, value: valueArbitrary }),
    fc.record({ type: fc.constant('del' as const), key }),
  );
  const range: fc.Arbitrary<RangeQuery> = fc.record(
    { gte: key, lt: key, reverse: fc.boolean(), limit: fc.integer({ min: -1, max: 5 }) },
    { requiredKeys: ['reverse', 'limit'] },
  );
  const command: fc.Arbitrary<Command> = fc.oneof(
    fc.record({ kind: fc.constant('put' as const), key, value: valueArbitrary }),
    fc.record({ kind: fc.constant('del' as const), key }),
    fc.record({ kind: fc.constant('batch' as const), operations: fc.array(batchOperation, { maxLength: 8 }) }),
    fc.record({ kind: fc.constant('clear' as const), range }),
  );
  return { command, range };
}

/** Runs of the property per adapter; each run issues up to 20 commands (a batch holds up to 8 operations). */
const MODEL_RUNS = 60;

async function applyCommand(store: StoragePort, model: Map<string, string>, command: Command): Promise<void> {
  switch (command.kind) {
    case 'put':
      await store.put(command.key, command.value);
      model.set(command.key, command.value);
      return;
    case 'del':
      await store.del(command.key);
      model.delete(command.key);
      return;
    case 'batch':
      await store.batch([...command.operations]);
      for (const operation of command.operations) {
        if (operation.type === 'put') model.set(operation.key, operation.value);
        else model.delete(operation.key);
      }
      return;
    case 'clear':
      await store.clear({ ...command.range });
      for (const [key] of expectedRange(model, command.range)) model.delete(key);
      return;
  }
}

/** What a range query must return, computed from the model. `limit: -1` means no limit. */
function expectedRange(model: ReadonlyMap<string, string>, range: RangeQuery): Entry[] {
  const inRange = [...model]
    .filter(([key]) => range.gte === undefined || compareUtf8(key, range.gte) >= 0)
    .filter(([key]) => range.lt === undefined || compareUtf8(key, range.lt) < 0)
    .sort(([a], [b]) => compareUtf8(a, b));
  const ordered = range.reverse ? inRange.reverse() : inRange;
  return range.limit === -1 ? ordered : ordered.slice(0, range.limit);
}

function describeModelEquivalence(current: () => StorageHarness, keys: StorageKeys): void {
  describe('model', () => {
    it('ends equal to a Map after any sequence of puts, deletes, batches and clears', async () => {
      const { store } = current();
      const arbitraries = commandArbitraries(keys);
      await fc.assert(
        fc.asyncProperty(
          fc.array(arbitraries.command, { maxLength: 20 }),
          arbitraries.range,
          async (commands, range) => {
            // Start empty without clear(), which is under test: then a failing run replays on its own.
            await store.batch((await store.keys().all()).map((key) => ({ type: 'del' as const, key })));
            const model = new Map<string, string>();
            for (const command of commands) await applyCommand(store, model, command);
            expect(await entriesOf(store)).toEqual(expectedRange(model, { reverse: false, limit: -1 }));
            expect(await store.iterator({ ...range }).all()).toEqual(expectedRange(model, range));
          },
        ),
        { numRuns: MODEL_RUNS },
      );
    });
  });
}
