/**
 * Checks a downloaded snapshot data file against its index entry and writes its entries into a new LevelDB database
 * (adapters/snapshots/snapshotSync.ts moves that database into place). The format is spec/snapshots/snapshotFormat.ts.
 * Every check failure is a SnapshotRefusedError saying which.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { TextDecoder } from 'node:util';
import { createGunzip } from 'node:zlib';
import { ClassicLevel } from 'classic-level';
import {
  SNAPSHOT_LINE_CHARS_MAX,
  decodeSnapshotEntry,
  isSnapshotKey,
  snapshotHeaderSchema,
  snapshotMismatch,
  type SnapshotChain,
  type SnapshotHeader,
  type SnapshotIndexEntry,
} from '../../spec/snapshots/snapshotFormat.js';
import { SnapshotRefusedError } from './snapshotSyncError.js';

/** Entries written to the new database per batch. */
export const SNAPSHOT_RESTORE_BATCH_ENTRIES = 10_000;

/** Refuses a file whose size or SHA-256 differs from the index entry's. */
export async function verifyDataFile(file: string, entry: SnapshotIndexEntry): Promise<void> {
  const { size } = await stat(file);
  if (size < entry.sizeBytes)
    throw new SnapshotRefusedError('SNAPSHOT_TRUNCATED', `truncated: ${size} of the ${entry.sizeBytes} bytes listed`);
  if (size > entry.sizeBytes)
    throw new SnapshotRefusedError('SNAPSHOT_BAD_CHECKSUM', `bad size: ${size} bytes, ${entry.sizeBytes} listed`);
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  const sha256 = `0x${hash.digest('hex')}`;
  if (sha256 !== entry.sha256.toLowerCase())
    throw new SnapshotRefusedError('SNAPSHOT_BAD_CHECKSUM', `bad checksum: SHA-256 ${sha256}, ${entry.sha256} listed`);
}

/**
 * Writes the file's entries into a new database at `databaseDirectory` after checking its header against `entry`
 * and `chain`, every line, the key order and the entry count. Closes the database in every case.
 */
export async function restoreDataFile(
  file: string,
  entry: SnapshotIndexEntry,
  chain: SnapshotChain,
  databaseDirectory: string,
): Promise<void> {
  const database = new ClassicLevel<string, string>(databaseDirectory, {
    keyEncoding: 'utf8',
    valueEncoding: 'utf8',
    createIfMissing: true,
    errorIfExists: true,
  });
  await database.open();
  // A failure of the last stage also destroys the streams before it, which then fail the pipeline with an
  // AbortError of their own: the stage's own error is the one that says why.
  let stageError: unknown;
  try {
    await pipeline(createReadStream(file), createGunzip(), async (source: AsyncIterable<Buffer>) => {
      await writeEntries(boundedLines(source), entry, chain, database).catch((error: unknown) => {
        stageError = error;
        throw error;
      });
    });
  } catch (error) {
    throw asRefusal(stageError ?? error);
  } finally {
    await database.close();
  }
}

async function writeEntries(
  lines: AsyncIterable<string>,
  entry: SnapshotIndexEntry,
  chain: SnapshotChain,
  database: ClassicLevel<string, string>,
): Promise<void> {
  const writer = new PipelinedBatchWriter(database);
  try {
    const count = await checkedEntries(lines, entry, chain, (key, value) => writer.put(key, value));
    if (count !== entry.entries) throw malformed(`it has ${count} entries, ${entry.entries} listed`);
    await writer.finish();
  } catch (error) {
    await writer.abandon();
    throw error;
  }
}

/** Checks the header and every entry (decoding, key order, kept keys, count bound), handing each on; the count. */
async function checkedEntries(
  lines: AsyncIterable<string>,
  entry: SnapshotIndexEntry,
  chain: SnapshotChain,
  onEntry: (key: string, value: string) => Promise<void>,
): Promise<number> {
  let header: SnapshotHeader | undefined;
  let previousKey: Buffer | undefined;
  let count = 0;
  for await (const line of lines) {
    if (header === undefined) {
      header = parseHeader(line, entry, chain);
      continue;
    }
    const [key, value] = decodeLine(line, count);
    const keyBytes = Buffer.from(key, 'utf8');
    if (previousKey !== undefined && Buffer.compare(previousKey, keyBytes) >= 0)
      throw malformed(`entry ${count} is not in strictly increasing key order`);
    if (!isSnapshotKey(key)) throw malformed(`entry ${count} has a key a snapshot leaves out (${key.slice(0, 40)})`);
    previousKey = keyBytes;
    count += 1;
    if (count > entry.entries) throw malformed(`it has more than the ${entry.entries} entries listed`);
    await onEntry(key, value);
  }
  if (header === undefined) throw malformed('it has no header line');
  return count;
}

/**
 * Writes chained batches of SNAPSHOT_RESTORE_BATCH_ENTRIES, synced, with one batch being written while the next one
 * fills, so that reading and checking the file overlaps LevelDB's writing. (Chained batches: abstract-level's array
 * form copies every operation with the call's options, which made restores several times slower.)
 */
class PipelinedBatchWriter {
  #batch;
  #inFlight: Promise<void> = Promise.resolve();
  #failure: { readonly error: unknown } | undefined;

  constructor(private readonly database: ClassicLevel<string, string>) {
    this.#batch = database.batch();
  }

  async put(key: string, value: string): Promise<void> {
    this.#batch.put(key, value);
    if (this.#batch.length >= SNAPSHOT_RESTORE_BATCH_ENTRIES) await this.#flush();
  }

  /** Writes what is left and waits for every write. */
  async finish(): Promise<void> {
    await this.#flush();
    await this.#settle();
  }

  /** Waits for the write in flight and drops the batch being filled. */
  async abandon(): Promise<void> {
    await this.#inFlight;
    await this.#batch.close();
  }

  async #flush(): Promise<void> {
    await this.#settle();
    const full = this.#batch;
    this.#batch = this.database.batch();
    this.#inFlight = full.write({ sync: true }).catch((error: unknown) => {
      this.#failure = { error };
    });
  }

  async #settle(): Promise<void> {
    await this.#inFlight;
    if (this.#failure !== undefined) throw this.#failure.error;
  }
}

/** The fields a data file's header must share with its index entry. */
const HEADER_FIELDS = [
  'l1ChainId',
  'rollupVersion',
  'rollupAddress',
  'schemaVersion',
  'blockNumber',
  'blockHash',
  'l1BlockNumber',
  'createdAt',
] as const;

function parseHeader(line: string, entry: SnapshotIndexEntry, chain: SnapshotChain): SnapshotHeader {
  let header: SnapshotHeader;
  try {
    header = snapshotHeaderSchema.parse(JSON.parse(line));
  } catch (error) {
    throw malformed(`its header line is not a snapshot header (${firstLine(error)})`);
  }
  const differing = HEADER_FIELDS.filter(
    (field) => String(header[field]).toLowerCase() !== String(entry[field]).toLowerCase(),
  );
  if (differing.length > 0) throw malformed(`its header differs from its index entry in ${differing.join(', ')}`);
  const mismatch = snapshotMismatch(header, chain);
  if (mismatch !== undefined) throw new SnapshotRefusedError('SNAPSHOT_OTHER_CHAIN', `another chain: ${mismatch}`);
  return header;
}

function decodeLine(line: string, index: number): readonly [string, string] {
  try {
    return decodeSnapshotEntry(line);
  } catch (error) {
    throw malformed(`entry ${index} does not decode (${firstLine(error)})`);
  }
}

/** UTF-8 lines of `source` (a last line without a newline included), each at most SNAPSHOT_LINE_CHARS_MAX. */
async function* boundedLines(source: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let pending = '';
  for await (const chunk of source) {
    pending += decodeUtf8(decoder, chunk);
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      yield pending.slice(start, end);
      start = end + 1;
    }
    pending = pending.slice(start);
    if (pending.length > SNAPSHOT_LINE_CHARS_MAX)
      throw malformed(`a line is longer than ${SNAPSHOT_LINE_CHARS_MAX} characters`);
  }
  pending += decodeUtf8(decoder, undefined);
  if (pending.length > 0) yield pending;
}

function decodeUtf8(decoder: TextDecoder, chunk: Buffer | undefined): string {
  try {
    return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
  } catch {
    throw malformed('it is not UTF-8 text');
  }
}

/** zlib's errors as refusals: an early end is a truncated file, anything else a file that is not gzip. */
function asRefusal(error: unknown): unknown {
  if (error instanceof SnapshotRefusedError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'Z_BUF_ERROR')
    return new SnapshotRefusedError(
      'SNAPSHOT_TRUNCATED',
      'truncated: the gzip stream ends early',
      {},
      { cause: error },
    );
  if (typeof code === 'string' && code.startsWith('Z_'))
    return new SnapshotRefusedError('SNAPSHOT_MALFORMED', `malformed: not gzip (${code})`, {}, { cause: error });
  return error;
}

function malformed(why: string): SnapshotRefusedError {
  return new SnapshotRefusedError('SNAPSHOT_MALFORMED', `malformed: ${why}`);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 200);
}
