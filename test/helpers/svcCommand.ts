/**
 * How tests start the `svc` CLI as a child process: the JavaScript the suite's global setup prebuilt
 * (test/globalSetup/prebuiltCli.ts) when there is one, else the TypeScript through tsx (a test file run outside
 * vitest's setup, or the crash bench). Arguments for `process.execPath`, run from the repository root.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The environment variable naming the prebuilt `adapters/cli/main.js`, set by the global setup. */
export const PREBUILT_CLI_ENV = 'SVC_TEST_PREBUILT_CLI';
/** Where the global setup writes, one directory per test run (ignored by git, lint and format). */
export const PREBUILT_ROOT_DIRECTORY = '.test-build';

/** The repository root, which `svc` children run from and source paths are relative to. */
export const REPOSITORY_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The prebuilt tree's root (`.test-build/<pid>`) when the global setup made one, else undefined. */
function prebuiltRoot(): string | undefined {
  const cli = process.env[PREBUILT_CLI_ENV];
  return cli !== undefined && cli !== '' ? path.resolve(cli, '..', '..', '..') : undefined;
}

/** `node` arguments that run `svc` with `args`. */
export function svcNodeArgs(...args: string[]): string[] {
  const root = prebuiltRoot();
  return root !== undefined
    ? [path.join(root, 'adapters', 'cli', 'main.js'), ...args]
    : ['--import', 'tsx', 'adapters/cli/main.ts', ...args];
}

/**
 * The module at `sourcePath` (a `.ts` path from the repository root): its prebuilt JavaScript when the global setup
 * made some, else the source. For modules that start `svc` processes from their own location (`import.meta.url`), as
 * the multi-node local network does: loaded from the prebuilt tree, they start the prebuilt CLI too.
 */
export async function importPrebuiltOrSource(sourcePath: string): Promise<unknown> {
  const root = prebuiltRoot();
  const file =
    root === undefined ? path.join(REPOSITORY_ROOT, sourcePath) : path.join(root, sourcePath.replace(/\.ts$/, '.js'));
  return import(pathToFileURL(file).href);
}
