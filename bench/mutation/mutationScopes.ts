/**
 * What a mutation run of one folder needs (`npm run mutate`, bench/mutation/mutate.ts): the files Stryker mutates,
 * the test files that exercise them, Stryker's options, and the summary of its results. Pure: the caller lists and
 * reads the files and runs Stryker.
 */
import path from 'node:path';
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';
import { isEquivalent, type EquivalentMutant } from './equivalentMutants.js';

/** The folders of issue 19, run one after another by `npm run mutate` without a scope. */
export const MUTATION_TARGET_FOLDERS = [
  'core/txPool',
  'core/archiver',
  'core/worldState',
  'core/merkle',
  'core/validators',
  'core/l1',
  'core/fees',
  'core/publicVm',
  'spec/codec',
] as const;

/** The score each target folder must reach (per cent of the mutants that compile and are not equivalent). */
export const MUTATION_SCORE_TARGET_PERCENT = 80;

/**
 * Test folders never rerun per mutant: end-to-end files (anvil, child processes, servers) and the simulator and
 * packaging suites take seconds to minutes each. vitest.mutation.config.ts excludes them as well.
 */
export const MUTATION_EXCLUDED_TEST_PREFIXES = ['test/e2e/', 'test/simulator/', 'test/packaging/', 'test/bench/'];

/**
 * Test folders left out of one scope's run, by scope, where whole-node suites would be rerun for nearly every mutant.
 * spec/codec's byte helpers are imported by scenario, validator, VM and store suites to build their fixtures: with
 * them, every mutant of spec/codec/bytes.ts reruns minutes of whole-node scenarios (a run did not finish in 46
 * minutes here); its score counts its own suites and the gossip codec's property suite. core/l1's fee-spike scenario
 * (20 s) covers nearly all of core/l1: Stryker estimated 1 h 45 min for 307 mutants; its score counts its unit suites.
 */
export const MUTATION_SCOPE_EXCLUDED_TEST_PREFIXES: Readonly<Record<string, readonly string[]>> = {
  'spec/codec': ['test/scenarios/', 'test/validators/', 'test/publicVm/', 'test/portSuites/', 'test/rpc/'],
  'core/l1': ['test/scenarios/'],
};

/** What Stryker leaves out of its sandbox copy: outputs, documents, and other runs' sandboxes. */
const SANDBOX_IGNORE_PATTERNS = [
  'dist',
  '.data',
  'sim-out',
  'reports',
  'docs',
  'deploy',
  '*.log',
  '.stryker-tmp*',
  '*.tmp.*',
];

/** Stryker workers: the machines here have 2 cores, shared. */
export const MUTATION_CONCURRENCY = 2;

/** Per mutant, on top of the dry run's time for its tests (Stryker's timeoutMS; the factor is Stryker's default). */
export const MUTATION_TIMEOUT_MS = 10_000;

/** A repository file: its path from the root, with `/` separators, and its text. */
export interface RepositoryFile {
  readonly path: string;
  readonly text: string;
}

/** A folder of the repository, `core/fees` style: no leading `./`, no trailing `/`. */
export function normalizeScope(scope: string): string {
  const normalized = path.posix.normalize(scope.replaceAll('\\', '/')).replace(/\/+$/, '');
  if (normalized.startsWith('..') || path.posix.isAbsolute(normalized) || normalized === '.') {
    throw new Error(`mutation scope ${scope} is not a folder inside the repository`);
  }
  return normalized;
}

const isTestFile = (file: string): boolean => file.endsWith('.test.ts');
const isInside = (file: string, folder: string): boolean => file.startsWith(`${folder}/`);

/** The relative modules a TypeScript file imports or re-exports, as repository paths (`.js` specifiers kept). */
export function relativeImportsOf(file: RepositoryFile): string[] {
  const specifiers = [...file.text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)];
  return specifiers.map((match) => path.posix.normalize(path.posix.join(path.posix.dirname(file.path), match[1]!)));
}

/**
 * The test files that exercise a folder: its own `*.test.ts` files, and the files under test/ that import one of its
 * modules directly (the excluded test folders left out, and the scope's own exclusions).
 */
export function testFilesFor(scope: string, files: readonly RepositoryFile[]): string[] {
  const excluded = [...MUTATION_EXCLUDED_TEST_PREFIXES, ...(MUTATION_SCOPE_EXCLUDED_TEST_PREFIXES[scope] ?? [])];
  const tests = files.filter(
    (file) => isTestFile(file.path) && !excluded.some((prefix) => file.path.startsWith(prefix)),
  );
  const own = tests.filter((file) => isInside(file.path, scope));
  const importers = tests.filter(
    (file) => isInside(file.path, 'test') && relativeImportsOf(file).some((target) => isInside(target, scope)),
  );
  return [...new Set([...own, ...importers].map((file) => file.path))].sort();
}

/** Stryker's mutate globs for a folder: its TypeScript files, tests left out. */
export function mutateGlobsFor(scope: string): string[] {
  return [`${scope}/**/*.ts`, `!${scope}/**/*.test.ts`];
}

/** The folder's name in file names: `core/fees` gives `core-fees`. */
const fileStem = (scope: string): string => scope.replaceAll('/', '-');

/** Stryker's incremental file of a folder, committed so a run on a fresh clone re-tests only what changed. */
export const incrementalFileFor = (scope: string): string => `bench/mutation/incremental/${fileStem(scope)}.json`;

/** Where a folder's HTML report and JSON summary go (gitignored). */
export const reportFolderFor = (scope: string): string => `reports/mutation/${scope}`;

/**
 * Stryker's options for one folder. `ignoreStatic` leaves out static mutants (those in code run once, when a module
 * loads: constant tables, top-level expressions). Each needs every test file of the scope rerun in a fresh process,
 * which on spec/codec's 20 files is half an hour of the run; they count as ignored, outside the score. `force`
 * re-tests every mutant, reusing nothing from the incremental file.
 *
 * The folder's test files reach Stryker's runner through MUTATION_TEST_FILES (vitest.mutation.config.ts), not
 * Stryker's `testFiles`: with `testFiles` set, Stryker 9.6 plans static mutants with a test filter and switches them on
 * at run time, after their module has loaded, so none was ever killed (stryker-js issue 6144; checked on six of
 * core/txPool's: five are killed without it).
 */
export function strykerOptionsFor(
  scope: string,
  { ignoreStatic = false, force = false }: { readonly ignoreStatic?: boolean; readonly force?: boolean } = {},
): PartialStrykerOptions {
  const reports = reportFolderFor(scope);
  return {
    ignoreStatic,
    force,
    mutate: mutateGlobsFor(scope),
    testRunner: 'vitest',
    vitest: { configFile: 'vitest.mutation.config.ts', related: false },
    checkers: ['typescript'],
    tsconfigFile: 'tsconfig.mutation.json',
    typescriptChecker: { prioritizePerformanceOverAccuracy: true },
    coverageAnalysis: 'perTest',
    incremental: true,
    incrementalFile: incrementalFileFor(scope),
    concurrency: MUTATION_CONCURRENCY,
    timeoutMS: MUTATION_TIMEOUT_MS,
    reporters: ['html', 'json', 'clear-text', 'progress-append-only'],
    htmlReporter: { fileName: `${reports}/index.html` },
    jsonReporter: { fileName: `${reports}/mutation.json` },
    tempDirName: '.stryker-tmp',
    cleanTempDir: true,
    ignorePatterns: SANDBOX_IGNORE_PATTERNS,
    plugins: ['@stryker-mutator/vitest-runner', '@stryker-mutator/typescript-checker'],
  };
}

/** Seeds of the simulator campaign a surviving mutant is tried against (`--simulator-seeds`), on one thread. */
export const SIMULATOR_KILLER_SEEDS_DEFAULT = 24;

/** Per mutant, on top of the campaign's own time in the dry run: a mutant that stalls the simulator times out. */
const SIMULATOR_KILLER_TIMEOUT_MS = 60_000;

/** Stryker's mutate ranges for the lines of these mutants (`file:line-line`: every column of the line). */
export function survivorRanges(survivors: readonly string[]): string[] {
  const lines = survivors.map((survivor) => /^(\S+):(\d+) /.exec(survivor)).filter((match) => match !== null);
  return [...new Set(lines.map((match) => `${match[1]}:${match[2]}-${match[2]}`))].sort();
}

/**
 * The second pass, for mutants the unit tests let live: Stryker's command runner runs a short simulator campaign
 * (sim/main.ts, every checker on) in the sandbox, with the mutant switched on in every worker thread; a failing seed
 * (a checker's exit code) kills it. No coverage analysis: each mutant runs the whole campaign.
 */
export function simulatorOptionsFor(scope: string, survivors: readonly string[], seeds: number): PartialStrykerOptions {
  const reports = reportFolderFor(scope);
  const campaign = `sim/main.ts campaign --seeds ${seeds} --workers 1 --out sim-out/mutation`;
  return {
    mutate: survivorRanges(survivors),
    testRunner: 'command',
    commandRunner: { command: `node --max-semi-space-size=64 --import tsx ${campaign}` },
    checkers: ['typescript'],
    tsconfigFile: 'tsconfig.mutation.json',
    coverageAnalysis: 'off',
    incremental: true,
    incrementalFile: incrementalFileFor(scope).replace(/\.json$/, '.simulator.json'),
    concurrency: MUTATION_CONCURRENCY,
    timeoutMS: SIMULATOR_KILLER_TIMEOUT_MS,
    reporters: ['html', 'json', 'progress-append-only'],
    htmlReporter: { fileName: `${reports}/simulator.html` },
    jsonReporter: { fileName: `${reports}/simulator.json` },
    tempDirName: '.stryker-tmp-simulator',
    cleanTempDir: true,
    ignorePatterns: SANDBOX_IGNORE_PATTERNS,
    plugins: ['@stryker-mutator/typescript-checker'],
  };
}

/**
 * The unit pass's outcomes with the survivors the simulator killed marked killed (status `Killed`, mutator name
 * kept); the simulator pass's other mutants (on the same lines, already judged by the unit pass) are not counted.
 */
export function withSimulatorKills(
  unit: readonly MutantOutcome[],
  simulator: readonly MutantOutcome[],
  root: string,
): MutantOutcome[] {
  const killed = new Set(
    simulator
      .filter((mutant) => mutant.status === 'Killed' || mutant.status === 'Timeout')
      .map((mutant) => describeMutant(mutant, root)),
  );
  return unit.map((mutant) =>
    (mutant.status === 'Survived' || mutant.status === 'NoCoverage') && killed.has(describeMutant(mutant, root))
      ? { ...mutant, status: 'Killed' }
      : mutant,
  );
}

/** What the summary reads of one of Stryker's mutant results. */
export interface MutantOutcome {
  readonly fileName: string;
  readonly status: string;
  readonly mutatorName: string;
  readonly replacement?: string | undefined;
  readonly location: { readonly start: { readonly line: number } };
}

/** A folder's mutants by outcome, and its score. */
export interface MutationSummary {
  readonly scope: string;
  readonly killed: number;
  readonly timeout: number;
  readonly survived: number;
  readonly noCoverage: number;
  readonly equivalent: number;
  readonly compileErrors: number;
  readonly runtimeErrors: number;
  readonly ignored: number;
  /**
   * Killed and timed-out mutants over every mutant that compiles and is not marked equivalent, in per cent with two
   * decimals (Stryker's "mutation score", less the equivalent ones); null when there is no such mutant.
   */
  readonly scorePercent: number | null;
  /** The surviving and uncovered mutants not marked equivalent, as `file:line mutator -> replacement`. */
  readonly survivors: readonly string[];
}

/** A mutant as one line: where, which mutator, what it put in. */
export function describeMutant(mutant: MutantOutcome, root: string): string {
  const file = path.posix.relative(root, mutant.fileName.replaceAll('\\', '/')) || mutant.fileName;
  const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80);
  return `${file}:${mutant.location.start.line} ${mutant.mutatorName} -> ${replacement}`;
}

/** Counts a folder's outcomes; surviving or uncovered mutants listed in `equivalents` count as equivalent. */
export function summarizeMutants(
  scope: string,
  mutants: readonly MutantOutcome[],
  equivalents: readonly EquivalentMutant[],
  root: string,
): MutationSummary {
  const count = (status: string): number => mutants.filter((mutant) => mutant.status === status).length;
  const alive = mutants.filter((mutant) => mutant.status === 'Survived' || mutant.status === 'NoCoverage');
  const lines = alive.map((mutant) => describeMutant(mutant, root));
  const equivalent = lines.filter((line) => isEquivalent(line, equivalents)).length;
  const detected = count('Killed') + count('Timeout');
  const valid = detected + alive.length - equivalent;
  return {
    scope,
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    equivalent,
    compileErrors: count('CompileError'),
    runtimeErrors: count('RuntimeError'),
    ignored: count('Ignored'),
    scorePercent: valid === 0 ? null : Math.round((detected / valid) * 10_000) / 100,
    survivors: lines.filter((line) => !isEquivalent(line, equivalents)).sort(),
  };
}
