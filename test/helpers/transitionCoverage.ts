import type { AnyStateMachine, InspectionEvent } from 'xstate';

interface TransitionLike {
  source: { id: string };
  eventType: string;
  target?: readonly { id: string }[] | undefined;
  guard?: unknown;
}

function key(t: TransitionLike, index: number): string {
  const targets = t.target?.map((s) => s.id).join(',') ?? '(none)';
  return `${t.source.id} --${t.eventType}#${index}--> ${targets}`;
}

function indexOf(t: TransitionLike): number {
  const source = t.source as unknown as { transitions: Map<string, TransitionLike[]>; always?: TransitionLike[] };
  const list = t.eventType === '' ? (source.always ?? []) : (source.transitions.get(t.eventType) ?? []);
  return Math.max(0, list.indexOf(t));
}

/** Every transition of a machine (including eventless and delayed ones), keyed by source, event, index and target. */
export function allTransitions(machine: AnyStateMachine): Set<string> {
  const keys = new Set<string>();
  const visit = (node: {
    transitions: Map<string, TransitionLike[]>;
    always?: TransitionLike[];
    states: Record<string, unknown>;
  }) => {
    for (const list of node.transitions.values()) list.forEach((t, i) => keys.add(key(t, i)));
    (node.always ?? []).forEach((t, i) => keys.add(key(t, i)));
    for (const child of Object.values(node.states)) visit(child as typeof node);
  };
  visit(machine.root as unknown as Parameters<typeof visit>[0]);
  return keys;
}

/** Records the transitions actors take; pass `inspect` to createActor. */
export class TransitionCoverage {
  readonly taken = new Set<string>();
  readonly inspect = (event: InspectionEvent): void => {
    if (event.type !== '@xstate.microstep') return;
    for (const t of event._transitions as unknown as TransitionLike[]) {
      this.taken.add(key(t, indexOf(t)));
    }
  };

  missing(machine: AnyStateMachine): string[] {
    return [...allTransitions(machine)].filter((k) => !this.taken.has(k));
  }
}
