/**
 * Replays every file in test/regressions/ (CI runs them all): each run's failure kinds must be the ones its file
 * expects, none for a fixed bug. A file that expects failures pins an open defect (see knownDefects.ts): the day the
 * defect is fixed, its replay passes, this test says so, and the expectation is cleared.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureKindsOf, parseReplay } from '../../sim/replayFile.js';
import { runSimulation } from '../../sim/runSimulation.js';
import { KNOWN_DEFECTS } from './knownDefects.js';

const directory = path.join(import.meta.dirname, '..', 'regressions');
const files = readdirSync(directory)
  .filter((name) => name.endsWith('.json'))
  .sort();

describe('regression replays', () => {
  it('there are replays, and every known defect has its replay', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const defect of KNOWN_DEFECTS) expect(files).toContain(path.basename(defect.replay));
  });

  it.each(files)('%s', async (name) => {
    const replay = parseReplay(readFileSync(path.join(directory, name), 'utf8'));
    const result = await runSimulation(replay.options);
    const got = failureKindsOf(result.failures);
    expect(
      [...got].sort(),
      `${replay.note}\n${result.failures.map((f) => `${f.kind}: ${f.detail}`).join('\n')}`,
    ).toEqual([...replay.expectedFailureKinds].sort());
  });
});
