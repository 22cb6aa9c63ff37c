import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashedRun } from '../../sim/campaign/campaignRun.js';
import { failureRecord, openFailureDatabase } from '../../sim/campaign/failureDatabase.js';
import { runCampaign } from '../../sim/campaign/runCampaign.js';
import { runDeterminismCheck } from '../../sim/campaign/runDeterminismCheck.js';
import { runSimulation } from '../../sim/runSimulation.js';
import { drawSwarmOptions } from '../../sim/swarm.js';

/**
 * The campaign runner end to end: seeds on real worker threads (TypeScript loaded through tsx as `npm run sim`
 * does), its files, and the determinism self-check across two threads.
 */

const exec = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'campaign-test-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('campaign runner', () => {
  it('runs 4 seeds of 120 simulated s on 2 workers: clean summary, report, same hashes as a run in this thread', async () => {
    const outDir = path.join(dir, 'campaign');
    const outcome = await runCampaign({
      from: 1n,
      seeds: 4,
      workers: 2,
      simulatedSeconds: 120,
      outDir,
      progress: null,
    });
    expect(outcome.rows.map((r) => r.seed)).toEqual([1n, 2n, 3n, 4n]);
    expect(outcome.summary).toMatchObject({
      runs: 4,
      passed: 4,
      failed: 0,
      failuresByKind: {},
      firstFailure: null,
      simulatedSeconds: 480,
    });
    expect(outcome.summary.simulatedSecondsPerWallSecond).toBeGreaterThan(0);
    const here = await runSimulation(drawSwarmOptions(3n, 120));
    expect(outcome.rows[2]!.traceHash).toBe(here.traceHash);

    expect(JSON.parse(await readFile(outcome.summaryPath, 'utf8'))).toMatchObject({ runs: 4, failed: 0, from: '1' });
    const html = await readFile(outcome.reportPath, 'utf8');
    expect(html).toContain('aria-label="tips of sequencer-0"');
    expect(html.match(/<td class="num">\d+<\/td><td><span class="ok">ok<\/span>/g)?.length ?? 0).toBeGreaterThan(0);
  });

  it('determinism self-check: 3 seeds, each run in two threads, equal trace hashes', async () => {
    const outcome = await runDeterminismCheck({
      from: 7n,
      seeds: 3,
      workers: 2,
      simulatedSeconds: 120,
      progress: null,
    });
    expect(outcome).toMatchObject({ seeds: 3, runs: 6, mismatches: [] });
  });

  it('the failing-seed database appends one JSON line per failure with its replay command', async () => {
    const file = path.join(dir, 'db', 'failures.jsonl');
    for (const seed of [5n, 9n]) {
      const database = openFailureDatabase(file);
      database.append(
        failureRecord(crashedRun(seed, 90, 'boom', 10), { commit: 'c0ffee', worktreeDirty: false }, 'then'),
      );
      await database.flushed();
    }
    const lines = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => l.seed)).toEqual(['5', '9']);
    expect(lines[1]).toMatchObject({
      commit: 'c0ffee',
      failures: [{ kind: 'crashed', detail: 'boom' }],
      replay: 'npm run sim -- --seed 9 --simulated-seconds 90',
      options: { seed: '9', simulatedSeconds: 90 },
    });
  });

  it('`npm run sim -- determinism` exits 0 and says so', async () => {
    const { stdout } = await exec(process.execPath, [
      '--import',
      'tsx',
      'sim/main.ts',
      'determinism',
      '--seeds',
      '1',
      '--seconds',
      '60',
      '--workers',
      '2',
    ]);
    expect(stdout).toMatch(
      /determinism: 1 seeds x 2 runs in two threads, 60 simulated s each, .*every seed gave the same trace hash twice/,
    );
  });
});
