import { describe, expect, it } from 'vitest';
import { AssertionError } from '../core/assert.js';
import type { Prng } from './prng.js';
import { createPrng, createSimRandomness } from './prng.js';

function draws(prng: Prng, count: number): number[] {
  return Array.from({ length: count }, () => prng.uint32());
}

describe('Prng', () => {
  it('implements xoshiro128** (reference output for state 1, 2, 3, 4)', () => {
    const prng = createPrng(0);
    Object.assign(prng as unknown as Record<string, number>, { s0: 1, s1: 2, s2: 3, s3: 4 });
    expect(draws(prng, 6)).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  });

  it('replays the same numbers from the same seed, as bigint or number', () => {
    expect(draws(createPrng(12345), 100)).toEqual(draws(createPrng(12345n), 100));
    expect(draws(createPrng(2n ** 64n - 1n), 10)).toEqual(draws(createPrng(2n ** 64n - 1n), 10));
  });

  it('gives different numbers for different seeds', () => {
    expect(draws(createPrng(1), 8)).not.toEqual(draws(createPrng(2), 8));
  });

  it('rejects seeds outside 64 bits', () => {
    expect(() => createPrng(2n ** 64n)).toThrow(AssertionError);
    expect(() => createPrng(-1)).toThrow(AssertionError);
    expect(() => createPrng(1.5)).toThrow(AssertionError);
  });

  it('forks streams that do not depend on draws made elsewhere', () => {
    const quiet = createPrng(7);
    const busy = createPrng(7);
    draws(busy, 1000);
    const busyChild = busy.fork('node-1');
    busy.fork('node-2').uint32();
    expect(draws(quiet.fork('node-1'), 50)).toEqual(draws(busyChild, 50));
  });

  it('forks distinct streams for distinct labels and names them by path', () => {
    const root = createPrng(7);
    const a = root.fork('a');
    const b = root.fork('b');
    expect(draws(a, 8)).not.toEqual(draws(b, 8));
    expect(draws(root.fork('c'), 8)).not.toEqual(draws(createPrng(7), 8));
    expect(a.fork('x').path).toBe('root/a/x');
  });

  it('refuses to fork the same label twice from one parent', () => {
    const root = createPrng(7);
    root.fork('l1');
    expect(() => root.fork('l1')).toThrow(AssertionError);
  });

  it('int stays in range, covers it, and handles wide ranges', () => {
    const prng = createPrng(99);
    const seen = new Set<number>();
    for (let i = 0; i < 2000; i++) {
      const x = prng.int(-3, 3);
      expect(x).toBeGreaterThanOrEqual(-3);
      expect(x).toBeLessThanOrEqual(3);
      seen.add(x);
    }
    expect(seen.size).toBe(7);
    expect(prng.int(5, 5)).toBe(5);
    for (let i = 0; i < 200; i++) {
      const wide = prng.int(0, 2 ** 53 - 1);
      expect(Number.isSafeInteger(wide) && wide >= 0).toBe(true);
    }
    expect(() => prng.int(2, 1)).toThrow(AssertionError);
  });

  it('float is in [0, 1); bool honours 0 and 1; pick and bytes are reproducible', () => {
    const prng = createPrng(5);
    for (let i = 0; i < 1000; i++) {
      const f = prng.float();
      expect(f >= 0 && f < 1).toBe(true);
    }
    expect(Array.from({ length: 100 }, () => prng.bool(0)).some(Boolean)).toBe(false);
    expect(Array.from({ length: 100 }, () => prng.bool(1)).every(Boolean)).toBe(true);
    const items = ['a', 'b', 'c'] as const;
    expect(items).toContain(prng.pick(items));
    expect(() => prng.pick([])).toThrow(AssertionError);
    expect(createPrng(3).bytes(7)).toEqual(createPrng(3).bytes(7));
    expect(createPrng(3).bytes(0)).toHaveLength(0);
  });

  it('bytes(n) uses the same words as uint32, little-endian', () => {
    const word = createPrng(11).uint32();
    const bytes = createPrng(11).bytes(4);
    expect((bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16)) + bytes[3]! * 2 ** 24).toBe(word);
  });

  it('backs the randomness port', () => {
    const port = createSimRandomness(createPrng(8));
    const direct = createPrng(8);
    expect(port.nextUint32()).toBe(direct.uint32());
    expect(port.bytes(9)).toEqual(direct.bytes(9));
  });
});
