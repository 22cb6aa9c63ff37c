/**
 * `svc start --node` as a child process against anvil: SIGTERM stops it cleanly (exit 0) and the next start on the
 * same data directory opens it; a second process on a data directory in use says so in one line and exits 1; a
 * second signal during the stop exits at once with the signal's code.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODE_BY_SIGNAL } from '../../adapters/cli/shutdown.js';
import { startAnvil } from '../../adapters/l1/anvil.js';
import type { Hex } from '../../spec/chain.js';
import { deployTestRollup } from '../helpers/testRollup.js';
import { svcNodeArgs } from '../helpers/svcCommand.js';

/** Starting a node process (test/helpers/svcCommand.ts): module loading dominates. */
const START_TIMEOUT_MS = 60_000;

interface CliNode {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly stderr: () => string;
  /** Resolves with the exit code (a signal that killed it counts as null). */
  readonly exited: Promise<number | null>;
  /** Resolves once the node printed its public JSON-RPC URL. */
  readonly started: Promise<string>;
}

function startCli(args: readonly string[]): CliNode {
  const child = spawn(process.execPath, svcNodeArgs(...args), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'info' },
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const started = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = /public JSON-RPC: (\S+)/.exec(stdout)?.[1];
      if (url !== undefined) resolve(url);
    });
    child.once('exit', () => reject(new Error(`exited before starting: ${stderr}`)));
  });
  started.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => stdout, stderr: () => stderr, exited, started };
}

describe('svc start --node as a process', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let root = '';
  let rollupAddress: Hex;
  const children: ChildProcess[] = [];
  const nodeArgs = (dataDirectory: string) => [
    'start',
    '--node',
    '--l1-rpc-urls',
    anvil.url,
    '--l1-consensus-host-urls',
    anvil.url,
    '--rollup-address',
    rollupAddress,
    '--data-directory',
    dataDirectory,
    '--port',
    '0',
    '--admin-port',
    '0',
    '--disable-admin-api-key',
  ];
  const start = (dataDirectory: string) => {
    const node = startCli(nodeArgs(dataDirectory));
    children.push(node.child);
    return node;
  };

  beforeAll(async () => {
    anvil = await startAnvil({ port: 0 });
    root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-shutdown-'));
    ({ rollupAddress } = await deployTestRollup(anvil.url));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await anvil?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it(
    'SIGTERM exits 0, a second node on the same data directory is refused in one line, a restart opens it',
    async () => {
      const dataDirectory = path.join(root, 'node');
      const first = start(dataDirectory);
      const url = await first.started;
      expect((await fetch(`${url}/status`)).status).toBe(200);

      const second = start(dataDirectory);
      expect(await second.exited).toBe(1);
      expect(second.stderr()).toContain(`svc: data directory ${dataDirectory} is in use by another node`);
      expect(second.stderr()).not.toMatch(/^\s+at /m);

      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect(first.output()).toContain('"msg":"stopped"');

      const again = start(dataDirectory);
      await again.started;
      again.child.kill('SIGINT');
      expect(await again.exited).toBe(0);
    },
    3 * START_TIMEOUT_MS,
  );

  it(
    'a second signal while stopping exits at once with the signal code',
    async () => {
      const node = start(path.join(root, 'twice'));
      await node.started;
      node.child.kill('SIGTERM');
      node.child.kill('SIGINT');
      const code = await node.exited;
      expect([EXIT_CODE_BY_SIGNAL.SIGINT, EXIT_CODE_BY_SIGNAL.SIGTERM]).toContain(code);
      expect(node.stderr()).toMatch(/svc: SIG(INT|TERM) again: exiting without waiting/);
    },
    START_TIMEOUT_MS,
  );
});
