/**
 * A throwaway PostgreSQL server for tests, from the machine's own PostgreSQL binaries (Debian's postgresql package:
 * /usr/lib/postgresql/<version>/bin). initdb refuses to run as root, so as root the cluster belongs to the
 * `postgres` system user and every server command runs through runuser. Trust authentication on 127.0.0.1 only,
 * fsync off, a port of its own, its data in a temporary directory removed on stop.
 */
import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const POSTGRES_LIB = '/usr/lib/postgresql';
/** How long the server may take to start or stop. */
const POSTGRES_START_TIMEOUT_SECONDS = 30;

export interface LocalPostgres {
  /** `postgres://postgres:<any>@127.0.0.1:<port>/<database>`: the node's URL kind needs a password, trust ignores it. */
  urlOf(database: string): string;
  /** Runs SQL as the superuser (CREATE DATABASE and the like). */
  psql(database: string, sql: string): Promise<string>;
  stop(): Promise<void>;
}

function binDirectory(): string | undefined {
  if (!existsSync(POSTGRES_LIB)) return undefined;
  const versions = readdirSync(POSTGRES_LIB).filter((v) => existsSync(path.join(POSTGRES_LIB, v, 'bin', 'initdb')));
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest === undefined ? undefined : path.join(POSTGRES_LIB, newest, 'bin');
}

const isRoot = () => process.getuid?.() === 0;

/** Why no local server can be started here, or undefined when one can. */
export function localPostgresUnavailable(): string | undefined {
  if (binDirectory() === undefined) return `no PostgreSQL binaries under ${POSTGRES_LIB}`;
  if (isRoot() && spawnSync('id', ['postgres']).status !== 0) return 'running as root without a postgres system user';
  if (isRoot() && spawnSync('which', ['runuser']).status !== 0) return 'running as root without runuser';
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs a PostgreSQL program, as the postgres user when this process is root. */
function run(bin: string, program: string, args: readonly string[]) {
  const file = path.join(bin, program);
  return isRoot() ? exec('runuser', ['-u', 'postgres', '--', file, ...args]) : exec(file, [...args]);
}

export async function startLocalPostgres(): Promise<LocalPostgres> {
  const bin = binDirectory();
  if (bin === undefined) throw new Error(localPostgresUnavailable());
  const directory = mkdtempSync(path.join(tmpdir(), 'svc-pg-'));
  const data = path.join(directory, 'data');
  if (isRoot()) {
    const uid = Number(spawnSync('id', ['-u', 'postgres']).stdout.toString().trim());
    const gid = Number(spawnSync('id', ['-g', 'postgres']).stdout.toString().trim());
    chownSync(directory, uid, gid);
  }
  const port = await freePort();
  await run(bin, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off`;
  await run(bin, 'pg_ctl', [
    '-D',
    data,
    '-o',
    options,
    '-w',
    '-t',
    String(POSTGRES_START_TIMEOUT_SECONDS),
    '-l',
    path.join(directory, 'log'),
    'start',
  ]);
  return {
    urlOf: (database) => `postgres://postgres:unchecked@127.0.0.1:${port}/${database}`,
    psql: async (database, sql) =>
      (
        await run(bin, 'psql', [
          '-h',
          '127.0.0.1',
          '-p',
          String(port),
          '-U',
          'postgres',
          '-d',
          database,
          '-v',
          'ON_ERROR_STOP=1',
          '-qAtc',
          sql,
        ])
      ).stdout,
    stop: async () => {
      try {
        await run(bin, 'pg_ctl', [
          '-D',
          data,
          '-m',
          'immediate',
          '-w',
          '-t',
          String(POSTGRES_START_TIMEOUT_SECONDS),
          'stop',
        ]);
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
