/**
 * Coverage of the nodes' machines over a run, against each machine's graph, in three views:
 * - transitions: every transition of the graph (eventless and delayed ones included), and which some node took;
 * - events: every event type the graph handles (delays and actor completions included), and which some node's
 *   machine received;
 * - guards: each guarded transition, seen holding (it was taken) and seen failing (the same state and event went on
 *   to a later alternative, which xstate tries only after the guard said no).
 * Recorded through xstate's inspection API on each actor's system, so the machines run unchanged. The transition
 * keys are those of test/helpers/transitionCoverage.ts (the same small logic, kept here so that sim/ does not import
 * from test/).
 */
import type { AnyActorRef, AnyStateMachine, InspectionEvent } from 'xstate';

interface TransitionLike {
  readonly source: { readonly id: string };
  readonly eventType: string;
  readonly target?: readonly { readonly id: string }[] | undefined;
  readonly guard?: unknown;
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

function alternativesOf(t: TransitionLike): readonly TransitionLike[] {
  const source = t.source as unknown as StateNodeLike;
  return t.eventType === '' ? (source.always ?? []) : (source.transitions.get(t.eventType) ?? []);
}

function indexInSource(t: TransitionLike): number {
  return Math.max(0, alternativesOf(t).indexOf(t));
}

/** A guard's name as the machine's setup declares it (`inline` for an anonymous function). */
function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'object' && guard !== null && 'type' in guard && typeof guard.type === 'string')
    return guard.type;
  return 'inline';
}

function guardKey(t: TransitionLike, index: number, outcome: 'held' | 'failed'): string {
  return `${t.source.id} --${t.eventType}#${index}-- [${guardName(t.guard)}] ${outcome}`;
}

interface TakenKeys {
  readonly transition: string;
  /** The guard outcomes that taking it shows. */
  readonly guards: readonly string[];
}

/** Keys by transition object: a machine's transitions are fixed, and runs take the same ones thousands of times. */
const takenKeys = new WeakMap<TransitionLike, TakenKeys>();

function keysOfTaken(t: TransitionLike): TakenKeys {
  const known = takenKeys.get(t);
  if (known !== undefined) return known;
  const index = indexInSource(t);
  const guards: string[] = [];
  if (t.guard !== undefined) guards.push(guardKey(t, index, 'held'));
  // The alternatives before the one taken were tried first: each guarded one said no.
  alternativesOf(t)
    .slice(0, index)
    .forEach((earlier, i) => {
      if (earlier.guard !== undefined) guards.push(guardKey(earlier, i, 'failed'));
    });
  const keys = { transition: transitionKey(t, index), guards };
  takenKeys.set(t, keys);
  return keys;
}

interface MachineGraph {
  readonly transitions: readonly string[];
  readonly events: readonly string[];
  readonly guards: readonly string[];
}

function forEachTransition(machine: AnyStateMachine, visit: (t: TransitionLike, index: number) => void): void {
  const walk = (node: StateNodeLike) => {
    for (const list of node.transitions.values()) list.forEach(visit);
    (node.always ?? []).forEach(visit);
    for (const child of Object.values(node.states)) walk(child as StateNodeLike);
  };
  walk(machine.root as unknown as StateNodeLike);
}

/** Every transition of a machine, keyed by source, event, index among the event's transitions, and targets. */
export function machineTransitions(machine: AnyStateMachine): string[] {
  const keys = new Set<string>();
  forEachTransition(machine, (t, i) => keys.add(transitionKey(t, i)));
  return [...keys].sort();
}

/** The graph's transitions, the event types it handles, and both outcomes of each guarded transition. */
export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const transitions = new Set<string>();
  const events = new Set<string>();
  const guards = new Set<string>();
  forEachTransition(machine, (t, i) => {
    transitions.add(transitionKey(t, i));
    if (t.eventType !== '') events.add(t.eventType);
    if (t.guard !== undefined) {
      guards.add(guardKey(t, i, 'held'));
      guards.add(guardKey(t, i, 'failed'));
    }
  });
  return { transitions: [...transitions].sort(), events: [...events].sort(), guards: [...guards].sort() };
}

/** Items of one view: those observed and those never observed. */
export interface CoverageView {
  readonly hit: readonly string[];
  readonly missed: readonly string[];
}

export interface MachineCoverageReport {
  readonly machine: string;
  /** Transitions taken and never taken. */
  readonly hit: readonly string[];
  readonly missed: readonly string[];
  readonly events: CoverageView;
  readonly guards: CoverageView;
}

/** A machine actor as the node exposes it: its logic is the machine, its system takes inspectors. */
type MachineActor = AnyActorRef & { readonly logic: AnyStateMachine };

interface Observed {
  readonly transitions: Set<string>;
  readonly events: Set<string>;
  readonly guards: Set<string>;
}

/** xstate's start-up event: every actor receives it, no transition handles it. */
const XSTATE_INIT_EVENT = 'xstate.init';

/**
 * The graph's event types received: a wildcard (`*`) handler counts as receiving when an event came that the graph
 * names no handler for (the wildcard is what took it).
 */
function eventsReceived(graph: MachineGraph, received: ReadonlySet<string>): ReadonlySet<string> {
  if (!graph.events.includes('*')) return received;
  const named = new Set(graph.events);
  const byWildcard = [...received].some((type) => !named.has(type) && type !== XSTATE_INIT_EVENT);
  return byWildcard ? new Set([...received, '*']) : received;
}

function viewOf(all: readonly string[], seen: ReadonlySet<string>): CoverageView {
  return { hit: all.filter((k) => seen.has(k)), missed: all.filter((k) => !seen.has(k)) };
}

/** The hook every inspection event of an actor system goes through (xstate internals: `createSystem`). */
interface InspectableSystem {
  _sendInspectionEvent?: (event: InspectionEvent) => void;
  inspect(observer: (event: InspectionEvent) => void): unknown;
}

/** Each system's taps, called in order. */
const tapsBySystem = new WeakMap<object, ((event: InspectionEvent) => void)[]>();

/**
 * Calls `tap` with every inspection event of `system`. Through the system's own hook when it has one: xstate's public
 * `inspect` copies every event (actor creations, snapshots and actions included) into a new object before any
 * observer sees it, which measured as half of all xstate time in simulated runs; the hook hands over the event it
 * already has. Events reach the tap before xstate's own observers, unchanged. Falls back to `inspect` if a later
 * xstate has no such hook (sim/machineCoverage.test.ts checks coverage either way it is recorded).
 */
function tapInspection(system: AnyActorRef['system'], tap: (event: InspectionEvent) => void): void {
  const inspectable = system as unknown as InspectableSystem;
  const original = inspectable._sendInspectionEvent;
  if (typeof original !== 'function') {
    inspectable.inspect(tap);
    return;
  }
  let taps = tapsBySystem.get(system);
  if (taps === undefined) {
    const installed: ((event: InspectionEvent) => void)[] = [];
    taps = installed;
    tapsBySystem.set(system, installed);
    inspectable._sendInspectionEvent = (event) => {
      for (const each of installed) each(event);
      original(event);
    };
  }
  taps.push(tap);
}

export class MachineCoverage {
  private readonly graphs = new Map<string, MachineGraph>();
  private readonly observed = new Map<string, Observed>();

  /** Records what `actor` does from now on, under the machine name `machine`. */
  attach(machine: string, actor: AnyActorRef | undefined): void {
    if (actor === undefined) return;
    const machineActor = actor as MachineActor;
    if (!this.graphs.has(machine)) this.graphs.set(machine, machineGraph(machineActor.logic));
    const seen = this.observed.get(machine) ?? {
      transitions: new Set<string>(),
      events: new Set<string>(),
      guards: new Set<string>(),
    };
    this.observed.set(machine, seen);
    tapInspection(machineActor.system, (event: InspectionEvent) => {
      if (event.actorRef !== actor) return;
      if (event.type === '@xstate.event') {
        seen.events.add(event.event.type);
        return;
      }
      if (event.type !== '@xstate.microstep') return;
      for (const t of event._transitions as unknown as TransitionLike[]) {
        const keys = keysOfTaken(t);
        seen.transitions.add(keys.transition);
        for (const guard of keys.guards) seen.guards.add(guard);
      }
    });
  }

  report(): MachineCoverageReport[] {
    return [...this.graphs].map(([machine, graph]) => {
      const seen = this.observed.get(machine)!;
      const transitions = viewOf(graph.transitions, seen.transitions);
      return {
        machine,
        ...transitions,
        events: viewOf(graph.events, eventsReceived(graph, seen.events)),
        guards: viewOf(graph.guards, seen.guards),
      };
    });
  }
}
