import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecentlyUsedCache } from './recentlyUsedCache.js';

describe('the recently used cache', () => {
  it('keeps exactly the `max` most recently used keys, with their last values (model: a list in use order)', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('set' as const), key: fc.integer({ min: 0, max: 9 }), value: fc.integer() }),
      fc.record({ kind: fc.constant('get' as const), key: fc.integer({ min: 0, max: 9 }) }),
      fc.record({ kind: fc.constant('delete' as const), key: fc.integer({ min: 0, max: 9 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 60 }), (max, ops) => {
        const cache = new RecentlyUsedCache<number, number>(max);
        let model: [number, number][] = [];
        for (const o of ops) {
          const found = model.find(([k]) => k === o.key);
          model = model.filter(([k]) => k !== o.key);
          if (o.kind === 'set') {
            cache.set(o.key, o.value);
            model.push([o.key, o.value]);
          } else if (o.kind === 'get') {
            expect(cache.get(o.key)).toBe(found?.[1]);
            if (found !== undefined) model.push(found);
          } else {
            cache.delete(o.key);
          }
          if (model.length > max) model.shift();
          expect(cache.size).toBe(model.length);
          for (const [k] of model) expect(cache.has(k)).toBe(true);
        }
      }),
    );
  });

  it('remembers a computed undefined, and computes each key once while it is kept', () => {
    const cache = new RecentlyUsedCache<string, number | undefined>(2);
    let calls = 0;
    const compute = () => {
      calls++;
      return undefined;
    };
    expect(cache.getOrCompute('a', compute)).toBeUndefined();
    expect(cache.getOrCompute('a', compute)).toBeUndefined();
    expect(calls).toBe(1);
    expect(() => new RecentlyUsedCache(0)).toThrow();
  });
});
