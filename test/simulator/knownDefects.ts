/**
 * Defects of the node that the simulator's checkers found and that are still open (core/ is not the simulator's to
 * change). Each is pinned by a replay in test/regressions/ that expects its failure, so CI notices the day it is
 * fixed; until then the property suites here judge every other rule and set aside only what these explain.
 * Delete an entry together with its replay's expectation when the defect is fixed.
 */
import type { SimFailure } from '../../sim/runSimulation.js';

export interface KnownDefect {
  readonly name: string;
  /** The regression replay that pins it. */
  readonly replay: string;
  /** Failures this defect explains, given every failure of the run. */
  readonly explains: (failure: SimFailure, run: readonly SimFailure[]) => boolean;
}

export const KNOWN_DEFECTS: readonly KnownDefect[] = [];

/** The failures of a run that no known defect explains. */
export function unexplainedFailures(failures: readonly SimFailure[]): SimFailure[] {
  return failures.filter((failure) => !KNOWN_DEFECTS.some((defect) => defect.explains(failure, failures)));
}
