/**
 * The schema of the HA signing database and its migrations (`svc migrate-ha-db up`). Each migration is applied once,
 * in a transaction, and recorded in `validator_ha_schema_migrations`; the schema's version is the highest recorded.
 * Migrating is idempotent (an up-to-date database is left as it is) and safe to start from several nodes at once:
 * a transaction-scoped advisory lock lets one migrate while the others wait and then find nothing left to do.
 */
import { SigningGuardError } from '../../core/validators/signingGuardError.js';
import { integerColumn, type SqlQueryable } from './sqlQueryable.js';

interface Migration {
  readonly version: number;
  readonly description: string;
  readonly statements: readonly string[];
}

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'validator_duties: one signing claim per validator, slot and duty',
    statements: [
      `CREATE TABLE validator_duties (
        validator_address text NOT NULL,
        slot bigint NOT NULL CHECK (slot >= 0),
        duty_kind text NOT NULL CHECK (duty_kind IN ('blockProposal', 'checkpointProposal', 'checkpointAttestation')),
        block_index integer NOT NULL CHECK (block_index >= 0),
        payload_hash text NOT NULL,
        node_id text NOT NULL,
        claimed_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (validator_address, slot, duty_kind, block_index)
      )`,
      'CREATE INDEX validator_duties_slot ON validator_duties (slot)',
    ],
  },
];

/** The schema version this node reads and writes. */
export const HA_SIGNING_SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Key of the advisory lock concurrent migrations take (any fixed 64-bit number; ASCII "svc-ha-1"). */
const MIGRATION_LOCK_KEY = '8319946408289447217';

const MIGRATIONS_TABLE = 'validator_ha_schema_migrations';

export interface MigrationReport {
  readonly fromVersion: number;
  readonly toVersion: number;
  readonly applied: readonly { readonly version: number; readonly description: string }[];
}

/** The schema version the database holds; 0 when it has none. */
export async function haSigningSchemaVersion(db: SqlQueryable): Promise<number> {
  const present = await db.query(
    `SELECT count(*)::int AS tables FROM pg_catalog.pg_tables WHERE tablename = $1 AND schemaname = current_schema()`,
    [MIGRATIONS_TABLE],
  );
  if (integerColumn(present.rows[0], 'tables') === 0) return 0;
  const version = await db.query(`SELECT coalesce(max(version), 0)::int AS version FROM ${MIGRATIONS_TABLE}`);
  return integerColumn(version.rows[0], 'version');
}

const runMigrateCommand = '`svc migrate-ha-db up --database-url <url>`';

/** Why a database's schema version cannot be used by this node, as an error to throw; undefined when it can. */
export function schemaVersionProblem(version: number, location: string): SigningGuardError | undefined {
  if (version === HA_SIGNING_SCHEMA_VERSION) return undefined;
  if (version === 0) {
    return new SigningGuardError(
      'SIGNING_GUARD_SCHEMA_MISSING',
      `the HA signing database ${location} has no HA signing schema: run ${runMigrateCommand} before starting nodes`,
    );
  }
  if (version < HA_SIGNING_SCHEMA_VERSION) {
    return new SigningGuardError(
      'SIGNING_GUARD_SCHEMA_MISSING',
      `the HA signing database ${location} has schema version ${version}, this node needs ${HA_SIGNING_SCHEMA_VERSION}: run ${runMigrateCommand}`,
    );
  }
  return new SigningGuardError(
    'SIGNING_GUARD_SCHEMA_UNSUPPORTED',
    `the HA signing database ${location} has schema version ${version}, newer than this node's ${HA_SIGNING_SCHEMA_VERSION}: upgrade the node`,
  );
}

/** Refuses (SigningGuardError) a database whose schema this node cannot use, or that cannot be read. */
export async function checkHaSigningSchema(db: SqlQueryable, location: string): Promise<void> {
  let version;
  try {
    version = await haSigningSchemaVersion(db);
  } catch (error) {
    throw new SigningGuardError(
      'SIGNING_GUARD_UNAVAILABLE',
      `the HA signing database ${location} cannot be read: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const problem = schemaVersionProblem(version, location);
  if (problem !== undefined) throw problem;
}

/**
 * Brings the schema up to HA_SIGNING_SCHEMA_VERSION in one transaction. `db` must be one connection (a pg Client,
 * not a Pool), since the transaction spans several queries. Refuses a schema newer than this node's.
 */
export async function migrateHaSigningSchema(db: SqlQueryable, location: string): Promise<MigrationReport> {
  await db.query('BEGIN');
  try {
    await db.query('SELECT pg_advisory_xact_lock($1::bigint)', [MIGRATION_LOCK_KEY]);
    await db.query(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const fromVersion = await haSigningSchemaVersion(db);
    if (fromVersion > HA_SIGNING_SCHEMA_VERSION) throw schemaVersionProblem(fromVersion, location)!;
    const pending = MIGRATIONS.filter((m) => m.version > fromVersion);
    for (const migration of pending) {
      for (const statement of migration.statements) await db.query(statement);
      await db.query(`INSERT INTO ${MIGRATIONS_TABLE} (version, description) VALUES ($1, $2)`, [
        migration.version,
        migration.description,
      ]);
    }
    await db.query('COMMIT');
    return {
      fromVersion,
      toVersion: HA_SIGNING_SCHEMA_VERSION,
      applied: pending.map(({ version, description }) => ({ version, description })),
    };
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
