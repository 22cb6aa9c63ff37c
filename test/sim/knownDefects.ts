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

/** A rollback (forced or not) that fails on its last L1 read leaves the world state rolled back and the chain not. */
const halfRolledBack = (failure: SimFailure) => failure.kind === 'rollbackRootsChanged' && /ended with "refused [A-Z0-9_]+" but changed/.test(failure.detail);

export const KNOWN_DEFECTS: readonly KnownDefect[] = [
  {
    name:
      'tx pool: after a prune, a returning tx whose fee payer has no other pooled tx trips an assertion in decideAfterChainPruned ' +
      '(TxPoolService.afterPrune reads balances only for payers already pooled); maintenance is abandoned and the tx is lost',
    replay: 'test/regressions/prunedTxLostWithoutPooledPayer.json',
    explains: (failure) => failure.kind === 'txUnaccounted' && /last pool event: removed \(mined\)\)$/.test(failure.detail),
  },
  {
    name:
      'rollback: when the L1 read for the resume position fails (L1_UNREACHABLE, L1_BLOCK_NOT_FOUND on a stale link), the world state stays unwound or rebuilt and a forced ' +
      "rollback's pool stays cleared, while the chain keeps its tip; a sequencer left so builds nothing again",
    replay: 'test/regressions/rollbackFailsHalfway.json',
    // What follows from a half-rolled-back node (a cleared pool, a node that no longer converges) is explained too.
    explains: (failure, run) => halfRolledBack(failure) || (run.some(halfRolledBack) && ['txUnaccounted', 'notConverged', 'noProgress'].includes(failure.kind)),
  },
  {
    name:
      'archiver (suspected): after shallow L1 reorgs that remove epoch proofs, a stale and a flaky L1 link and a crash, the prover node prunes an ' +
      "unproven epoch and then never syncs again: L1's next checkpoint does not follow the checkpoint it kept",
    replay: 'test/regressions/proverStuckAfterReorgs.json',
    explains: (failure) => failure.kind === 'notConverged' && /is invalid: header lastArchiveRoot is not the previous archive/.test(failure.detail),
  },
];

/** The failures of a run that no known defect explains. */
export function unexplainedFailures(failures: readonly SimFailure[]): SimFailure[] {
  return failures.filter((failure) => !KNOWN_DEFECTS.some((defect) => defect.explains(failure, failures)));
}
