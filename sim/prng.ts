import { hash } from 'node:crypto';
import { assert } from '../core/assert.js';
import type { RandomnessPort } from '../core/ports.js';

/**
 * The simulator's only source of randomness: xoshiro128** (Blackman and Vigna), 32-bit arithmetic through
 * Math.imul so a draw costs a few integer operations, seeded from a 64-bit seed through splitmix64.
 *
 * Streams: `fork(label)` derives a child whose seed is a hash of the parent's seed and the label, never of the
 * parent's state. A child therefore draws the same numbers however many draws its parent or its siblings made, and
 * adding a draw to one port's stream cannot perturb another's. Each label may be forked once per parent, so two
 * consumers never share a stream by accident.
 */

const UINT64_MASK = (1n << 64n) - 1n;
const TWO_POW_32 = 0x1_0000_0000;
const TWO_POW_53 = 2 ** 53;
/** Largest `bytes(n)` request: the simulator never needs more in one draw, and a bigger one is a bug. */
export const PRNG_BYTES_PER_CALL_MAX = 16 * 1024 * 1024;

/** A 64-bit seed: a bigint in [0, 2^64) or a non-negative safe integer. */
export type Seed = bigint | number;

export function normalizeSeed(seed: Seed): bigint {
  if (typeof seed === 'number') {
    assert(Number.isSafeInteger(seed) && seed >= 0, `seed ${seed} must be a non-negative safe integer`);
    return BigInt(seed);
  }
  assert(seed >= 0n && seed <= UINT64_MASK, `seed ${seed} must fit in 64 bits`);
  return seed;
}

/** One splitmix64 step: returns the advanced state and the mixed output. */
function splitmix64(state: bigint): { state: bigint; output: bigint } {
  const next = (state + 0x9e3779b97f4a7c15n) & UINT64_MASK;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & UINT64_MASK;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & UINT64_MASK;
  return { state: next, output: z ^ (z >> 31n) };
}

function seedToBytes(seed: bigint): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(seed);
  return out;
}

/** The child seed of `fork(label)`: the first 8 bytes of sha256("sim-prng-fork" || parent seed || label). */
function forkSeed(parentSeed: bigint, label: string): bigint {
  const input = Buffer.concat([
    Buffer.from('sim-prng-fork', 'utf8'),
    seedToBytes(parentSeed),
    Buffer.from(label, 'utf8'),
  ]);
  return (hash('sha256', input, 'buffer') as Buffer).readBigUInt64BE(0);
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

export class Prng {
  readonly seed: bigint;
  /** Labels from the root to this stream, joined by '/'; printed beside failures. */
  readonly path: string;
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;
  private readonly forkedLabels = new Set<string>();

  constructor(seed: Seed, path = 'root') {
    this.seed = normalizeSeed(seed);
    this.path = path;
    const first = splitmix64(this.seed);
    const second = splitmix64(first.state);
    this.s0 = Number(first.output >> 32n) >>> 0;
    this.s1 = Number(first.output & 0xffffffffn) >>> 0;
    this.s2 = Number(second.output >> 32n) >>> 0;
    this.s3 = Number(second.output & 0xffffffffn) >>> 0;
    assert((this.s0 | this.s1 | this.s2 | this.s3) !== 0, 'xoshiro128** state must not be all zero');
  }

  /** An independent stream named `label`; see the module comment. */
  fork(label: string): Prng {
    assert(label.length > 0, 'a fork label must not be empty');
    assert(!this.forkedLabels.has(label), `stream ${this.path}/${label} was already forked`);
    this.forkedLabels.add(label);
    return new Prng(forkSeed(this.seed, label), `${this.path}/${label}`);
  }

  /** Uniform integer in [0, 2^32). */
  uint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform integer in [minIncl, maxIncl], unbiased (rejection sampling); the range may span up to 2^53 values. */
  int(minIncl: number, maxIncl: number): number {
    assert(
      Number.isSafeInteger(minIncl) && Number.isSafeInteger(maxIncl),
      `int(${minIncl}, ${maxIncl}) needs safe integers`,
    );
    assert(minIncl <= maxIncl, `int(${minIncl}, ${maxIncl}): empty range`);
    const range = maxIncl - minIncl + 1;
    assert(range <= TWO_POW_53, `int(${minIncl}, ${maxIncl}): range wider than 2^53`);
    if (range <= TWO_POW_32) {
      const limit = TWO_POW_32 - (TWO_POW_32 % range);
      let x = this.uint32();
      while (x >= limit) x = this.uint32();
      return minIncl + (x % range);
    }
    const limit = TWO_POW_53 - (TWO_POW_53 % range);
    let x = this.uint53();
    while (x >= limit) x = this.uint53();
    return minIncl + (x % range);
  }

  /** Uniform float in [0, 1) with 53 random bits. */
  float(): number {
    return this.uint53() / TWO_POW_53;
  }

  /** True with probability `p`; always exactly one draw, whatever `p` is. */
  bool(p = 0.5): boolean {
    assert(p >= 0 && p <= 1, `bool(${p}): probability out of [0, 1]`);
    return this.uint32() < p * TWO_POW_32;
  }

  pick<T>(items: readonly T[]): T {
    assert(items.length > 0, 'pick from an empty array');
    return items[this.int(0, items.length - 1)]!;
  }

  bytes(length: number): Uint8Array {
    assert(Number.isSafeInteger(length) && length >= 0, `bytes(${length}): length must be a non-negative integer`);
    assert(length <= PRNG_BYTES_PER_CALL_MAX, `bytes(${length}) exceeds PRNG_BYTES_PER_CALL_MAX`);
    const out = new Uint8Array(length);
    for (let offset = 0; offset < length; offset += 4) {
      const word = this.uint32();
      out[offset] = word & 0xff;
      if (offset + 1 < length) out[offset + 1] = (word >>> 8) & 0xff;
      if (offset + 2 < length) out[offset + 2] = (word >>> 16) & 0xff;
      if (offset + 3 < length) out[offset + 3] = word >>> 24;
    }
    return out;
  }

  private uint53(): number {
    const high = this.uint32() >>> 11; // 21 bits
    const low = this.uint32();
    return high * TWO_POW_32 + low;
  }
}

export function createPrng(seed: Seed): Prng {
  return new Prng(seed);
}

/** The randomness port of one node, drawing from `prng` (give each node its own fork). */
export function createSimRandomness(prng: Prng): RandomnessPort {
  return {
    nextUint32: () => prng.uint32(),
    bytes: (length) => prng.bytes(length),
  };
}
