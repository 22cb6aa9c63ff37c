import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';

describe('crash and restart', () => {
  it('a node killed at any moment restarts from what it committed and converges with the others', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 2n ** 32n }),
        fc.array(
          fc.record({
            atSeconds: fc.integer({ min: 1, max: 280 }),
            node: fc.constantFrom('sequencer-0', 'follower-1'),
          }),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        async (seed, crashes) => {
          const options = {
            ...drawOptions(seed, 420),
            followerCount: 1,
            inclusionDelay: { probability: 0, blocksMax: 0 },
          };
          const result = await runSimulation(options, {
            scenario: (world) => {
              for (const crash of crashes)
                world.at(crash.atSeconds * 1000 + 137, () => world.crashAndRestart(crash.node));
            },
          });
          expect(result.failures).toEqual([]);
          const [sequencer, follower] = result.nodes;
          expect(sequencer!.checkpoint).toBeGreaterThan(0);
          expect(Math.abs(sequencer!.checkpoint - follower!.checkpoint)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 12 },
    );
  });
});
