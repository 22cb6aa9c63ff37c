/**
 * BlobSourcePort over an L1 consensus (beacon) node's REST API, in JSON.
 *
 * Slot of an L1 block: (block timestamp - genesis_time) / SECONDS_PER_SLOT, with genesis_time from
 * `GET /eth/v1/beacon/genesis` and SECONDS_PER_SLOT from `GET /eth/v1/config/spec`. Both are read once and kept after
 * they succeed (a failure is never kept: the next call asks again).
 *
 * A development node that serves no spec (404) is taken to name blocks by execution block number, as anvil's beacon
 * routes do (anvil serves the genesis route but no spec, and reads the `{block_id}` of its blob route as an execution
 * block number, whatever its block times); that is logged once. A real beacon node always serves its spec.
 *
 * Routes, tried in this order:
 * - `GET /eth/v1/beacon/blobs/{slot}?versioned_hashes=h1,h2` (data: the blobs as 0x hex). The hashes are
 *   comma-separated: anvil keeps only the last of repeated query parameters.
 * - `GET /eth/v1/beacon/blob_sidecars/{slot}` (data: `{ index, blob, kzg_commitment, kzg_proof, ... }`), the older
 *   route; its candidates carry their commitment and proof, so checking them is cheap, and sidecars whose commitment
 *   is not one of the wanted versioned hashes are left out. anvil answers 410 here.
 * A 404 is ambiguous: a slot without a block, or a server that does not know the route. So until one route has
 * answered 200, a 404 of `blobs` makes the source ask `blob_sidecars`: a 200 there settles on sidecars; a 404 there
 * too is a miss; a 405, 410 or 501 there settles on `blobs` (and the 404 was a missing block). A 405 or 501 of `blobs`
 * settles on sidecars. Once a route is settled, its 404 is a miss. Any other status (5xx, 429, 401, ...) is a failure.
 *
 * API key: in the `apiKeyHeader` header when given, else as the `key` query parameter, as hosted consensus APIs
 * expect. Userinfo in the URL is sent as basic authorization. The source's `name`, which every error and log line
 * uses, is the URL redacted (adapters/blobs/redactUrl.ts): the key never appears in either.
 */
import type { BlobCandidate, BlobRequest, BlobSourcePort, LoggerPort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { commitmentVersionedHash } from '../l1/kzg.js';
import {
  BLOB_HEX_CHARS,
  JSON_ENVELOPE_BYTES_MAX,
  badResponse,
  boundedGet,
  decimalBigint,
  decodeBlobHex,
  decodeKzgPointHex,
  httpBaseOf,
  parseJson,
  SILENT_LOGGER,
  statusError,
  type HttpAnswer,
} from './blobHttp.js';
import { BlobSourceError } from './blobSourceError.js';

export interface ConsensusBlobSourceOptions {
  /** Base URL of the beacon API, e.g. `http://localhost:5052`; may carry userinfo and query parameters. */
  readonly url: string;
  readonly apiKey?: string;
  /** The header that carries `apiKey`; absent, the key goes in the `key` query parameter. */
  readonly apiKeyHeader?: string;
  readonly requestTimeoutMs?: number;
  readonly logger?: LoggerPort;
}

export const CONSENSUS_REQUEST_TIMEOUT_MS_DEFAULT = 10_000;
/** Most blobs one L1 block holds (Ethereum's BPO2 limit, after Osaka); the sidecars route answers all of them. */
export const L1_BLOBS_PER_BLOCK_MAX = 21;
/** One sidecar as JSON: the blob, then commitment, proof, signed block header and inclusion proof (under 4 KiB). */
const SIDECAR_JSON_BYTES_MAX = BLOB_HEX_CHARS + 8 * 1024;
/** Largest blob answer read: every blob of one block as sidecars, plus slack. */
export const CONSENSUS_BLOBS_ANSWER_BYTES_MAX =
  L1_BLOBS_PER_BLOCK_MAX * SIDECAR_JSON_BYTES_MAX + JSON_ENVELOPE_BYTES_MAX;
/** Largest genesis or spec answer read (a real node's spec is a few tens of KiB). */
export const CONSENSUS_METADATA_ANSWER_BYTES_MAX = 256 * 1024;

const GENESIS_PATH = '/eth/v1/beacon/genesis';
const SPEC_PATH = '/eth/v1/config/spec';
const blobsPath = (slot: bigint) => `/eth/v1/beacon/blobs/${slot}`;
const sidecarsPath = (slot: bigint) => `/eth/v1/beacon/blob_sidecars/${slot}`;
/** Statuses by which a server says it does not serve a route (besides 404, which also means "no block there"). */
const ROUTE_ABSENT_STATUSES: ReadonlySet<number> = new Set([405, 410, 501]);

type BlobRoute = 'unknown' | 'blobs' | 'sidecars';

/** How the node names a block: by slot (from genesis time and slot length), or by execution block number (anvil). */
type BeaconTiming =
  | { readonly blockIds: 'slots'; readonly genesisTimeSeconds: bigint; readonly slotSeconds: bigint }
  | { readonly blockIds: 'executionNumbers' };

/** GETs on the beacon API, with the key and authorization the options give. */
interface BeaconHttp {
  readonly name: string;
  get(path: string, query: string | undefined, bodyBytesMax: number): Promise<HttpAnswer>;
}

export function createConsensusBlobSource(options: ConsensusBlobSourceOptions): BlobSourcePort {
  const http = createBeaconHttp(options);
  const logger = options.logger ?? SILENT_LOGGER;
  const timing = createTimingCache(http, logger);
  const readSlot = createSlotReader(http, logger);
  return {
    kind: 'consensus',
    name: http.name,
    async getBlobs(request: BlobRequest): Promise<readonly BlobCandidate[]> {
      if (request.versionedHashes.length === 0) return [];
      const known = await timing.get();
      const id = known.blockIds === 'slots' ? slotOf(known, request.l1.timestamp, http.name) : request.l1.blockNumber;
      return readSlot(id, request.versionedHashes);
    },
    async check(): Promise<void> {
      const known = await timing.refresh();
      const naming =
        known.blockIds === 'slots'
          ? `genesis time ${known.genesisTimeSeconds}, ${known.slotSeconds} s slots`
          : `no ${SPEC_PATH}: blocks named by execution block number`;
      logger.info(`consensus node ${http.name} answers: ${naming}`, { source: http.name });
    },
  };
}

function createBeaconHttp(options: ConsensusBlobSourceOptions): BeaconHttp {
  const base = httpBaseOf(options.url, 'consensus node');
  const { apiKey, apiKeyHeader } = options;
  const headers: Record<string, string> = { ...base.headers };
  if (apiKey !== undefined && apiKeyHeader !== undefined) headers[apiKeyHeader.toLowerCase()] = apiKey;
  const keyQuery = apiKey !== undefined && apiKeyHeader === undefined ? `key=${encodeURIComponent(apiKey)}` : '';
  const timeoutMs = options.requestTimeoutMs ?? CONSENSUS_REQUEST_TIMEOUT_MS_DEFAULT;
  const secrets = apiKey === undefined ? base.secrets : [...base.secrets, apiKey];
  return {
    name: base.name,
    get(path, query, bodyBytesMax) {
      const url = base.urlOf(path, [query ?? '', keyQuery]);
      return boundedGet({ url, headers, timeoutMs, bodyBytesMax, source: base.name, what: `GET ${path}`, secrets });
    },
  };
}

/** Genesis time and slot length, kept once read; a failure is not kept. */
function createTimingCache(
  http: BeaconHttp,
  logger: LoggerPort,
): { get(): Promise<BeaconTiming>; refresh(): Promise<BeaconTiming> } {
  let cached: Promise<BeaconTiming> | undefined;
  let namingLogged = false;
  const refresh = (): Promise<BeaconTiming> => {
    const loading = readTiming(http).then((timing) => {
      if (timing.blockIds === 'executionNumbers' && !namingLogged) {
        namingLogged = true;
        logger.info(
          `consensus node ${http.name} serves no ${SPEC_PATH}: asking it for blobs by execution block number ` +
            '(as anvil serves them)',
          { source: http.name },
        );
      }
      return timing;
    });
    cached = loading;
    loading.catch(() => {
      if (cached === loading) cached = undefined;
    });
    return loading;
  };
  return { get: () => cached ?? refresh(), refresh };
}

async function readTiming(http: BeaconHttp): Promise<BeaconTiming> {
  const genesisTimeSeconds = await readGenesisTime(http);
  const slotSeconds = await readSpecSlotSeconds(http);
  return slotSeconds === undefined
    ? { blockIds: 'executionNumbers' }
    : { blockIds: 'slots', genesisTimeSeconds, slotSeconds };
}

async function readGenesisTime(http: BeaconHttp): Promise<bigint> {
  const what = `GET ${GENESIS_PATH}`;
  const answer = await http.get(GENESIS_PATH, undefined, CONSENSUS_METADATA_ANSWER_BYTES_MAX);
  if (answer.status !== 200) throw statusError(http.name, what, answer);
  const json = parseJson(http.name, what, answer) as { data?: { genesis_time?: unknown } } | null;
  const genesisTime = decimalBigint(json?.data?.genesis_time);
  if (genesisTime === undefined) throw badResponse(http.name, what, 'no decimal data.genesis_time', answer.status);
  return genesisTime;
}

/** SECONDS_PER_SLOT of the node's spec; undefined when the node does not serve the spec (404). */
async function readSpecSlotSeconds(http: BeaconHttp): Promise<bigint | undefined> {
  const what = `GET ${SPEC_PATH}`;
  const answer = await http.get(SPEC_PATH, undefined, CONSENSUS_METADATA_ANSWER_BYTES_MAX);
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) throw statusError(http.name, what, answer);
  const json = parseJson(http.name, what, answer) as { data?: { SECONDS_PER_SLOT?: unknown } } | null;
  const slotSeconds = decimalBigint(json?.data?.SECONDS_PER_SLOT);
  if (slotSeconds === undefined || slotSeconds === 0n) {
    throw badResponse(http.name, what, 'no positive decimal data.SECONDS_PER_SLOT', answer.status);
  }
  return slotSeconds;
}

function slotOf(timing: Extract<BeaconTiming, { blockIds: 'slots' }>, timestamp: bigint, name: string): bigint {
  if (timestamp < timing.genesisTimeSeconds) {
    throw new BlobSourceError(
      'BLOB_SOURCE_UNUSABLE',
      `an L1 block at timestamp ${timestamp} is before the genesis time ${timing.genesisTimeSeconds} of ${name}: ` +
        'it follows another chain',
      { source: name },
    );
  }
  return (timestamp - timing.genesisTimeSeconds) / timing.slotSeconds;
}

/** Reads a slot's blobs through whichever route the node serves, remembering it once settled. */
function createSlotReader(
  http: BeaconHttp,
  logger: LoggerPort,
): (slot: bigint, versionedHashes: readonly Hex[]) => Promise<readonly BlobCandidate[]> {
  let route: BlobRoute = 'unknown';
  const settle = (settled: BlobRoute) => {
    if (route !== settled) logger.debug(`consensus node ${http.name} serves blobs through the ${settled} route`);
    route = settled;
  };

  const askSidecars = async (slot: bigint, versionedHashes: readonly Hex[]) => {
    const answer = await http.get(sidecarsPath(slot), undefined, CONSENSUS_BLOBS_ANSWER_BYTES_MAX);
    const what = `GET ${sidecarsPath(slot)}`;
    const read = () => parseSidecars(http.name, what, answer, versionedHashes, logger);
    return { status: answer.status, read, fail: () => statusError(http.name, what, answer) };
  };

  return async (slot, versionedHashes) => {
    if (route === 'sidecars') {
      const sidecars = await askSidecars(slot, versionedHashes);
      if (sidecars.status === 200) return sidecars.read();
      if (sidecars.status === 404) return [];
      if (ROUTE_ABSENT_STATUSES.has(sidecars.status)) route = 'unknown'; // the node changed: find its route again
      throw sidecars.fail();
    }
    const what = `GET ${blobsPath(slot)}`;
    const query = `versioned_hashes=${versionedHashes.map((hash) => hash.toLowerCase()).join(',')}`;
    const blobs = await http.get(blobsPath(slot), query, CONSENSUS_BLOBS_ANSWER_BYTES_MAX);
    if (blobs.status === 200) {
      const candidates = parseBlobs(http.name, what, blobs, logger);
      settle('blobs');
      return candidates;
    }
    if (blobs.status === 404 && route === 'blobs') return [];
    if (blobs.status !== 404 && !ROUTE_ABSENT_STATUSES.has(blobs.status)) throw statusError(http.name, what, blobs);

    const sidecars = await askSidecars(slot, versionedHashes);
    if (sidecars.status === 200) {
      const candidates = sidecars.read();
      settle('sidecars');
      return candidates;
    }
    if (sidecars.status === 404) {
      if (blobs.status !== 404) settle('sidecars'); // `blobs` is absent: the 404 is a slot without a block
      return [];
    }
    if (ROUTE_ABSENT_STATUSES.has(sidecars.status) && blobs.status === 404) {
      settle('blobs'); // `blob_sidecars` is absent: the 404 of `blobs` was a slot without a block
      return [];
    }
    if (!ROUTE_ABSENT_STATUSES.has(sidecars.status)) throw sidecars.fail();
    throw new BlobSourceError(
      'BLOB_SOURCE_UNUSABLE',
      `${http.name} serves neither ${blobsPath(slot)} (HTTP ${blobs.status}) nor ${sidecarsPath(slot)} ` +
        `(HTTP ${sidecars.status})`,
      { source: http.name, status: sidecars.status },
    );
  };
}

function dataList(source: string, what: string, answer: HttpAnswer): unknown[] {
  const json = parseJson(source, what, answer) as { data?: unknown } | null;
  const data = typeof json === 'object' && json !== null ? json.data : undefined;
  if (!Array.isArray(data)) throw badResponse(source, what, 'no data list', answer.status);
  return data;
}

/** `{ data: [blob hex, ...] }`; items that are not one blob's hex are dropped. */
function parseBlobs(source: string, what: string, answer: HttpAnswer, logger: LoggerPort): BlobCandidate[] {
  const data = dataList(source, what, answer);
  const candidates = data.flatMap((item) => {
    const blob = decodeBlobHex(item);
    return blob === undefined ? [] : [{ blob }];
  });
  if (candidates.length < data.length) {
    logger.debug(`${source} served ${data.length - candidates.length} malformed blobs`, { source, what });
  }
  return candidates;
}

/**
 * `{ data: [{ blob, kzg_commitment, kzg_proof, ... }] }`: the sidecars whose commitment has one of the wanted
 * versioned hashes (the checker then verifies the proof); malformed sidecars are dropped.
 */
function parseSidecars(
  source: string,
  what: string,
  answer: HttpAnswer,
  versionedHashes: readonly Hex[],
  logger: LoggerPort,
): BlobCandidate[] {
  const wanted = new Set(versionedHashes.map((hash) => hash.toLowerCase()));
  const data = dataList(source, what, answer);
  const candidates: BlobCandidate[] = [];
  let malformed = 0;
  for (const item of data) {
    const sidecar = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const kzgCommitment = decodeKzgPointHex(sidecar.kzg_commitment);
    const kzgProof = decodeKzgPointHex(sidecar.kzg_proof);
    const isWanted = kzgCommitment !== undefined && wanted.has(commitmentVersionedHash(hexToBytes(kzgCommitment)));
    const blob = isWanted ? decodeBlobHex(sidecar.blob) : undefined;
    if (kzgCommitment === undefined || kzgProof === undefined || (isWanted && blob === undefined)) malformed++;
    else if (blob !== undefined) candidates.push({ blob, kzgCommitment, kzgProof });
  }
  if (malformed > 0) logger.debug(`${source} served ${malformed} malformed blob sidecars`, { source, what });
  return candidates;
}
