/**
 * The failover reader over in-memory fake readers, one per endpoint, on a manual clock. The fakes share one L1 chain
 * (block n has one hash everywhere); an endpoint is up, down (every call fails at once with L1_UNREACHABLE) or slow
 * (every call answers after SLOW_MS, past the head timeout), and holds the chain up to its own head. Like anvil, a
 * fake answers a range read whose `toBlock` is past its head with the logs up to its head, and refuses one whose
 * `fromBlock` is, so a reader that trusted it would return partial results.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { L1Error } from '../../core/l1/l1Error.js';
import type { CheckpointProposedLog, L1BlockRef, L1ReaderPort } from '../../core/ports.js';
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { ManualClock } from '../../test/helpers/manualClock.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { createFailoverL1Reader, L1_ENDPOINT_LAG_WARN_BLOCKS } from './failoverL1Reader.js';

const SLOW_MS = 500;
const HEAD_TIMEOUT_MS = 200;
const COOLDOWN_MS = 10_000;
/** How far the clock moves per turn while a call is driven. */
const DRIVE_STEP_MS = 50;
const DRIVE_TURNS_MAX = 1_000;

type FakeState = 'up' | 'down' | 'slow';
interface FakeCall {
  readonly method: string;
  readonly args: readonly unknown[];
  readonly at: number;
  readonly state: FakeState;
}
interface FakeEndpoint {
  readonly name: string;
  state: FakeState;
  head: bigint;
  readonly calls: FakeCall[];
  readonly reader: L1ReaderPort;
}

const RANGE_METHODS = [
  'getCheckpointProposedLogs',
  'getEpochProvenLogs',
  'getChainPrunedLogs',
  'getInboxMessageLogs',
] as const;
type RangeMethod = (typeof RANGE_METHODS)[number];

const hashOf = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const blockOf = (n: bigint): L1BlockRef => ({
  number: n,
  hash: hashOf(n),
  parentHash: hashOf(n - 1n),
  timestamp: 1_000n + 12n * n,
});
/** One log per L1 block of the range: enough to see a partial answer. */
const logsOf = (from: bigint, to: bigint) => {
  const logs: { l1: { blockNumber: bigint } }[] = [];
  for (let n = from; n <= to; n++) logs.push({ l1: { blockNumber: n } });
  return logs as unknown as CheckpointProposedLog[];
};

function fakeEndpoint(name: string, clock: ManualClock, head: bigint, state: FakeState = 'up'): FakeEndpoint {
  const calls: FakeCall[] = [];
  const fake = { name, state, head, calls } as FakeEndpoint;
  const serve = async <T>(method: string, args: readonly unknown[], answer: () => T): Promise<T> => {
    calls.push({ method, args, at: clock.now(), state: fake.state });
    if (fake.state === 'down') throw new L1Error('L1_UNREACHABLE', `L1 node at ${name} unreachable (${method})`);
    if (fake.state === 'slow') await new Promise<void>((resolve) => clock.setTimeout(resolve, SLOW_MS));
    return answer();
  };
  const has = (n: bigint) => {
    if (n > fake.head) throw new L1Error('L1_BLOCK_NOT_FOUND', `L1 block ${n} not found on ${name}`);
  };
  const range = (method: RangeMethod) => (from: bigint, to: bigint) =>
    serve(method, [from, to], () => {
      if (from > to) return [];
      if (from > fake.head) throw new Error(`BlockOutOfRangeError: block height is ${fake.head} but requested ${from}`);
      return logsOf(from, to < fake.head ? to : fake.head);
    }) as Promise<never[]>;
  const pinned =
    <T>(method: string, value: (at: bigint) => T) =>
    (at: bigint) =>
      serve(method, [at], () => (has(at), value(at)));
  Object.assign(fake, {
    reader: {
      getChainId: () => serve('getChainId', [], () => 31337),
      getBlock: (tag) =>
        serve('getBlock', [tag], () => {
          if (tag === 'latest') return blockOf(fake.head);
          if (tag === 'finalized') return blockOf(fake.head > 2n ? fake.head - 2n : 0n);
          has(tag);
          return blockOf(tag);
        }),
      getRollupConstants: () => serve('getRollupConstants', [], () => ({}) as L1RollupConstants),
      getCheckpointCount: pinned('getCheckpointCount', (at) => Number(at)),
      getArchiveAt: (n, at) => pinned('getArchiveAt', (a) => hashOf(a + BigInt(n)))(at),
      getCheckpointProposedLogs: range('getCheckpointProposedLogs'),
      getProvenCheckpoint: pinned('getProvenCheckpoint', (at) => ({ checkpointNumber: 0, l1BlockNumber: at })),
      getEpochProvenLogs: range('getEpochProvenLogs'),
      getChainPrunedLogs: range('getChainPrunedLogs'),
      getValidators: pinned('getValidators', () => []),
      getInboxMessageLogs: range('getInboxMessageLogs'),
      getOutboxRoot: (_epoch, _needed, at) => pinned('getOutboxRoot', () => undefined)(at),
      getMessageBoxAddresses: () =>
        serve('getMessageBoxAddresses', [], () => ({ inboxAddress: hashOf(1n), outboxAddress: hashOf(2n) })),
    } satisfies L1ReaderPort,
  });
  return fake;
}

type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** Runs a call to its end, moving the manual clock (and so the slow fakes and the head timeout) as it needs. */
async function drive<T>(clock: ManualClock, call: Promise<T>): Promise<Outcome<T>> {
  let outcome: Outcome<T> | undefined;
  void call.then(
    (value) => (outcome = { ok: true, value }),
    (error: unknown) => (outcome = { ok: false, error }),
  );
  for (let turn = 0; outcome === undefined; turn++) {
    if (turn >= DRIVE_TURNS_MAX) throw new Error('the call never ended');
    await clock.advance(DRIVE_STEP_MS);
  }
  return outcome;
}

function setup(specs: readonly { head: bigint; state?: FakeState }[]) {
  const clock = new ManualClock();
  const lines: LogLine[] = [];
  const fakes = specs.map((spec, i) => fakeEndpoint(`endpoint-${i}`, clock, spec.head, spec.state));
  const reader = createFailoverL1Reader(
    fakes.map((f) => ({ name: f.name, reader: f.reader })),
    {
      logger: capturingLogger((line) => lines.push(line)),
      clock,
      cooldownMs: COOLDOWN_MS,
      headPollTimeoutMs: HEAD_TIMEOUT_MS,
    },
  );
  const run = <T>(call: (r: L1ReaderPort) => Promise<T>) => drive(clock, call(reader));
  const value = async <T>(call: (r: L1ReaderPort) => Promise<T>) => {
    const outcome = await run(call);
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };
  const messages = (level: LogLine['level']) => lines.filter((l) => l.level === level).map((l) => l.message);
  return { clock, fakes, reader, run, value, lines, messages };
}

const callsOf = (fake: FakeEndpoint) => fake.calls.map((c) => `${c.method}(${c.args.map(String).join(',')})`);
const switches = (lines: readonly LogLine[]) =>
  lines.filter((l) => l.message === 'L1 reads switch to another endpoint').map((l) => l.fields);

describe('one endpoint: the plain reader', () => {
  it('makes exactly the calls asked for, with no head timeout', async () => {
    const { fakes, value, clock } = setup([{ head: 10n }]);
    const [a] = fakes;
    expect(await value((r) => r.getBlock('latest'))).toEqual(blockOf(10n));
    expect(await value((r) => r.getCheckpointProposedLogs(3n, 10n))).toEqual(logsOf(3n, 10n));
    expect(await value((r) => r.getArchiveAt(2, 9n))).toBe(hashOf(11n));
    expect(await value((r) => r.getBlock('finalized'))).toEqual(blockOf(8n));
    expect(await value((r) => r.getChainId())).toBe(31337);
    expect(callsOf(a!)).toEqual([
      'getBlock(latest)',
      'getCheckpointProposedLogs(3,10)',
      'getArchiveAt(9)',
      'getBlock(finalized)',
      'getChainId()',
    ]);
    a!.state = 'slow';
    const started = clock.now();
    expect(await value((r) => r.getBlock('latest'))).toEqual(blockOf(10n));
    expect(clock.now() - started).toBeGreaterThanOrEqual(SLOW_MS);
  });

  it('throws the endpoint’s own errors unchanged, and stays usable', async () => {
    const { fakes, run, value } = setup([{ head: 10n, state: 'down' }]);
    const outcome = await run((r) => r.getChainId());
    expect(outcome.ok).toBe(false);
    expect((outcome as { error: L1Error }).error.message).toBe('L1 node at endpoint-0 unreachable (getChainId)');
    fakes[0]!.state = 'up';
    expect(await value((r) => r.getChainId())).toBe(31337);
  });

  it('checks the endpoint holds `toBlock` before a range read it has not seen a head for', async () => {
    const { fakes, run } = setup([{ head: 10n }]);
    const outcome = await run((r) => r.getInboxMessageLogs(5n, 12n));
    expect(outcome).toMatchObject({ ok: false, error: { code: 'L1_BLOCK_NOT_FOUND' } });
    expect(callsOf(fakes[0]!)).toEqual(['getBlock(12)']);
  });
});

describe('several endpoints', () => {
  it('a transport failure moves the same call to the next endpoint, which becomes current; the failed one cools down', async () => {
    const { fakes, value, messages, lines, clock } = setup([{ head: 10n, state: 'down' }, { head: 10n }]);
    const [a, b] = fakes as [FakeEndpoint, FakeEndpoint];
    expect(await value((r) => r.getProvenCheckpoint(9n))).toEqual({ checkpointNumber: 0, l1BlockNumber: 9n });
    expect([callsOf(a), callsOf(b)]).toEqual([['getProvenCheckpoint(9)'], ['getProvenCheckpoint(9)']]);
    expect(messages('warn')).toEqual([
      'L1 endpoint unreachable; asked only as a last resort while it cools down',
      'L1 reads switch to another endpoint',
    ]);
    expect(switches(lines)[0]).toMatchObject({ from: 'endpoint-0', to: 'endpoint-1' });

    a.state = 'up';
    await value((r) => r.getBlock('latest'));
    await value((r) => r.getChainId());
    expect(callsOf(a)).toEqual(['getProvenCheckpoint(9)']);
    await clock.advance(COOLDOWN_MS);
    expect(await value((r) => r.getBlock('latest'))).toEqual(blockOf(10n));
    expect(callsOf(a)).toEqual(['getProvenCheckpoint(9)', 'getBlock(latest)']);
    expect(messages('info')).toEqual(['L1 endpoint answers again']);
    // Same height: reads stay where they are.
    expect(switches(lines)).toHaveLength(1);
  });

  it('a call that began on an endpoint another call has since left does not switch back to it', async () => {
    const { fakes, reader, clock, value, lines } = setup([{ head: 10n, state: 'slow' }, { head: 10n }]);
    const [a] = fakes as [FakeEndpoint, FakeEndpoint];
    const early = drive(clock, reader.getChainId());
    a.state = 'down';
    expect(await value((r) => r.getChainId())).toBe(31337);
    expect(await early).toEqual({ ok: true, value: 31337 });
    expect(switches(lines).map((s) => s?.to)).toEqual(['endpoint-1']);
  });

  it('when every endpoint fails, L1_UNREACHABLE names them all, caused by the last failure', async () => {
    const { run } = setup([
      { head: 10n, state: 'down' },
      { head: 10n, state: 'down' },
    ]);
    const outcome = await run((r) => r.getCheckpointCount(5n));
    expect(outcome.ok).toBe(false);
    const error = (outcome as { error: L1Error }).error;
    expect(error).toBeInstanceOf(L1Error);
    expect(error.code).toBe('L1_UNREACHABLE');
    expect(error.message).toContain('endpoint-0 (unreachable), endpoint-1 (unreachable)');
    expect((error.cause as Error).message).toContain('endpoint-1');
  });

  it('a call tries endpoints cooling down as a last resort', async () => {
    const { fakes, value } = setup([{ head: 10n, state: 'down' }, { head: 10n }]);
    const [a, b] = fakes as [FakeEndpoint, FakeEndpoint];
    await value((r) => r.getChainId());
    a.state = 'up';
    b.state = 'down';
    expect(await value((r) => r.getChainId())).toBe(31337);
    expect(callsOf(b)).toEqual(['getChainId()', 'getChainId()']);
    expect(callsOf(a)).toEqual(['getChainId()', 'getChainId()']);
  });

  it('the head is the highest; its endpoint becomes current; a tie keeps the current one', async () => {
    const { fakes, value, lines } = setup([{ head: 10n }, { head: 12n }, { head: 12n }]);
    const [a, b, c] = fakes as [FakeEndpoint, FakeEndpoint, FakeEndpoint];
    expect(await value((r) => r.getBlock('latest'))).toEqual(blockOf(12n));
    expect(switches(lines)).toEqual([
      expect.objectContaining({ from: 'endpoint-0', to: 'endpoint-1', reason: expect.stringContaining('10') }),
    ]);
    await value((r) => r.getArchiveAt(1, 12n));
    expect(callsOf(b)).toContain('getArchiveAt(12)');
    c.head = 13n;
    await value((r) => r.getBlock('latest'));
    b.head = 13n;
    a.head = 13n;
    for (let i = 0; i < 3; i++) expect(await value((r) => r.getBlock('latest'))).toEqual(blockOf(13n));
    expect(switches(lines).map((s) => s?.to)).toEqual(['endpoint-1', 'endpoint-2']);
  });

  it('a slow endpoint does not hold the head back past the head timeout, and cools down', async () => {
    const { fakes, value, clock, messages } = setup([{ head: 20n, state: 'slow' }, { head: 18n }]);
    const started = clock.now();
    expect(await value((r) => r.getBlock('latest'))).toEqual(blockOf(18n));
    expect(clock.now() - started).toBeLessThan(SLOW_MS);
    expect(messages('warn')).toContain('L1 endpoint unreachable; asked only as a last resort while it cools down');
    await value((r) => r.getBlock('latest'));
    expect(callsOf(fakes[0]!)).toEqual(['getBlock(latest)']);
  });

  it('an endpoint far behind is logged once per episode', async () => {
    const { fakes, value, lines } = setup([{ head: 100n }, { head: 90n }]);
    const [a, b] = fakes as [FakeEndpoint, FakeEndpoint];
    const lagLines = () =>
      lines.filter((l) => /behind the best head|caught up/.test(l.message)).map((l) => `${l.level} ${l.message}`);
    for (let i = 0; i < 3; i++) await value((r) => r.getBlock('latest'));
    expect(lagLines()).toEqual(['warn L1 endpoint is behind the best head']);
    b.head = a.head - BigInt(L1_ENDPOINT_LAG_WARN_BLOCKS);
    await value((r) => r.getBlock('latest'));
    await value((r) => r.getBlock('latest'));
    a.head += 10n;
    await value((r) => r.getBlock('latest'));
    expect(lagLines()).toEqual([
      'warn L1 endpoint is behind the best head',
      'info L1 endpoint caught up',
      'warn L1 endpoint is behind the best head',
    ]);
  });

  it('a range read skips an endpoint that lacks `toBlock` rather than return its partial logs', async () => {
    const { fakes, value, lines } = setup([{ head: 10n }, { head: 15n }]);
    const [a, b] = fakes as [FakeEndpoint, FakeEndpoint];
    // Endpoint 0 stays current: endpoint 1 is not asked for its head before the read.
    expect(await value((r) => r.getCheckpointProposedLogs(5n, 14n))).toEqual(logsOf(5n, 14n));
    expect(callsOf(a)).toEqual(['getBlock(14)']);
    expect(callsOf(b)).toEqual(['getBlock(14)', 'getCheckpointProposedLogs(5,14)']);
    expect(switches(lines)[0]).toMatchObject({ to: 'endpoint-1', reason: expect.stringContaining('lacks the block') });
  });

  it('a range read that no endpoint holds fails with L1_BLOCK_NOT_FOUND', async () => {
    const { run } = setup([{ head: 10n }, { head: 11n }]);
    const outcome = await run((r) => r.getChainPrunedLogs(5n, 12n));
    expect(outcome).toMatchObject({ ok: false, error: { code: 'L1_BLOCK_NOT_FOUND' } });
  });

  it('a head that went backwards is trusted only as far as its last report', async () => {
    const { fakes, run, value } = setup([{ head: 12n }, { head: 12n }]);
    const [a, b] = fakes as [FakeEndpoint, FakeEndpoint];
    await value((r) => r.getBlock('latest'));
    a.head = 8n;
    b.state = 'down';
    expect(await value((r) => r.getBlock('latest'))).toEqual(blockOf(8n));
    const outcome = await run((r) => r.getEpochProvenLogs(5n, 10n));
    expect(outcome).toMatchObject({ ok: false, error: { code: 'L1_UNREACHABLE' } });
    expect(callsOf(a).slice(2)).toEqual(['getBlock(10)']);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Properties

type Step =
  | { readonly kind: 'set'; readonly endpoint: number; readonly state: FakeState; readonly raise: bigint }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'latest' }
  | { readonly kind: 'range'; readonly method: RangeMethod; readonly from: bigint; readonly span: bigint }
  | { readonly kind: 'pinned'; readonly at: bigint; readonly byBlock: boolean }
  | { readonly kind: 'chainId' };

const stateArb = fc.constantFrom<FakeState>('up', 'up', 'down', 'slow');
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    endpoint: fc.nat(3),
    state: stateArb,
    raise: fc.bigInt(0n, 4n),
  }),
  fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 2 * COOLDOWN_MS }) }),
  fc.record({ kind: fc.constant('latest' as const) }),
  fc.record({
    kind: fc.constant('range' as const),
    method: fc.constantFrom(...RANGE_METHODS),
    from: fc.bigInt(0n, 30n),
    span: fc.bigInt(0n, 6n),
  }),
  fc.record({ kind: fc.constant('pinned' as const), at: fc.bigInt(0n, 30n), byBlock: fc.boolean() }),
  fc.record({ kind: fc.constant('chainId' as const) }),
);
const endpointsArb = fc.array(fc.record({ head: fc.bigInt(0n, 25n), state: stateArb }), {
  minLength: 1,
  maxLength: 4,
});

/** Checks one call made against the fakes' state: see the property below. */
async function checkStep(world: ReturnType<typeof setup>, step: Step): Promise<void> {
  const { fakes, clock, run } = world;
  const single = fakes.length === 1;
  const startedAt = clock.now();
  const before = fakes.map((f) => f.calls.length);
  // Heads only rise in this model, so an endpoint's state now holds for the whole call.
  const answering = fakes.filter((f) => f.state === 'up' || f.state === 'slow');
  const holding = (n: bigint) => answering.some((f) => f.head >= n);
  if (step.kind === 'latest') {
    const outcome = await run((r) => r.getBlock('latest'));
    const healthy = fakes.filter((f) => f.state === 'up' || (single && f.state === 'slow'));
    if (healthy.length > 0) expect(outcome.ok).toBe(true);
    // Every endpoint up and without a failure within the cooldown was asked: the head is at least theirs.
    const surelyAsked = healthy.filter(
      (f) => !f.calls.some((c) => c.state !== 'up' && c.at > startedAt - COOLDOWN_MS - SLOW_MS),
    );
    for (const f of surelyAsked) expect(outcome.ok && outcome.value.number >= f.head).toBe(true);
    if (outcome.ok) expect(outcome.value).toEqual(blockOf(outcome.value.number));
  } else if (step.kind === 'range') {
    const to = step.from + step.span;
    const outcome = await run((r) => r[step.method](step.from, to) as Promise<unknown>);
    if (holding(to)) expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.value).toEqual(logsOf(step.from, to));
  } else if (step.kind === 'pinned') {
    const outcome = await run<unknown>((r) => (step.byBlock ? r.getBlock(step.at) : r.getCheckpointCount(step.at)));
    if (holding(step.at)) expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.value).toEqual(step.byBlock ? blockOf(step.at) : Number(step.at));
  } else if (step.kind === 'chainId') {
    const outcome = await run((r) => r.getChainId());
    if (answering.length > 0) expect(outcome.ok).toBe(true);
  }
  // No endpoint is asked the same thing twice within one call.
  for (const [i, fake] of fakes.entries()) {
    const asked = callsOf(fake).slice(before[i]);
    expect(new Set(asked).size).toBe(asked.length);
  }
}

describe('properties', () => {
  it('for any pattern of endpoints down, slow or behind: calls succeed while an endpoint can serve them, the head is never below a healthy endpoint’s, a range read is never partial, and no endpoint is asked twice per call', async () => {
    await fc.assert(
      fc.asyncProperty(endpointsArb, fc.array(stepArb, { maxLength: 25 }), async (specs, steps) => {
        const world = setup(specs);
        for (const step of steps) {
          if (step.kind === 'set') {
            const fake = world.fakes[step.endpoint % world.fakes.length]!;
            fake.state = step.state;
            fake.head += step.raise;
          } else if (step.kind === 'wait') await world.clock.advance(step.ms);
          else await checkStep(world, step);
        }
      }),
      { numRuns: 150 },
    );
  });
});
