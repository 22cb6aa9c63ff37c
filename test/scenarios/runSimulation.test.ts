import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';

const exec = promisify(execFile);

describe('simulation runs', () => {
  it.each([1n, 2n, 3n, 42n])('seed %s: nodes agree, tips stay ordered, checkpoints reach L1', async (seed) => {
    const result = await runSimulation(drawOptions(seed, 300));
    expect(result.failures).toEqual([]);
    expect(result.l1Checkpoints).toBeGreaterThan(0);
    const sequencer = result.nodes[0]!;
    for (const node of result.nodes) {
      expect(node.checkpoint).toBeGreaterThan(0);
      // Every node is within one checkpoint of the sequencer once the run stops.
      expect(sequencer.checkpoint - node.checkpoint).toBeLessThanOrEqual(1);
    }
  });

  it('the same seed gives the same trace in this process; another seed another trace', async () => {
    const a = await runSimulation(drawOptions(5n, 200));
    const b = await runSimulation(drawOptions(5n, 200));
    const c = await runSimulation(drawOptions(6n, 200));
    expect(a.traceHash).toBe(b.traceHash);
    expect(c.traceHash).not.toBe(a.traceHash);
  });

  it('the same seed gives the same trace hash in two separate processes', async () => {
    const run = async () => {
      const { stdout } = await exec(process.execPath, [
        '--import',
        'tsx',
        'sim/main.ts',
        '--seed',
        '42',
        '--simulated-seconds',
        '200',
      ]);
      const hash = /trace hash: (0x[0-9a-f]{64})/.exec(stdout)?.[1];
      expect(hash).toBeDefined();
      return hash;
    };
    const [first, second] = await Promise.all([run(), run()]);
    expect(first).toBe(second);
  });
});
