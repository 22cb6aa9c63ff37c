/**
 * The bounded mutation check of CI (`npm run mutate -- --touched --check`, bench/mutation/mutate.ts): which target
 * folders a checkout changed since their recorded result, and which lines of them to mutate again. Pure: the caller
 * reads the files, bench/results/mutation.json and the folder's incremental file, and runs Stryker.
 *
 * A folder's inputs are its mutated files and the test files that exercise it (testFilesFor); their hash is recorded
 * with the folder's result. A fresh clone has only HEAD, so nothing here asks git: a folder is touched when the hash
 * of its inputs in the checkout differs from the recorded one, and the lines to mutate again come from comparing
 * each file with its text in the folder's incremental file (Stryker keeps every mutated and test file's source there).
 */
import { createHash } from 'node:crypto';
import { testFilesFor, type RepositoryFile } from './mutationScopes.js';

/**
 * Lines a check mutates again, over all touched folders (at 2 to 4 mutants a line, about a hundred mutants). Beyond
 * it an even sample of the lines is taken: CI's whole budget for the check is about 3 minutes on 2 cores.
 */
export const MUTATION_CHECK_LINES_MAX = 40;

/** Files compared line by line up to this many lines each after trimming common ends (the table is their product). */
const LINE_DIFF_LINES_MAX = 3_000;

const isTestFile = (file: string): boolean => file.endsWith('.test.ts');

/** The files whose text decides a folder's mutation result: its mutated files and its test files, by path. */
export function folderInputs(scope: string, files: readonly RepositoryFile[]): RepositoryFile[] {
  const tests = new Set(testFilesFor(scope, files));
  const mutated = (file: RepositoryFile): boolean => file.path.startsWith(`${scope}/`) && !isTestFile(file.path);
  return files
    .filter((file) => mutated(file) || tests.has(file.path))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** SHA-256 of the inputs' paths and texts, in path order, as 64 hex digits. */
export function inputsHash(inputs: readonly RepositoryFile[]): string {
  const hash = createHash('sha256');
  for (const file of [...inputs].sort((a, b) => (a.path < b.path ? -1 : 1)))
    hash.update(`${file.path}\0${file.text}\0`);
  return hash.digest('hex');
}

/** What a check makes of a folder. */
export type FolderState =
  | { readonly kind: 'unmeasured' }
  | { readonly kind: 'untouched' }
  | { readonly kind: 'touched'; readonly hash: string };

/** Unmeasured without a recorded result (or one recorded before hashes were), touched when the hash differs. */
export function folderState(
  scope: string,
  files: readonly RepositoryFile[],
  recorded: { readonly inputsHash?: string | undefined } | undefined,
): FolderState {
  if (recorded?.inputsHash === undefined) return { kind: 'unmeasured' };
  const hash = inputsHash(folderInputs(scope, files));
  return hash === recorded.inputsHash ? { kind: 'untouched' } : { kind: 'touched', hash };
}

/** How one file's lines line up with its recorded text. */
export interface LineAlignment {
  /** Lines of the current text (1-based) not in the recorded one. */
  readonly changed: readonly number[];
  /** The current line of each recorded line kept (1-based), undefined for a line removed or changed. */
  readonly currentLineOf: (recordedLine: number) => number | undefined;
}

/** A longest common subsequence of lines between the recorded text and the current one (ends trimmed first). */
export function alignLines(recorded: string, current: string): LineAlignment {
  const before = recorded.split('\n');
  const now = current.split('\n');
  let head = 0;
  while (head < before.length && head < now.length && before[head] === now[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < now.length - head && before.at(-1 - tail) === now.at(-1 - tail)) tail++;
  const mapping = new Map<number, number>();
  for (let i = 0; i < head; i++) mapping.set(i + 1, i + 1);
  for (let i = 0; i < tail; i++) mapping.set(before.length - i, now.length - i);
  const middle = alignMiddle(before.slice(head, before.length - tail), now.slice(head, now.length - tail));
  for (const [b, n] of middle) mapping.set(head + b + 1, head + n + 1);
  const kept = new Set(mapping.values());
  const changed = now.map((_, i) => i + 1).filter((line) => !kept.has(line));
  return { changed, currentLineOf: (line) => mapping.get(line) };
}

/** Pairs (recorded index, current index) of a longest common subsequence; none when the texts are too long. */
function alignMiddle(before: readonly string[], now: readonly string[]): Array<[number, number]> {
  if (before.length === 0 || now.length === 0 || before.length * now.length > LINE_DIFF_LINES_MAX ** 2) return [];
  const width = now.length + 1;
  const table = new Uint32Array((before.length + 1) * width);
  for (let b = before.length - 1; b >= 0; b--) {
    for (let n = now.length - 1; n >= 0; n--) {
      table[b * width + n] =
        before[b] === now[n]
          ? table[(b + 1) * width + n + 1]! + 1
          : Math.max(table[(b + 1) * width + n]!, table[b * width + n + 1]!);
    }
  }
  const pairs: Array<[number, number]> = [];
  for (let b = 0, n = 0; b < before.length && n < now.length;) {
    if (before[b] === now[n]) pairs.push([b++, n++]);
    else if (table[(b + 1) * width + n]! >= table[b * width + n + 1]!) b++;
    else n++;
  }
  return pairs;
}

/** What a check reads of a folder's incremental file (Stryker's mutation-testing-report JSON). */
export interface IncrementalRecord {
  readonly files: Readonly<
    Record<string, { readonly source: string; readonly mutants: readonly RecordedMutant[] } | undefined>
  >;
  readonly testFiles?: Readonly<
    Record<string, { readonly source?: string; readonly tests: readonly { readonly id: string }[] } | undefined>
  >;
}

interface RecordedMutant {
  readonly killedBy?: readonly string[];
  readonly location: { readonly start: { readonly line: number }; readonly end: { readonly line: number } };
}

/**
 * The lines of a touched folder to mutate again: every changed line of its mutated files, and the current lines of
 * the mutants its recorded run says were killed by a test in a test file that changed or went away (a weakened test
 * lets them live). As `file -> sorted lines`.
 */
export function touchedLines(
  scope: string,
  files: readonly RepositoryFile[],
  record: IncrementalRecord | undefined,
): Map<string, number[]> {
  const inputs = folderInputs(scope, files);
  const text = new Map(inputs.map((file) => [file.path, file.text]));
  const killersChanged = changedTestIds(inputs, record);
  const lines = new Map<string, number[]>();
  for (const [path, current] of text) {
    if (isTestFile(path) || !path.startsWith(`${scope}/`)) continue;
    const recorded = record?.files[path];
    if (recorded === undefined) {
      lines.set(
        path,
        [...current.split('\n').keys()].map((i) => i + 1),
      );
      continue;
    }
    const alignment = alignLines(recorded.source, current);
    const relied = recorded.mutants
      .filter((mutant) => mutant.killedBy?.some((id) => killersChanged.has(id)))
      .flatMap((mutant) => spannedLines(mutant.location).map(alignment.currentLineOf))
      .filter((line) => line !== undefined);
    const all = [...new Set([...alignment.changed, ...relied])].sort((a, b) => a - b);
    if (all.length > 0) lines.set(path, all);
  }
  return lines;
}

const spannedLines = (location: RecordedMutant['location']): number[] =>
  Array.from({ length: location.end.line - location.start.line + 1 }, (_, i) => location.start.line + i);

/** Ids of the recorded tests whose file changed or is no longer among the folder's test files. */
function changedTestIds(inputs: readonly RepositoryFile[], record: IncrementalRecord | undefined): Set<string> {
  const current = new Map(inputs.map((file) => [file.path, file.text]));
  const ids = new Set<string>();
  for (const [path, recorded] of Object.entries(record?.testFiles ?? {})) {
    if (recorded === undefined || current.get(path) === recorded.source) continue;
    for (const test of recorded.tests) ids.add(test.id);
  }
  return ids;
}

/**
 * At most `linesMax` lines over all folders: an even spread over the sorted (file, line) list when there are more,
 * so every file keeps a share. Returns Stryker mutate ranges (`file:first-last`, consecutive lines merged).
 */
export function sampledRanges(
  lines: ReadonlyMap<string, readonly number[]>,
  linesMax: number,
): { ranges: string[]; lines: number; sampled: boolean } {
  const all = [...lines]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .flatMap(([file, at]) => at.map((line) => ({ file, line })));
  const sampled = all.length > linesMax;
  const kept = sampled
    ? Array.from({ length: linesMax }, (_, i) => all[Math.floor((i * all.length) / linesMax)]!)
    : all;
  const ranges: string[] = [];
  for (let i = 0; i < kept.length;) {
    let j = i;
    while (j + 1 < kept.length && kept[j + 1]!.file === kept[i]!.file && kept[j + 1]!.line === kept[j]!.line + 1) j++;
    ranges.push(`${kept[i]!.file}:${kept[i]!.line}-${kept[j]!.line}`);
    i = j + 1;
  }
  return { ranges, lines: kept.length, sampled };
}
