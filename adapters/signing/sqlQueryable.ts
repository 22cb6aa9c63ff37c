/**
 * The least the HA signing adapters need of a PostgreSQL connection: one parameterised query at a time. A `pg` Pool
 * or Client fits it, and so does PGlite (PostgreSQL compiled to WASM), on which the tests run the real SQL.
 */
export interface SqlQueryable {
  query(text: string, params?: unknown[]): Promise<{ readonly rows: readonly unknown[] }>;
}

/** A column of a result row as text (ids, hashes); an assertion of the schema, thrown as an ordinary error. */
export function textColumn(row: unknown, column: string): string {
  const value = (row as Record<string, unknown> | undefined)?.[column];
  if (typeof value !== 'string')
    throw new Error(`the HA signing database answered a row without the text column ${column}`);
  return value;
}

/** A column of a result row as a safe integer (counts, versions; PostgreSQL drivers may give int8 as a string). */
export function integerColumn(row: unknown, column: string): number {
  const value = (row as Record<string, unknown> | undefined)?.[column];
  const number = typeof value === 'string' || typeof value === 'bigint' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isSafeInteger(number))
    throw new Error(`the HA signing database answered a row without the integer column ${column}`);
  return number;
}

/** `user:password@host:port/database` without the credentials, for messages (the URL holds a password). */
export function databaseLocation(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname}${url.port === '' ? '' : `:${url.port}`}${url.pathname}`;
  } catch {
    return '<unparsable URL>';
  }
}
