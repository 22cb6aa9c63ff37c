import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAMPAIGN_JOB_FORMAT, parseCampaignJobData, seedRanges } from './campaignQueue.js';
import { threadExecArgv } from './workerPool.js';

describe('campaign queue', () => {
  it('cuts a seed range into jobs that cover every seed once, in order', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 2n ** 40n }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 60 }),
        (from, seeds, perJob) => {
          const ranges = seedRanges(from, seeds, perJob);
          const covered = ranges.flatMap((r) => Array.from({ length: r.count }, (_, i) => r.from + BigInt(i)));
          expect(covered).toEqual(Array.from({ length: seeds }, (_, i) => from + BigInt(i)));
          expect(ranges.every((r) => r.count >= 1 && r.count <= perJob)).toBe(true);
        },
      ),
    );
  });

  it('checks a job payload field by field', () => {
    const job = {
      format: CAMPAIGN_JOB_FORMAT,
      campaignId: 'abc123',
      from: '5',
      count: 10,
      simulatedSeconds: 60,
      commit: 'c',
      worktreeDirty: false,
      codeFingerprint: 'clean',
    };
    expect(parseCampaignJobData(job)).toEqual(job);
    for (const bad of [
      null,
      'text',
      { ...job, format: 'other' },
      { ...job, from: '-1' },
      { ...job, count: 0 },
      { ...job, campaignId: 'a:b' },
      { ...job, commit: 1 },
    ])
      expect(() => parseCampaignJobData(bad)).toThrow(expect.objectContaining({ code: 'JOB_PAYLOAD_INVALID' }));
  });

  it("passes NODE_OPTIONS' --import preloads other than the TypeScript loaders to worker threads", () => {
    expect(threadExecArgv(undefined)).toEqual([]);
    const options = '--import tsx --import ./sim/tsLoader/register.mjs --import /x/hook.mjs --max-old-space-size=4096';
    expect(threadExecArgv(`${options} --import=./y.mjs`)).toEqual(['--import', '/x/hook.mjs', '--import', './y.mjs']);
  });
});
