import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { argsNeedSingleThreadedRelaunch, shouldRelaunchSingleThreaded } from './singleThreadedV8.js';

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

  it('decides from the command line alone: local campaigns and determinism checks that fill every core', () => {
    const needs = (...args: string[]) => argsNeedSingleThreadedRelaunch(args, [], {});
    expect(needs('campaign', '--seeds', '100')).toBe(cores >= 1);
    expect(needs('campaign', '--seeds', '100', '--workers', String(cores))).toBe(true);
    expect(needs('determinism', `--workers=${cores + 1}`)).toBe(true);
    expect(needs('campaign', '--seeds', '100', '--workers', String(cores - 1))).toBe(cores - 1 >= cores);
    // Commands that run no campaign threads here, or print help.
    expect(needs('--seed', '1')).toBe(false);
    expect(needs('worker', '--queue', 'redis://127.0.0.1:6379/0')).toBe(false);
    expect(needs('campaign', '--seeds', '100', '--queue', 'redis://127.0.0.1:6379/0')).toBe(false);
    expect(needs('campaign', '--status', '--queue=redis://127.0.0.1:6379/0')).toBe(false);
    expect(needs('campaign', '--help')).toBe(false);
    // What it cannot read runs without the relaunch; the full parser reports it.
    expect(needs('campaign', '--seeds', '100', '--workers')).toBe(false);
    expect(needs('campaign', '--seeds', '100', '--workers', 'two')).toBe(false);
    expect(argsNeedSingleThreadedRelaunch(['campaign', '--seeds', '1'], ['--single-threaded'], {})).toBe(false);
  });
});
