/**
 * The operator's build, end to end: `npm run build`, `npm pack`, and the tarball installed into a clean directory with
 * production dependencies only, as the Dockerfile's install stage does. Then, with plain node (no tsx, no TypeScript,
 * no dev dependency anywhere in reach), the installed `svc start --node` follows a local network started from the
 * repository: it gets blocks, answers the package's version, and passes the Dockerfile's health check.
 * One build, one pack, one install: they are the slow part.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { runLocalNetwork, type RunningLocalNetwork } from '../../adapters/node/localNetwork.js';
import { rpc, waitFor } from './rpc.js';

const exec = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
/** Build, pack and install together; the install compiles c-kzg's binding when npm's cache has no build of it. */
const PREPARE_TIMEOUT_MS = 900_000;
const NODE_TIMEOUT_MS = 300_000;
const STOP_TIMEOUT_MS = 30_000;
/** The Dockerfile's install stage runs `npm install` with these flags; the test adds `--prefer-offline`. */
const INSTALL_FLAGS = ['--omit=dev', '--no-audit', '--no-fund'];
const DEV_ONLY_PACKAGES = ['typescript', 'tsx', 'vitest', 'eslint', 'prettier', 'solc', 'fast-check'];

interface PackageJson {
  readonly name: string;
  readonly version: string;
  readonly bin: Record<string, string>;
  readonly exports: Record<string, { readonly types: string; readonly default: string } | string>;
}
interface PackedFile {
  readonly path: string;
}
interface WireTips {
  readonly proposed: { readonly number: number };
  readonly checkpointed: { readonly block: { readonly number: number } };
}

/** The environment of a packaged run: no loader or option inherited from the test runner. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { NODE_OPTIONS: _options, ...rest } = process.env;
  return { ...rest, ...extra };
}

/** The exec form of the Dockerfile's HEALTHCHECK: the command Docker runs in the container. */
async function dockerHealthcheck(): Promise<string[]> {
  const dockerfile = await readFile(path.join(root, 'Dockerfile'), 'utf8');
  const line = dockerfile.split('\n').find((l) => l.startsWith('HEALTHCHECK '));
  const command = line?.slice(line.indexOf(' CMD ') + ' CMD '.length);
  if (command === undefined) throw new Error('the Dockerfile has no HEALTHCHECK ... CMD line');
  return JSON.parse(command) as string[];
}

async function runHealthcheck(port: number): Promise<number> {
  const [program, ...args] = await dockerHealthcheck();
  expect(program).toBe('node');
  return exec(process.execPath, args, { env: cleanEnv({ SVC_PORT: String(port) }), timeout: 10_000 }).then(
    () => 0,
    (error: { code?: number }) => error.code ?? -1,
  );
}

/** Resolves with the first stdout line matching `pattern`; rejects when the process exits first. */
function printedLine(child: ChildProcess, lines: string[], pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      for (const line of lines) {
        const match = pattern.exec(line);
        if (match) return resolve(match);
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`svc exited (${code}) before printing ${pattern}`)));
  });
}

describe('the packed tarball, installed with production dependencies only', () => {
  let work = '';
  let installDir = '';
  let packed: readonly PackedFile[] = [];
  let pkg: PackageJson;
  let svcMain = '';

  beforeAll(async () => {
    pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as PackageJson;
    work = await mkdtemp(path.join(tmpdir(), 'svc-packaged-'));
    await exec('npm', ['run', 'build'], { cwd: root, env: cleanEnv(), timeout: PREPARE_TIMEOUT_MS });
    const pack = await exec('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, env: cleanEnv() });
    const [report] = JSON.parse(pack.stdout) as { filename: string; files: PackedFile[] }[];
    if (report === undefined) throw new Error('npm pack reported nothing');
    packed = report.files;
    installDir = path.join(work, 'install');
    await mkdir(installDir);
    await writeFile(path.join(installDir, 'package.json'), JSON.stringify({ name: 'svc-node-install', private: true }));
    const tarball = path.join(work, report.filename);
    await exec('npm', ['install', ...INSTALL_FLAGS, '--prefer-offline', tarball], {
      cwd: installDir,
      env: cleanEnv(),
      timeout: PREPARE_TIMEOUT_MS,
    });
    const bin = pkg.bin['svc'];
    if (bin === undefined) throw new Error('package.json has no bin.svc');
    svcMain = path.join(installDir, 'node_modules', pkg.name, bin);
  }, PREPARE_TIMEOUT_MS);
  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('holds the compiled code and the contract artifact, and no tests, sources, maps, simulator or benchmarks', () => {
    const paths = packed.map((file) => file.path);
    expect(paths).toContain('package.json');
    expect(paths).toContain(pkg.bin['svc']?.replace(/^\.\//, ''));
    expect(paths).toContain('dist/contracts/artifacts/rollup.js');
    for (const file of paths) {
      expect(file === 'package.json' || file === 'README.md' || file.startsWith('dist/'), file).toBe(true);
      expect(file, 'no source, test or source map').not.toMatch(/(\.test\.|\.map$|(?<!\.d)\.ts$)/);
      expect(file, 'no simulator, benchmark or test helper').not.toMatch(/^dist\/(sim|bench|test)\//);
    }
  });

  it('installs no dev dependency, and the installed svc reports the package version', async () => {
    expect(await readFile(path.join(root, 'Dockerfile'), 'utf8'), 'the install stage runs the same install').toContain(
      `npm install ${INSTALL_FLAGS.join(' ')} `,
    );
    for (const name of DEV_ONLY_PACKAGES) {
      expect(existsSync(path.join(installDir, 'node_modules', name)), `${name} is installed`).toBe(false);
    }
    const version = await exec(process.execPath, [svcMain, '--version'], { env: cleanEnv() });
    expect(version.stdout.trim()).toBe(pkg.version);
  });

  it('serves the ./client export with its types', async () => {
    const entry = pkg.exports['./client'];
    if (entry === undefined || typeof entry === 'string') throw new Error('package.json lacks a typed ./client export');
    expect(existsSync(path.join(installDir, 'node_modules', pkg.name, entry.types))).toBe(true);
    const probe =
      `const client = await import('${pkg.name}/client');` +
      `console.log(typeof client.createSvcClient, client.RpcErrorCode.INVALID_PARAMS);`;
    const result = await exec(process.execPath, ['--input-type=module', '-e', probe], {
      cwd: installDir,
      env: cleanEnv(),
    });
    expect(result.stdout.trim()).toBe('function -32602');
  });

  describe('svc start --node from the install, following a local network', () => {
    let net: RunningLocalNetwork | undefined;
    let child: ChildProcess | undefined;
    const printed: string[] = [];
    afterAll(async () => {
      if (child?.exitCode === null) child.kill('SIGKILL');
      await net?.stop().catch(() => undefined);
    });

    it(
      'gets blocks, answers the package version, passes the health check and stops on SIGTERM',
      async () => {
        try {
          await scenario();
        } catch (error) {
          process.stderr.write(`last lines the packaged node printed:\n${printed.slice(-60).join('\n')}\n`);
          throw error;
        }
      },
      NODE_TIMEOUT_MS,
    );

    async function scenario(): Promise<void> {
      net = await runLocalNetwork({
        port: 0,
        adminPort: 0,
        adminHost: '127.0.0.1',
        adminApiKey: { disabled: true, reset: false },
        dataDirectory: path.join(work, 'local-network'),
        l1Port: 0,
        slotDurationSeconds: 4,
        l1BlockTimeSeconds: 1,
        logger: createPinoLogger({ level: 'silent' }),
        print: () => undefined,
      });
      const started = spawn(
        process.execPath,
        [
          svcMain,
          'start',
          '--node',
          ...['--l1-rpc-urls', net.l1RpcUrl, '--l1-consensus-host-urls', net.l1RpcUrl],
          ...['--rollup-address', net.rollupAddress, '--data-directory', path.join(work, 'node')],
          ...['--port', '0', '--admin-port', '0', '--log-level', 'warn'],
        ],
        { cwd: work, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = started;
      const collect = (chunk: Buffer) => printed.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      started.stdout.on('data', collect);
      started.stderr.on('data', collect);
      const publicUrl = (await printedLine(started, printed, /^public JSON-RPC: (http:\/\/\S+)$/))[1]!;

      await waitFor(
        'blocks on the packaged node',
        async () => (await rpc<WireTips>(publicUrl, 'svc_getChainTips')).checkpointed.block.number >= 2,
        120_000,
      );
      expect(await rpc(publicUrl, 'svc_getBlockData', [2])).toEqual(await rpc(net.publicUrl, 'svc_getBlockData', [2]));
      expect(await rpc(publicUrl, 'svc_getNodeVersion')).toBe(pkg.version);
      expect(await rpc(publicUrl, 'svc_getNodeInfo')).toMatchObject({ nodeVersion: pkg.version });

      const port = Number(new URL(publicUrl).port);
      expect(await runHealthcheck(port)).toBe(0);

      const sent = await exec(process.execPath, [svcMain, 'tx', 'send', '--rpc-url', net.publicUrl, '--wait'], {
        env: cleanEnv(),
        timeout: 120_000,
      });
      expect(sent.stdout).toMatch(/sent tx 0x[0-9a-f]{64}/);

      const exited = new Promise<number | null>((resolve) => started.once('exit', (code) => resolve(code)));
      started.kill('SIGTERM');
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), STOP_TIMEOUT_MS))]);
      expect(code).toBe(0);
      expect(await runHealthcheck(port)).not.toBe(0);
    }
  });
});
