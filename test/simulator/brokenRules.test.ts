/**
 * The reference checkers (sim/checkers/checkpointFees.ts, slotOutcomes.ts, proposers.ts) name the rule a shared bug
 * breaks: each broken-rule preload rewrites one rule of core/ the same way in every node, so the nodes agree with each
 * other and converge, and only the checker holding the chain to its own model of the rule can tell. The same seeds run
 * clean without the preload.
 */
import { describe, expect, it } from 'vitest';
import type { SimFailureKind } from '../../sim/checkers/simFailure.js';
import {
  BROKEN_FEE_FLOOR_IMPORT,
  BROKEN_L1_REPLACEMENT_IMPORT,
  BROKEN_PROPOSER_DRAW_IMPORT,
  startSim,
} from '../helpers/simProcess.js';

/** A few seeds' runs in a child process each, one after another (the machine's cores are shared). */
const RUNS_TIMEOUT_MS = 480_000;

async function runSeed(seed: number, preloads: readonly string[] = []) {
  const sim = startSim(['--seed', String(seed)], { preloads });
  const exit = await sim.exited;
  const failures = sim.stdout.filter((line) => line.startsWith('FAILURE '));
  return { exit, failures, output: [...sim.stdout, ...sim.stderr].join('\n') };
}

/** The exit codes docs/simulator.md lists for the three kinds (SIM_EXIT_CODE, sim/simCli.ts). */
const EXIT_CODE: Partial<Record<SimFailureKind, number>> = {
  checkpointFeesWrong: 36,
  slotOutcomeWrong: 37,
  proposerWrong: 38,
};

const cases: readonly { rule: string; preload: string; kind: SimFailureKind; seeds: readonly number[] }[] = [
  {
    rule: 'fees held at the floor no longer',
    preload: BROKEN_FEE_FLOOR_IMPORT,
    kind: 'checkpointFeesWrong',
    seeds: [2],
  },
  {
    rule: 'a stuck proposal queued behind instead of replaced',
    preload: BROKEN_L1_REPLACEMENT_IMPORT,
    kind: 'slotOutcomeWrong',
    seeds: [2],
  },
  {
    rule: "a slot's proposer drawn from the next slot",
    preload: BROKEN_PROPOSER_DRAW_IMPORT,
    kind: 'proposerWrong',
    seeds: [4],
  },
];

describe('reference checkers against a rule broken in every node', () => {
  for (const { rule, preload, kind, seeds } of cases) {
    it(
      `${kind}: ${rule}`,
      async () => {
        for (const seed of seeds) {
          const run = await runSeed(seed, [preload]);
          expect(
            run.failures.some((line) => line.startsWith(`FAILURE ${kind}:`)),
            run.output,
          ).toBe(true);
          expect(run.exit, run.output).not.toBe(0);
          expect(
            run.failures.every((line) => line.startsWith(`FAILURE ${kind}:`)),
            run.output,
          ).toBe(true);
          expect(run.exit).toBe(EXIT_CODE[kind]);
        }
      },
      RUNS_TIMEOUT_MS,
    );
  }

  it(
    'the same seeds run clean with the rules intact',
    async () => {
      for (const seed of [...new Set(cases.flatMap((c) => c.seeds))]) {
        const run = await runSeed(seed);
        expect(run.failures, run.output).toEqual([]);
        expect(run.exit, run.output).toBe(0);
      }
    },
    RUNS_TIMEOUT_MS,
  );
});
