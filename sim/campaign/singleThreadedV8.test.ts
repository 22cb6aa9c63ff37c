import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { shouldRelaunchSingleThreaded } from './singleThreadedV8.js';

describe('single-threaded V8 for campaigns that fill every core', () => {
  const cores = os.availableParallelism();

  it('relaunches when the threads take every core, unless already single-threaded or turned off', () => {
    expect(shouldRelaunchSingleThreaded(cores, ['--import', 'tsx'], {})).toBe(true);
    expect(shouldRelaunchSingleThreaded(cores + 1, [], {})).toBe(true);
    expect(shouldRelaunchSingleThreaded(cores, ['--single-threaded'], {})).toBe(false);
    expect(shouldRelaunchSingleThreaded(cores, [], { SIM_V8_SINGLE_THREADED: '0' })).toBe(false);
  });

  it('leaves V8 its helper threads when a core is left for them', () => {
    expect(shouldRelaunchSingleThreaded(cores - 1, [], {})).toBe(false);
  });
});
