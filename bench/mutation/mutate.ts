/**
 * `npm run mutate [-- --scope <folder>...] [--ignore-static] [--simulator [--simulator-seeds <n>]] [--check]`:
 * mutation testing with StrykerJS, one folder after another (every folder of MUTATION_TARGET_FOLDERS when no scope
 * is given). Per folder it writes an HTML report and a JSON summary under reports/mutation/<folder>/, keeps
 * Stryker's incremental file in bench/mutation/incremental/ (so the next run re-tests only mutants whose code or
 * tests changed), and records the score and run time in bench/results/mutation.json. --ignore-static leaves out
 * static mutants (mutationScopes.ts says why). --simulator tries the unit tests' survivors against a short simulator
 * campaign (a second Stryker pass, mutationScopes.ts). With --check it exits 1 when a folder scores below
 * MUTATION_SCORE_TARGET_PERCENT.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Stryker } from '@stryker-mutator/core';
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
}

/** The unit pass's survivors (not marked equivalent) tried against a simulator campaign of `seeds` seeds. */
async function trySimulator(scope: string, unit: MutantOutcome[], seeds: number): Promise<MutantOutcome[]> {
  const { survivors } = summarizeMutants(scope, unit, EQUIVALENT_MUTANTS, ROOT);
  if (survivors.length === 0) return unit;
  console.log(`\n== ${scope}: ${survivors.length} survivors against a ${seeds}-seed simulator campaign`);
  const simulator = await new Stryker(simulatorOptionsFor(scope, survivors, seeds)).runMutationTest();
  return withSimulatorKills(unit, simulator, ROOT);
}

async function mutateFolder(
  scope: string,
  files: readonly RepositoryFile[],
  ignoreStatic: boolean,
  simulatorSeeds: number,
): Promise<FolderRun> {
  if (!files.some((file) => file.path.startsWith(`${scope}/`) && !file.path.endsWith('.test.ts'))) {
    throw new Error(`mutation scope ${scope} holds no TypeScript source file`);
  }
  const testFiles = testFilesFor(scope, files);
  if (testFiles.length === 0) throw new Error(`no test file exercises ${scope}`);
  console.log(`\n== ${scope}: ${testFiles.length} test files\n   ${testFiles.join('\n   ')}`);
  // Read by vitest.mutation.config.ts in Stryker's test-runner processes, which inherit this environment.
  process.env['MUTATION_TEST_FILES'] = testFiles.join(',');
  await mkdir(path.dirname(path.join(ROOT, incrementalFileFor(scope))), { recursive: true });
  const started = performance.now();
  const unit = await new Stryker(strykerOptionsFor(scope, testFiles, { ignoreStatic })).runMutationTest();
  const mutants = simulatorSeeds > 0 ? await trySimulator(scope, unit, simulatorSeeds) : unit;
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const summary = summarizeMutants(scope, mutants, EQUIVALENT_MUTANTS, ROOT);
  await writeFile(
    path.join(ROOT, reportFolderFor(scope), 'summary.json'),
    `${JSON.stringify({ ...summary, seconds, ignoreStatic, testFiles }, null, 2)}\n`,
  );
  return { summary, seconds, testFiles, ignoreStatic };
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
}

/** Merges this run's folders into bench/results/mutation.json, keeping the other folders' last results. */
async function recordResults(runs: readonly FolderRun[]): Promise<void> {
  const file = path.join(ROOT, RESULTS_FILE);
  const previous = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { folders?: Record<string, FolderResult> }).folders
    : undefined;
  const date = new Date().toISOString();
  const commit = currentCommit();
  const folders: Record<string, FolderResult> = { ...previous };
  for (const { summary, seconds, ignoreStatic } of runs) {
    const { scope: _scope, scorePercent, survivors: _survivors, ...mutants } = summary;
    folders[summary.scope] = { scorePercent, seconds, ignoreStatic, mutants, date, commit };
  }
  const sorted = Object.fromEntries(Object.entries(folders).sort(([a], [b]) => a.localeCompare(b)));
  const machine = { cpus: os.availableParallelism(), cpuModel: os.cpus()[0]?.model ?? '', node: process.version };
  const result = { name: 'mutation', targetPercent: MUTATION_SCORE_TARGET_PERCENT, folders: sorted, machine };
  await writeFile(file, `${JSON.stringify(result, null, 2)}\n`);
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

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scope: { type: 'string', multiple: true },
      'ignore-static': { type: 'boolean', default: false },
      simulator: { type: 'boolean', default: false },
      'simulator-seeds': { type: 'string', default: String(SIMULATOR_KILLER_SEEDS_DEFAULT) },
      check: { type: 'boolean', default: false },
    },
  });
  process.chdir(ROOT);
  const scopes = (values.scope ?? [...MUTATION_TARGET_FOLDERS]).map(normalizeScope);
  const files = repositoryFiles();
  const simulatorSeeds = values.simulator ? Number(values['simulator-seeds']) : 0;
  if (!Number.isSafeInteger(simulatorSeeds) || simulatorSeeds < 0) throw new Error('--simulator-seeds is a count');
  const runs: FolderRun[] = [];
  for (const scope of scopes) runs.push(await mutateFolder(scope, files, values['ignore-static'], simulatorSeeds));
  await recordResults(runs);
  printSummary(runs);
  const below = runs.filter((run) => (run.summary.scorePercent ?? 0) < MUTATION_SCORE_TARGET_PERCENT);
  if (values.check && below.length > 0) {
    console.error(`below ${MUTATION_SCORE_TARGET_PERCENT}%: ${below.map((run) => run.summary.scope).join(', ')}`);
    process.exitCode = 1;
  }
}

await main();
