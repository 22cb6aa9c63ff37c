import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { L1Error } from '../../core/l1/l1Error.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import type { Seed } from '../../sim/prng.js';
import { createPrng } from '../../sim/prng.js';
import { createScheduler } from '../../sim/scheduler.js';
import { createNodeClock } from '../../sim/simClock.js';
import { createSimL1 } from '../../sim/simL1.js';
import { slotAtTimestamp } from '../../sim/simL1Contract.js';
import { createSimLogger } from '../../sim/simLogger.js';
import { buildSimProposal } from '../../sim/simProposal.js';
import { createSimStorage } from '../../sim/simStorage.js';
import { createTrace } from '../../sim/trace.js';

/**
 * Rule: a run is a function of its seed. A small random scenario (nodes with skewed clocks and random timers that
 * read L1 through faulty links, write storage, and propose checkpoints, some of them wrong; random reorgs) run
 * twice from one seed ends with the same trace hash.
 */

const GENESIS_ARCHIVE = `0x${'22'.repeat(32)}` as Hex;
const SCENARIO_DURATION_MS = 10 * 60 * 1000;

interface ScenarioResult {
  readonly traceHash: Hex;
  readonly traceLength: number;
  readonly checkpoints: number;
}

async function runScenario(seed: Seed, nodeCount = 2): Promise<ScenarioResult> {
  const root = createPrng(seed);
  const scenario = root.fork('scenario');
  const scheduler = createScheduler();
  const trace = createTrace({ now: () => scheduler.now(), keepLast: 0 });
  const l1 = createSimL1({
    scheduler,
    prng: root.fork('l1'),
    genesisArchiveRoot: GENESIS_ARCHIVE,
    trace,
    inclusionDelay: { probability: scenario.float() * 0.5, blocksMax: scenario.int(1, 3) },
  });
  trace.record('sim.start', { seed: BigInt(seed) });
  for (let i = 0; i < nodeCount; i++) startNode(i);
  scheduleReorgs();
  await scheduler.runFor(SCENARIO_DURATION_MS);
  trace.record('sim.end', { head: l1.head().number, checkpoints: l1.checkpointCount() });
  return { traceHash: trace.traceHash(), traceLength: trace.length, checkpoints: l1.checkpointCount() };

  function startNode(index: number): void {
    const name = `node-${index}`;
    const prng = root.fork(name);
    const clock = createNodeClock(scheduler, { owner: name, skewMs: scenario.int(-2_000, 2_000) });
    const logger = createSimLogger({ trace, bindings: { node: name } });
    const storage = createSimStorage();
    const link = l1.connect(name);
    link.setRpcFailureRate(scenario.float() * 0.2);
    link.setLatencyMs(scenario.int(0, 3_000));
    const publisher = link.createPublisher(bytesToHex(prng.bytes(20)));
    const act = async (): Promise<void> => {
      try {
        const head = await link.reader.getBlock('latest');
        const count = await link.reader.getCheckpointCount(head.number);
        const lastArchive = await link.reader.getArchiveAt(count, head.number);
        await storage.put(`seen/${head.number}`, head.hash);
        logger.info('observed', { head: head.number, count, localTime: clock.now() });
        if (prng.bool(0.6)) {
          const timestamp = head.timestamp + 12n;
          const request = buildSimProposal({
            checkpointNumber: count + 1 + (prng.bool(0.1) ? 1 : 0),
            lastArchive,
            archive: bytesToHex(prng.bytes(32)),
            slotNumber: slotAtTimestamp(timestamp, l1.constants)! + (prng.bool(0.1) ? 1 : 0),
            timestamp,
            payload: prng.bytes(prng.int(1, 300)),
          });
          const { txHash } = await publisher.proposeCheckpoint(request);
          logger.info('proposed', { txHash, checkpointNumber: request.checkpointNumber });
        }
      } catch (error) {
        if (!(error instanceof L1Error)) throw error;
        logger.warn('L1 call failed', { code: error.code });
      }
      clock.setTimeout(() => void act(), prng.int(1, 20_000));
    };
    clock.setTimeout(() => void act(), prng.int(0, 5_000));
  }

  function scheduleReorgs(): void {
    const reorgs = root.fork('reorgs');
    const next = (): void => {
      scheduler.schedule(
        reorgs.int(30_000, 180_000),
        () => {
          const depthMax = Math.min(3, Number(l1.head().number - l1.constants.l1StartBlock));
          if (depthMax >= 1) l1.reorg(reorgs.int(1, depthMax));
          next();
        },
        { owner: 'faults', label: 'reorg' },
      );
    };
    next();
  }
}

describe('replay', () => {
  it('two runs of one seed have the same trace hash; different seeds differ', async () => {
    const first = await runScenario(1);
    const second = await runScenario(1);
    const other = await runScenario(2);
    expect(first).toEqual(second);
    expect(other.traceHash).not.toBe(first.traceHash);
    expect(first.traceLength).toBeGreaterThan(100);
    expect(first.checkpoints).toBeGreaterThan(0);
  });

  it('a run is unaffected by another simulation interleaving with it in the same process', async () => {
    const alone = await runScenario(3);
    const [together] = await Promise.all([runScenario(3), runScenario(4, 3)]);
    expect(together).toEqual(alone);
  });

  it('property: for random seeds, two runs give identical trace hashes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        fc.integer({ min: 1, max: 3 }),
        async (seed, nodes) => {
          const a = await runScenario(seed, nodes);
          const b = await runScenario(seed, nodes);
          expect(b.traceHash).toBe(a.traceHash);
          expect(b.traceLength).toBe(a.traceLength);
        },
      ),
      { numRuns: 25 },
    );
  });
});
