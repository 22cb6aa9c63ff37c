/**
 * What an operator sees in the logs: the level changes at run time through svcAdmin_setConfig (debug lines appear
 * and disappear), and a whole local network run, with HA signing on PostgreSQL, a known admin API key and its own
 * prover key, never prints a secret: not in its output, its logs, its admin answers or its errors.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../../adapters/l1/anvil.js';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { LOCAL_PROVER_PRIVATE_KEY, LOCAL_PUBLISHER_PRIVATE_KEY } from '../../adapters/node/localNetwork.js';
import { runNode } from '../../adapters/node/runNode.js';
import { localPostgresUnavailable, startLocalPostgres, type LocalPostgres } from '../helpers/localPostgres.js';
import { quietNodeOptions } from './quietNodeOptions.js';
import { waitFor } from './rpc.js';
import { deployTestRollup } from '../helpers/testRollup.js';
import { svcNodeArgs } from '../helpers/svcCommand.js';

/** A JSON-RPC call whose whole answer text is returned (the secrets test greps it). */
async function call(url: string, method: string, params: unknown[] = [], apiKey?: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(apiKey !== undefined ? { 'x-api-key': apiKey } : {}) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return response.text();
}

describe('the log level, changed through the admin API', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  afterAll(async () => {
    await anvil?.stop();
  });

  it('debug lines appear after svcAdmin_setConfig logLevel debug, and disappear after info', async () => {
    anvil = await startAnvil({ port: 0 });
    const { rollupAddress } = await deployTestRollup(anvil.url);
    const lines: { level: string; msg: string }[] = [];
    const logger = createPinoLogger({
      level: 'info',
      destination: { write: (line) => void lines.push(JSON.parse(line)) },
    });
    const node = await runNode({
      ...quietNodeOptions,
      logger,
      setLogLevel: (level) => logger.setLevel(level),
      l1RpcUrl: anvil.url,
      l1ConsensusHostUrl: anvil.url,
      rollupAddress,
    });
    try {
      const debugLines = () => lines.filter((line) => line.level === 'debug' && line.msg === 'rpc call answered');
      await call(node.publicUrl, 'svc_getBlockNumber');
      expect(debugLines()).toHaveLength(0);

      expect(await call(node.adminUrl, 'svcAdmin_setConfig', [{ logLevel: 'debug' }])).toContain('"result"');
      await call(node.publicUrl, 'svc_getBlockNumber');
      expect(debugLines().length).toBeGreaterThan(0);
      expect(await call(node.adminUrl, 'svcAdmin_getConfig')).toContain('"logLevel":"debug"');

      await call(node.adminUrl, 'svcAdmin_setConfig', [{ logLevel: 'info' }]);
      const before = debugLines().length;
      await call(node.publicUrl, 'svc_getBlockNumber');
      expect(debugLines().length).toBe(before);
    } finally {
      await node.stop();
    }
  }, 60_000);
});

const postgresUnavailable = localPostgresUnavailable();

/** A funded anvil development account (the fourth), so the prover's key is this test's own. */
const PROVER_PRIVATE_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const ADMIN_API_KEY = 'operator-logs-admin-key-7f3a9c1e5b2d';
const DATABASE_PASSWORD = 'pg-pass-Wq8zR2vK5m';
/** How long the network runs (with 4 s slots: a few checkpoints) while its output is captured. */
const RUN_MS = 20_000;

/** Every 32-byte hex string in a validator keystore file: its attester keys. */
async function keystoreSecrets(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  return [...new Set(text.match(/0x[0-9a-fA-F]{64}\b/g) ?? [])];
}

describe.skipIf(postgresUnavailable !== undefined)(
  `a local network's output${postgresUnavailable === undefined ? '' : ` (skipped: ${postgresUnavailable})`}`,
  () => {
    let postgres: LocalPostgres;
    let root = '';
    beforeAll(async () => {
      postgres = await startLocalPostgres();
      await postgres.psql('postgres', 'CREATE DATABASE validator_ha');
      root = await mkdtemp(path.join(tmpdir(), 'svc-e2e-secrets-'));
    }, 90_000);
    afterAll(async () => {
      await postgres?.stop();
      if (root) await rm(root, { recursive: true, force: true });
    });

    it('never shows the admin key, private keys or the database password', async () => {
      const databaseUrl = postgres.urlOf('validator_ha').replace('unchecked', DATABASE_PASSWORD);
      const svc = (args: string[]) =>
        spawn(process.execPath, svcNodeArgs(...args), {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, LOG_LEVEL: 'debug' },
        });
      let captured = '';
      const capture = (child: ReturnType<typeof svc>) => {
        child.stdout!.on('data', (chunk: Buffer) => (captured += chunk.toString()));
        child.stderr!.on('data', (chunk: Buffer) => (captured += chunk.toString()));
        return new Promise<number | null>((resolve) => child.once('exit', resolve));
      };
      expect(await capture(svc(['migrate-ha-db', 'up', '--database-url', databaseUrl]))).toBe(0);

      const dataDirectory = path.join(root, 'local');
      const network = svc([
        'start',
        '--local-network',
        '--data-directory',
        dataDirectory,
        '--l1-port',
        '0',
        '--port',
        '0',
        '--admin-port',
        '0',
        '--slot-duration',
        '4',
        '--l1-block-time',
        '1',
        '--admin-api-key-hash',
        createHash('sha256').update(ADMIN_API_KEY).digest('hex'),
        '--prover.publisherPrivateKey',
        PROVER_PRIVATE_KEY,
        '--validator.haSigningEnabled',
        '--validator.haDatabaseUrl',
        databaseUrl,
        '--validator.haNodeId',
        'node-a',
      ]);
      const exited = capture(network);
      let publicUrl = '';
      let adminUrl = '';
      await waitFor(
        'the local network to start',
        async () => {
          publicUrl = /public JSON-RPC: (\S+)/.exec(captured)?.[1] ?? '';
          adminUrl = /admin JSON-RPC: (\S+)/.exec(captured)?.[1] ?? '';
          return publicUrl !== '' && adminUrl !== '';
        },
        90_000,
      );
      const answers: string[] = [];
      answers.push(await call(adminUrl, 'svcAdmin_getConfig', [], ADMIN_API_KEY));
      answers.push(await call(adminUrl, 'svcAdmin_getConfig', [], `${ADMIN_API_KEY}-wrong`));
      answers.push(
        await call(adminUrl, 'svcAdmin_setConfig', [{ validatorHaDatabaseUrl: databaseUrl }], ADMIN_API_KEY),
      );
      answers.push(await call(adminUrl, 'svcAdmin_setConfig', [{ logLevel: 'loud' }], ADMIN_API_KEY));
      answers.push(await call(publicUrl, 'svc_sendTx', [{ not: 'a tx' }]));
      await new Promise((resolve) => setTimeout(resolve, RUN_MS));
      answers.push(await call(adminUrl, 'svcAdmin_getConfig', [], ADMIN_API_KEY));
      answers.push(await (await fetch(`${adminUrl}/status`)).text());
      network.kill('SIGTERM');
      expect(await exited).toBe(0);

      const secrets = [
        ADMIN_API_KEY,
        DATABASE_PASSWORD,
        LOCAL_PUBLISHER_PRIVATE_KEY,
        LOCAL_PROVER_PRIVATE_KEY,
        PROVER_PRIVATE_KEY,
        ...(await keystoreSecrets(path.join(dataDirectory, 'keystore.json'))),
      ];
      expect(secrets.length).toBeGreaterThan(5);
      const everything = [captured, ...answers].join('\n').toLowerCase();
      expect(captured).toContain('"level":"debug"');
      expect(answers[0]).toContain('"result"');
      for (const secret of secrets) {
        expect(everything, `a secret was shown: ${secret.slice(0, 6)}…`).not.toContain(secret.toLowerCase());
        if (secret.startsWith('0x')) expect(everything).not.toContain(secret.slice(2).toLowerCase());
      }
    }, 180_000);
  },
);
