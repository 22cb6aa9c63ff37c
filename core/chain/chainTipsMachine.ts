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
 */
export function createChainTipsMachine() {
  // It takes no ports, so one machine serves every chain of the process (building one took xstate a fraction of a
  // millisecond, per node start).
  chainTipsMachine ??= buildChainTipsMachine();
  return chainTipsMachine;
}

let chainTipsMachine: ReturnType<typeof buildChainTipsMachine> | undefined;

function buildChainTipsMachine() {
  return setup({
    types: {
      context: {} as ChainTipsContext,
      events: {} as ChainEvent,
      input: {} as { tips: L2Tips },
    },
    guards: {
      eventApplies: ({ context, event }) => chainEventRejection(context.tips, event) === undefined,
      atGenesis: ({ context }) => context.tips.proposed.number === 0,
      allCheckpointed: ({ context }) => context.tips.proposed.number === context.tips.checkpointed.block.number,
    },
    actions: {
      applyEvent: assign({ tips: ({ context, event }) => applyChainEvent(context.tips, event) }),
      countRejection: assign({ rejectedCount: ({ context }) => context.rejectedCount + 1 }),
    },
  }).createMachine({
    id: 'chainTips',
    context: ({ input }) => ({ tips: input.tips, rejectedCount: 0 }),
    initial: 'Resolving',
    on: {
      '*': [{ guard: 'eventApplies', actions: 'applyEvent', target: '.Resolving' }, { actions: 'countRejection' }],
    },
    states: {
      Resolving: {
        always: [
          { guard: 'atGenesis', target: 'Genesis' },
          { guard: 'allCheckpointed', target: 'Settled' },
          { target: 'AheadOfL1' },
        ],
      },
      Genesis: {},
      AheadOfL1: {},
      Settled: {},
    },
  });
}
