import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import type { Hex } from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { ManualClock, settle } from '../../test/helpers/manualClock.js';
import { TransitionCoverage } from '../../test/helpers/transitionCoverage.js';
import type { L1TxStatus } from '../ports.js';
import { EPOCH_OUT_HASH_NONE } from './epochProof.js';
import type { EpochProofJob, ProofPlan } from './proverDuties.js';
import {
  inclusionVerdict,
  createProverMachine,
  type ProofInclusion,
  type ProofOutcome,
  type ProverMachineDeps,
} from './proverMachine.js';

const START_MS = 1_700_000_000_000;
const POLL_MS = 1_000;
const WINDOW_MS = 10_000;
const TX: Hex = '0xbeef';
const coverage = new TransitionCoverage();

const job = (epoch: number): EpochProofJob => ({
  inputs: {
    epoch,
    fromCheckpoint: 1,
    toCheckpoint: 3,
    previousArchive: zeroHex(32),
    endArchive: zeroHex(32),
    outHash: EPOCH_OUT_HASH_NONE,
  },
  proof: zeroHex(32),
  deadlineMs: START_MS + WINDOW_MS,
});
const included: L1TxStatus = { status: 'included', success: true, blockNumber: 9n, blockHash: '0x09' };

interface Script {
  plan?: (call: number) => ProofPlan | Error;
  submit?: (call: number) => { txHash: Hex } | Error;
  /** The status of the proof's transactions (oldest first); the default answers for the latest only. */
  inclusion?: (call: number, txHashes: readonly Hex[]) => L1TxStatus | ProofInclusion | Error;
  resendAfterMs?: number;
}

function harness(script: Script) {
  const clock = new ManualClock(START_MS);
  const outcomes: ProofOutcome[] = [];
  const submitted: number[] = [];
  let plans = 0;
  let submits = 0;
  let inclusions = 0;
  const checked: (readonly Hex[])[] = [];
  const orThrow = <T>(v: T | Error): T => {
    if (v instanceof Error) throw v;
    return v;
  };
  const deps: ProverMachineDeps = {
    now: () => clock.now(),
    pollIntervalMs: POLL_MS,
    resendAfterMs: script.resendAfterMs ?? 6 * WINDOW_MS,
    planProof: async () => orThrow(script.plan?.(plans++) ?? { kind: 'ready', job: job(0) }),
    submitProof: async (j) => {
      const answer = orThrow(script.submit?.(submits++) ?? { txHash: TX });
      submitted.push(j.inputs.epoch);
      return answer;
    },
    checkInclusion: async (txHashes) => {
      checked.push(txHashes);
      const answer = orThrow(script.inclusion?.(inclusions++, txHashes) ?? included);
      return 'txHash' in answer ? answer : { txHash: txHashes[txHashes.length - 1]!, status: answer };
    },
    onProofOutcome: (o) => outcomes.push(o),
    clock,
  };
  const actor = createActor(createProverMachine(deps), { clock, inspect: coverage.inspect }).start();
  return { actor, clock, outcomes, submitted, checked, deps };
}

describe('prover machine', () => {
  it('plans, submits, watches the proof until included, then plans the next epoch', async () => {
    let plan = 0;
    const h = harness({
      plan: () => ({ kind: 'ready', job: job(plan++) }),
      inclusion: (call) => (call === 0 ? { status: 'pending' } : included),
    });
    expect(h.actor.getSnapshot().value).toBe('Idle');
    await h.clock.advance(POLL_MS);
    expect(h.submitted).toEqual([0]);
    expect(h.actor.getSnapshot().value).toBe('AwaitingL1Inclusion');
    await h.clock.advance(POLL_MS);
    expect(h.actor.getSnapshot().value).toBe('AwaitingL1Inclusion');
    await h.clock.advance(POLL_MS);
    expect(h.outcomes).toEqual([{ kind: 'included', epoch: 0, toCheckpoint: 3, txHash: TX, success: true }]);
    expect(h.actor.getSnapshot().value).toBe('Idle');
    expect(h.actor.getSnapshot().context).toMatchObject({ proofsSubmitted: 1, proofsIncluded: 1, job: undefined });
    await h.clock.advance(POLL_MS);
    expect(h.submitted).toEqual([0, 1]);
  });

  it('waits in Idle while there is nothing to prove, recording why', async () => {
    const h = harness({ plan: () => ({ kind: 'waiting', reason: 'epochNotOver' }) });
    await h.clock.advance(3 * POLL_MS);
    expect(h.submitted).toEqual([]);
    expect(h.outcomes).toEqual([]);
    expect(h.actor.getSnapshot().context.lastWait).toBe('epochNotOver');
    expect(h.actor.getSnapshot().value).toBe('Idle');
  });

  it('reports plan and submit failures and goes back to Idle', async () => {
    const plan = harness({ plan: () => new Error('L1 timeout') });
    await plan.clock.advance(POLL_MS);
    expect(plan.outcomes[0]).toEqual({ kind: 'failed', epoch: undefined, stage: 'plan', error: 'L1 timeout' });
    expect(plan.actor.getSnapshot().value).toBe('Idle');
    const submit = harness({ submit: () => new Error('L1_TX_REJECTED') });
    await submit.clock.advance(POLL_MS);
    expect(submit.outcomes[0]).toEqual({ kind: 'failed', epoch: 0, stage: 'submit', error: 'L1_TX_REJECTED' });
    expect(submit.actor.getSnapshot().value).toBe('Idle');
  });

  it('gives the proof up when L1 loses it, or when the window closes with it pending or unreadable', async () => {
    const lost = harness({ inclusion: () => ({ status: 'unknown' }) });
    await lost.clock.advance(2 * POLL_MS);
    expect(lost.outcomes).toEqual([{ kind: 'notIncluded', epoch: 0, txHash: TX, status: 'unknown' }]);
    const pending = harness({ inclusion: () => ({ status: 'pending' }) });
    await pending.clock.advance(WINDOW_MS - POLL_MS);
    expect(pending.outcomes).toEqual([]);
    await pending.clock.advance(POLL_MS);
    expect(pending.outcomes).toEqual([{ kind: 'notIncluded', epoch: 0, txHash: TX, status: 'pending' }]);
    const failing = harness({ inclusion: () => new Error('RPC down') });
    await failing.clock.advance(3 * POLL_MS);
    expect(failing.actor.getSnapshot().value).toBe('AwaitingL1Inclusion');
    expect(failing.outcomes).toEqual([]);
    await failing.clock.advance(WINDOW_MS);
    expect(failing.outcomes[0]).toMatchObject({ kind: 'failed', stage: 'inclusion', error: 'RPC down' });
  });

  it('sends a proof again after it waited unmined for the resend delay, then watches every transaction sent for it', async () => {
    const RESEND_MS = 3 * POLL_MS;
    const hashes: Hex[] = ['0xa1', '0xa2'];
    const h = harness({
      resendAfterMs: RESEND_MS,
      submit: (call) => ({ txHash: hashes[call]! }),
      // The first send stays pending; once the second is out, the first is the one mined (it won the race).
      inclusion: (_call, txHashes) =>
        txHashes.length === 1 ? { status: 'pending' } : { txHash: '0xa1', status: included },
    });
    await h.clock.advance(POLL_MS);
    expect(h.submitted).toEqual([0]);
    await h.clock.advance(RESEND_MS - POLL_MS);
    expect(h.submitted).toEqual([0]);
    await h.clock.advance(POLL_MS);
    expect(h.outcomes).toEqual([{ kind: 'resending', epoch: 0, txHash: '0xa1', pendingMs: RESEND_MS }]);
    expect(h.submitted).toEqual([0, 0]);
    expect(h.actor.getSnapshot().context).toMatchObject({
      txHash: '0xa2',
      sentTxHashes: ['0xa1', '0xa2'],
      proofsSubmitted: 1,
      proofsResent: 1,
    });
    await h.clock.advance(POLL_MS);
    expect(h.checked.at(-1)).toEqual(['0xa1', '0xa2']);
    expect(h.outcomes[1]).toEqual({ kind: 'included', epoch: 0, toCheckpoint: 3, txHash: '0xa1', success: true });
    expect(h.actor.getSnapshot().context).toMatchObject({ job: undefined, sentTxHashes: [], proofsIncluded: 1 });
  });

  it('a resend the sender refuses leaves the proof sent before pending and watched; the next try waits a delay', async () => {
    const RESEND_MS = 3 * POLL_MS;
    const h = harness({
      resendAfterMs: RESEND_MS,
      submit: (call) => (call === 0 ? { txHash: TX } : new Error('L1_TX_FEES_CAPPED')),
      inclusion: () => ({ status: 'pending' }),
    });
    // Sent at the first poll; pending at each check after; the check a delay after the send resends.
    await h.clock.advance(POLL_MS + RESEND_MS);
    expect(h.outcomes.map((o) => o.kind)).toEqual(['resending', 'failed']);
    expect(h.outcomes[1]).toEqual({ kind: 'failed', epoch: 0, stage: 'resend', error: 'L1_TX_FEES_CAPPED' });
    expect(h.actor.getSnapshot().value).toBe('AwaitingL1Inclusion');
    expect(h.actor.getSnapshot().context).toMatchObject({ txHash: TX, sentTxHashes: [TX], proofsResent: 0 });
    await h.clock.advance(RESEND_MS - POLL_MS);
    expect(h.outcomes).toHaveLength(2);
    await h.clock.advance(POLL_MS);
    expect(h.outcomes.map((o) => o.kind)).toEqual(['resending', 'failed', 'resending', 'failed']);
  });

  it('pauses from any state (repeated pause is a no-op), resumes to Idle, and stops for good', async () => {
    const h = harness({ inclusion: () => ({ status: 'pending' }) });
    await h.clock.advance(POLL_MS);
    expect(h.actor.getSnapshot().value).toBe('AwaitingL1Inclusion');
    h.actor.send({ type: 'prover.pause' });
    h.actor.send({ type: 'prover.pause' });
    expect(h.actor.getSnapshot().value).toBe('Paused');
    expect(h.actor.getSnapshot().context.job).toBeUndefined();
    await h.clock.advance(5 * POLL_MS);
    expect(h.submitted).toEqual([0]);
    h.actor.send({ type: 'prover.resume' });
    expect(h.actor.getSnapshot().value).toBe('Idle');
    await h.clock.advance(POLL_MS);
    expect(h.submitted).toEqual([0, 0]);
    h.actor.send({ type: 'prover.stop' });
    expect(h.actor.getSnapshot().status).toBe('done');
    await settle();
  });

  afterAll(() => {
    const { deps } = harness({});
    expect(coverage.missing(createProverMachine(deps))).toEqual([]);
  });
});

describe('inclusion verdict', () => {
  const statuses = fc.constantFrom<L1TxStatus>(
    { status: 'pending' },
    { status: 'unknown' },
    { status: 'included', success: true, blockNumber: 5n, blockHash: '0x05' },
    { status: 'included', success: false, blockNumber: 5n, blockHash: '0x05' },
  );
  it('is included or lost whatever the time, then the window, then the resend delay, else pending', () => {
    fc.assert(
      fc.property(
        statuses,
        fc.nat(1_000),
        fc.nat(1_000),
        fc.nat(1_000),
        fc.nat(500),
        (status, now, deadline, sent, resend) => {
          const verdict = inclusionVerdict(status, now, { deadlineMs: deadline, sentAtMs: sent }, resend);
          const expected =
            status.status === 'included'
              ? 'included'
              : status.status === 'unknown'
                ? 'lost'
                : now >= deadline
                  ? 'windowClosed'
                  : now - sent >= resend
                    ? 'stuck'
                    : 'pending';
          expect(verdict).toBe(expected);
        },
      ),
    );
  });
});
