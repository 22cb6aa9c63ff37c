import { describe, expect, it } from 'vitest';
import { satisfiesReplacementRule } from '../../core/l1/l1TxFees.js';
import type { Hex } from '../../spec/chain.js';
import { drawOptions, runSimulation, type SimHooks, type SimOptions } from '../../sim/runSimulation.js';
import { provingOptions } from '../helpers/provingOptions.js';
import type { SimL1, SimL1TxInfo } from '../../sim/simL1.js';
import { SIM_L1_BASE_FEE_PER_GAS_DEFAULT } from '../../sim/simL1.js';

const POLL_MS = 500;
const OPTIONS: SimOptions = {
  ...drawOptions(3n, 420),
  followerCount: 1,
  slotDurationSeconds: 36,
  blockDurationMs: 4_000,
  publishingAllowanceSeconds: 12,
  inclusionDelay: { probability: 0, blocksMax: 0 },
};

/** The transaction that in the end took `txHash`'s place (itself if nothing replaced it). */
function finalReplacement(l1: SimL1, txHash: Hex): Hex {
  let current = txHash;
  for (let receipt = l1.receipt(current); receipt?.status === 'replaced'; receipt = l1.receipt(current))
    current = receipt.by;
  return current;
}

interface SpikeScenario {
  readonly factor: number;
  readonly spikeMs: number;
  /** Crash and restart the sequencer this long after the spike starts. */
  readonly crashSequencerAfterMs?: number;
  /** The transaction whose first wait in the mempool starts the spike (default: a proposal). */
  readonly stuckCall?: SimL1TxInfo['call'];
  readonly options?: SimOptions;
  readonly onActivity?: SimHooks['onActivity'];
}

/**
 * Runs with a fee spike of `factor` that starts as soon as the first transaction of `stuckCall` waits in L1's
 * mempool (so it is priced before the spike) and lasts `spikeMs`.
 */
async function spikeScenario({
  factor,
  spikeMs,
  crashSequencerAfterMs,
  stuckCall = 'propose',
  options = OPTIONS,
  onActivity,
}: SpikeScenario) {
  const seen: { stuck?: SimL1TxInfo; spikeAtMs?: number; healedAtHead?: bigint; l1?: SimL1; crashed?: boolean } = {};
  const result = await runSimulation(options, {
    scenario: (world) => {
      seen.l1 = world.l1;
      for (let t = POLL_MS; t < options.simulatedSeconds * 1000; t += POLL_MS) {
        world.at(t, () => {
          if (seen.spikeAtMs === undefined) {
            const pending = world.l1.pendingTransactions().find((tx) => tx.call === stuckCall);
            if (pending === undefined) return;
            seen.stuck = pending;
            seen.spikeAtMs = t;
            world.l1.setFeeSpike(factor);
          } else if (
            crashSequencerAfterMs !== undefined &&
            seen.crashed === undefined &&
            t >= seen.spikeAtMs + crashSequencerAfterMs
          ) {
            seen.crashed = true;
            return world.crashAndRestart('sequencer-0');
          } else if (seen.healedAtHead === undefined && t >= seen.spikeAtMs + spikeMs) {
            world.l1.setFeeSpike(1);
            seen.healedAtHead = world.l1.head().number;
          }
        });
      }
    },
    ...(onActivity ? { onActivity } : {}),
  });
  return { result, stuck: seen.stuck!, healedAtHead: seen.healedAtHead!, l1: seen.l1! };
}

describe('an L1 fee spike', () => {
  it('a proposal priced before a 10x spike is stuck; the next slot replaces it at its nonce with bumped fees, which land during the spike', async () => {
    const factor = 10;
    const { result, stuck, healedAtHead, l1 } = await spikeScenario({
      factor,
      spikeMs: 4 * OPTIONS.slotDurationSeconds * 1000,
    });
    expect(stuck).toBeDefined();
    // Priced at 2x the normal base fee plus the tip: below the spiked base fee.
    expect(stuck.fees.maxFeePerGas < SIM_L1_BASE_FEE_PER_GAS_DEFAULT * BigInt(factor)).toBe(true);
    expect(l1.receipt(stuck.txHash)?.status).toBe('replaced');
    const landed = finalReplacement(l1, stuck.txHash);
    const replacement = l1.transaction(landed)!;
    expect(replacement).toMatchObject({ publisher: stuck.publisher, nonce: stuck.nonce, call: 'propose' });
    expect(satisfiesReplacementRule(stuck.fees, replacement.fees)).toBe(true);
    const receipt = l1.receipt(landed);
    expect(receipt).toMatchObject({ status: 'included', success: true });
    expect(receipt?.status === 'included' && receipt.blockNumber <= healedAtHead).toBe(true);
    expect(result.failures).toEqual([]);
    // The chain went on past the replaced checkpoint, and both nodes converge after the spike.
    const [sequencer, follower] = result.nodes;
    expect(result.l1Checkpoints).toBeGreaterThan(3);
    expect(Math.abs(sequencer!.checkpoint - follower!.checkpoint)).toBeLessThanOrEqual(1);
  });

  it('a sequencer restarted while its proposal is stuck reads its nonce from L1 and replaces the tx it no longer remembers', async () => {
    const { result, stuck, l1 } = await spikeScenario({
      factor: 10,
      spikeMs: 4 * OPTIONS.slotDurationSeconds * 1000,
      crashSequencerAfterMs: 2_000,
    });
    expect(l1.receipt(stuck.txHash)?.status).toBe('replaced');
    const landed = finalReplacement(l1, stuck.txHash);
    expect(l1.transaction(landed)).toMatchObject({ publisher: stuck.publisher, nonce: stuck.nonce });
    expect(l1.receipt(landed)).toMatchObject({ status: 'included', success: true });
    expect(result.failures).toEqual([]);
    const [sequencer, follower] = result.nodes;
    expect(result.l1Checkpoints).toBeGreaterThan(3);
    expect(Math.abs(sequencer!.checkpoint - follower!.checkpoint)).toBeLessThanOrEqual(1);
  });

  it('a proposal held for one block by a short spike lands by itself, unreplaced, and the chain goes on', async () => {
    const { result, stuck, l1 } = await spikeScenario({ factor: 10, spikeMs: 12_000 });
    const receipt = l1.receipt(stuck.txHash);
    expect(receipt?.status).toBe('included');
    expect(result.failures).toEqual([]);
    const [sequencer, follower] = result.nodes;
    expect(result.l1Checkpoints).toBeGreaterThan(3);
    expect(Math.abs(sequencer!.checkpoint - follower!.checkpoint)).toBeLessThanOrEqual(1);
  });

  it('replays to the same trace hash, fee changes included', async () => {
    const [a, b] = [
      await spikeScenario({ factor: 6, spikeMs: 60_000 }),
      await spikeScenario({ factor: 6, spikeMs: 60_000 }),
    ];
    const c = await spikeScenario({ factor: 7, spikeMs: 60_000 });
    expect(a.result.traceHash).toBe(b.result.traceHash);
    expect(c.result.traceHash).not.toBe(a.result.traceHash);
  });
});

describe('an L1 fee spike while a proof waits in the mempool', () => {
  const FACTOR = 10;
  /** Longer than the proof window (one 96 s epoch): a proof that waited it out would be too late. */
  const SPIKE_MS = 200_000;

  it('the prover sends the stuck proof again with bumped fees, which lands within the window, and no epoch is pruned', async () => {
    const outcomes: string[] = [];
    const prunes: string[] = [];
    const { result, stuck, healedAtHead, l1 } = await spikeScenario({
      factor: FACTOR,
      spikeMs: SPIKE_MS,
      stuckCall: 'epochProof',
      options: provingOptions(21n, 600),
      onActivity: (node, activity) => {
        if (activity.kind === 'proof') outcomes.push(`${node} ${activity.outcome.kind}`);
        if (activity.kind === 'chain' && activity.event.type === 'chainPruned')
          prunes.push(`${node} ${activity.event.reason}`);
      },
    });
    expect(result.failures).toEqual([]);
    expect(stuck).toBeDefined();
    expect(stuck.fees.maxFeePerGas < SIM_L1_BASE_FEE_PER_GAS_DEFAULT * BigInt(FACTOR)).toBe(true);
    expect(outcomes).toContain('prover-1 resending');
    expect(l1.receipt(stuck.txHash)?.status).toBe('replaced');
    const landed = finalReplacement(l1, stuck.txHash);
    expect(l1.transaction(landed)).toMatchObject({
      publisher: stuck.publisher,
      nonce: stuck.nonce,
      call: 'epochProof',
    });
    const receipt = l1.receipt(landed);
    expect(receipt).toMatchObject({ status: 'included', success: true });
    // Landed during the spike, and the prover reported it as included.
    expect(receipt?.status === 'included' && receipt.blockNumber <= healedAtHead).toBe(true);
    expect(outcomes.filter((o) => o === 'prover-1 included').length).toBeGreaterThanOrEqual(2);
    expect(prunes.filter((p) => p.endsWith('epochNotProven'))).toEqual([]);
  });
});
