/** The svc process: configuration errors are one line on stderr and exit code 2; help lists the whole schema. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { configOptions, defaultText } from '../../spec/config/schema.js';
import { svcNodeArgs } from '../helpers/svcCommand.js';

const exec = promisify(execFile);

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI with only the environment given (plus PATH), so the caller's variables do not leak in. */
const svc = (args: string[], env: Record<string, string> = {}): Promise<Outcome> =>
  exec(process.execPath, svcNodeArgs(...args), {
    env: { PATH: process.env.PATH ?? '', ...env },
  }).then(
    (r) => ({ code: 0, ...r }),
    (e: Outcome) => e,
  );

describe('svc (process)', () => {
  it('refuses a 3.x variable before doing anything, naming its 4.x replacement', async () => {
    const outcome = await svc(
      ['start', '--node', '--l1-rpc-urls', 'http://127.0.0.1:9', '--rollup-address', `0x${'01'.repeat(20)}`],
      { SEQ_TX_POLLING_INTERVAL_MS: '1000' },
    );
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(
      'svc: the environment variable SEQ_TX_POLLING_INTERVAL_MS was renamed in 4.x: use SEQ_POLLING_INTERVAL_MS\n',
    );
  });

  it('refuses a removed 3.x flag', async () => {
    const outcome = await svc(['start', '--node', '--maxBlockSizeInBytes', '131072']);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/^svc: the flag --maxBlockSizeInBytes was removed in 4\.x: /);
  });

  it('names a bad value with the variable it came from', async () => {
    const outcome = await svc(['start', '--node'], { P2P_RPC_PRICE_BUMP_PERCENTAGE: 'ten' });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe('svc: P2P_RPC_PRICE_BUMP_PERCENTAGE="ten": expected an integer from 0 to 1000\n');
  });

  it('svc --help lists every option with its variable and default', async () => {
    const outcome = await svc(['--help']);
    expect(outcome.code).toBe(0);
    const help = outcome.stdout.replace(/\s+/g, ' ');
    for (const option of configOptions)
      expect(help, option.key).toContain(`(env: ${option.env}, default: ${defaultText(option)})`);
  });
});
