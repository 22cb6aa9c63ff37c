import { createActor, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import { MachineCoverage, machineGraph } from './machineCoverage.js';

/** A door that opens only when unlocked; `knock` is handled but never sent in these tests. */
function doorMachine() {
  return setup({
    types: {
      context: {} as { unlocked: boolean },
      events: {} as { type: 'open' } | { type: 'unlock' } | { type: 'knock' },
    },
    guards: { unlocked: ({ context }) => context.unlocked },
  }).createMachine({
    id: 'door',
    context: { unlocked: false },
    initial: 'Closed',
    states: {
      Closed: {
        on: {
          open: [
            { guard: 'unlocked', target: 'Open' },
            { target: 'Closed', reenter: true },
          ],
          unlock: { actions: ({ context }) => Object.assign(context, { unlocked: true }) },
          knock: {},
        },
      },
      Open: {},
    },
  });
}

describe('machine coverage', () => {
  it('lists the graph: transitions, the event types handled, both outcomes of each guard', () => {
    const graph = machineGraph(doorMachine());
    expect(graph.events).toEqual(['knock', 'open', 'unlock']);
    expect(graph.guards).toEqual([
      'door.Closed --open#0-- [unlocked] failed',
      'door.Closed --open#0-- [unlocked] held',
    ]);
    expect(graph.transitions).toHaveLength(4);
  });

  it('sees a guard fail when a later alternative is taken, and hold when its own transition is', () => {
    const coverage = new MachineCoverage();
    const actor = createActor(doorMachine());
    coverage.attach('door', actor);
    actor.start();
    actor.send({ type: 'open' });
    let [report] = coverage.report();
    expect(report!.guards.hit).toEqual(['door.Closed --open#0-- [unlocked] failed']);
    expect(report!.events).toEqual({ hit: ['open'], missed: ['knock', 'unlock'] });
    actor.send({ type: 'unlock' });
    actor.send({ type: 'open' });
    [report] = coverage.report();
    expect(report!.guards).toEqual({
      hit: ['door.Closed --open#0-- [unlocked] failed', 'door.Closed --open#0-- [unlocked] held'],
      missed: [],
    });
    expect(report!.events.missed).toEqual(['knock']);
    expect(report!.missed).toEqual(['door.Closed --knock#0--> (none)']);
    expect(actor.getSnapshot().value).toBe('Open');
  });
});

describe('machine coverage of a wildcard handler', () => {
  /** Takes any event and counts it, unless it is `ignored`. */
  const counter = () =>
    setup({
      types: { context: {} as { n: number }, events: {} as { type: string } },
      guards: { counted: ({ event }) => event.type !== 'ignored' },
    }).createMachine({
      id: 'counter',
      context: { n: 0 },
      on: { '*': { guard: 'counted', actions: ({ context }) => Object.assign(context, { n: context.n + 1 }) } },
    });

  it('counts `*` as received once an event the graph names no handler for arrives, not at start-up', () => {
    const coverage = new MachineCoverage();
    const actor = createActor(counter());
    coverage.attach('counter', actor);
    actor.start();
    expect(coverage.report()[0]!.events).toEqual({ hit: [], missed: ['*'] });
    actor.send({ type: 'anything' });
    expect(coverage.report()[0]!.events).toEqual({ hit: ['*'], missed: [] });
  });
});
