/**
 * What a checker reports. Each kind has its own exit code (SIM_EXIT_CODE, sim/simCli.ts), so a campaign tells at a
 * glance which rule broke. Kinds about one node name it; the others are about the run as a whole.
 */

/** Failures about one node. */
export const SIM_NODE_FAILURE_KINDS = [
  'tipsOutOfOrder',
  'nodesDiverged',
  'finalizedMovedBack',
  'finalizedConflict',
  'stateRootsDiffer',
  'poolNullifierShared',
  'txUnaccounted',
  'replacementWithoutBump',
  'rollbackRootsChanged',
  'upgradeMishandled',
  'txLifecycleViolated',
  'adminOverlapAccepted',
  'snapshotUploadRuleBroken',
] as const;

/** Failures about the run. */
export const SIM_RUN_FAILURE_KINDS = [
  'crashed',
  'noProgress',
  'notConverged',
  'checkpointFeesWrong',
  'slotOutcomeWrong',
  'proposerWrong',
] as const;

export type SimNodeFailureKind = (typeof SIM_NODE_FAILURE_KINDS)[number];
export type SimRunFailureKind = (typeof SIM_RUN_FAILURE_KINDS)[number];

export type SimFailure =
  | { readonly kind: SimNodeFailureKind; readonly node: string; readonly detail: string }
  | { readonly kind: SimRunFailureKind; readonly detail: string };

/** Failures kept per kind in one run: the first ones tell the story, the rest would only flood the report. */
export const SIM_FAILURES_PER_KIND_MAX = 5;

/** Collects failures, at most SIM_FAILURES_PER_KIND_MAX of each kind. */
export class FailureLog {
  private readonly kept: SimFailure[] = [];
  private readonly perKind = new Map<string, number>();

  add(failure: SimFailure): void {
    const count = this.perKind.get(failure.kind) ?? 0;
    this.perKind.set(failure.kind, count + 1);
    if (count < SIM_FAILURES_PER_KIND_MAX) this.kept.push(failure);
  }

  addAll(failures: Iterable<SimFailure>): void {
    for (const failure of failures) this.add(failure);
  }

  get failures(): readonly SimFailure[] {
    return this.kept;
  }
}

export type SimFailureKind = SimFailure['kind'];
export const SIM_FAILURE_KINDS_ALL: readonly SimFailureKind[] = [...SIM_NODE_FAILURE_KINDS, ...SIM_RUN_FAILURE_KINDS];
