import { describe, expect, it } from 'vitest';
import type { SimFailure } from '../runSimulation.js';
import { crashedRun, type CampaignRun } from './campaignRun.js';
import { formatSummary, summarizeCampaign, type CampaignContext } from './campaignSummary.js';

const context: CampaignContext = {
  from: 10n,
  seeds: 4,
  simulatedSecondsPerRun: 60,
  workers: 2,
  commit: 'abc',
  worktreeDirty: false,
};

function run(seed: bigint, failures: SimFailure[], wallMs = 100): CampaignRun {
  return { ...crashedRun(seed, 60, 'unused', wallMs), traceHash: `0x${'11'.repeat(32)}`, failures };
}

describe('campaign summary', () => {
  it('counts runs, failing runs per checker kind, and throughput', () => {
    const runs = [
      run(10n, []),
      run(
        11n,
        [
          { kind: 'noProgress', detail: 'x' },
          { kind: 'noProgress', detail: 'y' },
        ],
        300,
      ),
      run(12n, [
        { kind: 'nodesDiverged', node: 'follower-1', detail: 'z' },
        { kind: 'noProgress', detail: 'w' },
      ]),
      run(13n, []),
    ];
    const summary = summarizeCampaign(context, runs, 2_000);
    expect(summary).toMatchObject({
      runs: 4,
      passed: 2,
      failed: 2,
      failuresByKind: { noProgress: 2, nodesDiverged: 1 },
      failingSeeds: ['11', '12'],
      firstFailure: { seed: '11', kind: 'noProgress' },
      simulatedSeconds: 240,
      wallSeconds: 2,
      simulatedSecondsPerWallSecond: 120,
      simulatedSecondsPerThreadSecond: 400,
      slowestRun: { seed: '11', wallMs: 300 },
    });
    const text = formatSummary(summary).join('\n');
    expect(text).toContain('seeds 10..13');
    expect(text).toContain('failed 2 (noProgress 2, nodesDiverged 1)');
    expect(text).toContain('failing seeds: 11 12');
  });

  it('a clean campaign has no first failure', () => {
    const summary = summarizeCampaign(context, [run(10n, [])], 500);
    expect(summary.firstFailure).toBeNull();
    expect(summary.failuresByKind).toEqual({});
  });
});
