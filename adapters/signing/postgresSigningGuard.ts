/**
 * HA signing on a real PostgreSQL server, through the `pg` driver: the node's guard over a small connection pool, and
 * the single connection `svc migrate-ha-db` migrates over. Every connection and query has a timeout
 * (HA_DATABASE_*_TIMEOUT_MS), so a database that hangs fails the claim, and the validator then does not sign.
 */
import { Client, Pool } from 'pg';
import type { LoggerPort, SigningGuardPort } from '../../core/ports.js';
import {
  HA_DATABASE_CONNECT_TIMEOUT_MS,
  HA_DATABASE_CONNECTIONS_MAX,
  HA_DATABASE_QUERY_TIMEOUT_MS,
} from '../../spec/validators/constants.js';
import { checkHaSigningSchema } from './haSigningSchema.js';
import { databaseLocation, type SqlQueryable } from './sqlQueryable.js';
import { createSqlSigningGuard } from './sqlSigningGuard.js';

export interface OpenSigningGuard {
  readonly guard: SigningGuardPort;
  /** Closes the connections. */
  close(): Promise<void>;
}

/** A connection the caller closes. */
export interface SqlConnection extends SqlQueryable {
  end(): Promise<void>;
}

const timeouts = {
  connectionTimeoutMillis: HA_DATABASE_CONNECT_TIMEOUT_MS,
  query_timeout: HA_DATABASE_QUERY_TIMEOUT_MS,
  statement_timeout: HA_DATABASE_QUERY_TIMEOUT_MS,
} as const;

/**
 * Node `nodeId`'s guard over the database at `databaseUrl`, once its schema is checked: refused with
 * SIGNING_GUARD_SCHEMA_MISSING (run `svc migrate-ha-db up`), SIGNING_GUARD_SCHEMA_UNSUPPORTED, or
 * SIGNING_GUARD_UNAVAILABLE when the database cannot be reached, so that a node never starts signing unguarded.
 */
export async function openPostgresSigningGuard(options: {
  readonly databaseUrl: string;
  readonly nodeId: string;
  readonly logger: LoggerPort;
}): Promise<OpenSigningGuard> {
  const pool = new Pool({ connectionString: options.databaseUrl, max: HA_DATABASE_CONNECTIONS_MAX, ...timeouts });
  // An idle connection the server drops is reported here; without a listener it would end the process.
  pool.on('error', (error) =>
    options.logger.warn('a connection to the HA signing database failed', { error: error.message }),
  );
  try {
    await checkHaSigningSchema(pool, databaseLocation(options.databaseUrl));
  } catch (error) {
    await pool.end();
    throw error;
  }
  return { guard: createSqlSigningGuard(pool, options.nodeId), close: () => pool.end() };
}

/** One connection to the database at `databaseUrl` (migrations run their transaction on it). */
export async function connectPostgres(databaseUrl: string): Promise<SqlConnection> {
  const client = new Client({ connectionString: databaseUrl, ...timeouts });
  // A connection lost while the command runs surfaces as its query's failure; this only keeps the process alive.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}
