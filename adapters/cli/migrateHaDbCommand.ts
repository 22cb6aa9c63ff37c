/**
 * `svc migrate-ha-db up --database-url <url>`: creates or brings up to date the schema of the HA signing database
 * (adapters/signing/haSigningSchema.ts), which every redundant node then shares. Run once before starting nodes with
 * VALIDATOR_HA_SIGNING_ENABLED, and again after an upgrade whose node refuses to start for an old schema. Prints what
 * it did; a failure throws (the CLI prints it and exits non-zero).
 */
import { Command, Option } from 'commander';
import { HA_DATABASE_URL_SCHEMES, configSchema } from '../../spec/config/schema.js';
import { databaseUrlKind, firstIssueMessage } from '../../spec/config/valueKinds.js';
import { migrateHaSigningSchema } from '../signing/haSigningSchema.js';
import type { SqlConnection } from '../signing/postgresSigningGuard.js';
import { databaseLocation } from '../signing/sqlQueryable.js';

export interface MigrateHaDbIo {
  readonly print: (line: string) => void;
  /** Opens one connection to the database (the real one: connectPostgres). */
  readonly connect: (databaseUrl: string) => Promise<SqlConnection>;
  readonly usageError: (message: string) => Error;
}

const urlKind = databaseUrlKind(HA_DATABASE_URL_SCHEMES);

/** Migrates the database at `databaseUrl` and prints what changed. */
export async function migrateHaDb(databaseUrl: string, io: MigrateHaDbIo): Promise<void> {
  const parsed = urlKind.text.safeParse(databaseUrl);
  if (!parsed.success) throw io.usageError(`--database-url: ${firstIssueMessage(parsed.error)}`);
  const location = databaseLocation(databaseUrl);
  let connection;
  try {
    connection = await io.connect(databaseUrl);
  } catch (error) {
    throw new Error(
      `cannot connect to the HA signing database ${location}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  try {
    const report = await migrateHaSigningSchema(connection, location);
    if (report.applied.length === 0) {
      io.print(`HA signing database ${location}: schema already at version ${report.toVersion}, nothing to do`);
      return;
    }
    for (const step of report.applied) io.print(`applied migration ${step.version}: ${step.description}`);
    io.print(`HA signing database ${location}: schema version ${report.fromVersion} -> ${report.toVersion}`);
  } catch (error) {
    throw new Error(
      `migrating the HA signing database ${location} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    await connection.end().catch(() => undefined);
  }
}

export function migrateHaDbCommand(io: MigrateHaDbIo): Command {
  const command = new Command('migrate-ha-db').description(
    'manage the schema of the high-availability signing database shared by redundant nodes',
  );
  command
    .command('up')
    .description('create the schema, or bring it up to this version (idempotent; run before starting nodes)')
    .addOption(
      new Option('--database-url <url>', `the HA signing database, ${urlKind.label}`)
        .env(configSchema.validatorHaDatabaseUrl.env)
        .makeOptionMandatory(),
    )
    .action(async (options: { readonly databaseUrl: string }) => {
      await migrateHaDb(options.databaseUrl, io);
    });
  return command;
}
