/**
 * Runs the steady case on the checkout at the directory given (this one when none is) and prints its figures as one
 * JSON line: how bench/sim/baseline.ts times two commits' simulators in processes of their own.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SimEntryPoints } from './steady.js';
import { timeSteadyPass } from './steady.js';

async function main(): Promise<void> {
  const tree = path.resolve(process.argv[2] ?? '.');
  const sim = (await import(pathToFileURL(path.join(tree, 'sim', 'runSimulation.ts')).href)) as SimEntryPoints;
  const { steady } = await timeSteadyPass(sim);
  process.stdout.write(`${JSON.stringify({ steadyWallSeconds: steady.wallSeconds })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`steady bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
