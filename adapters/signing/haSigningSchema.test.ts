import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SigningGuardError } from '../../core/validators/signingGuardError.js';
import {
  checkHaSigningSchema,
  HA_SIGNING_SCHEMA_VERSION,
  haSigningSchemaVersion,
  migrateHaSigningSchema,
} from './haSigningSchema.js';
import type { SqlQueryable } from './sqlQueryable.js';

let engine: PGlite;
beforeAll(() => {
  engine = new PGlite();
});
afterAll(async () => {
  await engine.close();
});
beforeEach(async () => {
  await engine.query('DROP TABLE IF EXISTS validator_duties');
  await engine.query('DROP TABLE IF EXISTS validator_ha_schema_migrations');
});

const failsWith = (code: SigningGuardError['code'], text: string) => (error: unknown) =>
  error instanceof SigningGuardError && error.code === code && error.message.includes(text);

describe('HA signing schema', () => {
  it('a database without the schema is refused with the command that creates it', async () => {
    expect(await haSigningSchemaVersion(engine)).toBe(0);
    await expect(checkHaSigningSchema(engine, 'db:5432/ha')).rejects.toSatisfy(
      failsWith('SIGNING_GUARD_SCHEMA_MISSING', 'run `svc migrate-ha-db up --database-url <url>`'),
    );
  });

  it('migrates a fresh database to the current version, then finds nothing left to do', async () => {
    const first = await migrateHaSigningSchema(engine, 'db:5432/ha');
    expect(first).toEqual({
      fromVersion: 0,
      toVersion: HA_SIGNING_SCHEMA_VERSION,
      applied: [expect.objectContaining({ version: 1 })],
    });
    expect(await haSigningSchemaVersion(engine)).toBe(HA_SIGNING_SCHEMA_VERSION);
    await checkHaSigningSchema(engine, 'db:5432/ha');
    await engine.query(
      `INSERT INTO validator_duties (validator_address, slot, duty_kind, block_index, payload_hash, node_id) VALUES ('0x01', 1, 'checkpointProposal', 0, '0x02', 'a')`,
    );
    expect(await migrateHaSigningSchema(engine, 'db:5432/ha')).toEqual({
      fromVersion: HA_SIGNING_SCHEMA_VERSION,
      toVersion: HA_SIGNING_SCHEMA_VERSION,
      applied: [],
    });
    // Migrating again keeps the claims.
    expect((await engine.query('SELECT node_id FROM validator_duties')).rows).toEqual([{ node_id: 'a' }]);
  });

  it('refuses a schema newer than the node knows, both to start on and to migrate', async () => {
    await migrateHaSigningSchema(engine, 'db');
    await engine.query(
      `INSERT INTO validator_ha_schema_migrations (version, description) VALUES ($1, 'from the future')`,
      [HA_SIGNING_SCHEMA_VERSION + 1],
    );
    await expect(checkHaSigningSchema(engine, 'db')).rejects.toSatisfy(
      failsWith('SIGNING_GUARD_SCHEMA_UNSUPPORTED', 'upgrade the node'),
    );
    await expect(migrateHaSigningSchema(engine, 'db')).rejects.toSatisfy(
      failsWith('SIGNING_GUARD_SCHEMA_UNSUPPORTED', 'newer'),
    );
    expect(await haSigningSchemaVersion(engine)).toBe(HA_SIGNING_SCHEMA_VERSION + 1);
  });

  it('a migration that fails part way leaves nothing behind (one transaction)', async () => {
    const failing: SqlQueryable = {
      query: async (text, params) => {
        if (text.startsWith('CREATE INDEX')) throw new Error('disk full');
        return engine.query(text, params);
      },
    };
    await expect(migrateHaSigningSchema(failing, 'db')).rejects.toThrow('disk full');
    expect(await haSigningSchemaVersion(engine)).toBe(0);
    expect(
      (await engine.query(`SELECT count(*)::int AS n FROM pg_catalog.pg_tables WHERE tablename = 'validator_duties'`))
        .rows,
    ).toEqual([{ n: 0 }]);
  });

  it('a database that cannot be read is SIGNING_GUARD_UNAVAILABLE at the start', async () => {
    const unreachable: SqlQueryable = { query: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432')) };
    await expect(checkHaSigningSchema(unreachable, '10.0.0.5:5432/ha')).rejects.toSatisfy(
      failsWith('SIGNING_GUARD_UNAVAILABLE', 'ECONNREFUSED'),
    );
  });
});
