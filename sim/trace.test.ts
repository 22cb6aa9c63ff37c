import { describe, expect, it } from 'vitest';
import { AssertionError } from '../core/assert.js';
import { L1Error } from '../core/l1/l1Error.js';
import { createScheduler } from './scheduler.js';
import { createSimLogger, formatSimTime } from './simLogger.js';
import fc from 'fast-check';
import { canonicalJson, canonicalTraceText, createTrace, toTraceJson, TRACE_FIELD_DEPTH_MAX } from './trace.js';

describe('canonical trace JSON', () => {
  it('sorts keys at every level and drops undefined members', () => {
    expect(canonicalJson(toTraceJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: undefined } }))).toBe(
      '{"a":{"d":[3,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('encodes bigint, bytes, maps, sets, errors and odd numbers deterministically', () => {
    const value = {
      big: 2n ** 70n,
      bytes: new Uint8Array([0, 255]),
      map: new Map([['k', 1n]]),
      set: new Set([1, 2]),
      error: new L1Error('L1_UNREACHABLE', 'down'),
      nan: Number.NaN,
      negativeZero: -0,
      list: [undefined, null],
    };
    expect(canonicalJson(toTraceJson(value))).toBe(
      '{"big":"1180591620717411303424","bytes":"0x00ff","error":{"code":"L1_UNREACHABLE","message":"down","name":"L1Error"},' +
        '"list":[null,null],"map":{"k":"1"},"nan":"NaN","negativeZero":0,"set":[1,2]}',
    );
  });

  it('asserts on cycles (depth bound)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => toTraceJson(cyclic)).toThrow(AssertionError);
    let deep: unknown = 1;
    for (let i = 0; i < TRACE_FIELD_DEPTH_MAX; i++) deep = [deep];
    expect(() => toTraceJson(deep)).not.toThrow();
  });
});

describe('canonical trace text in one walk', () => {
  it('is canonicalJson(toTraceJson(value)) for any value', () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
    });
    const special = fc.constantFrom<unknown>(
      -0,
      Number.NaN,
      -Infinity,
      1e21,
      undefined,
      function named() {},
      Symbol('s'),
      new L1Error('L1_UNREACHABLE', 'down'),
      new TypeError('plain'),
      new Uint8Array([1, 254]),
      new Map<unknown, unknown>([
        [1, 'a'],
        ['1', 'b'],
        ['__proto__', 2],
      ]),
      JSON.parse('{"__proto__": {"x": 1}, "y": [1, {"z": null}]}') as unknown,
    );
    const value = fc.oneof(anything, special, fc.array(special), fc.dictionary(fc.string(), special));
    fc.assert(
      fc.property(value, (v) => {
        // Both give the same text, or both throw the same kind of error (a Map key with no string form).
        const outcome = (write: () => string) => {
          try {
            return write();
          } catch (error) {
            return error instanceof Error ? error.constructor : error;
          }
        };
        expect(outcome(() => canonicalTraceText(v, 0))).toBe(outcome(() => canonicalJson(toTraceJson(v, 0))));
      }),
      { numRuns: 2_000 },
    );
  });

  it('refuses nesting past TRACE_FIELD_DEPTH_MAX as toTraceJson does', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => canonicalTraceText(cyclic, 0)).toThrow(AssertionError);
  });

  it('hashes a trace that keeps entries and one that keeps none alike', () => {
    const kept = createTrace({ now: () => 5, keepLast: 3 });
    const none = createTrace({ now: () => 5, keepLast: 0 });
    for (const trace of [kept, none]) {
      trace.record('a.b', { z: 1n, a: [new Uint8Array([1]), undefined], m: new Map([['k', new Set([1])]]) });
      trace.record('c', {});
      expect(() => trace.record('d', [1] as unknown as Record<string, unknown>)).toThrow(AssertionError);
    }
    expect(none.traceHash()).toBe(kept.traceHash());
  });
});

describe('Trace', () => {
  function record(order: 'ab' | 'ba'): string {
    let now = 0;
    const trace = createTrace({ now: () => now });
    trace.record('start', { seed: 1n });
    now = 5;
    trace.record('l1.block', order === 'ab' ? { a: 1, b: 2 } : { b: 2, a: 1 });
    return trace.traceHash();
  }

  it('hashes field order independently and chains entries', () => {
    expect(record('ab')).toBe(record('ba'));
    expect(record('ab')).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('changes the hash with any change of kind, field, time or order', () => {
    const base = () => {
      let now = 0;
      const trace = createTrace({ now: () => now });
      return { trace, tick: () => (now += 1) };
    };
    const hashes = new Set<string>();
    const variants: ((t: ReturnType<typeof base>) => void)[] = [
      ({ trace }) => {
        trace.record('a', { x: 1 });
        trace.record('b');
      },
      ({ trace }) => {
        trace.record('b');
        trace.record('a', { x: 1 });
      },
      ({ trace }) => {
        trace.record('a', { x: 2 });
        trace.record('b');
      },
      ({ trace }) => {
        trace.record('a', { x: '1' });
        trace.record('b');
      },
      ({ trace, tick }) => {
        trace.record('a', { x: 1 });
        tick();
        trace.record('b');
      },
      ({ trace }) => {
        trace.record('a', { x: 1 });
        trace.record('c');
      },
    ];
    for (const variant of variants) {
      const run = base();
      variant(run);
      hashes.add(run.trace.traceHash());
    }
    expect(hashes.size).toBe(variants.length);
  });

  it('keeps the last entries in a ring, each with the chain hash after it, and sinks lines', () => {
    const lines: string[] = [];
    const trace = createTrace({ now: () => 42, keepLast: 3, sink: (line) => lines.push(line) });
    for (let i = 0; i < 5; i++) trace.record('step', { i });
    expect(trace.length).toBe(5);
    expect(trace.recent().map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(trace.recent()[2]!.hash).toBe(trace.traceHash());
    expect(lines[0]).toBe('0 42 step {"i":0}');
  });

  it('rejects kinds with spaces', () => {
    const trace = createTrace({ now: () => 0 });
    expect(() => trace.record('has space')).toThrow(AssertionError);
    expect(() => trace.record('')).toThrow(AssertionError);
  });
});

describe('sim logger', () => {
  it('records log entries with simulated time, bindings and fields into the trace', async () => {
    const scheduler = createScheduler({ startTimeMs: 1_000 });
    const trace = createTrace({ now: () => scheduler.now() });
    const printed: string[] = [];
    const logger = createSimLogger({
      trace,
      traceLevelMin: 'info',
      print: (line) => printed.push(line),
      printLevelMin: 'warn',
      now: () => scheduler.now(),
      startTimeMs: 1_000,
      bindings: { node: 'n1' },
    });
    logger.debug('not recorded');
    scheduler.schedule(1_500, () => logger.child({ module: 'archiver' }).warn('behind', { blocks: 3n }));
    await scheduler.runUntil(5_000);
    logger.info('done');
    expect(trace.recent().map((e) => [e.timeMs, e.kind, e.fields])).toEqual([
      [2_500, 'log.warn', { node: 'n1', module: 'archiver', blocks: '3', msg: 'behind' }],
      [5_000, 'log.info', { node: 'n1', msg: 'done' }],
    ]);
    expect(printed).toEqual(['+1.500s WARN  behind {"blocks":"3","module":"archiver","node":"n1"}']);
  });

  it('keeps an error stack out of the trace (its frames name files by path), and prints it', () => {
    const trace = createTrace({ now: () => 0, keepLast: 4 });
    const printed: string[] = [];
    const logger = createSimLogger({ trace, print: (line) => printed.push(line), printLevelMin: 'error' });
    const error = new TypeError('boom');
    logger.error('maintenance failed', { error: error.stack, count: 1, note: 'at ease\nsecond line' });
    expect(trace.recent().map((e) => e.fields)).toEqual([
      { error: 'TypeError: boom', count: 1, note: 'at ease\nsecond line', msg: 'maintenance failed' },
    ]);
    expect(printed[0]).toMatch(/TypeError: boom\\n\s+at /);
  });

  it('formats simulated time relative to the start', () => {
    expect(formatSimTime(1_700_000_012_345, 1_700_000_000_000)).toBe('+12.345s');
    expect(formatSimTime(999, 1_000)).toBe('-0.001s');
  });
});
