import fc from 'fast-check';
import { expect, it } from 'vitest';
import { fromStoredJson, toStoredJson } from './serde.js';

/** The reading this module had before its walk: JSON.parse with a reviver. The walk must agree with it. */
function withReviver(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) =>
    typeof v === 'string' && /^-?\d+n$/.test(v) ? BigInt(v.slice(0, -1)) : v,
  );
}

const storedValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.bigInt(),
    fc.string(),
    fc.constantFrom('12n', '-3n', 'n', '0x1n', '1 n', '0n'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__')), tie('value'), { maxKeys: 5 }),
  ),
})).value;

it('reads back what it wrote, as the reviver it replaced did, for any value', () => {
  fc.assert(
    fc.property(storedValue, (value) => {
      const text = toStoredJson(value);
      const read = fromStoredJson<unknown>(text);
      expect(read).toEqual(withReviver(text));
      expect(toStoredJson(read)).toBe(text);
    }),
    { numRuns: 500 },
  );
});

it('keeps a key named __proto__ a key, and leaves the prototype alone', () => {
  const read = fromStoredJson<Record<string, unknown>>('{"__proto__":"5n","a":["1n",{"b":"x"}]}');
  expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  expect(Object.keys(read)).toEqual(['__proto__', 'a']);
  expect(read['__proto__']).toBe(5n);
  expect(read['a']).toEqual([1n, { b: 'x' }]);
});
