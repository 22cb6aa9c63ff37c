import { setTimeout as sleep } from 'node:timers/promises';
import { createSystemClock } from '../../adapters/clock/systemClock.js';
import { createScheduler } from '../../sim/scheduler.js';
import { createNodeClock } from '../../sim/simClock.js';
import { describeClockPort } from './clockPort.suite.js';

describeClockPort('system clock', () => ({
  clock: createSystemClock(),
  advance: async (ms) => {
    await sleep(ms);
  },
  timerEarlyToleranceMs: 1,
}));

describeClockPort('simulated clock', () => {
  const scheduler = createScheduler({ startTimeMs: 1_700_000_000_000 });
  return {
    clock: createNodeClock(scheduler, { owner: 'clock-suite' }),
    advance: async (ms) => {
      await scheduler.runFor(ms);
    },
    timerEarlyToleranceMs: 0,
  };
});

describeClockPort('simulated clock with skew', () => {
  const scheduler = createScheduler({ startTimeMs: 1_700_000_000_000 });
  return {
    clock: createNodeClock(scheduler, { owner: 'clock-suite', skewMs: -1_500 }),
    advance: async (ms) => {
      await scheduler.runFor(ms);
    },
    timerEarlyToleranceMs: 0,
  };
});
