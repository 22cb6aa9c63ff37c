import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baselineFigures, median } from '../../bench/sim/baseline.js';
import { canPinProcesses, pinProcessTree, processTree, simNodeFlags } from '../../bench/sim/simCommand.js';

describe('the simulator bench against a baseline commit', () => {
  it('reports the median over rounds of the baseline time over the current one', () => {
    const figures = baselineFigures(
      'abc',
      10,
      true,
      [
        { steadySeconds: 4, campaignSeconds: 30 },
        { steadySeconds: 6, campaignSeconds: 20 },
        { steadySeconds: 5, campaignSeconds: 10 },
      ],
      [
        { steadySeconds: 2, campaignSeconds: 30 },
        { steadySeconds: 6, campaignSeconds: 40 },
        { steadySeconds: 4, campaignSeconds: 10 },
      ],
    );
    expect(figures).toMatchObject({
      baselineCommit: 'abc',
      baselineRounds: 3,
      baselineSteadySpeedup: 1.25,
      baselineCampaignSpeedup: 1,
      baselineSteadyWallSeconds: 5,
      baselineCurrentSteadyWallSeconds: 4,
    });
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });

  it("runs each checkout with its own `sim` script's Node flags", () => {
    expect(simNodeFlags('.')).toEqual(['--max-semi-space-size=64', '--import', './sim/tsLoader/register.mjs']);
    const older = mkdtempSync(path.join(os.tmpdir(), 'sim-flags-'));
    try {
      writeFileSync(
        path.join(older, 'package.json'),
        JSON.stringify({ scripts: { sim: 'node --import tsx sim/main.ts' } }),
      );
      expect(simNodeFlags(older)).toEqual(['--import', 'tsx']);
      writeFileSync(path.join(older, 'package.json'), JSON.stringify({ scripts: {} }));
      expect(simNodeFlags(older)).toEqual(['--max-semi-space-size=64', '--import', 'tsx']);
    } finally {
      rmSync(older, { recursive: true, force: true });
    }
  });

  it.runIf(canPinProcesses() && os.availableParallelism() >= 2)(
    'pins a process and the processes it started to one CPU',
    async () => {
      const parent = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
      try {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const tree = processTree(parent.pid!);
        expect(tree.length).toBeGreaterThanOrEqual(2);
        pinProcessTree(parent.pid!, 1);
        for (const pid of tree) {
          expect(execFileSync('taskset', ['--pid', '--cpu-list', String(pid)], { encoding: 'utf8' })).toMatch(/: 1\n$/);
        }
      } finally {
        for (const pid of processTree(parent.pid!).reverse()) process.kill(pid, 'SIGKILL');
      }
    },
  );
});
