import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  alignLines,
  folderInputs,
  folderState,
  inputsHash,
  sampledRanges,
  touchedLines,
  type IncrementalRecord,
} from '../../bench/mutation/touchedFolders.js';

const file = (path: string, text = ''): { path: string; text: string } => ({ path, text });

const source = 'export const a = 1;\nexport const b = a + 1;\nexport const c = b * 2;\n';
const ownTest = "import { b } from './fees.js';\ntest('b', () => expect(b).toBe(2));\n";
const checkout = [
  file('core/fees/fees.ts', source),
  file('core/fees/fees.test.ts', ownTest),
  file('test/scenarios/fees.test.ts', "import { c } from '../../core/fees/fees.js';\n"),
  file('core/other/other.ts', 'export const d = 4;\n'),
  file('test/e2e/fees.test.ts', "import { c } from '../../core/fees/fees.js';\n"),
];
const edit = (path: string, text: string): Array<{ path: string; text: string }> =>
  checkout.map((entry) => (entry.path === path ? { path, text } : entry));
const recorded = { inputsHash: inputsHash(folderInputs('core/fees', checkout)) };

describe('whether a check finds a folder touched', () => {
  test("a folder's inputs are its mutated files and its test files, never end-to-end files or other folders", () => {
    expect(folderInputs('core/fees', checkout).map((entry) => entry.path)).toEqual([
      'core/fees/fees.test.ts',
      'core/fees/fees.ts',
      'test/scenarios/fees.test.ts',
    ]);
  });

  test('a clean checkout leaves every measured folder untouched', () => {
    expect(folderState('core/fees', checkout, recorded)).toEqual({ kind: 'untouched' });
    expect(folderState('core/fees', [...checkout].reverse(), recorded)).toEqual({ kind: 'untouched' });
  });

  test('a change to its code, to one of its tests, or a new test file touches it', () => {
    for (const changed of [
      edit('core/fees/fees.ts', source.replace('+ 1', '+ 2')),
      edit('test/scenarios/fees.test.ts', '// gone\n'),
      [...checkout, file('test/scenarios/moreFees.test.ts', "import { a } from '../../core/fees/fees.js';\n")],
      [...checkout, file('core/fees/extra.ts', 'export const e = 5;\n')],
    ]) {
      expect(folderState('core/fees', changed, recorded).kind).toBe('touched');
    }
  });

  test('changes elsewhere leave it untouched', () => {
    expect(folderState('core/fees', edit('core/other/other.ts', 'export const d = 5;\n'), recorded).kind).toBe(
      'untouched',
    );
    expect(folderState('core/fees', edit('test/e2e/fees.test.ts', '// changed\n'), recorded).kind).toBe('untouched');
  });

  test('a folder with no recorded result, or one recorded without a hash, is not yet measured', () => {
    expect(folderState('core/fees', checkout, undefined)).toEqual({ kind: 'unmeasured' });
    expect(folderState('core/fees', checkout, {})).toEqual({ kind: 'unmeasured' });
  });
});

describe('which lines of a touched folder a check mutates again', () => {
  const record: IncrementalRecord = {
    files: {
      'core/fees/fees.ts': {
        source,
        mutants: [
          { killedBy: ['0'], location: { start: { line: 2 }, end: { line: 2 } } },
          { killedBy: ['1'], location: { start: { line: 3 }, end: { line: 3 } } },
        ],
      },
    },
    testFiles: {
      'core/fees/fees.test.ts': { source: ownTest, tests: [{ id: '0' }] },
      'test/scenarios/fees.test.ts': { source: "import { c } from '../../core/fees/fees.js';\n", tests: [{ id: '1' }] },
    },
  };

  test('nothing when the checkout matches the record', () => {
    expect(touchedLines('core/fees', checkout, record)).toEqual(new Map());
  });

  test('the changed lines of a mutated file, where they are now', () => {
    const changed = edit('core/fees/fees.ts', `// a new first line\n${source.replace('b * 2', 'b * 3')}`);
    expect(touchedLines('core/fees', changed, record)).toEqual(new Map([['core/fees/fees.ts', [1, 4]]]));
  });

  test('the lines of mutants a changed test file killed, followed to where they moved', () => {
    const changed = edit('core/fees/fees.test.ts', `${ownTest}// weakened\n`);
    expect(touchedLines('core/fees', changed, record)).toEqual(new Map([['core/fees/fees.ts', [2]]]));
    const both = edit('core/fees/fees.ts', `\n${source}`).map((entry) =>
      entry.path === 'test/scenarios/fees.test.ts' ? { ...entry, text: '// gone\n' } : entry,
    );
    expect(touchedLines('core/fees', both, record)).toEqual(new Map([['core/fees/fees.ts', [1, 4]]]));
  });

  test('every line of a file the record does not hold', () => {
    const added = [...checkout, file('core/fees/extra.ts', 'export const e = 5;\nexport const f = 6;')];
    expect(touchedLines('core/fees', added, record).get('core/fees/extra.ts')).toEqual([1, 2]);
  });
});

describe('the line alignment', () => {
  test('unchanged lines map to where they are now; edited and inserted lines are changed', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ maxLength: 3 }).map((text) => `=${text}`),
          { maxLength: 30 },
        ),
        fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 3 })), { maxLength: 5 }),
        (lines, insertions) => {
          const now = [...lines];
          for (const [at, text] of insertions) now.splice(at % (now.length + 1), 0, `+${text}`);
          const alignment = alignLines(lines.join('\n'), now.join('\n'));
          for (let line = 1; line <= lines.length; line++) {
            const at = alignment.currentLineOf(line);
            expect(at).toBeDefined();
            expect(now[at! - 1]).toBe(lines[line - 1]);
          }
          expect(alignment.changed.map((line) => now[line - 1])).toEqual(now.filter((text) => text.startsWith('+')));
        },
      ),
    );
  });
});

describe('the sample a check mutates', () => {
  test('consecutive lines make one range; within the budget every line is kept', () => {
    const lines = new Map([
      ['core/b.ts', [3, 4, 5, 9]],
      ['core/a.ts', [1]],
    ]);
    expect(sampledRanges(lines, 10)).toEqual({
      ranges: ['core/a.ts:1-1', 'core/b.ts:3-5', 'core/b.ts:9-9'],
      lines: 5,
      sampled: false,
    });
  });

  test('over the budget, an even spread of at most the budget, a file with its share of the lines kept', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 2, max: 40 }),
        (a, b, max) => {
          const lines = new Map([
            ['core/a.ts', Array.from({ length: a }, (_, i) => i + 1)],
            ['core/b.ts', Array.from({ length: b }, (_, i) => i + 1)],
          ]);
          const sample = sampledRanges(lines, max);
          expect(sample.lines).toBe(Math.min(max, a + b));
          expect(sample.sampled).toBe(a + b > max);
          const files = new Set(sample.ranges.map((range) => range.split(':')[0]));
          expect(files.has('core/a.ts')).toBe(true);
          if (b * max >= a + b) expect(files.has('core/b.ts')).toBe(true);
        },
      ),
    );
  });
});
