import { setTimeout as sleep } from 'node:timers/promises';
import { createSystemClock } from '../../adapters/clock/systemClock.js';
import { describeClockPort } from './clockPort.suite.js';

describeClockPort('system clock', () => ({
  clock: createSystemClock(),
  advance: async (ms) => {
    await sleep(ms);
  },
  timerEarlyToleranceMs: 1,
}));
