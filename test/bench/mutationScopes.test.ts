import { describe, expect, test } from 'vitest';
import {
  mutateGlobsFor,
  normalizeScope,
  summarizeMutants,
  survivorRanges,
  testFilesFor,
  withSimulatorKills,
  type MutantOutcome,
} from '../../bench/mutation/mutationScopes.js';

const file = (path: string, text = ''): { path: string; text: string } => ({ path, text });

describe('the tests a mutation run of a folder reruns', () => {
  const files = [
    file('core/fees/minFees.ts'),
    file('core/fees/minFees.test.ts'),
    file('core/txPool/admitTx.test.ts', "import { feeFloor } from '../fees/minFees.js';"),
    file('test/scenarios/fees.test.ts', "import { feeFloor } from '../../core/fees/minFees.js';"),
    file('test/scenarios/other.test.ts', "import { x } from '../../core/feesAndMore/x.js';"),
    file('test/e2e/fees.test.ts', "import { feeFloor } from '../../core/fees/minFees.js';"),
    file('test/helpers/fees.ts', "import { feeFloor } from '../../core/fees/minFees.js';"),
  ];

  test('its own test files and the test/ files importing it, never end-to-end files', () => {
    expect(testFilesFor('core/fees', files)).toEqual(['core/fees/minFees.test.ts', 'test/scenarios/fees.test.ts']);
  });

  test("spec/codec's run leaves out the whole-node suites that import its byte helpers for their fixtures", () => {
    const codec = [
      file('spec/codec/tx.ts'),
      file('spec/codec/tx.test.ts'),
      file('test/p2p/gossipCodec.property.test.ts', "import { decodeTx } from '../../spec/codec/tx.js';"),
      file('test/scenarios/validators.test.ts', "import { hexToBytes } from '../../spec/codec/bytes.js';"),
      file('test/validators/quorum.property.test.ts', "import { hexToBytes } from '../../spec/codec/bytes.js';"),
    ];
    expect(testFilesFor('spec/codec', codec)).toEqual([
      'spec/codec/tx.test.ts',
      'test/p2p/gossipCodec.property.test.ts',
    ]);
    expect(testFilesFor('spec', codec)).toContain('test/scenarios/validators.test.ts');
  });

  test('a folder that no test touches has none', () => {
    expect(testFilesFor('core/merkle', files)).toEqual([]);
  });

  test('scopes are folders inside the repository; tests are never mutated', () => {
    expect(normalizeScope('./core/fees/')).toBe('core/fees');
    expect(() => normalizeScope('../elsewhere')).toThrow(/inside the repository/);
    expect(() => normalizeScope('/core/fees')).toThrow(/inside the repository/);
    expect(mutateGlobsFor('core/fees')).toEqual(['core/fees/**/*.ts', '!core/fees/**/*.test.ts']);
  });
});

describe('the summary of a run', () => {
  const mutant = (status: string, line: number, replacement = 'false'): MutantOutcome => ({
    fileName: '/repo/core/fees/minFees.ts',
    status,
    mutatorName: 'ConditionalExpression',
    replacement,
    location: { start: { line } },
  });
  const mutants = [
    mutant('Killed', 1),
    mutant('Killed', 2),
    mutant('Timeout', 3),
    mutant('Survived', 4),
    mutant('NoCoverage', 5),
    mutant('CompileError', 6),
  ];

  test('the score counts killed and timed-out mutants over those that compile', () => {
    const summary = summarizeMutants('core/fees', mutants, [], '/repo');
    expect(summary.scorePercent).toBe(60);
    expect(summary.compileErrors).toBe(1);
    expect(summary.survivors).toEqual([
      'core/fees/minFees.ts:4 ConditionalExpression -> false',
      'core/fees/minFees.ts:5 ConditionalExpression -> false',
    ]);
  });

  test('a survivor marked equivalent leaves the score and the list of survivors', () => {
    const equivalents = [{ mutant: 'core/fees/minFees.ts:4 ConditionalExpression -> false', reason: 'same result' }];
    const summary = summarizeMutants('core/fees', mutants, equivalents, '/repo');
    expect(summary.equivalent).toBe(1);
    expect(summary.scorePercent).toBe(75);
    expect(summary.survivors).toEqual(['core/fees/minFees.ts:5 ConditionalExpression -> false']);
  });

  test('a folder with no valid mutant has no score', () => {
    expect(summarizeMutants('core/fees', [mutant('CompileError', 1)], [], '/repo').scorePercent).toBeNull();
  });
});

describe("the simulator pass over the unit tests' survivors", () => {
  const at = (status: string, line: number, replacement: string): MutantOutcome => ({
    fileName: '/repo/core/fees/minFees.ts',
    status,
    mutatorName: 'EqualityOperator',
    replacement,
    location: { start: { line } },
  });

  test("it mutates the survivors' lines, each once", () => {
    const survivors = ['core/fees/minFees.ts:61 A -> x', 'core/fees/minFees.ts:61 B -> y', 'core/a.ts:7 A -> z'];
    expect(survivorRanges(survivors)).toEqual(['core/a.ts:7-7', 'core/fees/minFees.ts:61-61']);
  });

  test('a survivor the simulator kills counts as killed; its other mutants on the line count for nothing', () => {
    const unit = [at('Survived', 61, 'a <= b'), at('Survived', 61, 'a >= b'), at('Killed', 61, 'a < b')];
    const simulator = [at('Killed', 61, 'a <= b'), at('Survived', 61, 'a >= b'), at('Survived', 61, 'a < b')];
    expect(withSimulatorKills(unit, simulator, '/repo').map((mutant) => mutant.status)).toEqual([
      'Killed',
      'Survived',
      'Killed',
    ]);
  });
});
