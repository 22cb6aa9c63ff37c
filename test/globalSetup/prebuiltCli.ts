/**
 * Vitest global setup: the node's TypeScript (spec, core, adapters, contracts) transpiled once into JavaScript under
 * `.test-build/<pid>/`, so that the `svc` processes the suites start (test/helpers/svcCommand.ts) load plain modules.
 * Through tsx each such process spent 5 to 6 s of CPU loading the node, against about 2 s prebuilt; the suites start
 * dozens of them, most while another test file competes for the same two cores.
 *
 * esbuild strips the types of each file on its own (no bundling, no type check: `npm test` runs tsc first), with the
 * options sim/tsLoader/hooks.mjs uses for the simulator (`TS_TRANSFORM_OPTIONS`). The directory
 * sits inside the repository so that the modules resolve the repository's node_modules and its own package.json.
 */
import { build } from 'esbuild';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
// @ts-expect-error: a plain ES module with no types (it runs before any TypeScript can)
import { TS_TRANSFORM_OPTIONS } from '../../sim/tsLoader/hooks.mjs';
import { PREBUILT_CLI_ENV, PREBUILT_ROOT_DIRECTORY, REPOSITORY_ROOT } from '../helpers/svcCommand.js';
/** The source trees a node process loads; sim/, bench/ and test/ are not part of it. */
const NODE_SOURCE_DIRECTORIES = ['spec', 'core', 'adapters', 'contracts'];

async function nodeSources(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

export default async function prebuildCli(): Promise<(() => Promise<void>) | undefined> {
  // Each project of the workspace runs the global setup; the first build serves them all.
  if (process.env[PREBUILT_CLI_ENV] !== undefined) return undefined;
  const outdir = path.join(REPOSITORY_ROOT, PREBUILT_ROOT_DIRECTORY, String(process.pid));
  const sources = (
    await Promise.all(NODE_SOURCE_DIRECTORIES.map((d) => nodeSources(path.join(REPOSITORY_ROOT, d))))
  ).flat();
  await build({
    entryPoints: sources,
    outdir,
    outbase: REPOSITORY_ROOT,
    platform: 'node',
    logLevel: 'error',
    ...TS_TRANSFORM_OPTIONS,
  });
  process.env[PREBUILT_CLI_ENV] = path.join(outdir, 'adapters', 'cli', 'main.js');
  return async () => {
    delete process.env[PREBUILT_CLI_ENV];
    await rm(outdir, { recursive: true, force: true });
  };
}
