/**
 * A Blobscan-style blob archive on loopback, holding the blobs a test gives it (adapters/blobs/archiveBlobSource.ts
 * documents the shape): `GET /blobs/{versionedHash}/data` answers the blob as a JSON string of 0x hex, or 404 with
 * Blobscan's `{ message, code: 'NOT_FOUND' }`; `GET /healthcheck` answers `"yay!"`. Switchable: blobs missing (404)
 * or corrupt (bytes flipped), every answer a 500 or a raw answer, the server down or hanging. Requests are recorded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { VerifiedBlob } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import {
  flipBlobBytes,
  startTestHttpServer,
  writeJson,
  writeRaw,
  type RawAnswer,
  type RecordedRequest,
  type TestServerMode,
} from './httpTestServer.js';

export interface BlobArchiveBehaviour {
  readonly mode: TestServerMode;
  /** Blobs answered 404 although held (versioned hashes in lowercase), or all of them. */
  readonly missingBlobs: ReadonlySet<Hex> | 'all';
  readonly corruptBlobs: ReadonlySet<Hex> | 'all';
  /** Answers every request with this instead (a 500, truncated JSON, a huge body, ...). */
  readonly answer?: RawAnswer;
}

export interface BlobArchiveServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Holds these blobs from now on, by their versioned hash. */
  put(blobs: readonly VerifiedBlob[]): void;
  set(change: Partial<BlobArchiveBehaviour>): void;
  reset(): void;
  close(): Promise<void>;
}

const PASS: BlobArchiveBehaviour = { mode: 'pass', missingBlobs: new Set(), corruptBlobs: new Set() };
const BLOB_DATA_ROUTE = /^\/blobs\/([^/]+)\/data$/;

export async function startBlobArchiveServer(): Promise<BlobArchiveServer> {
  let behaviour = PASS;
  const held = new Map<string, Uint8Array>();
  const server = await startTestHttpServer(
    () => behaviour.mode,
    (request, response) => serve(held, behaviour, request, response),
  );
  return {
    url: server.url,
    requests: server.requests,
    put: (blobs) => blobs.forEach(({ versionedHash, blob }) => held.set(versionedHash.toLowerCase(), blob)),
    set: (change) => (behaviour = { ...behaviour, ...change }),
    reset: () => (behaviour = PASS),
    close: server.close,
  };
}

async function serve(
  held: ReadonlyMap<string, Uint8Array>,
  behaviour: BlobArchiveBehaviour,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (behaviour.answer !== undefined) return writeRaw(response, behaviour.answer);
  const path = new URL(request.url ?? '/', 'http://archive').pathname;
  if (path === '/healthcheck') return writeJson(response, 200, 'yay!');
  const route = BLOB_DATA_ROUTE.exec(path);
  const hash = route === null ? undefined : (decodeURIComponent(route[1]!).toLowerCase() as Hex);
  const blob = hash === undefined ? undefined : held.get(hash);
  if (hash === undefined || blob === undefined || matches(behaviour.missingBlobs, hash)) {
    const message = hash === undefined ? 'Not found' : `No blob data storage URLs found for blob with id '${hash}'.`;
    return writeJson(response, 404, { message, code: 'NOT_FOUND' });
  }
  writeJson(response, 200, bytesToHex(matches(behaviour.corruptBlobs, hash) ? flipBlobBytes(blob) : blob));
}

function matches(set: ReadonlySet<Hex> | 'all', hash: Hex): boolean {
  return set === 'all' || set.has(hash);
}
