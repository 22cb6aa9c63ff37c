/**
 * The lifecycle of one transaction as one node sees it (spec: Transaction lifecycle, as a receipt shows it: mined,
 * pending, not found), with the moves between those states made explicit:
 *
 *   Unsubmitted --accepted--> Pending --mined--> Mined.Proposed --tip--> Checkpointed --tip--> Proven --tip--> Finalized
 *   Unsubmitted --rejected--> Rejected          Pending --removed / cleared--> Dropped
 *   Mined (below finalized) --unmined--> Unmined --returned--> Pending | --removed--> Dropped | --mined--> Mined
 *   Mined (below finalized) --tip--> a lower mined state (an L1 reorg took the checkpoint or the proof back)
 *   Mined (finalized too) --forcedRollback--> Mined.Proposed (an operator's forced rollback; standing told again)
 *
 * Moves the protocol forbids lead to `Violated`, with what happened in the context: a finalized tx that goes back
 * (unmined, returned to the pool, a lower tip), a tx the pool refused or removed that this node's own sequencer mines
 * anyway (a pool that says a tx is gone never lets it through; a checkpoint synced from L1 may still hold it), a tx
 * mined in a second block while its first still stands, and a mined tx accepted into the pool again. A restart re-reads the
 * tx's receipt (`node.restarted`): a crash may lose the unfinished storage batch, so the node may legitimately
 * know less than before, but never un-finalize a tx nor mine one it refused.
 *
 * The machine is pure; the simulator runs one per submitted tx (sim/checkers/txLifecycle.ts) from the pool's and
 * the chain's events, and a `Violated` tx is a checker failure.
 */
import { assign, setup } from 'xstate';
import type { BlockOrigin } from '../../spec/chain.js';

/** Where a mined tx's block stands, from the chain tips. */
export type MinedStanding = 'proposed' | 'checkpointed' | 'proven' | 'finalized';

/** A receipt's status (spec/wire/tx.ts TxReceipt). */
export type ReceiptStatus = 'dropped' | 'pending' | MinedStanding;

export type TxLifecycleEvent =
  | { readonly type: 'pool.accepted' }
  | { readonly type: 'pool.rejected' }
  /** The pool let the tx go for a reason other than its being mined (replaced, evicted, expired, invalid...). */
  | { readonly type: 'pool.removed'; readonly reason: string }
  /** Its block was pruned and the tx went back into the pool. */
  | { readonly type: 'pool.returned' }
  /** An operator's forced rollback emptied the pool. */
  | { readonly type: 'pool.cleared' }
  /**
   * In a block this node's sequencer built from its pool (`proposed`), one a peer proposed that this node followed
   * (`proposed` with the `peer`), or one of a checkpoint synced from L1.
   */
  | { readonly type: 'chain.mined'; readonly blockNumber: number; readonly origin: BlockOrigin; readonly peer?: string }
  /** The block that held it was pruned (or rolled back). */
  | { readonly type: 'chain.unmined' }
  /**
   * An operator's forced rollback below the finalized block (svcAdmin_rollbackTo with force): the one way finality is
   * undone. Its block's standing is told again afterwards (or the block is unmined, when the rollback removed it).
   */
  | { readonly type: 'chain.forcedRollback' }
  /** The tips moved: where its block stands now. */
  | { readonly type: 'chain.tip'; readonly standing: MinedStanding }
  /** The node restarted: what its receipt says now. */
  | { readonly type: 'node.restarted'; readonly status: ReceiptStatus };

export interface TxLifecycleContext {
  /** The block it was last mined in. */
  readonly blockNumber: number | undefined;
  /** What broke the lifecycle, once `Violated`. */
  readonly violation: string | undefined;
}

const MINED_ORDER: readonly MinedStanding[] = ['proposed', 'checkpointed', 'proven', 'finalized'];
const MINED_STATE: Record<MinedStanding, string> = {
  proposed: 'Proposed',
  checkpointed: 'Checkpointed',
  proven: 'Proven',
  finalized: 'Finalized',
};

const violate = (what: (event: TxLifecycleEvent) => string) => ({
  target: '#txLifecycle.Violated' as const,
  actions: {
    type: 'recordViolation' as const,
    params: ({ event }: { event: TxLifecycleEvent }) => ({ text: what(event) }),
  },
});

/** How an event reads in a violation's description. */
function describeEvent(event: TxLifecycleEvent): string {
  switch (event.type) {
    case 'pool.removed':
      return `removed from the pool (${event.reason})`;
    case 'chain.mined':
      if (event.origin === 'l1') return `mined in block ${event.blockNumber}, synced from L1`;
      return event.peer === undefined
        ? `mined in block ${event.blockNumber}, which this node's sequencer built`
        : `mined in block ${event.blockNumber}, proposed by another node (from peer ${event.peer})`;
    case 'chain.tip':
      return `its block's standing became ${event.standing}`;
    case 'node.restarted':
      return `after a restart its receipt says ${event.status}`;
    default:
      return event.type;
  }
}

/** To the Mined state of a tip's standing, when the tip event names it. */
const toStanding = (standing: MinedStanding) => ({
  guard: ({ event }: { event: TxLifecycleEvent }) => event.type === 'chain.tip' && event.standing === standing,
  target: MINED_STATE[standing],
});
/** To `target` when a restarted node's receipt says `status`. */
const restartTo = (status: ReceiptStatus, target: string) => ({
  guard: ({ event }: { event: TxLifecycleEvent }) => event.type === 'node.restarted' && event.status === status,
  target,
});
const restartToMined = MINED_ORDER.map((standing) =>
  restartTo(standing, `#txLifecycle.Mined.${MINED_STATE[standing]}`),
);
const minedAgain = { target: '#txLifecycle.Mined', actions: 'recordBlock' } as const;
/** A mined tx below finalized: its block's standing may move either way, and its block may be pruned. */
const belowFinalized = {
  'chain.tip': MINED_ORDER.map(toStanding),
  'chain.unmined': '#txLifecycle.Unmined',
  'pool.returned': '#txLifecycle.Pending',
  'node.restarted': [
    restartTo('pending', '#txLifecycle.Pending'),
    restartTo('dropped', '#txLifecycle.Dropped'),
    ...MINED_ORDER.map((standing) => restartTo(standing, MINED_STATE[standing])),
  ],
} as const;

/** The tx lifecycle machine's actions and guards; the state config below names them. */
function txLifecycleMachineSetup() {
  return setup({
    types: { context: {} as TxLifecycleContext, events: {} as TxLifecycleEvent },
    actions: {
      recordBlock: assign({
        blockNumber: ({ event }) => (event.type === 'chain.mined' ? event.blockNumber : undefined),
      }),
      recordViolation: assign((_, params: { text: string }) => ({ violation: params.text })),
    },
    guards: {
      restartedMined: ({ event }) =>
        event.type === 'node.restarted' && MINED_ORDER.includes(event.status as MinedStanding),
      /** Mined in a block this node's sequencer did not build: synced from L1, or followed from a peer's proposal. */
      notOurSequencer: ({ event }) =>
        event.type === 'chain.mined' && (event.origin === 'l1' || event.peer !== undefined),
    },
  });
}

/** One tx's lifecycle as this node sees it: the moves drawn at the top of this file. */
export function createTxLifecycleMachine() {
  return txLifecycleMachineSetup().createMachine({
    id: 'txLifecycle',
    context: { blockNumber: undefined, violation: undefined },
    initial: 'Unsubmitted',
    states: {
      Unsubmitted: {
        on: { 'pool.accepted': 'Pending', 'pool.rejected': 'Rejected' },
      },
      Rejected: {
        on: {
          'pool.accepted': 'Pending',
          // Another proposer's block may hold it (its own pool took it); this node's sequencer never may.
          'chain.mined': [
            { guard: 'notOurSequencer', ...minedAgain },
            violate((e) => `the pool refused it, then it was ${describeEvent(e)}`),
          ],
          'node.restarted': [
            { guard: 'restartedMined', ...violate((e) => `the pool refused it, yet ${describeEvent(e)}`) },
            { target: 'Rejected' },
          ],
        },
      },
      Pending: {
        on: {
          'pool.removed': 'Dropped',
          'pool.cleared': 'Dropped',
          'pool.returned': {},
          'chain.unmined': {},
          'chain.mined': minedAgain,
          'node.restarted': [restartTo('pending', 'Pending'), restartTo('dropped', 'Dropped'), ...restartToMined],
        },
      },
      Dropped: {
        on: {
          // A resubmission of the same tx.
          'pool.accepted': 'Pending',
          'pool.removed': {},
          'pool.cleared': {},
          'chain.unmined': {},
          // A checkpoint from L1 may bring it back (the blocks a prune dropped, synced again), and so may another
          // proposer's block this node follows (that proposer's pool kept it); this node's sequencer never takes it.
          'chain.mined': [
            { guard: 'notOurSequencer', ...minedAgain },
            violate((e) => `the pool had let it go, then it was ${describeEvent(e)}`),
          ],
          // The removal was in the batch a crash lost: the pool holds it again.
          'node.restarted': [
            restartTo('pending', 'Pending'),
            restartTo('dropped', 'Dropped'),
            violate((e) => `the pool had let it go, yet ${describeEvent(e)}`),
          ],
        },
      },
      Mined: {
        initial: 'Proposed',
        on: {
          // Its block is still there (no prune said otherwise): a second block holding it mines it twice.
          'chain.mined': violate(
            (e) => `it was mined twice: ${describeEvent(e)} while still mined in an earlier block`,
          ),
          'pool.removed': {},
          'pool.cleared': {},
          'pool.accepted': violate(() => 'a mined tx was accepted into the pool again'),
          'chain.forcedRollback': '.Proposed',
        },
        states: {
          Proposed: { on: belowFinalized },
          Checkpointed: { on: belowFinalized },
          Proven: { on: belowFinalized },
          Finalized: {
            on: {
              'chain.tip': [toStanding('finalized'), violate((e) => `a finalized tx went back: ${describeEvent(e)}`)],
              'chain.unmined': violate(() => 'a finalized tx was unmined'),
              'pool.returned': violate(() => 'a finalized tx returned to the pool'),
              'node.restarted': [
                restartTo('finalized', 'Finalized'),
                violate((e) => `a finalized tx went back: ${describeEvent(e)}`),
              ],
            },
          },
        },
      },
      Unmined: {
        on: {
          'pool.returned': 'Pending',
          'pool.removed': 'Dropped',
          'pool.cleared': 'Dropped',
          'chain.unmined': {},
          'chain.mined': minedAgain,
          'node.restarted': [restartTo('pending', 'Pending'), restartTo('dropped', 'Dropped'), ...restartToMined],
        },
      },
      Violated: { type: 'final' },
    },
  });
}

export type TxLifecycleMachine = ReturnType<typeof createTxLifecycleMachine>;
