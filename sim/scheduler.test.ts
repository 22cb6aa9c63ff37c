import { describe, expect, it } from 'vitest';
import { AssertionError } from '../core/assert.js';
import {
  createScheduler,
  SCHEDULER_EVENTS_PER_INSTANT_MAX,
  SCHEDULER_QUEUE_LENGTH_MAX,
  SIM_START_TIME_MS_DEFAULT,
} from './scheduler.js';
import { createNodeClock } from './simClock.js';
import { createSimStorage } from './simStorage.js';

describe('Scheduler', () => {
  it('starts at the configured time', () => {
    expect(createScheduler().now()).toBe(SIM_START_TIME_MS_DEFAULT);
    expect(createScheduler({ startTimeMs: 5_000 }).now()).toBe(5_000);
  });

  it('fires events by time, then by insertion order for equal times', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const fired: string[] = [];
    const at = (delay: number, name: string) =>
      scheduler.schedule(delay, () => fired.push(`${name}@${scheduler.now()}`));
    at(30, 'c');
    at(10, 'a1');
    at(20, 'b');
    at(10, 'a2');
    at(0, 'z');
    at(10, 'a3');
    await scheduler.runUntil(100);
    expect(fired).toEqual(['z@0', 'a1@10', 'a2@10', 'a3@10', 'b@20', 'c@30']);
    expect(scheduler.now()).toBe(100);
  });

  it('runs events scheduled by events, at the same instant after those already queued', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const fired: string[] = [];
    scheduler.schedule(5, () => {
      fired.push('first');
      scheduler.schedule(0, () => fired.push('spawned'));
    });
    scheduler.schedule(5, () => fired.push('second'));
    await scheduler.runUntil(5);
    expect(fired).toEqual(['first', 'second', 'spawned']);
  });

  it('stops at the deadline, inclusive, and leaves later events queued', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const fired: number[] = [];
    for (const t of [10, 20, 21]) scheduler.schedule(t, () => fired.push(t));
    expect(await scheduler.runUntil(20)).toBe(2);
    expect(fired).toEqual([10, 20]);
    expect(scheduler.pendingCount).toBe(1);
    await scheduler.runFor(1);
    expect(fired).toEqual([10, 20, 21]);
  });

  it('cancels events, including from inside another event, keeping the heap ordered', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const fired: number[] = [];
    const ids = Array.from({ length: 50 }, (_, i) => scheduler.schedule((i * 37) % 50, () => fired.push(i)));
    for (let i = 0; i < 50; i += 3) expect(scheduler.cancel(ids[i]!)).toBe(true);
    expect(scheduler.cancel(ids[0]!)).toBe(false);
    scheduler.schedule(0, () => scheduler.cancel(ids[1]!));
    await scheduler.runUntil(100);
    const expected = Array.from({ length: 50 }, (_, i) => i)
      .filter((i) => i % 3 !== 0 && i !== 1)
      .sort((a, b) => ((a * 37) % 50) - ((b * 37) % 50));
    expect(fired).toEqual(expected);
  });

  it('cancels all events of one owner', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const fired: string[] = [];
    scheduler.schedule(1, () => fired.push('a'), { owner: 'node-a' });
    scheduler.schedule(2, () => fired.push('b'), { owner: 'node-b' });
    scheduler.schedule(3, () => fired.push('a'), { owner: 'node-a' });
    expect(scheduler.cancelOwner('node-a')).toBe(2);
    await scheduler.runUntil(10);
    expect(fired).toEqual(['b']);
  });

  it('drains a chain of awaited promises inside an event before the next event, even at the same instant', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const log: string[] = [];
    const step = async (i: number) => {
      await Promise.resolve();
      log.push(`step${i}`);
    };
    scheduler.schedule(10, () => {
      void (async () => {
        for (let i = 1; i <= 5; i++) await step(i);
        await new Promise<void>((resolve) => process.nextTick(resolve));
        log.push('chain done');
      })();
    });
    scheduler.schedule(10, () => log.push('next timer'));
    await scheduler.runUntil(10);
    expect(log).toEqual(['step1', 'step2', 'step3', 'step4', 'step5', 'chain done', 'next timer']);
  });

  it('drains storage operations inside an event before the next event', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const storage = createSimStorage();
    const log: string[] = [];
    scheduler.schedule(1, () => {
      void (async () => {
        await storage.batch([
          { type: 'put', key: 'a', value: '1' },
          { type: 'put', key: 'b', value: '2' },
        ]);
        log.push(`read ${await storage.get('a')}${await storage.get('b')}`);
        await storage.del('a');
        log.push(`after del ${String(await storage.get('a'))}`);
      })();
    });
    scheduler.schedule(1, () => log.push('next timer'));
    await scheduler.runUntil(1);
    expect(log).toEqual(['read 12', 'after del undefined', 'next timer']);
  });

  it('lets work started before the run settle before the first event', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const log: string[] = [];
    void (async () => {
      await Promise.resolve();
      await Promise.resolve();
      log.push('before');
    })();
    scheduler.schedule(0, () => log.push('event'));
    await scheduler.runUntil(0);
    expect(log).toEqual(['before', 'event']);
  });

  it('sleep resolves from an event at the simulated time', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const woke: number[] = [];
    void scheduler.sleep(250).then(() => woke.push(scheduler.now()));
    await scheduler.runUntil(1_000);
    expect(woke).toEqual([250]);
  });

  it('runUntilCondition stops at the first event after which the condition holds', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    let count = 0;
    for (let t = 1; t <= 10; t++) scheduler.schedule(t * 100, () => count++);
    expect(await scheduler.runUntilCondition(() => count === 3, 10_000)).toBe(true);
    expect(scheduler.now()).toBe(300);
    expect(await scheduler.runUntilCondition(() => count === 99, 700)).toBe(false);
    expect(count).toBe(7);
  });

  it('rounds fractional delays up and treats negative ones as zero', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const times: number[] = [];
    scheduler.schedule(0.2, () => times.push(scheduler.now()));
    scheduler.schedule(-5, () => times.push(scheduler.now()));
    await scheduler.runUntil(10);
    expect(times).toEqual([0, 1]);
  });

  it('propagates an exception thrown by an event and can run again afterwards', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    scheduler.schedule(1, () => {
      throw new Error('boom');
    });
    scheduler.schedule(2, () => undefined);
    await expect(scheduler.runUntil(10)).rejects.toThrow('boom');
    expect(await scheduler.runUntil(10)).toBe(1);
  });

  it('asserts when the queue is full', () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    for (let i = 0; i < SCHEDULER_QUEUE_LENGTH_MAX; i++) scheduler.schedule(1, () => undefined);
    expect(() => scheduler.schedule(1, () => undefined)).toThrow(AssertionError);
  });

  it('asserts on a zero-delay livelock', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    let runs = 0;
    const spin = (): void => {
      runs++;
      scheduler.schedule(0, spin);
    };
    scheduler.schedule(0, spin);
    await expect(scheduler.runUntil(1)).rejects.toThrow(AssertionError);
    expect(runs).toBe(SCHEDULER_EVENTS_PER_INSTANT_MAX);
  }, 120_000);

  it('refuses to run re-entrantly or backwards', async () => {
    const scheduler = createScheduler({ startTimeMs: 100 });
    await expect(scheduler.runUntil(50)).rejects.toThrow(AssertionError);
    let inner: unknown;
    scheduler.schedule(1, () => {
      void scheduler.runUntil(200).then(
        () => (inner = 'ran'),
        (error: unknown) => (inner = error),
      );
    });
    await scheduler.runUntil(150);
    expect(inner).toBeInstanceOf(AssertionError);
  });
});

describe('node clock', () => {
  it('reads the shared time plus its skew; timers are unaffected by skew', async () => {
    const scheduler = createScheduler({ startTimeMs: 1_000 });
    const fast = createNodeClock(scheduler, { owner: 'fast', skewMs: 250 });
    const slow = createNodeClock(scheduler, { owner: 'slow', skewMs: -400 });
    expect(fast.now()).toBe(1_250);
    expect(slow.now()).toBe(600);
    const fired: string[] = [];
    fast.setTimeout(() => fired.push(`fast ${fast.now()}`), 100);
    slow.setTimeout(() => fired.push(`slow ${slow.now()}`), 100);
    await scheduler.runUntil(2_000);
    expect(fired).toEqual(['fast 1350', 'slow 700']);
    fast.setSkewMs(0);
    expect(fast.now()).toBe(2_000);
  });

  it('clearTimeout cancels, and ignores foreign or stale ids', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const clock = createNodeClock(scheduler, { owner: 'n' });
    const other = createNodeClock(scheduler, { owner: 'm' });
    const fired: string[] = [];
    const a = clock.setTimeout(() => fired.push('a'), 10);
    const b = clock.setTimeout(() => fired.push('b'), 10);
    const c = other.setTimeout(() => fired.push('c'), 10);
    clock.clearTimeout(a);
    clock.clearTimeout(c);
    clock.clearTimeout('not a timer');
    clock.clearTimeout(undefined);
    expect(clock.pendingTimerCount()).toBe(1);
    await scheduler.runUntil(20);
    clock.clearTimeout(b);
    expect(fired).toEqual(['b', 'c']);
    expect(clock.pendingTimerCount()).toBe(0);
  });

  it('halt cancels pending timers and ignores later ones (a crashed node)', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const clock = createNodeClock(scheduler, { owner: 'n' });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('before crash'), 10);
    clock.halt();
    clock.setTimeout(() => fired.push('zombie'), 10);
    await scheduler.runUntil(20);
    expect(fired).toEqual([]);
    expect(clock.isHalted()).toBe(true);
    expect(scheduler.pendingCount).toBe(0);
  });
});
