import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex, L2Tips } from '../../spec/chain.js';
import { minimumOutbiddingFee } from '../../core/txPool/txPriority.js';
import { FinalizedAgreement } from './finalizedAgreement.js';
import { FinalizedNeverBack } from './finalizedNeverBack.js';
import { livenessBoundMs } from './liveness.js';
import { checkReplacements, minimumReplacementFee } from './replacementBump.js';
import { FailureLog, SIM_FAILURES_PER_KIND_MAX } from './simFailure.js';

const hash = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

function tips(finalized: number, finalizedHash = hash(finalized)): L2Tips {
  const at = (n: number, h = hash(n)) => ({ block: { number: n, hash: h }, checkpoint: { number: n, hash: h } });
  return {
    proposed: { number: 20, hash: hash(20) },
    checkpointed: at(20),
    proven: at(20),
    finalized: at(finalized, finalizedHash),
  };
}

describe('replacement bump checker', () => {
  it('states the same rule as the pool, in its own words', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 1_000 }), (fee, bump) => {
        expect(minimumReplacementFee(fee, bump)).toBe(minimumOutbiddingFee(fee, bump));
      }),
    );
  });

  it('fails a replacement or a full-pool eviction below the bump, and passes one at it', () => {
    const replaced = (replacementPriorityFee: bigint) => ({
      kind: 'accepted' as const,
      txHash: hash(2),
      removed: [
        { txHash: hash(1), reason: 'replaced' as const, byTxHash: hash(2), priorityFee: 100n, replacementPriorityFee },
      ],
    });
    expect(checkReplacements('sequencer-0', replaced(110n), 10)).toEqual([]);
    expect(checkReplacements('sequencer-0', replaced(109n), 10)).toEqual([
      expect.objectContaining({
        kind: 'replacementWithoutBump',
        node: 'sequencer-0',
        detail: expect.stringMatching(/paying 109, below the 110 a 10% bump needs/),
      }),
    ]);
    const evicted = {
      kind: 'accepted' as const,
      txHash: hash(2),
      removed: [
        { txHash: hash(1), reason: 'poolFull' as const, byTxHash: hash(2), priorityFee: 0n, newcomerPriorityFee: 0n },
      ],
    };
    expect(checkReplacements('sequencer-0', evicted, 0)).toHaveLength(1);
    expect(
      checkReplacements('sequencer-0', { kind: 'removed', removed: [{ txHash: hash(1), reason: 'mined' }] }, 10),
    ).toEqual([]);
  });
});

describe('finality checkers', () => {
  it('finalized never moves back on a node, across incarnations, except through a forced rollback', () => {
    const check = new FinalizedNeverBack();
    expect(check.observe('follower-1', tips(5), undefined)).toEqual([]);
    expect(check.observe('follower-1', tips(7), undefined)).toEqual([]);
    expect(check.observe('follower-1', tips(6), undefined)).toEqual([
      expect.objectContaining({ kind: 'finalizedMovedBack', detail: 'finalized block went from 7 back to 6' }),
    ]);
    const forced = { type: 'chainPruned', toBlock: { number: 3, hash: hash(3) }, reason: 'rollback' } as never;
    expect(check.observe('follower-1', tips(3), forced)).toEqual([]);
    expect(check.observe('follower-1', tips(4), undefined)).toEqual([]);
    expect(check.observe('sequencer-0', tips(1), undefined)).toEqual([]);
  });

  it('no two nodes finalize different blocks at one height', () => {
    const check = new FinalizedAgreement();
    expect(check.observe('sequencer-0', tips(5))).toEqual([]);
    expect(check.observe('follower-1', tips(5))).toEqual([]);
    expect(check.observe('follower-1', tips(6, hash(66)))).toEqual([]);
    expect(check.observe('sequencer-0', tips(6))).toEqual([
      expect.objectContaining({ kind: 'finalizedConflict', node: 'sequencer-0' }),
    ]);
  });
});

describe('liveness bound and the failure log', () => {
  it('gives a healed network three slots, the worst inclusion delay and two polls', () => {
    expect(
      livenessBoundMs({ slotDurationSeconds: 24, archiverPollIntervalMs: 500, inclusionDelay: { blocksMax: 1 } }),
    ).toBe(72_000 + 36_000 + 1_000);
  });

  it('keeps the first failures of each kind only', () => {
    const log = new FailureLog();
    for (let i = 0; i < 10; i++) log.add({ kind: 'noProgress', detail: `${i}` });
    log.add({ kind: 'crashed', detail: 'x' });
    expect(log.failures.map((f) => f.kind)).toEqual([
      ...Array<string>(SIM_FAILURES_PER_KIND_MAX).fill('noProgress'),
      'crashed',
    ]);
  });
});
