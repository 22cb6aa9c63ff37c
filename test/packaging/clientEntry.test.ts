/**
 * The package's `./client` entry: `npm run build` emits what package.json's `exports` names, and the built module
 * exports the typed client. Built into a temporary directory so the working tree's dist/ is left alone.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const BUILD_TIMEOUT_MS = 120_000;

interface PackageJson {
  readonly exports: Record<string, { readonly types: string; readonly default: string } | string>;
}

let outDir: string;
beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'svc-build-'));
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  await run(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json'), '--outDir', outDir], {
    cwd: root,
    timeout: BUILD_TIMEOUT_MS,
  });
}, BUILD_TIMEOUT_MS);
afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

test('every file the ./client export names is built, and the module exports createSvcClient', async () => {
  const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as PackageJson;
  const entry = pkg.exports['./client'];
  if (entry === undefined || typeof entry === 'string')
    throw new Error('package.json exports lacks a ./client entry with types');
  for (const file of [entry.types, entry.default]) {
    expect(file.startsWith('./dist/')).toBe(true);
    const built = path.join(outDir, file.slice('./dist/'.length));
    expect((await stat(built)).isFile(), `${file} is built`).toBe(true);
  }
  const client = (await import(path.join(outDir, entry.default.slice('./dist/'.length)))) as Record<string, unknown>;
  expect(typeof client['createSvcClient']).toBe('function');
  expect(client['RpcErrorCode']).toMatchObject({ INVALID_PARAMS: -32602 });
});
