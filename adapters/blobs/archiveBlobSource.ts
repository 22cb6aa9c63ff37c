/**
 * BlobSourcePort over a Blobscan-style blob archive API (`https://api.blobscan.com`, `https://api.sepolia.blobscan.com`),
 * the last resort for blobs older than consensus nodes keep.
 *
 * The shape accepted, per wanted blob, one at a time:
 * - `GET {url}/blobs/{versionedHash}/data` answers 200 with a JSON string, the blob as 0x-prefixed hex
 *   (Blobscan's `getBlobDataByBlobId`). 404 is a miss. Any other status is a failure; Blobscan answers 403 when its
 *   operator disabled the route and 401 when it is behind a key.
 * - `GET {url}/healthcheck` is the cheap route `check()` probes (Blobscan answers `"yay!"`).
 *
 * Not used: `GET {url}/blobs/{versionedHash}` and `GET {url}/blocks/{id}?expand=blob,blob_data`. Since Blobscan's
 * change "Do not return blob data in api response" (May 2025, #762) they return commitments, proofs and storage
 * references but no blob data, and `blob_data` is no longer an accepted `expand` value.
 *
 * Answers are capped at one blob's hex plus slack and read with a timeout; a malformed blob is dropped (the chain then
 * asks elsewhere), an answer that is not a JSON string fails.
 */
import type { BlobCandidate, BlobRequest, BlobSourcePort, LoggerPort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import {
  BLOB_HEX_CHARS,
  JSON_ENVELOPE_BYTES_MAX,
  badResponse,
  boundedGet,
  decodeBlobHex,
  httpBaseOf,
  parseJson,
  SILENT_LOGGER,
  statusError,
  type HttpBase,
} from './blobHttp.js';

export interface ArchiveBlobSourceOptions {
  /** Base URL of the API, e.g. `https://api.blobscan.com`. */
  readonly url: string;
  readonly requestTimeoutMs?: number;
  readonly logger?: LoggerPort;
}

export const ARCHIVE_REQUEST_TIMEOUT_MS_DEFAULT = 10_000;
/** Largest blob answer read: one blob's hex as a JSON string, plus slack. */
export const ARCHIVE_BLOB_ANSWER_BYTES_MAX = BLOB_HEX_CHARS + JSON_ENVELOPE_BYTES_MAX;
/** Largest health-check answer read. */
const ARCHIVE_HEALTHCHECK_ANSWER_BYTES_MAX = 4 * 1024;

const HEALTHCHECK_PATH = '/healthcheck';
const blobDataPath = (versionedHash: Hex) => `/blobs/${encodeURIComponent(versionedHash.toLowerCase())}/data`;

export function createArchiveBlobSource(options: ArchiveBlobSourceOptions): BlobSourcePort {
  const base = httpBaseOf(options.url, 'blob archive');
  const timeoutMs = options.requestTimeoutMs ?? ARCHIVE_REQUEST_TIMEOUT_MS_DEFAULT;
  const logger = options.logger ?? SILENT_LOGGER;
  const get = (path: string, bodyBytesMax: number) =>
    boundedGet({
      url: base.urlOf(path, []),
      headers: base.headers,
      timeoutMs,
      bodyBytesMax,
      source: base.name,
      what: `GET ${path}`,
      secrets: base.secrets,
    });

  return {
    kind: 'archive',
    name: base.name,
    async getBlobs(request: BlobRequest): Promise<readonly BlobCandidate[]> {
      const candidates: BlobCandidate[] = [];
      for (const versionedHash of request.versionedHashes) {
        const blob = await readBlob(base, versionedHash, (path) => get(path, ARCHIVE_BLOB_ANSWER_BYTES_MAX), logger);
        if (blob !== undefined) candidates.push({ blob });
      }
      return candidates;
    },
    async check(): Promise<void> {
      const answer = await get(HEALTHCHECK_PATH, ARCHIVE_HEALTHCHECK_ANSWER_BYTES_MAX);
      if (answer.status !== 200) throw statusError(base.name, `GET ${HEALTHCHECK_PATH}`, answer);
      logger.info(`blob archive ${base.name} answers`, { source: base.name });
    },
  };
}

/** One blob's data; undefined when the archive lacks it (404) or served something that is not one blob. */
async function readBlob(
  base: HttpBase,
  versionedHash: Hex,
  get: (path: string) => ReturnType<typeof boundedGet>,
  logger: LoggerPort,
): Promise<Uint8Array | undefined> {
  const path = blobDataPath(versionedHash);
  const what = `GET ${path}`;
  const answer = await get(path);
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) throw statusError(base.name, what, answer);
  const data = parseJson(base.name, what, answer);
  if (typeof data !== 'string') throw badResponse(base.name, what, 'an answer that is not a JSON string', 200);
  const blob = decodeBlobHex(data);
  if (blob === undefined) logger.debug(`${base.name} served a malformed blob`, { source: base.name, versionedHash });
  return blob;
}
