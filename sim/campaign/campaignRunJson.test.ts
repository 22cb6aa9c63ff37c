import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crashedRun, simulateForCampaign } from './campaignRun.js';
import { campaignRunToJson, parseCampaignRunJson } from './campaignRunJson.js';

describe('campaign run JSON', () => {
  it('gives back a simulated run field for field, bigints included', async () => {
    const run = { ...(await simulateForCampaign(3n, 30)), wallMs: 12.5 };
    const back = parseCampaignRunJson(campaignRunToJson(run));
    expect(back).toEqual(run);
    expect(typeof back.options.seed).toBe('bigint');
    expect(JSON.stringify(Object.keys(back.options))).toBe(JSON.stringify(Object.keys(run.options)));
  });

  it('gives back any crashed run (every seed, any detail)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), fc.string(), (seed, detail) => {
        const run = crashedRun(seed, 60, detail, 5);
        expect(parseCampaignRunJson(campaignRunToJson(run))).toEqual(run);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses text that is not a run, saying where', () => {
    const good = JSON.parse(campaignRunToJson(crashedRun(7n, 60, 'x', 1))) as Record<string, unknown>;
    const text = (patch: Record<string, unknown>) => JSON.stringify({ ...good, ...patch });
    expect(() => parseCampaignRunJson('{')).toThrow();
    expect(() => parseCampaignRunJson('[]')).toThrow(/not a campaign run/);
    expect(() => parseCampaignRunJson(text({ seed: '7' }))).toThrow(/seed/);
    expect(() => parseCampaignRunJson(text({ seed: { $bigint: '7x' } }))).toThrow(/not a decimal integer/);
    expect(() => parseCampaignRunJson(text({ failures: [{ kind: 'nonsense', detail: '' }] }))).toThrow(/failures/);
    expect(() => parseCampaignRunJson(text({ tips: [{ node: 'a', samples: [[1, 2]] }] }))).toThrow(/tips/);
  });
});
