/**
 * The small hooks the fault vocabulary needs from the simulated world: a paused node clock (timers wait, then fire
 * late in order) and a finality stall on the simulated L1.
 */
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { createPrng } from '../../sim/prng.js';
import { createScheduler } from '../../sim/scheduler.js';
import { createNodeClock } from '../../sim/simClock.js';
import { createSimL1 } from '../../sim/simL1.js';

describe('node clock pause', () => {
  it('holds timers that come due while paused and fires them on resume, in due order; cleared ones never fire', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const clock = createNodeClock(scheduler, { owner: 'n' });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`a@${clock.now()}`), 10);
    const b = clock.setTimeout(() => fired.push(`b@${clock.now()}`), 20);
    clock.setTimeout(() => fired.push(`c@${clock.now()}`), 30);
    clock.setTimeout(() => fired.push(`late@${clock.now()}`), 500);
    await scheduler.runUntil(5);
    clock.pause();
    expect(clock.isPaused()).toBe(true);
    await scheduler.runUntil(100);
    clock.clearTimeout(b);
    expect(fired).toEqual([]);
    expect(clock.now()).toBe(100);
    clock.resume();
    await scheduler.runUntil(1_000);
    expect(fired).toEqual(['a@100', 'c@100', 'late@500']);
    expect(clock.pendingTimerCount()).toBe(0);
  });

  it('a crash of a paused node drops its late timers', async () => {
    const scheduler = createScheduler({ startTimeMs: 0 });
    const clock = createNodeClock(scheduler, { owner: 'n' });
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('a'), 10);
    clock.pause();
    await scheduler.runUntil(50);
    clock.halt();
    clock.resume();
    await scheduler.runUntil(100);
    expect(fired).toEqual([]);
  });
});

describe('simulated L1 finality stall', () => {
  it('holds finalized where it was while stalled, then follows the head again', async () => {
    const scheduler = createScheduler();
    const l1 = createSimL1({
      scheduler,
      prng: createPrng(1).fork('l1'),
      genesisArchiveRoot: `0x${'11'.repeat(32)}` as Hex,
      finalityLagBlocks: 2,
    });
    const reader = l1.connect('node').reader;
    await scheduler.runFor(10 * 12_000);
    expect((await reader.getBlock('finalized')).number).toBe(8n);
    l1.setFinalityStalled(true);
    await scheduler.runFor(5 * 12_000);
    expect((await reader.getBlock('latest')).number).toBe(15n);
    expect((await reader.getBlock('finalized')).number).toBe(8n);
    l1.setFinalityStalled(true);
    expect((await reader.getBlock('finalized')).number).toBe(8n);
    l1.setFinalityStalled(false);
    expect((await reader.getBlock('finalized')).number).toBe(13n);
  });
});
