/**
 * HA signing against a real PostgreSQL server (the machine's own, started for the file; skipped with the reason
 * where none can run): `svc migrate-ha-db up` as an operator runs it, the port's contract through the `pg` pool with
 * real concurrent connections, and the node-side refusals (a database without the schema, one that is down).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateHaSigningSchema } from '../../adapters/signing/haSigningSchema.js';
import { openPostgresSigningGuard } from '../../adapters/signing/postgresSigningGuard.js';
import type { SqlQueryable } from '../../adapters/signing/sqlQueryable.js';
import { createSqlSigningGuard } from '../../adapters/signing/sqlSigningGuard.js';
import type { SigningDuty } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { describeSigningGuardPort } from '../portSuites/signingGuardPort.suite.js';
import { localPostgresUnavailable, startLocalPostgres, type LocalPostgres } from '../helpers/localPostgres.js';
import { silentLogger } from '../helpers/testLogger.js';
import { svcNodeArgs } from '../helpers/svcCommand.js';

const exec = promisify(execFile);
const unavailable = localPostgresUnavailable();

const svc = (args: string[]) =>
  exec(process.execPath, svcNodeArgs(...args), {
    env: { PATH: process.env.PATH ?? '' },
  }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );

describe.skipIf(unavailable !== undefined)(
  `HA signing on a PostgreSQL server${unavailable === undefined ? '' : ` (skipped: ${unavailable})`}`,
  () => {
    let server: LocalPostgres;
    let pool: Pool;
    beforeAll(async () => {
      server = await startLocalPostgres();
      await server.psql('postgres', 'CREATE DATABASE validator_ha');
      await server.psql('postgres', 'CREATE DATABASE empty_db');
      pool = new Pool({ connectionString: server.urlOf('validator_ha'), max: 8 });
    }, 90_000);
    afterAll(async () => {
      await pool?.end();
      await server?.stop();
    });

    it('svc migrate-ha-db up creates the schema once; a second run finds nothing left to do', async () => {
      const first = await svc(['migrate-ha-db', 'up', '--database-url', server.urlOf('validator_ha')]);
      expect(first.code, first.stderr).toBe(0);
      const second = await svc(['migrate-ha-db', 'up', '--database-url', server.urlOf('validator_ha')]);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).not.toEqual(first.stdout);
      expect(
        await server.psql(
          'validator_ha',
          "SELECT count(*) FROM information_schema.tables WHERE table_name = 'validator_duties'",
        ),
      ).toBe('1\n');
    }, 60_000);

    it('a node refuses to start on a database without the schema, naming the command to run', async () => {
      await expect(
        openPostgresSigningGuard({ databaseUrl: server.urlOf('empty_db'), nodeId: 'node-a', logger: silentLogger }),
      ).rejects.toThrow(/migrate-ha-db up/);
      const open = await openPostgresSigningGuard({
        databaseUrl: server.urlOf('validator_ha'),
        nodeId: 'node-a',
        logger: silentLogger,
      });
      await open.close();
    });

    it('many nodes racing for the same duties over separate connections: exactly one wins each', async () => {
      await migrateHaSigningSchema(pool, 'validator_ha');
      await pool.query('TRUNCATE validator_duties');
      const duty = (slot: number): SigningDuty => ({
        validatorAddress: `0x${'ab'.repeat(20)}` as Hex,
        slot,
        kind: 'checkpointAttestation',
        blockIndex: 0,
      });
      const nodes = Array.from({ length: 8 }, (_, i) => createSqlSigningGuard(pool, `node-${i}`));
      for (let slot = 0; slot < 20; slot++) {
        const claims = await Promise.all(
          nodes.map((guard, i) => guard.claim(duty(slot), `0x${(i + 1).toString(16).padStart(64, '0')}` as Hex)),
        );
        const winners = claims.filter((c) => c.kind === 'granted');
        expect(winners, `slot ${slot}`).toHaveLength(1);
        const holders = new Set(claims.flatMap((c) => (c.kind === 'refused' ? [c.holderNodeId] : [])));
        expect(holders.size, `slot ${slot}`).toBe(1);
      }
    }, 60_000);

    describeSigningGuardPort(
      'PostgreSQL server (pg pool)',
      async () => {
        await migrateHaSigningSchema(pool, 'validator_ha');
        await pool.query('TRUNCATE validator_duties');
        let reachable = true;
        const link: SqlQueryable = {
          query: async (text, params) => {
            if (!reachable) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
            return pool.query(text, params as unknown[]);
          },
        };
        return {
          guardFor: (nodeId) => createSqlSigningGuard(link, nodeId),
          setReachable: (value) => (reachable = value),
          cleanup: async () => undefined,
        };
      },
      { propertyRuns: 25 },
    );
  },
);
