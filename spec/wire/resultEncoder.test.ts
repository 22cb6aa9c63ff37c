/**
 * The compiled result encoders (resultEncoder.ts): the same JSON as zod's encode for every method's result (the
 * property suite in wireCodecs.test.ts covers every wire codec), a clear failure on a value of the wrong shape, and
 * zod's own encoding for schema kinds the compiler leaves to it.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { rpcMethodList } from '../rpc/methods.js';
import { bigUint, fr, jsonObject } from './scalars.js';
import { checkedResultEncoder, compileResultEncoder } from './resultEncoder.js';

const json = (value: unknown): string => JSON.stringify(value);
const hex32 = (n: bigint): `0x${string}` => `0x${n.toString(16).padStart(64, '0')}`;

describe('compiled result encoders', () => {
  test('every method result compiles, and a nullable result encodes null as null', () => {
    for (const method of rpcMethodList) {
      const encode = compileResultEncoder(method.result);
      if (method.result.safeParse(null).success) expect(encode(null)).toBeNull();
    }
  });

  test('objects keep only their schema keys, and codecs apply their encode step at any depth', () => {
    const schema = z.object({ fee: bigUint, list: z.array(z.object({ at: bigUint.optional(), root: fr })) });
    const encode = compileResultEncoder(schema);
    const value = { fee: 10n, list: [{ root: hex32(1n) }, { at: 2n ** 70n, root: hex32(2n) }], extra: 'dropped' };
    expect(encode(value)).toEqual({
      fee: '10',
      list: [{ root: hex32(1n) }, { at: '1180591620717411303424', root: hex32(2n) }],
    });
    expect(json(encode(value))).toBe(json(z.encode(schema, value)));
  });

  test('a discriminated union encodes each option with its own codecs', () => {
    const schema = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('fee'), amount: bigUint }),
      z.object({ kind: z.literal('root'), root: fr }),
    ]);
    const encode = compileResultEncoder(schema);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.record({ kind: fc.constant('fee' as const), amount: fc.bigInt({ min: 0n, max: 2n ** 255n }) }),
          fc.record({ kind: fc.constant('root' as const), root: fc.bigInt({ min: 0n, max: 2n ** 250n }).map(hex32) }),
        ),
        (value) => {
          expect(json(encode(value))).toBe(json(z.encode(schema, value)));
        },
      ),
    );
  });

  test('a value of the wrong shape throws rather than being sent', () => {
    const encode = compileResultEncoder(z.object({ list: z.array(bigUint) }));
    expect(() => encode(7)).toThrow(/expected an object/);
    expect(() => encode({ list: 'not a list' })).toThrow(/expected an array/);
    const union = compileResultEncoder(z.discriminatedUnion('k', [z.object({ k: z.literal('a'), n: bigUint })]));
    expect(() => union({ k: 'b', n: 1n })).toThrow(/no union option/);
  });

  test('kinds left to zod (a JSON object with its pipe) encode exactly as zod does', () => {
    const encode = compileResultEncoder(jsonObject);
    const value = { a: [1, 'two', { three: null }], b: true };
    expect(encode(value)).toEqual(z.encode(jsonObject, value));
    expect(() => encode({ a: 1n })).toThrow();
  });

  test('the checked encoder refuses an encoding that differs from zod', () => {
    const schema = z.object({ fee: bigUint });
    const wrong = checkedResultEncoder(schema, () => ({ fee: '11' }));
    expect(() => wrong({ fee: 10n })).toThrow(/differs from zod/);
    expect(checkedResultEncoder(schema, compileResultEncoder(schema))({ fee: 10n })).toEqual({ fee: '10' });
  });
});
