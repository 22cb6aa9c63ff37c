import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { Hex } from '../../spec/chain.js';
import { ManualClock, settle } from '../../test/helpers/manualClock.js';
import { TransitionCoverage } from '../../test/helpers/transitionCoverage.js';
import type { L1TxStatus } from '../ports.js';
import type { PlanOutcome, SlotPlan } from './sequencerDuties.js';
import { createSequencerMachine, type SequencerMachineDeps, type SlotOutcome } from './sequencerMachine.js';

const GENESIS_MS = 1_700_000_000_000;
const SLOT_MS = 36_000;
const BLOCK_MS = 6_000;
const POLL_MS = 500;
const TX: Hex = '0xabcd';
const PUBLISHER: Hex = `0x${'a1'.repeat(20)}`;
const coverage = new TransitionCoverage();

interface Script {
  plan?: (slot: number) => PlanOutcome | Error;
  build?: () => unknown;
  publish?: () => { txHash: Hex; checkpointNumber: number } | Error;
  inclusion?: (call: number) => L1TxStatus | Error;
}

function harness(script: Script, startOffsetMs = SLOT_MS) {
  const clock = new ManualClock(GENESIS_MS + startOffsetMs);
  const outcomes: SlotOutcome[] = [];
  const built: number[] = [];
  let inclusionCalls = 0;
  const inclusionAskedOf: Hex[] = [];
  const slotOf = () => Math.floor((clock.now() - GENESIS_MS) / SLOT_MS);
  const planned = (slot: number): PlanOutcome => ({
    kind: 'planned',
    plan: { slot, slotStartMs: GENESIS_MS + slot * SLOT_MS, blockCount: 2, nextBlockIndex: 0, publisher: PUBLISHER },
  });
  const orThrow = <T>(v: T | Error): T => {
    if (v instanceof Error) throw v;
    return v;
  };
  const deps: SequencerMachineDeps = {
    now: () => clock.now(),
    slotDurationMs: SLOT_MS,
    blockDurationMs: BLOCK_MS,
    pollIntervalMs: POLL_MS,
    planSlot: async () => orThrow((script.plan ?? planned)(slotOf())),
    buildBlock: async (plan: SlotPlan) => {
      const r = script.build?.();
      if (r instanceof Error) throw r;
      built.push(plan.nextBlockIndex);
    },
    publishCheckpoint: async () => orThrow(script.publish?.() ?? { txHash: TX, checkpointNumber: 1 }),
    checkInclusion: async (plan) => {
      inclusionAskedOf.push(plan.publisher);
      return orThrow(
        script.inclusion?.(inclusionCalls++) ?? {
          status: 'included',
          success: true,
          blockNumber: 5n,
          blockHash: '0x05',
        },
      );
    },
    slotStartMs: (slot) => GENESIS_MS + slot * SLOT_MS,
    onSlotOutcome: (o) => outcomes.push(o),
    clock,
  };
  const actor = createActor(createSequencerMachine(deps), { clock, inspect: coverage.inspect }).start();
  return { actor, clock, outcomes, built, deps, inclusionAskedOf };
}

describe('sequencer machine', () => {
  it('builds the planned blocks on schedule, publishes, and waits for inclusion', async () => {
    const h = harness({
      inclusion: (call) =>
        call === 0 ? { status: 'pending' } : { status: 'included', success: true, blockNumber: 5n, blockHash: '0x05' },
    });
    await h.clock.advance(POLL_MS);
    expect(h.built).toEqual([0]);
    expect(h.actor.getSnapshot().value).toBe('WaitingForNextBlock');
    await h.clock.advance(BLOCK_MS);
    expect(h.built).toEqual([0, 1]);
    // Published at slot start + 6 s; the first inclusion check, half a second later, found the tx pending.
    expect(h.actor.getSnapshot().value).toBe('AwaitingL1Inclusion');
    expect(h.outcomes).toEqual([]);
    await h.clock.advance(POLL_MS);
    expect(h.outcomes).toEqual([{ kind: 'included', slot: 1, txHash: TX, success: true }]);
    // Both inclusion checks went to the publisher that sent the checkpoint.
    expect(h.inclusionAskedOf).toEqual([PUBLISHER, PUBLISHER]);
    expect(h.actor.getSnapshot().value).toBe('Idle');
    expect(h.actor.getSnapshot().context).toMatchObject({
      blocksBuilt: 2,
      checkpointsPublished: 1,
      lastPlannedSlot: 1,
    });
    // The same slot is never planned twice: the next plan is at the next slot's start.
    // Now 7 s into slot 1; slot 2 starts 29 s later.
    await h.clock.advance(SLOT_MS - 7_000 - 1);
    expect(h.built).toHaveLength(2);
    await h.clock.advance(1);
    expect(h.built).toEqual([0, 1, 0]);
  });

  it('goes back to Idle when planning skips or fails, and retries while the slot is open', async () => {
    let calls = 0;
    const h = harness({
      plan: (slot) => (calls++ === 0 ? { kind: 'skipped', slot, reason: 'l1AheadOfNode' } : new Error('L1 timeout')),
    });
    await h.clock.advance(POLL_MS);
    expect(h.outcomes[0]).toEqual({ kind: 'skipped', slot: 1, reason: 'l1AheadOfNode' });
    await h.clock.advance(POLL_MS);
    expect(h.outcomes[1]).toMatchObject({ kind: 'failed', stage: 'plan', error: 'L1 timeout' });
    expect(h.actor.getSnapshot().value).toBe('Idle');
  });

  it('reports a slot whose proposer has no publisher key once, and plans again only in the next slot', async () => {
    const planned: number[] = [];
    const h = harness({
      plan: (slot) => {
        planned.push(slot);
        return { kind: 'skipped', slot, reason: 'noPublisher' };
      },
    });
    await h.clock.advance(POLL_MS);
    await h.clock.advance(10 * POLL_MS);
    expect(h.outcomes).toEqual([{ kind: 'skipped', slot: 1, reason: 'noPublisher' }]);
    expect(planned).toEqual([1]);
    expect(h.actor.getSnapshot().context.lastPlannedSlot).toBe(1);
    await h.clock.advance(SLOT_MS);
    expect(planned).toEqual([1, 2]);
  });

  it('gives up on the slot when too late, when building or publishing fails', async () => {
    const late = harness({ plan: (slot) => ({ kind: 'skipped', slot, reason: 'tooLateInSlot' }) });
    await late.clock.advance(POLL_MS);
    expect(late.actor.getSnapshot().context.lastPlannedSlot).toBe(1);
    expect(late.outcomes).toEqual([]);
    const build = harness({ build: () => new Error('disk full') });
    await build.clock.advance(POLL_MS);
    expect(build.outcomes[0]).toMatchObject({ kind: 'failed', stage: 'build' });
    const publish = harness({ publish: () => new Error('L1 rejected') });
    await publish.clock.advance(POLL_MS + BLOCK_MS);
    expect(publish.outcomes[0]).toMatchObject({ kind: 'failed', stage: 'publish', error: 'L1 rejected' });
    expect(publish.actor.getSnapshot().value).toBe('Idle');
  });

  it('stops waiting for inclusion when the slot ends, whether L1 answers or fails', async () => {
    const pending = harness({ inclusion: () => ({ status: 'pending' }) });
    await pending.clock.advance(SLOT_MS);
    expect(pending.outcomes).toEqual([{ kind: 'notIncludedInSlot', slot: 1, txHash: TX }]);
    const failing = harness({ inclusion: () => new Error('RPC down') });
    await failing.clock.advance(POLL_MS + BLOCK_MS + POLL_MS);
    expect(failing.actor.getSnapshot().value).toBe('AwaitingL1Inclusion');
    await failing.clock.advance(SLOT_MS);
    expect(failing.outcomes[0]).toMatchObject({ kind: 'failed', stage: 'inclusion', error: 'RPC down' });
  });

  it('pauses from any state, keeps paused on repeated pause, resumes to Idle, and stops for good', async () => {
    const h = harness({});
    await h.clock.advance(POLL_MS);
    h.actor.send({ type: 'admin.pauseSequencer' });
    h.actor.send({ type: 'admin.pauseSequencer' });
    expect(h.actor.getSnapshot().value).toBe('Paused');
    const builtWhilePaused = h.built.length;
    await h.clock.advance(3 * SLOT_MS);
    expect(h.built).toHaveLength(builtWhilePaused);
    h.actor.send({ type: 'admin.resumeSequencer' });
    expect(h.actor.getSnapshot().value).toBe('Idle');
    await h.clock.advance(POLL_MS);
    expect(h.built.length).toBeGreaterThan(builtWhilePaused);
    h.actor.send({ type: 'sequencer.stop' });
    expect(h.actor.getSnapshot().status).toBe('done');
    await settle();
  });

  afterAll(() => {
    const { deps } = harness({});
    expect(coverage.missing(createSequencerMachine(deps))).toEqual([]);
  });
});
