import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { rpcMethodList } from '../../spec/rpc/methods.js';
import { blockParameter } from '../../spec/wire/blockParameter.js';
import { bigUint, fr, jsonObject, slotNumber } from '../../spec/wire/scalars.js';
import { encodesAsIdentity } from './identityCodec.js';

describe('which schemas encode as the identity', () => {
  test('plain shapes do, codecs anywhere inside do not', () => {
    expect(encodesAsIdentity(z.number().int())).toBe(true);
    expect(encodesAsIdentity(z.object({ a: z.array(z.string()), b: z.boolean().nullable() }))).toBe(true);
    for (const codec of [bigUint, fr, slotNumber, blockParameter, jsonObject]) {
      expect(encodesAsIdentity(codec)).toBe(false);
      expect(encodesAsIdentity(z.object({ nested: z.array(codec) }))).toBe(false);
      expect(encodesAsIdentity(z.union([z.null(), codec]))).toBe(false);
    }
    expect(encodesAsIdentity(z.string().transform((s) => s.length))).toBe(false);
  });

  test('property: for every table result judged plain, checking a value gives what encoding it gives', () => {
    const plain = rpcMethodList.filter((method) => encodesAsIdentity(method.result));
    expect(plain.map((method) => method.name)).toContain('svc_getBlockNumber');
    fc.assert(
      fc.property(fc.constantFrom(...plain), fc.jsonValue(), (method, value) => {
        const checked = method.result.safeParse(value);
        const encoded = z.safeEncode(method.result, value);
        expect(checked.success).toBe(encoded.success);
        if (checked.success && encoded.success) expect(checked.data).toEqual(encoded.data);
      }),
    );
  });
});
