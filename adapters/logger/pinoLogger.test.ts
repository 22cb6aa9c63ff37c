import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createPinoLogger, isLogLevel, REDACTED, type LogLevel } from './pinoLogger.js';

/** A logger whose lines land in `lines`, parsed. */
function capture(level: LogLevel = 'debug') {
  const lines: Record<string, unknown>[] = [];
  const logger = createPinoLogger({ level, destination: { write: (line: string) => lines.push(JSON.parse(line)) } });
  return { logger, lines };
}

describe('createPinoLogger', () => {
  it('writes one JSON object per line with level label, message, time and fields', () => {
    const { logger, lines } = capture();
    logger.info('block added', { blockNumber: 7, hash: '0xab' });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'info', msg: 'block added', blockNumber: 7, hash: '0xab' });
    expect(new Date(String(lines[0]?.time)).toISOString()).toBe(lines[0]?.time);
  });

  it('logs at each level and drops lines below the configured one', () => {
    const { logger, lines } = capture('warn');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e', { code: 'SYNC_FAILED' });
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      ['warn', 'w'],
      ['error', 'e'],
    ]);
    const silent = capture('silent');
    silent.logger.error('dropped');
    expect(silent.lines).toEqual([]);
  });

  it('adds child bindings to every line of the child, nested children accumulating', () => {
    const { logger, lines } = capture();
    const archiver = logger.child({ module: 'archiver' });
    archiver.child({ checkpointNumber: 3 }).info('checkpoint stored', { blocks: 2 });
    logger.info('from the root');
    expect(lines[0]).toMatchObject({ module: 'archiver', checkpointNumber: 3, blocks: 2, msg: 'checkpoint stored' });
    expect(lines[1]).not.toHaveProperty('module');
  });

  it('writes bigints as exact decimal strings, wherever they are', () => {
    const { logger, lines } = capture();
    const large = 2n ** 80n + 1n;
    logger.child({ l1BlockNumber: 21_000_000n }).info('synced', { fee: large, nested: { values: [1n, -5n] } });
    expect(lines[0]).toMatchObject({
      l1BlockNumber: '21000000',
      fee: '1208925819614629174706177',
      nested: { values: ['1', '-5'] },
    });
  });

  it('redacts credentials by key, at any depth, in fields and in child bindings', () => {
    const { logger, lines } = capture();
    logger.child({ apiKey: 'k1', node: { publisherPrivateKey: '0x01' } }).info('config', {
      privateKey: '0x02',
      l1: { rpcUrl: 'http://localhost:8545', PrivateKey: '0x03', auth: [{ clientSecret: 's1' }] },
      SECRET_TOKEN: { nested: 'whole value hidden' },
      secretary: 'matches too: the rule is any key containing "secret"',
      database: { user: 'signer', dbPassword: 'pw1' },
    });
    const line = JSON.stringify(lines[0]);
    for (const leaked of ['k1', '0x01', '0x02', '0x03', 's1', 'whole value hidden', 'matches too', 'pw1']) {
      expect(line).not.toContain(leaked);
    }
    expect(lines[0]).toMatchObject({
      apiKey: REDACTED,
      node: { publisherPrivateKey: REDACTED },
      privateKey: REDACTED,
      l1: { rpcUrl: 'http://localhost:8545', PrivateKey: REDACTED, auth: [{ clientSecret: REDACTED }] },
      SECRET_TOKEN: REDACTED,
    });
  });

  it('writes errors with type, message, stack, own fields and cause', () => {
    const { logger, lines } = capture();
    const cause = new Error('connection refused');
    const error = Object.assign(new Error('L1 unreachable', { cause }), { code: 'L1_UNREACHABLE', atBlock: 5n });
    logger.error('sync step failed', { error });
    expect(lines[0]?.error).toMatchObject({
      type: 'Error',
      message: 'L1 unreachable',
      code: 'L1_UNREACHABLE',
      atBlock: '5',
      cause: { type: 'Error', message: 'connection refused' },
    });
    expect(String((lines[0]?.error as { stack?: unknown }).stack)).toContain('L1 unreachable');
  });

  it('writes bytes as hex, cutting long ones, and marks cycles', () => {
    const { logger, lines } = capture();
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    logger.info('bytes', { short: new Uint8Array([1, 171]), long: new Uint8Array(100), cyclic });
    expect(lines[0]).toMatchObject({
      short: '0x01ab',
      long: `0x${'00'.repeat(64)}… (100 bytes)`,
      cyclic: { name: 'loop', self: '[Circular]' },
    });
  });

  it('tells the levels it accepts from other strings', () => {
    expect(['debug', 'info', 'warn', 'error', 'silent'].every(isLogLevel)).toBe(true);
    expect(['trace', 'INFO', ''].some(isLogLevel)).toBe(false);
  });

  it('writes JSON lines to stdout by default', async () => {
    const adapterUrl = new URL('./pinoLogger.ts', import.meta.url).href;
    const script = `
      const { createPinoLogger } = await import(${JSON.stringify(adapterUrl)});
      createPinoLogger({ level: 'info' }).info('started', { port: 8080 });`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
      },
    );
    expect(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([expect.objectContaining({ level: 'info', msg: 'started', port: 8080 })]);
  });
  it('changes its level at run time, for children made before the change too', () => {
    const { logger, lines } = capture('info');
    const child = logger.child({ module: 'rpc' });
    child.debug('hidden');
    logger.setLevel('debug');
    expect(logger.level).toBe('debug');
    child.debug('shown', { method: 'svc_getBlockNumber' });
    logger.setLevel('error');
    child.warn('hidden again');
    child.error('still shown');
    expect(lines.map((line) => line.msg)).toEqual(['shown', 'still shown']);
  });

  it('writes readable lines when asked, or on a terminal with auto; JSON otherwise', () => {
    const written: string[] = [];
    const destination = { write: (line: string) => void written.push(line) };
    const pretty = createPinoLogger({ level: 'info', format: 'pretty', destination });
    pretty.child({ module: 'archiver' }).info('checkpoint stored', { blocks: 2, note: 'two words', apiKey: 'k9' });
    expect(written[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}\[archiver\] checkpoint stored blocks=2 note="two words" apiKey=\[Redacted\]\n$/,
    );
    createPinoLogger({ level: 'info', format: 'auto', isTerminal: true, destination }).warn('on a terminal');
    expect(written[1]).toMatch(/ WARN {2}on a terminal\n$/);
    createPinoLogger({ level: 'info', format: 'auto', isTerminal: false, destination }).warn('piped');
    expect(JSON.parse(written[2] ?? '')).toMatchObject({ level: 'warn', msg: 'piped' });
  });
});
