import fc from 'fast-check';
import { createActor } from 'xstate';
import { describe, expect, it } from 'vitest';
import {
  createTxLifecycleMachine,
  type MinedStanding,
  type ReceiptStatus,
  type TxLifecycleEvent,
} from './txLifecycleMachine.js';

function run(events: readonly TxLifecycleEvent[]) {
  const actor = createActor(createTxLifecycleMachine()).start();
  const states: string[] = [];
  for (const event of events) {
    actor.send(event);
    states.push(JSON.stringify(actor.getSnapshot().value));
  }
  const snapshot = actor.getSnapshot();
  return { state: JSON.stringify(snapshot.value), violation: snapshot.context.violation, states };
}

const tip = (standing: MinedStanding): TxLifecycleEvent => ({ type: 'chain.tip', standing });
const mined = (blockNumber = 5, origin: 'proposed' | 'l1' = 'proposed'): TxLifecycleEvent => ({
  type: 'chain.mined',
  blockNumber,
  origin,
});
const restarted = (status: ReceiptStatus): TxLifecycleEvent => ({ type: 'node.restarted', status });
const accepted: TxLifecycleEvent = { type: 'pool.accepted' };

describe('the tx lifecycle', () => {
  it('goes from the pool to finalized', () => {
    const { states, violation } = run([accepted, mined(), tip('checkpointed'), tip('proven'), tip('finalized')]);
    expect(states).toEqual([
      '"Pending"',
      '{"Mined":"Proposed"}',
      '{"Mined":"Checkpointed"}',
      '{"Mined":"Proven"}',
      '{"Mined":"Finalized"}',
    ]);
    expect(violation).toBeUndefined();
  });

  it('returns to the pool when its block is pruned, in either order of the two events, and is mined again', () => {
    expect(run([accepted, mined(), { type: 'chain.unmined' }, { type: 'pool.returned' }, mined(6)]).state).toBe(
      '{"Mined":"Proposed"}',
    );
    expect(run([accepted, mined(), { type: 'pool.returned' }, { type: 'chain.unmined' }, mined(6)]).state).toBe(
      '{"Mined":"Proposed"}',
    );
    expect(
      run([
        accepted,
        mined(),
        tip('checkpointed'),
        { type: 'chain.unmined' },
        { type: 'pool.removed', reason: 'nullifierTaken' },
      ]).state,
    ).toBe('"Dropped"');
  });

  it('lets an L1 reorg take a checkpoint or a proof back, but never a finalized block', () => {
    expect(run([accepted, mined(), tip('proven'), tip('checkpointed'), tip('proposed')]).violation).toBeUndefined();
    const back = run([accepted, mined(), tip('finalized'), tip('proven')]);
    expect(back.state).toBe('"Violated"');
    expect(back.violation).toBe("a finalized tx went back: its block's standing became proven");
    expect(run([accepted, mined(), tip('finalized'), { type: 'chain.unmined' }]).violation).toBe(
      'a finalized tx was unmined',
    );
    expect(run([accepted, mined(), tip('finalized'), restarted('pending')]).violation).toMatch(
      /finalized tx went back/,
    );
    // Only an operator's forced rollback undoes finality.
    expect(
      run([accepted, mined(), tip('finalized'), { type: 'chain.forcedRollback' }, tip('checkpointed')]).state,
    ).toBe('{"Mined":"Checkpointed"}');
    expect(
      run([
        accepted,
        mined(),
        tip('finalized'),
        { type: 'chain.forcedRollback' },
        { type: 'chain.unmined' },
        { type: 'pool.cleared' },
      ]).state,
    ).toBe('"Dropped"');
  });

  it("never lets this node's sequencer mine a tx the pool refused or let go, nor anything mine a tx twice", () => {
    expect(run([{ type: 'pool.rejected' }, mined()]).violation).toBe(
      "the pool refused it, then it was mined in block 5, which this node's sequencer built",
    );
    expect(run([accepted, { type: 'pool.removed', reason: 'evicted' }, mined(7)]).violation).toBe(
      "the pool had let it go, then it was mined in block 7, which this node's sequencer built",
    );
    expect(run([accepted, mined(5), mined(6, 'l1')]).violation).toBe(
      'it was mined twice: mined in block 6, synced from L1 while still mined in an earlier block',
    );
    // A checkpoint from L1 may hold what this pool refused or let go: another proposer's pool took it, or a prune
    // dropped the blocks and L1 brings them back.
    expect(run([{ type: 'pool.rejected' }, mined(5, 'l1'), tip('checkpointed')]).state).toBe(
      '{"Mined":"Checkpointed"}',
    );
    expect(run([accepted, { type: 'pool.removed', reason: 'anchorPruned' }, mined(2, 'l1')]).violation).toBeUndefined();
    expect(run([accepted, mined(), accepted]).violation).toBe('a mined tx was accepted into the pool again');
    // A resubmission after the pool let it go is a new life.
    expect(run([accepted, { type: 'pool.removed', reason: 'evicted' }, accepted, mined()]).violation).toBeUndefined();
  });

  it('after a restart takes what the receipt says, as long as nothing goes back from finalized or to mined from refused', () => {
    expect(run([accepted, mined(), restarted('pending')]).state).toBe('"Pending"');
    expect(run([accepted, { type: 'pool.removed', reason: 'evicted' }, restarted('pending')]).state).toBe('"Pending"');
    expect(run([accepted, mined(), tip('checkpointed'), restarted('proposed')]).state).toBe('{"Mined":"Proposed"}');
    expect(run([{ type: 'pool.rejected' }, restarted('proposed')]).violation).toBe(
      'the pool refused it, yet after a restart its receipt says proposed',
    );
    expect(run([{ type: 'pool.rejected' }, restarted('dropped')]).state).toBe('"Rejected"');
  });

  const eventArb: fc.Arbitrary<TxLifecycleEvent> = fc.oneof(
    fc.constant<TxLifecycleEvent>({ type: 'pool.accepted' }),
    fc.constant<TxLifecycleEvent>({ type: 'pool.rejected' }),
    fc
      .constantFrom('evicted', 'replaced', 'expired')
      .map((reason): TxLifecycleEvent => ({ type: 'pool.removed', reason })),
    fc.constant<TxLifecycleEvent>({ type: 'pool.returned' }),
    fc.constant<TxLifecycleEvent>({ type: 'pool.cleared' }),
    fc
      .tuple(fc.integer({ min: 1, max: 9 }), fc.constantFrom<'proposed' | 'l1'>('proposed', 'l1'))
      .map(([n, origin]) => mined(n, origin)),
    fc.constant<TxLifecycleEvent>({ type: 'chain.unmined' }),
    fc.constant<TxLifecycleEvent>({ type: 'chain.forcedRollback' }),
    fc.constantFrom<MinedStanding>('proposed', 'checkpointed', 'proven', 'finalized').map(tip),
    fc
      .constantFrom<ReceiptStatus>('dropped', 'pending', 'proposed', 'checkpointed', 'proven', 'finalized')
      .map(restarted),
  );

  it("for any events: a violation is final, nothing leaves finalized but a violation or a forced rollback, and nothing refused or let go is mined by this node's sequencer", () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 40 }), (events) => {
        const { states } = run(events);
        let previous = '"Unsubmitted"';
        states.forEach((state, i) => {
          const event = events[i]!;
          if (previous === '"Violated"') expect(state).toBe('"Violated"');
          if (previous === '{"Mined":"Finalized"}' && event.type !== 'chain.forcedRollback')
            expect(['{"Mined":"Finalized"}', '"Violated"']).toContain(state);
          const minedByUs = event.type === 'chain.mined' && event.origin === 'proposed';
          if ((previous === '"Rejected"' || previous === '"Dropped"') && minedByUs) expect(state).toBe('"Violated"');
          if (state === '"Violated"' && previous !== '"Violated"')
            expect(run(events.slice(0, i + 1)).violation).toEqual(expect.any(String));
          previous = state;
        });
      }),
      { numRuns: 500 },
    );
  });
});
