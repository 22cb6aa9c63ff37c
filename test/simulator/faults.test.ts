/**
 * The fault vocabulary: steps as checked data, seeds drawing swarms and schedules, every kind applied to a running
 * network, replay files round-tripping, and a scripted run replaying to the same trace hash.
 */
import { describe, expect, it } from 'vitest';
import {
  describeStep,
  parseStep,
  SIM_STEP_KINDS,
  stepFieldRanges,
  defaultStepLimits,
  type SimSchedule,
  type SimStep,
} from '../../sim/faults.js';
import { parseReplay, replayOf, serializeReplay } from '../../sim/replayFile.js';
import { drawOptions, runSimulation, type SimOptions } from '../../sim/runSimulation.js';
import { safetyEndMs, scheduleNodeNames, scheduleRanges } from '../../sim/schedule.js';
import { drawSwarmOptions } from '../../sim/swarm.js';
import { unexplainedFailures } from './knownDefects.js';

const ranges = stepFieldRanges(defaultStepLimits(['sequencer-0', 'follower-1']));

describe('steps', () => {
  it('are checked against the vocabulary: kind, time, every field in range, no stray fields', () => {
    const step = { atMs: 1_000, kind: 'l1.reorg', depth: 2 };
    expect(parseStep(step, ranges)).toEqual(step);
    expect(() => parseStep({ atMs: 0, kind: 'network.flood' }, ranges)).toThrow(/unknown step kind "network.flood"/);
    expect(() => parseStep({ atMs: 0, kind: 'network.partition' }, ranges)).toThrow(/node must be one of/);
    expect(() => parseStep({ atMs: -1, kind: 'l1.reorg', depth: 99 }, ranges)).toThrow(
      /atMs must be a non-negative integer, got -1; depth must be an integer in \[1, 4\], got 99/,
    );
    expect(() => parseStep({ atMs: 0, kind: 'node.crash', node: 'follower-7' }, ranges)).toThrow(/node must be one of/);
    expect(() => parseStep({ atMs: 0, kind: 'node.crash', node: 'follower-1', extra: 1 }, ranges)).toThrow(
      /unknown field extra/,
    );
    expect(describeStep({ atMs: 5, kind: 'admin.rollback', node: 'follower-1', blocksBack: 2, force: true })).toBe(
      'admin.rollback node=follower-1 blocksBack=2 force=true',
    );
  });
});

describe('swarm', () => {
  it('draws the same options for a seed, switches each class on in some seeds and off in others, and keeps every step valid', () => {
    expect(JSON.stringify(drawSwarmOptions(5n, 300), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v))).toBe(
      JSON.stringify(drawSwarmOptions(5n, 300), (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v)),
    );
    // Every kind, the partition included: it is on in the seeds that run validators and draw it.
    const onIn = new Map<string, number>(SIM_STEP_KINDS.map((kind) => [kind, 0]));
    let proving = 0;
    for (let seed = 1n; seed <= 40n; seed++) {
      const options = drawSwarmOptions(seed, 600);
      const { swarm, schedule } = options;
      for (const kind of swarm!.kinds) onIn.set(kind, onIn.get(kind)! + 1);
      if (options.proverNode === true) proving++;
      expect(schedule!.safetyEndMs).toBe(safetyEndMs(options));
      const valid = scheduleRanges(swarm!, options);
      for (const step of schedule!.steps) {
        expect(parseStep(step, valid)).toEqual(step);
        expect(step.atMs).toBeLessThan(schedule!.safetyEndMs);
        expect(swarm!.kinds).toContain(step.kind);
      }
      if (options.txPoolCapacity !== undefined) expect(swarm!.kinds).toContain('tx.burst');
    }
    for (const [kind, seeds] of onIn) expect({ kind, on: seeds > 0 && seeds < 40 }).toEqual({ kind, on: true });
    expect(proving).toBeGreaterThan(0);
    expect(proving).toBeLessThan(40);
  });

  it('leaves a run shorter than the liveness bound without steps', () => {
    expect(drawSwarmOptions(3n, 60).schedule).toEqual({ safetyEndMs: 0, steps: [] });
  });
});

/** Every kind once, on a small network with a prover, inside a 240 s run with 24 s slots. */
function everyKindOnce(): { options: SimOptions; schedule: SimSchedule } {
  const options: SimOptions = {
    ...drawOptions(9n, 240),
    followerCount: 1,
    slotDurationSeconds: 24,
    publishingAllowanceSeconds: 12,
    blockDurationMs: 4_000,
    archiverPollIntervalMs: 500,
    inclusionDelay: { probability: 0, blocksMax: 0 },
    proverNode: true,
    epochDurationSlots: 2,
    proofSubmissionEpochs: 1,
    l1FinalityLagBlocks: 4,
    txPoolCapacity: 3,
  };
  expect(scheduleNodeNames(options)).toEqual(['sequencer-0', 'follower-1', 'prover-1']);
  const steps: SimStep[] = [
    { atMs: 20_000, kind: 'tx.send', payer: 0, nullifier: 1, priorityFee: 5 },
    { atMs: 20_100, kind: 'tx.replace', target: 0, bump: 'exact' },
    { atMs: 20_200, kind: 'tx.send', payer: 4, nullifier: 2, priorityFee: 5 },
    { atMs: 20_300, kind: 'tx.burst', count: 6, feeSeed: 3 },
    { atMs: 20_400, kind: 'tx.drain', payer: 1, sharePercent: 90 },
    { atMs: 30_000, kind: 'l1.flakyRpc', node: 'follower-1', failurePercent: 50, durationMs: 10_000 },
    { atMs: 31_000, kind: 'l1.staleRpc', node: 'prover-1', lagBlocks: 2, durationMs: 10_000 },
    { atMs: 45_000, kind: 'l1.missingBlobs', durationMs: 8_000 },
    { atMs: 45_500, kind: 'blobs.lost', node: 'follower-1', durationMs: 20_000 },
    { atMs: 46_500, kind: 'blobs.corrupted', durationMs: 20_000 },
    { atMs: 47_000, kind: 'blobs.delayed', delayMs: 6_000, durationMs: 20_000 },
    { atMs: 46_000, kind: 'l1.feeSpike', factor: 6, durationMs: 20_000 },
    { atMs: 50_000, kind: 'l1.finalityStall', durationMs: 20_000 },
    { atMs: 60_000, kind: 'node.pause', node: 'follower-1', durationMs: 15_000 },
    { atMs: 61_000, kind: 'node.clockSkew', node: 'prover-1', skewMs: -1_500, durationMs: 10_000 },
    { atMs: 70_000, kind: 'admin.pauseSync', node: 'prover-1', durationMs: 5_000 },
    // An upload while a pauseSync fault holds the node (it stays paused after), and one from Syncing.
    { atMs: 72_000, kind: 'admin.snapshotUpload', node: 'prover-1' },
    { atMs: 80_000, kind: 'admin.pauseSequencer', durationMs: 30_000 },
    { atMs: 99_000, kind: 'admin.snapshotUpload', node: 'follower-1' },
    { atMs: 90_000, kind: 'node.crash', node: 'follower-1' },
    { atMs: 95_000, kind: 'admin.rollback', node: 'follower-1', blocksBack: 2, force: false },
    { atMs: 96_000, kind: 'admin.overlap', node: 'follower-1', first: 'rollback', second: 'pauseSync', blocksBack: 1 },
    { atMs: 97_000, kind: 'admin.overlap', node: 'sequencer-0', first: 'pauseSync', second: 'rollback', blocksBack: 1 },
    {
      atMs: 98_000,
      kind: 'admin.overlap',
      node: 'sequencer-0',
      first: 'resumeSync',
      second: 'resumeSync',
      blocksBack: 0,
    },
    { atMs: 100_000, kind: 'l1.reorg', depth: 2 },
    // No validators here, so no gossip to cut: the step is skipped (test/scenarios/validators.test.ts partitions one).
    { atMs: 101_000, kind: 'network.partition', node: 'follower-1', durationMs: 5_000 },
    { atMs: 111_000, kind: 'node.upgrade', node: 'sequencer-0', retired: 2 },
    { atMs: 101_500, kind: 'node.upgrade', node: 'prover-1', retired: 4 },
  ];
  return { options, schedule: { safetyEndMs: safetyEndMs(options), steps } };
}

describe('applying a schedule', () => {
  it('applies every kind to a running network, heals the lasting ones, then the network converges', async () => {
    const { options, schedule } = everyKindOnce();
    expect(schedule.safetyEndMs).toBeGreaterThan(100_000);
    let sequencerPaused = false;
    let slotOutcomesWhilePaused = 0;
    const result = await runSimulation(
      { ...options, schedule },
      {
        onActivity: (node, activity) => {
          if (node !== 'sequencer-0') return;
          if (activity.kind === 'admin' && activity.action.endsWith('Sequencer'))
            sequencerPaused = activity.action === 'pauseSequencer';
          if (activity.kind === 'slot' && sequencerPaused) slotOutcomesWhilePaused++;
        },
      },
    );
    expect(unexplainedFailures(result.failures)).toEqual([]);
    const applied = new Set(result.events.map((e) => e.kind));
    for (const kind of SIM_STEP_KINDS) expect(applied).toContain(kind);
    expect(result.events.filter((e) => e.kind === 'admin.snapshotUpload').map((e) => e.detail)).toEqual([
      expect.stringMatching(/^uploaded from SyncPaused \(\d+ entries\), second call refused OPERATION_REFUSED$/),
      expect.stringMatching(/^uploaded from Syncing \(\d+ entries\), second call refused OPERATION_REFUSED$/),
    ]);
    for (const lasting of [
      'l1.flakyRpc',
      'l1.staleRpc',
      'l1.missingBlobs',
      'blobs.lost',
      'blobs.delayed',
      'blobs.corrupted',
      'l1.feeSpike',
      'l1.finalityStall',
      'node.pause',
      'node.clockSkew',
      'admin.pauseSync',
      'admin.pauseSequencer',
    ]) {
      expect(applied).toContain(`${lasting}.end`);
    }
    const detail = (kind: string) => result.events.find((e) => e.kind === kind)!.detail;
    expect(detail('tx.send')).toMatch(/accepted/);
    expect(result.events.filter((e) => e.kind === 'tx.send')[1]!.detail).toMatch(
      /rejected INSUFFICIENT_FEE_PAYER_BALANCE/,
    );
    expect(detail('tx.replace')).toMatch(/accepted/);
    expect(detail('tx.burst')).toMatch(/^\d of 6 accepted$/);
    expect(detail('admin.rollback')).toMatch(/rolled back to block \d+/);
    expect(detail('l1.reorg')).toBe(`2 blocks reorged out, head ${/head (\d+)/.exec(detail('l1.reorg'))![1]}`);
    expect(detail('admin.pauseSequencer')).toBe('sequencer paused for 30000 ms');
    expect(detail('admin.pauseSync')).toBe('sync paused for 5000 ms');
    expect(detail('l1.feeSpike')).toBe('L1 base fees 6x for 20000 ms');
    expect(detail('blobs.lost')).toBe('consensus client without blobs for 20000 ms');
    expect(detail('blobs.delayed')).toBe('blobs served 6000 ms after their block for 20000 ms');
    expect(detail('blobs.corrupted')).toBe('file store serves corrupted blobs for 20000 ms');
    expect(detail('node.pause')).toBe('paused for 15000 ms');
    expect(detail('node.crash')).toBe('crashed and restarted');
    // Two admin calls at once: while the first is in progress the second is refused; with nothing in progress
    // (resuming a node that runs) both simply succeed.
    const overlaps = result.events.filter((e) => e.kind === 'admin.overlap').map((e) => e.detail);
    expect(overlaps).toEqual([
      expect.stringMatching(/^rolled back to block \d+; then at once pauseSync: refused OPERATION_REFUSED$/),
      'pauseSync: done; then at once rollback: refused OPERATION_REFUSED',
      'resumeSync: done; then at once resumeSync: done',
    ]);
    const upgrades = result.events.filter((e) => e.kind === 'node.upgrade').map((e) => e.detail);
    expect(upgrades).toEqual([
      expect.stringMatching(
        /^3\.x configuration refused \(the flag --maxBlockSizeInBytes was removed in 4\.x: .*\); restarted with the 4\.x one$/,
      ),
      '3.x configuration refused (the environment variable SEQ_MAX_TX_PER_BLOCK was renamed in 4.x: use SEQ_MAX_TX_PER_CHECKPOINT (the limit now counts the transactions of a whole checkpoint)); restarted with the 4.x one',
    ]);
    expect(slotOutcomesWhilePaused).toBe(0);
    expect(applied).toContain('sim.healed');
    expect(applied).toContain('sim.converged');
    expect(result.nodes.find((n) => n.name === 'prover-1')!.finalizedBlock).toBeGreaterThan(0);
    const coverage = new Map(result.coverage.map((m) => [m.machine, m]));
    expect([...coverage.keys()].sort()).toEqual([
      'archiver',
      'chainTips',
      'operations',
      'prover',
      'sequencer',
      'txLifecycle',
    ]);
    expect(coverage.get('sequencer')!.hit.some((t) => t.includes('--admin.pauseSequencer'))).toBe(true);
    expect(coverage.get('sequencer')!.events.hit).toContain('admin.pauseSequencer');
    expect(coverage.get('operations')!.events.hit).toEqual(
      expect.arrayContaining(['admin.pauseSync', 'admin.resumeSync', 'admin.rollbackTo']),
    );
    expect(coverage.get('operations')!.hit).toEqual(
      expect.arrayContaining([
        'operations.RollingBack --admin.pauseSync#0--> (none)',
        'operations.Pausing --admin.rollbackTo#0--> (none)',
      ]),
    );
    // The polling loops reported to their machines: a slot planned, a checkpoint included, a proof settled.
    expect(coverage.get('sequencer')!.events.hit).toEqual(
      expect.arrayContaining(['slot.planned', 'inclusion.included']),
    );
    expect(coverage.get('prover')!.events.hit).toEqual(expect.arrayContaining(['plan.ready', 'inclusion.settled']));
  });

  it('a replay file of a run replays to the same trace hash', async () => {
    const { options, schedule } = everyKindOnce();
    const short: SimOptions = {
      ...options,
      simulatedSeconds: 150,
      schedule: { safetyEndMs: 40_000, steps: schedule.steps.filter((s) => s.atMs < 40_000) },
    };
    const text = serializeReplay(replayOf(short, 'round trip'));
    const replay = parseReplay(text);
    expect(serializeReplay(replay)).toBe(text);
    const [a, b] = await Promise.all([runSimulation(short), runSimulation(replay.options)]);
    expect(b.traceHash).toBe(a.traceHash);
    expect(b.events).toEqual(a.events);
    expect(() => parseReplay(text.replace('"follower-1"', '"follower-9"'))).toThrow(/node must be one of/);
    expect(() => parseReplay('{"format":"other"}')).toThrow(/svc-sim-replay\/1/);
  });
});
