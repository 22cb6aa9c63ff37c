/**
 * `npm run mutate [-- --scope <folder>...] [--ignore-static] [--force] [--simulator [--simulator-seeds <n>]] [--check]`
 * `npm run mutate -- --touched [--check]`:
 * mutation testing with StrykerJS, one folder after another (every folder of MUTATION_TARGET_FOLDERS when no scope
 * is given). Per folder it writes an HTML report and a JSON summary under reports/mutation/<folder>/, keeps
 * Stryker's incremental file in bench/mutation/incremental/ (so the next run re-tests only mutants whose code or
 * tests changed), and records the score and run time in bench/results/mutation.json. --ignore-static leaves out
 * static mutants (mutationScopes.ts says why); --force re-tests every mutant (after a change of Stryker's options, which
 * its incremental file does not notice). --simulator tries the unit tests' survivors against a short simulator
 * campaign (a second Stryker pass, mutationScopes.ts). With --check it exits 1 when a folder scores below
 * MUTATION_SCORE_TARGET_PERCENT.
 *
 * --touched is CI's bounded check (touchedFolders.ts): it mutates again only the lines of the target folders whose
 * files changed since their recorded result (at most MUTATION_CHECK_LINES_MAX lines in all), on a copy of their
 * incremental files, and records nothing; with --check it exits 1 when a touched folder's score (its recorded results,
 * the re-tested lines' replaced by the new ones) is below the target. A clean checkout costs a hash of each
 * folder's files, and no Stryker run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { PartialStrykerOptions } from '@stryker-mutator/api/core';
import { EQUIVALENT_MUTANTS } from './equivalentMutants.js';
import {
  incrementalFileFor,
  MUTATION_SCORE_TARGET_PERCENT,
  MUTATION_TARGET_FOLDERS,
  normalizeScope,
  reportFolderFor,
  strykerOptionsFor,
  summarizeMutants,
  testFilesFor,
  simulatorOptionsFor,
  SIMULATOR_KILLER_SEEDS_DEFAULT,
  withSimulatorKills,
  type MutantOutcome,
  type MutationSummary,
  type RepositoryFile,
} from './mutationScopes.js';
import {
  folderInputs,
  folderState,
  inputsHash,
  MUTATION_CHECK_LINES_MAX,
  sampledRanges,
  touchedLines,
  type IncrementalRecord,
} from './touchedFolders.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RESULTS_FILE = 'bench/results/mutation.json';
/** The folders whose test files may exercise a scope. */
const SOURCE_FOLDERS = ['spec', 'core', 'adapters', 'sim', 'test'];

/** Every .ts file under the source folders, with its text. */
function repositoryFiles(): RepositoryFile[] {
  return SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .map((file) => `${folder}/${file.replaceAll('\\', '/')}`)
      .filter((file) => file.endsWith('.ts'))
      .map((file) => ({ path: file, text: readFileSync(path.join(ROOT, file), 'utf8') })),
  );
}

interface FolderRun {
  readonly summary: MutationSummary;
  readonly seconds: number;
  readonly testFiles: readonly string[];
  readonly ignoreStatic: boolean;
  /** The hash of the folder's files when the run started (touchedFolders.ts). */
  readonly inputsHash: string;
  /** Whether the run re-tested every mutant (forced, or no incremental file to reuse). */
  readonly wholeRun: boolean;
}

/** Stryker, loaded only when a run needs it: a check of a clean checkout never does. */
async function runStryker(options: PartialStrykerOptions): Promise<MutantOutcome[]> {
  const { Stryker } = await import('@stryker-mutator/core');
  return new Stryker(options).runMutationTest();
}

/** The unit pass's survivors (not marked equivalent) tried against a simulator campaign of `seeds` seeds. */
async function trySimulator(scope: string, unit: MutantOutcome[], seeds: number): Promise<MutantOutcome[]> {
  const { survivors } = summarizeMutants(scope, unit, EQUIVALENT_MUTANTS, ROOT);
  if (survivors.length === 0) return unit;
  console.log(`\n== ${scope}: ${survivors.length} survivors against a ${seeds}-seed simulator campaign`);
  const simulator = await runStryker(simulatorOptionsFor(scope, survivors, seeds));
  return withSimulatorKills(unit, simulator, ROOT);
}

async function mutateFolder(
  scope: string,
  files: readonly RepositoryFile[],
  ignoreStatic: boolean,
  simulatorSeeds: number,
  force: boolean,
): Promise<FolderRun> {
  if (!files.some((file) => file.path.startsWith(`${scope}/`) && !file.path.endsWith('.test.ts'))) {
    throw new Error(`mutation scope ${scope} holds no TypeScript source file`);
  }
  const testFiles = testFilesFor(scope, files);
  if (testFiles.length === 0) throw new Error(`no test file exercises ${scope}`);
  const hash = inputsHash(folderInputs(scope, files));
  console.log(`\n== ${scope}: ${testFiles.length} test files\n   ${testFiles.join('\n   ')}`);
  // Read by vitest.mutation.config.ts in Stryker's test-runner processes, which inherit this environment.
  process.env['MUTATION_TEST_FILES'] = testFiles.join(',');
  await mkdir(path.dirname(path.join(ROOT, incrementalFileFor(scope))), { recursive: true });
  const wholeRun = force || !existsSync(path.join(ROOT, incrementalFileFor(scope)));
  const started = performance.now();
  const unit = await runStryker(strykerOptionsFor(scope, { ignoreStatic, force }));
  const mutants = simulatorSeeds > 0 ? await trySimulator(scope, unit, simulatorSeeds) : unit;
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const summary = summarizeMutants(scope, mutants, EQUIVALENT_MUTANTS, ROOT);
  await writeFile(
    path.join(ROOT, reportFolderFor(scope), 'summary.json'),
    `${JSON.stringify({ ...summary, seconds, ignoreStatic, testFiles }, null, 2)}\n`,
  );
  return { summary, seconds, testFiles, ignoreStatic, inputsHash: hash, wholeRun };
}

function currentCommit(): string {
  return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
}

interface FolderResult {
  readonly scorePercent: number | null;
  readonly seconds: number;
  readonly ignoreStatic: boolean;
  readonly mutants: Omit<MutationSummary, 'scope' | 'scorePercent' | 'survivors'>;
  readonly date: string;
  readonly commit: string;
  /** SHA-256 of the folder's mutated and test files when it ran: a check finds the folder touched when it differs. */
  readonly inputsHash?: string;
  /** Seconds of the folder's last run that re-tested every mutant: its share of a full `npm run mutate -- --force`. */
  readonly wholeRunSeconds?: number;
}

/** The folders' last results in bench/results/mutation.json. */
function recordedResults(): Record<string, FolderResult> | undefined {
  const file = path.join(ROOT, RESULTS_FILE);
  if (!existsSync(file)) return undefined;
  return (JSON.parse(readFileSync(file, 'utf8')) as { folders?: Record<string, FolderResult> }).folders;
}

/** Merges this run's folders into bench/results/mutation.json, keeping the other folders' last results. */
async function recordResults(runs: readonly FolderRun[]): Promise<void> {
  const file = path.join(ROOT, RESULTS_FILE);
  const previous = recordedResults();
  const date = new Date().toISOString();
  const commit = currentCommit();
  const folders: Record<string, FolderResult> = { ...previous };
  for (const { summary, seconds, ignoreStatic, inputsHash, wholeRun } of runs) {
    const { scope: _scope, scorePercent, survivors: _survivors, ...mutants } = summary;
    const wholeRunSeconds = wholeRun ? seconds : previous?.[summary.scope]?.wholeRunSeconds;
    folders[summary.scope] = {
      ...{ scorePercent, seconds, ignoreStatic, mutants, date, commit, inputsHash },
      ...(wholeRunSeconds === undefined ? {} : { wholeRunSeconds }),
    };
  }
  const sorted = Object.fromEntries(Object.entries(folders).sort(([a], [b]) => a.localeCompare(b)));
  const machine = { cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model ?? '', node: process.version };
  const result = {
    name: 'mutation',
    targetPercent: MUTATION_SCORE_TARGET_PERCENT,
    fullRunSeconds: fullRunSeconds(Object.values(sorted)),
    folders: sorted,
    machine,
  };
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
}

/** A full forced run's time: the sum of every folder's whole-run seconds, or null while one is unknown. */
function fullRunSeconds(folders: readonly FolderResult[]): number | null {
  let total = 0;
  for (const folder of folders) {
    if (folder.wholeRunSeconds === undefined) return null;
    total += folder.wholeRunSeconds;
  }
  return Math.round(total);
}

function printSummary(runs: readonly FolderRun[]): void {
  console.log('\nfolder              score   killed survived no-cov timeout equiv compile-err seconds');
  for (const { summary: s, seconds } of runs) {
    const score = s.scorePercent === null ? 'n/a' : `${s.scorePercent.toFixed(2)}%`;
    const row = [s.killed, s.survived, s.noCoverage, s.timeout, s.equivalent, s.compileErrors, seconds];
    console.log(`${s.scope.padEnd(18)} ${score.padStart(7)} ${row.map((n) => String(n).padStart(7)).join(' ')}`);
    for (const survivor of s.survivors) console.log(`   survivor: ${survivor}`);
  }
}

/** A folder's incremental file as a check reads it, or undefined when it has none. */
function incrementalRecord(scope: string): IncrementalRecord | undefined {
  const file = path.join(ROOT, incrementalFileFor(scope));
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as IncrementalRecord) : undefined;
}

/** The touched target folders' lines to mutate again, one budget over all of them, as mutate ranges by folder. */
function touchedRanges(scopes: readonly string[], files: readonly RepositoryFile[]): Map<string, string[]> {
  const recorded = recordedResults();
  const lines = new Map<string, number[]>();
  const touched: string[] = [];
  for (const scope of scopes) {
    const state = folderState(scope, files, recorded?.[scope]);
    const unmeasured = recorded?.[scope] === undefined ? 'not yet measured' : 'recorded without its files hash';
    if (state.kind === 'unmeasured')
      console.log(`${scope}: ${unmeasured}, not checked (npm run mutate -- --scope ${scope})`);
    if (state.kind === 'untouched') console.log(`${scope}: untouched since its recorded result`);
    if (state.kind !== 'touched') continue;
    touched.push(scope);
    for (const [file, at] of touchedLines(scope, files, incrementalRecord(scope))) lines.set(file, at);
  }
  const sample = sampledRanges(lines, MUTATION_CHECK_LINES_MAX);
  const byScope = new Map(
    touched.map((scope) => [scope, sample.ranges.filter((range) => range.startsWith(`${scope}/`))]),
  );
  for (const [scope, ranges] of byScope) {
    const what =
      ranges.length === 0 ? 'no mutated line changed and no recorded kill rests on a changed test' : ranges.join(' ');
    console.log(`${scope}: touched; re-testing ${what}`);
  }
  if (sample.sampled) console.log(`(an even sample of ${sample.lines} of ${[...lines.values()].flat().length} lines)`);
  return byScope;
}

/** One touched folder's lines mutated again on a copy of its incremental file; its score with their new results. */
async function checkFolder(
  scope: string,
  ranges: readonly string[],
  files: readonly RepositoryFile[],
): Promise<FolderRun> {
  const testFiles = testFilesFor(scope, files);
  process.env['MUTATION_TEST_FILES'] = testFiles.join(',');
  const copies = await mkdtemp(path.join(os.tmpdir(), 'mutation-check-'));
  const incrementalFile = path.join(copies, path.basename(incrementalFileFor(scope)));
  if (existsSync(path.join(ROOT, incrementalFileFor(scope))))
    await copyFile(incrementalFileFor(scope), incrementalFile);
  const started = performance.now();
  try {
    // Static mutants rerun every test file of the folder each: left out, so that the check stays bounded.
    const options = {
      ...strykerOptionsFor(scope, { ignoreStatic: true }),
      mutate: [...ranges],
      incrementalFile,
    };
    const mutants = await runStryker({ ...options, reporters: ['clear-text', 'progress-append-only'] });
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const summary = summarizeMutants(scope, mutants, EQUIVALENT_MUTANTS, ROOT);
    return { summary, seconds, testFiles, ignoreStatic: true, inputsHash: '', wholeRun: false };
  } finally {
    await rm(copies, { recursive: true, force: true });
  }
}

/** --touched: the bounded check of CI; records nothing. */
async function checkTouched(scopes: readonly string[], files: readonly RepositoryFile[]): Promise<FolderRun[]> {
  const runs: FolderRun[] = [];
  for (const [scope, ranges] of touchedRanges(scopes, files)) {
    if (ranges.length > 0) runs.push(await checkFolder(scope, ranges, files));
  }
  return runs;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scope: { type: 'string', multiple: true },
      'ignore-static': { type: 'boolean', default: false },
      simulator: { type: 'boolean', default: false },
      'simulator-seeds': { type: 'string', default: String(SIMULATOR_KILLER_SEEDS_DEFAULT) },
      check: { type: 'boolean', default: false },
      touched: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    },
  });
  process.chdir(ROOT);
  const scopes = (values.scope ?? [...MUTATION_TARGET_FOLDERS]).map(normalizeScope);
  const files = repositoryFiles();
  const simulatorSeeds = values.simulator ? Number(values['simulator-seeds']) : 0;
  if (!Number.isSafeInteger(simulatorSeeds) || simulatorSeeds < 0) throw new Error('--simulator-seeds is a count');
  const runs: FolderRun[] = [];
  if (values.touched) {
    runs.push(...(await checkTouched(scopes, files)));
  } else {
    for (const scope of scopes)
      runs.push(await mutateFolder(scope, files, values['ignore-static'], simulatorSeeds, values.force));
    await recordResults(runs);
  }
  if (runs.length > 0) printSummary(runs);
  const below = runs.filter((run) => (run.summary.scorePercent ?? 0) < MUTATION_SCORE_TARGET_PERCENT);
  if (values.check && below.length > 0) {
    console.error(`below ${MUTATION_SCORE_TARGET_PERCENT}%: ${below.map((run) => run.summary.scope).join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
