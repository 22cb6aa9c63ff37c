/**
 * Transition coverage of the nodes' machines over a run: every transition of each machine's graph (eventless and
 * delayed ones included), and which of them some node took. Recorded through xstate's inspection API on each
 * actor's system, so the machines run unchanged. The keys are those of test/helpers/transitionCoverage.ts (the same
 * small logic, kept here so that sim/ does not import from test/).
 */
import type { AnyActorRef, AnyStateMachine, InspectionEvent } from 'xstate';

interface TransitionLike {
  readonly source: { readonly id: string };
  readonly eventType: string;
  readonly target?: readonly { readonly id: string }[] | undefined;
}

interface StateNodeLike {
  readonly transitions: Map<string, TransitionLike[]>;
  readonly always?: TransitionLike[];
  readonly states: Record<string, unknown>;
}

function transitionKey(t: TransitionLike, index: number): string {
  const targets = t.target?.map((s) => s.id).join(',') ?? '(none)';
  return `${t.source.id} --${t.eventType}#${index}--> ${targets}`;
}

function indexInSource(t: TransitionLike): number {
  const source = t.source as unknown as StateNodeLike;
  const list = t.eventType === '' ? (source.always ?? []) : (source.transitions.get(t.eventType) ?? []);
  return Math.max(0, list.indexOf(t));
}

/** Every transition of a machine, keyed by source, event, index among the event's transitions, and targets. */
export function machineTransitions(machine: AnyStateMachine): string[] {
  const keys = new Set<string>();
  const visit = (node: StateNodeLike) => {
    for (const list of node.transitions.values()) list.forEach((t, i) => keys.add(transitionKey(t, i)));
    (node.always ?? []).forEach((t, i) => keys.add(transitionKey(t, i)));
    for (const child of Object.values(node.states)) visit(child as StateNodeLike);
  };
  visit(machine.root as unknown as StateNodeLike);
  return [...keys].sort();
}

export interface MachineCoverageReport {
  readonly machine: string;
  readonly hit: readonly string[];
  readonly missed: readonly string[];
}

/** A machine actor as the node exposes it: its logic is the machine, its system takes inspectors. */
type MachineActor = AnyActorRef & { readonly logic: AnyStateMachine };

export class MachineCoverage {
  private readonly graphs = new Map<string, readonly string[]>();
  private readonly taken = new Map<string, Set<string>>();

  /** Records the transitions `actor` takes from now on, under the machine name `machine`. */
  attach(machine: string, actor: AnyActorRef | undefined): void {
    if (actor === undefined) return;
    const machineActor = actor as MachineActor;
    if (!this.graphs.has(machine)) this.graphs.set(machine, machineTransitions(machineActor.logic));
    const taken = this.taken.get(machine) ?? new Set<string>();
    this.taken.set(machine, taken);
    machineActor.system.inspect((event: InspectionEvent) => {
      if (event.type !== '@xstate.microstep' || event.actorRef !== actor) return;
      for (const t of event._transitions as unknown as TransitionLike[]) taken.add(transitionKey(t, indexInSource(t)));
    });
  }

  report(): MachineCoverageReport[] {
    return [...this.graphs].map(([machine, all]) => {
      const taken = this.taken.get(machine)!;
      return { machine, hit: all.filter((k) => taken.has(k)), missed: all.filter((k) => !taken.has(k)) };
    });
  }
}
