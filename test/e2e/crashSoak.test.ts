/**
 * The kill -9 soak of a syncing follower (bench/crash/crashSoak.ts), small enough for CI: a sequencer on anvil and a
 * follower run as a child process (`svc start --node`) on one data directory, killed with SIGKILL CRASH_SOAK_KILLS
 * times at moments drawn from a fixed seed. After every kill the follower must reopen with its tips in order, none
 * of them behind what it reported before the kill, every block it holds equal to the sequencer's, and then catch up.
 * `npm run bench -- crash` runs the same soak with 100 kills.
 */
import { describe, expect, it } from 'vitest';
import { runCrashSoak } from '../../bench/crash/crashSoak.js';

const CRASH_SOAK_SEED = 7n;
const CRASH_SOAK_KILLS = 5;
/** Shorter runs and down times than the bench's, so the soak fits in about a minute and a half. */
const CRASH_SOAK_RUN_MS_MAX = 4_000;
const CRASH_SOAK_DOWN_MS_MAX = 1_500;

describe('a follower killed with SIGKILL at random moments', () => {
  it('comes back consistent with the sequencer after every kill and catches up', async () => {
    const startedMs = performance.now();
    const result = await runCrashSoak({
      seed: CRASH_SOAK_SEED,
      kills: CRASH_SOAK_KILLS,
      runMsMax: CRASH_SOAK_RUN_MS_MAX,
      downMsMax: CRASH_SOAK_DOWN_MS_MAX,
      // In the test's output, so that a soak that gets stuck shows where.
      steps: (line) => console.log(`crash soak, ${((performance.now() - startedMs) / 1000).toFixed(1)} s: ${line}`),
    });
    expect(result.failure, JSON.stringify(result.failure, null, 2)).toBeUndefined();
    expect(result.kills).toHaveLength(CRASH_SOAK_KILLS);
    // Every kill was followed by a restart; the last one ran until it had caught up with the sequencer.
    expect(result.kills.every((kill) => kill.restart !== undefined)).toBe(true);
    const last = result.kills.at(-1)!.restart!;
    expect(last.checked).toBe(true);
    expect(last.catchUpMs).toBeDefined();
    expect(last.tipsAfter!.checkpointed).toBeGreaterThanOrEqual(result.kills.at(-1)!.tipsBefore?.checkpointed ?? 0);
  }, 300_000);
});
