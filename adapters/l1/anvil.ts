/**
 * Runs a local L1 (anvil, from the `@foundry-rs/anvil` npm platform package) as a child process, for the local
 * network and for tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { CodedError, type CodedErrorOptions, type NoDetails } from '../../spec/errors.js';

export interface StartAnvilOptions {
  /** TCP port; 0 or absent picks a free one. */
  readonly port?: number;
  readonly host?: '127.0.0.1';
  /** Interval mining every this many seconds; absent means automine (a block per transaction). */
  readonly blockTimeSeconds?: number;
  readonly chainId?: number;
  /** Timestamp (Unix seconds) of the genesis block. */
  readonly timestamp?: bigint;
  /** Sets anvil's `safe` (latest - n) and `finalized` (latest - 2n) depths. */
  readonly slotsInAnEpoch?: number;
  /** How long to wait for the JSON-RPC endpoint to answer. */
  readonly startTimeoutMs?: number;
}

export interface AnvilInstance {
  readonly url: string;
  readonly port: number;
  /** Stops the process (SIGTERM, then SIGKILL if it lingers); resolves once it exited. Idempotent. */
  stop(): Promise<void>;
}

export type AnvilStartErrorCode = 'ANVIL_START_FAILED' | 'ANVIL_PORT_IN_USE';

export class AnvilStartError extends CodedError<AnvilStartErrorCode, NoDetails> {
  constructor(message: string, options?: CodedErrorOptions, code: AnvilStartErrorCode = 'ANVIL_START_FAILED') {
    super(code, message, {}, options);
    this.name = 'AnvilStartError';
  }
}

/** The requested port is already taken (by another anvil or anything else). Its name stays 'AnvilStartError'. */
export class AnvilPortInUseError extends AnvilStartError {
  constructor(message: string, options?: CodedErrorOptions) {
    super(message, options, 'ANVIL_PORT_IN_USE');
  }
}

const START_TIMEOUT_MS_DEFAULT = 10_000;
const STOP_GRACE_MS = 3_000;
const READY_POLL_INTERVAL_MS = 25;
/** Output kept for error messages; everything else anvil prints is read and dropped so its pipes never fill. */
const OUTPUT_TAIL_CHARS_MAX = 4_096;
/** Attempts when a port we picked as free is taken before anvil binds it. */
const FREE_PORT_ATTEMPTS_MAX = 3;

const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

/** Path of the anvil binary shipped by the platform package of `@foundry-rs/anvil`. */
export function anvilBinaryPath(): string {
  const key = `${process.platform}-${process.arch}`;
  const packageName = PLATFORM_PACKAGES[key];
  if (packageName === undefined) {
    throw new AnvilStartError(
      `anvil has no npm binary for ${key}; supported: ${Object.keys(PLATFORM_PACKAGES).join(', ')}`,
    );
  }
  let packageJsonPath: string;
  try {
    packageJsonPath = createRequire(import.meta.url).resolve(`${packageName}/package.json`);
  } catch (cause) {
    throw new AnvilStartError(`${packageName} is not installed (it is an optional dependency of @foundry-rs/anvil)`, {
      cause,
    });
  }
  const binary = join(dirname(packageJsonPath), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
  if (!existsSync(binary)) throw new AnvilStartError(`${packageName} is installed but has no binary at ${binary}`);
  return binary;
}

/** A port nobody listens on right now (the OS picks it; it can be taken again before we use it). */
export async function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not read the port of a listening socket'));
      });
    });
  });
}

export async function startAnvil(options: StartAnvilOptions = {}): Promise<AnvilInstance> {
  const binary = anvilBinaryPath();
  const requestedPort = options.port ?? 0;
  if (requestedPort !== 0) return launch(binary, requestedPort, options);
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort(options.host ?? '127.0.0.1');
    try {
      return await launch(binary, port, options);
    } catch (error) {
      const raced = error instanceof AnvilPortInUseError;
      if (!raced || attempt >= FREE_PORT_ATTEMPTS_MAX) throw error;
    }
  }
}

function anvilArgs(port: number, options: StartAnvilOptions): string[] {
  const args = ['--port', String(port), '--host', options.host ?? '127.0.0.1'];
  if (options.blockTimeSeconds !== undefined) args.push('--block-time', String(options.blockTimeSeconds));
  if (options.chainId !== undefined) args.push('--chain-id', String(options.chainId));
  if (options.timestamp !== undefined) args.push('--timestamp', options.timestamp.toString());
  if (options.slotsInAnEpoch !== undefined) args.push('--slots-in-an-epoch', String(options.slotsInAnEpoch));
  return args;
}

/** Keeps reading a stream (so the child never blocks on a full pipe) and remembers only its tail. */
function drain(stream: NodeJS.ReadableStream | null): { tail(): string } {
  let tail = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-OUTPUT_TAIL_CHARS_MAX);
  });
  return { tail: () => tail };
}

/** Children still running, killed if this process exits without stopping them. One listener for all of them. */
const runningChildren = new Set<ChildProcess>();
let exitHookInstalled = false;

function trackChild(child: ChildProcess): void {
  runningChildren.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const running of runningChildren) running.kill('SIGKILL');
    });
  }
}

/** A spawned anvil: whether it is gone (exited, or never started), and a promise that settles when it is. */
interface ChildState {
  readonly child: ChildProcess;
  readonly gone: Promise<void>;
  isGone(): boolean;
  /** Why it is gone, for error messages. */
  goneReason(): string;
}

function spawnAnvil(binary: string, args: string[]): ChildState {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let reason: string | undefined;
  const gone = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      reason ??= `anvil exited (${code !== null ? `code ${code}` : `signal ${signal}`})`;
      resolve();
    });
    // 'error' without 'exit' means the process never started (binary missing, not executable).
    child.once('error', (error) => {
      reason ??= `anvil could not be spawned: ${error.message}`;
      resolve();
    });
  });
  gone.then(() => runningChildren.delete(child));
  trackChild(child);
  return { child, gone, isGone: () => reason !== undefined, goneReason: () => reason ?? 'running' };
}

async function launch(binary: string, port: number, options: StartAnvilOptions): Promise<AnvilInstance> {
  const host = options.host ?? '127.0.0.1';
  const url = `http://${host}:${port}`;
  const state = spawnAnvil(binary, anvilArgs(port, options));
  const stdout = drain(state.child.stdout);
  const stderr = drain(state.child.stderr);
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= stopChild(state));

  try {
    await waitUntilReady(state, url, options.startTimeoutMs ?? START_TIMEOUT_MS_DEFAULT, () => stdout.tail());
  } catch (error) {
    await stop();
    const output = `${stderr.tail()}\n${stdout.tail()}`.trim();
    if (/address already in use/i.test(output)) {
      throw new AnvilPortInUseError(`anvil could not listen on ${host}:${port}: the port is already in use`, {
        cause: error,
      });
    }
    const detail = output === '' ? '' : `; anvil printed: ${output.slice(-1_000)}`;
    throw new AnvilStartError(`anvil did not start on ${url}: ${(error as Error).message}${detail}`, { cause: error });
  }
  return { url, port, stop };
}

async function stopChild(state: ChildState): Promise<void> {
  if (state.isGone()) return;
  state.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const lingered = await Promise.race([
    state.gone.then(() => false),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), STOP_GRACE_MS))),
  ]);
  clearTimeout(timer);
  if (lingered) {
    state.child.kill('SIGKILL');
    await state.gone;
  }
}

/**
 * Ready means: anvil printed that it listens on our address (so a different server on a busy port cannot pass for
 * it) and its JSON-RPC endpoint answers. Fails as soon as the process is gone, or after `timeoutMs`.
 */
async function waitUntilReady(state: ChildState, url: string, timeoutMs: number, stdoutTail: () => string) {
  const deadline = Date.now() + timeoutMs;
  const listeningLine = `Listening on ${new URL(url).host}`;
  let lastError: unknown;
  let listening = false;
  while (Date.now() < deadline) {
    if (state.isGone()) throw new Error(`${state.goneReason()} before it was ready`);
    listening ||= stdoutTail().includes(listeningLine);
    if (listening) {
      try {
        await answersJsonRpc(url);
        return;
      } catch (error) {
        lastError = error;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_INTERVAL_MS));
  }
  const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
  throw new Error(`no JSON-RPC answer within ${timeoutMs} ms${why}`);
}

async function answersJsonRpc(url: string): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
    signal: AbortSignal.timeout(1_000),
  });
  const body = (await response.json()) as { result?: unknown };
  if (typeof body.result !== 'string') throw new Error(`unexpected eth_chainId answer ${JSON.stringify(body)}`);
}
