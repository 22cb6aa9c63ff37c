import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haSigningSchemaVersion, HA_SIGNING_SCHEMA_VERSION } from '../signing/haSigningSchema.js';
import type { SqlConnection } from '../signing/postgresSigningGuard.js';
import { migrateHaDbCommand, type MigrateHaDbIo } from './migrateHaDbCommand.js';
import { UsageError } from './usageError.js';
import { svcNodeArgs } from '../../test/helpers/svcCommand.js';

const exec = promisify(execFile);
const URL_ = 'postgres://signer:s3cret@db.internal:5432/ha';

let engine: PGlite;
beforeAll(() => {
  engine = new PGlite();
});
afterAll(async () => {
  await engine.close();
});

/** The command over PGlite: what it printed, which URLs it connected to, how many connections it closed. */
function harness(connect?: MigrateHaDbIo['connect']) {
  const printed: string[] = [];
  const connected: string[] = [];
  let closed = 0;
  const io: MigrateHaDbIo = {
    print: (line) => printed.push(line),
    usageError: (message) => new UsageError(message),
    connect:
      connect ??
      (async (url): Promise<SqlConnection> => {
        connected.push(url);
        return { query: (text, params) => engine.query(text, params), end: async () => void closed++ };
      }),
  };
  const run = (args: string[]) => migrateHaDbCommand(io).exitOverride().parseAsync(args, { from: 'user' });
  return { run, printed, connected, closed: () => closed };
}

describe('svc migrate-ha-db up', () => {
  it('creates the schema, says what it applied, and on a second run that there is nothing to do', async () => {
    const first = harness();
    await first.run(['up', '--database-url', URL_]);
    expect(await haSigningSchemaVersion(engine)).toBe(HA_SIGNING_SCHEMA_VERSION);
    expect(first.connected).toEqual([URL_]);
    expect(first.closed()).toBe(1);
    expect(first.printed).toEqual([
      expect.stringMatching(/^applied migration 1: validator_duties/),
      `HA signing database db.internal:5432/ha: schema version 0 -> ${HA_SIGNING_SCHEMA_VERSION}`,
    ]);
    const second = harness();
    await second.run(['up', '--database-url', URL_]);
    expect(second.printed).toEqual([
      `HA signing database db.internal:5432/ha: schema already at version ${HA_SIGNING_SCHEMA_VERSION}, nothing to do`,
    ]);
    expect(first.printed.concat(second.printed).join()).not.toContain('s3cret');
  });

  it('reads the URL from VALIDATOR_HA_DATABASE_URL when --database-url is not given', async () => {
    const h = harness();
    process.env.VALIDATOR_HA_DATABASE_URL = URL_;
    try {
      await h.run(['up']);
    } finally {
      delete process.env.VALIDATOR_HA_DATABASE_URL;
    }
    expect(h.connected).toEqual([URL_]);
  });

  it('refuses a URL that is not PostgreSQL as a usage error, before connecting', async () => {
    const h = harness();
    await expect(h.run(['up', '--database-url', 'mysql://signer:s3cret@db:3306/ha'])).rejects.toSatisfy(
      (e: unknown) =>
        e instanceof UsageError &&
        e.message.startsWith('--database-url: ') &&
        e.message.includes('the scheme must be postgres or postgresql') &&
        !e.message.includes('s3cret'),
    );
    expect(h.connected).toEqual([]);
  });

  it('names the database, never its password, when it cannot connect', async () => {
    const h = harness(() => Promise.reject(new Error('connect ECONNREFUSED 10.1.1.1:5432')));
    await expect(h.run(['up', '--database-url', URL_])).rejects.toThrow(
      'cannot connect to the HA signing database db.internal:5432/ha: connect ECONNREFUSED 10.1.1.1:5432',
    );
  });

  it('as a process: exit code 2 for a bad URL, 1 for an unreachable database, each with one line on stderr', async () => {
    const svc = (args: string[]) =>
      exec(process.execPath, svcNodeArgs(...args), {
        env: { PATH: process.env.PATH ?? '' },
      }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    const [badUrl, unreachable] = await Promise.all([
      svc(['migrate-ha-db', 'up', '--database-url', 'sqlite://u:s3cret@h:1/d']),
      svc(['migrate-ha-db', 'up', '--database-url', 'postgresql://u:s3cret@127.0.0.1:1/ha']),
    ]);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/^svc: --database-url: .*the scheme must be postgres or postgresql\n$/);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^svc: cannot connect to the HA signing database 127\.0\.0\.1:1\/ha: .+\n$/);
    expect(badUrl.stderr + unreachable.stderr).not.toContain('s3cret');
  });
});
