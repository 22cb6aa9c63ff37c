import fc from 'fast-check';
import { MemoryLevel } from 'memory-level';
import { describe, expect, it } from 'vitest';
import type { StoragePort } from '../core/ports.js';
import { SimLevel } from './simLevel.js';

type Range = { gt?: string; gte?: string; lt?: string; lte?: string; reverse: boolean; limit: number };

type Step =
  | { readonly kind: 'put'; readonly key: string; readonly value: string }
  | { readonly kind: 'del'; readonly key: string }
  | { readonly kind: 'batch'; readonly puts: readonly (readonly [string, string])[]; readonly dels: readonly string[] }
  | { readonly kind: 'open'; readonly range: Range; readonly snapshot: boolean }
  | { readonly kind: 'read'; readonly reader: number; readonly count: number }
  | { readonly kind: 'seek'; readonly reader: number; readonly target: string }
  | { readonly kind: 'close'; readonly reader: number }
  | { readonly kind: 'snapshot' }
  | { readonly kind: 'get'; readonly snapshot: number; readonly key: string }
  | { readonly kind: 'releaseSnapshot'; readonly snapshot: number };

const key = fc.constantFrom('', 'a', 'a\u0000', 'ab', 'b', 'c', '0001', '0002', '0010', '~');
const value = fc.string({ maxLength: 3 });
const bound = fc.option(key, { nil: undefined });
const range: fc.Arbitrary<Range> = fc
  .record({ low: bound, high: bound, lowOpen: fc.boolean(), highOpen: fc.boolean(), reverse: fc.boolean() })
  .chain((r) =>
    fc.integer({ min: -1, max: 6 }).map((limit) => ({
      ...(r.low === undefined ? {} : r.lowOpen ? { gt: r.low } : { gte: r.low }),
      ...(r.high === undefined ? {} : r.highOpen ? { lt: r.high } : { lte: r.high }),
      reverse: r.reverse,
      limit,
    })),
  );
const index = fc.nat(3);
// Weighted towards writes between opening a reader and reading it, the case a copy-on-write store can get wrong.
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('put' as const), key, value }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('del' as const), key }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('batch' as const),
      puts: fc.array(fc.tuple(key, value), { maxLength: 4 }),
      dels: fc.array(key, { maxLength: 2 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('open' as const), range, snapshot: fc.boolean() }) },
  {
    weight: 4,
    arbitrary: fc.record({ kind: fc.constant('read' as const), reader: index, count: fc.integer({ min: 1, max: 4 }) }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('seek' as const), reader: index, target: key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), reader: index }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('snapshot' as const) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('get' as const), snapshot: index, key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('releaseSnapshot' as const), snapshot: index }) },
);

type Iter = ReturnType<StoragePort['iterator']>;
type Snap = ReturnType<StoragePort['snapshot']>;

/**
 * What a read gave, or the code of the error it threw: a reader over a snapshot released since refuses to read
 * (LEVEL_SNAPSHOT_NOT_OPEN), and both stores must refuse alike.
 */
async function outcome<T>(read: () => Promise<T>): Promise<T | { readonly error: unknown }> {
  try {
    return await read();
  } catch (error) {
    return { error: (error as { code?: unknown }).code ?? String(error) };
  }
}

/** Runs `steps` on `store`, returning everything read: the observable behaviour two stores must share. */
async function observe(store: StoragePort, steps: readonly Step[]): Promise<unknown[]> {
  await store.open();
  const seen: unknown[] = [];
  const readers: (Iter | undefined)[] = [];
  const snapshots: (Snap | undefined)[] = [];
  for (const s of steps) {
    switch (s.kind) {
      case 'put':
        await store.put(s.key, s.value);
        break;
      case 'del':
        await store.del(s.key);
        break;
      case 'batch':
        await store.batch([
          ...s.puts.map(([k, v]) => ({ type: 'put' as const, key: k, value: v })),
          ...s.dels.map((k) => ({ type: 'del' as const, key: k })),
        ]);
        break;
      case 'open': {
        const snapshot = s.snapshot ? snapshots.findLast((x) => x !== undefined) : undefined;
        readers.push(store.iterator({ ...s.range, ...(snapshot === undefined ? {} : { snapshot }) }));
        break;
      }
      case 'read': {
        const reader = readers[s.reader];
        seen.push(reader === undefined ? 'none' : await outcome(() => reader.nextv(s.count)));
        break;
      }
      case 'seek':
        readers[s.reader]?.seek(s.target);
        break;
      case 'close':
        await readers[s.reader]?.close();
        readers[s.reader] = undefined;
        break;
      case 'snapshot':
        snapshots.push(store.snapshot());
        break;
      case 'get': {
        const snapshot = snapshots[s.snapshot];
        seen.push(snapshot === undefined ? 'none' : await store.get(s.key, { snapshot }));
        break;
      }
      case 'releaseSnapshot':
        await snapshots[s.snapshot]?.close();
        snapshots[s.snapshot] = undefined;
        break;
    }
  }
  seen.push(await store.iterator().all());
  await store.close();
  return seen;
}

describe('SimLevel', () => {
  it('reads, iterates, seeks and snapshots as memory-level does, whatever is written while readers are open', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 40 }), async (steps) => {
        const model = new MemoryLevel<string, string>({ storeEncoding: 'utf8' }) as unknown as StoragePort;
        expect(await observe(new SimLevel(), steps)).toEqual(await observe(model, steps));
      }),
      {
        numRuns: 1_000,
        // A reader over a snapshot released before it reads: both stores refuse (once a random draw, ~1 run in 10).
        examples: [
          [
            [
              { kind: 'snapshot' },
              { kind: 'open', range: { reverse: false, limit: 0 }, snapshot: true },
              { kind: 'releaseSnapshot', snapshot: 0 },
              { kind: 'read', reader: 0, count: 1 },
            ],
          ],
        ],
      },
    );
  });

  it('a copy holds what the store held; later writes to either stay apart', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(key, value)),
        fc.array(fc.tuple(key, value)),
        fc.array(fc.tuple(key, value)),
        async (before, afterOriginal, afterCopy) => {
          const original = new SimLevel();
          await original.open();
          const put = (store: SimLevel, entries: readonly (readonly [string, string])[]) =>
            store.batch(entries.map(([k, v]) => ({ type: 'put' as const, key: k, value: v })));
          await put(original, before);
          const copy = original.copy();
          await copy.open();
          await put(original, afterOriginal);
          await put(copy, afterCopy);
          const expected = (later: readonly (readonly [string, string])[]) =>
            [...new Map([...before, ...later])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
          expect(await original.iterator().all()).toEqual(expected(afterOriginal));
          expect(await copy.iterator().all()).toEqual(expected(afterCopy));
        },
      ),
    );
  });

  it('clears a range with a limit, walking it in order', async () => {
    const store = new SimLevel();
    await store.open();
    const keys = Array.from({ length: 1_200 }, (_, i) => i.toString().padStart(5, '0'));
    await store.batch(keys.map((k) => ({ type: 'put' as const, key: k, value: k })));
    await store.clear({ gte: '00100', limit: 1_000, reverse: true });
    expect(await store.keys().all()).toEqual(keys.filter((k) => k < '00200'));
  });
});
