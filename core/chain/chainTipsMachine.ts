import { assign, setup } from 'xstate';
import type { ChainEvent, L2Tips } from '../../spec/chain.js';
import { applyChainEvent, chainEventRejection } from './tips.js';

export interface ChainTipsContext {
  readonly tips: L2Tips;
  /** Events refused because they did not apply to the tips at the time (kept for diagnosis; bounded). */
  readonly rejectedCount: number;
}

/**
 * The chain tips. States say where the proposed chain stands against L1: `Genesis` (no block yet), `AheadOfL1`
 * (blocks not yet in an L1 checkpoint), `Settled` (every block is checkpointed). Every chain event is applied
 * through the pure rules of tips.ts; an event that does not apply is refused and counted, never half-applied.
 *
 * An event that applies goes straight to the state its new tips stand in: the guards read the tips the event would
 * give (`tipsAfter`), so each event is one transition. (Through a transient state with eventless transitions, every
 * event was two, and xstate's own work per event was a few percent of a simulated run.)
 */
export function createChainTipsMachine() {
  // It takes no ports, so one machine serves every chain of the process (building one took xstate a fraction of a
  // millisecond, per node start).
  chainTipsMachine ??= buildChainTipsMachine();
  return chainTipsMachine;
}

let chainTipsMachine: ReturnType<typeof buildChainTipsMachine> | undefined;

/**
 * The tips `event` gives `tips`, or undefined when it does not apply. The machine's guards and its action ask this of
 * the same event in turn, so the last answer is kept (both arguments are immutable values, compared by identity).
 */
function tipsAfter(tips: L2Tips, event: ChainEvent): L2Tips | undefined {
  if (tips !== lastApplied.tips || event !== lastApplied.event) {
    const after = chainEventRejection(tips, event) === undefined ? applyChainEvent(tips, event) : undefined;
    lastApplied = { tips, event, after };
  }
  return lastApplied.after;
}

let lastApplied: { tips?: L2Tips; event?: ChainEvent; after: L2Tips | undefined } = { after: undefined };

const atGenesis = (tips: L2Tips) => tips.proposed.number === 0;
const allCheckpointed = (tips: L2Tips) => tips.proposed.number === tips.checkpointed.block.number;

function buildChainTipsMachine() {
  return setup({
    types: {
      context: {} as ChainTipsContext,
      events: {} as ChainEvent,
      input: {} as { tips: L2Tips },
    },
    guards: {
      refused: ({ context, event }) => tipsAfter(context.tips, event) === undefined,
      leavesGenesis: ({ context, event }) => atGenesis(tipsAfter(context.tips, event)!),
      leavesAllCheckpointed: ({ context, event }) => allCheckpointed(tipsAfter(context.tips, event)!),
      startsAtGenesis: ({ context }) => atGenesis(context.tips),
      startsAllCheckpointed: ({ context }) => allCheckpointed(context.tips),
    },
    actions: {
      applyEvent: assign({ tips: ({ context, event }) => tipsAfter(context.tips, event)! }),
      countRejection: assign({ rejectedCount: ({ context }) => context.rejectedCount + 1 }),
    },
  }).createMachine({
    id: 'chainTips',
    context: ({ input }) => ({ tips: input.tips, rejectedCount: 0 }),
    initial: 'Starting',
    on: {
      '*': [
        { guard: 'refused', actions: 'countRejection' },
        { guard: 'leavesGenesis', actions: 'applyEvent', target: '.Genesis' },
        { guard: 'leavesAllCheckpointed', actions: 'applyEvent', target: '.Settled' },
        { actions: 'applyEvent', target: '.AheadOfL1' },
      ],
    },
    states: {
      // Where the tips the machine starts with stand; left at once.
      Starting: {
        always: [
          { guard: 'startsAtGenesis', target: 'Genesis' },
          { guard: 'startsAllCheckpointed', target: 'Settled' },
          { target: 'AheadOfL1' },
        ],
      },
      Genesis: {},
      AheadOfL1: {},
      Settled: {},
    },
  });
}
