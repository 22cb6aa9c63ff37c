/**
 * A node:http proxy in front of a beacon API (anvil's port in tests), with switchable behaviours, for the blob source
 * tests and the end-to-end sync tests. It passes every request upstream except:
 * - the blob routes of `missingSlots` answer 404 "block not found";
 * - blobs of `missingBlobs` are left out of answers, blobs of `corruptBlobs` are served with bytes flipped (the
 *   `blobs` route is asked upstream one versioned hash at a time, so it knows which blob is which; versioned hashes
 *   are compared in lowercase, as viem writes them);
 * - `routes: 'sidecarsOnly'` answers 404 with no body for `blobs` (as a server that does not know the route) and
 *   serves `blob_sidecars` from upstream's `blobs`, each with its commitment and proof computed with c-kzg once per
 *   blob and kept (as a beacon node stores its sidecars: a benchmark then times the client, not the proxy's KZG);
 * - `specSecondsPerSlot` serves `/eth/v1/config/spec` (anvil answers 404 there);
 * - `blobAnswer` answers the blob routes with a raw answer (truncated JSON, HTML, a huge body, a 500);
 * - `mode` 'down' closes every connection, 'hang' never answers.
 * Every request is recorded (method, path and query, headers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex, hexToBytes } from '../../spec/codec/bytes.js';
import { commitmentVersionedHash, getKzg } from '../../adapters/l1/kzg.js';
import {
  flipBlobBytes,
  startTestHttpServer,
  writeJson,
  writeRaw,
  type RawAnswer,
  type RecordedRequest,
  type TestServerMode,
} from './httpTestServer.js';

export interface BeaconProxyBehaviour {
  readonly mode: TestServerMode;
  /** 'upstream': both blob routes as upstream serves them; 'sidecarsOnly': only `blob_sidecars`. */
  readonly routes: 'upstream' | 'sidecarsOnly';
  readonly missingSlots: ReadonlySet<bigint>;
  readonly missingBlobs: ReadonlySet<Hex>;
  readonly corruptBlobs: ReadonlySet<Hex> | 'all';
  readonly specSecondsPerSlot?: number;
  readonly blobAnswer?: RawAnswer;
}

export interface BeaconProxy {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Changes some behaviours; the others stay. */
  set(change: Partial<BeaconProxyBehaviour>): void;
  /** Back to passing everything through. */
  reset(): void;
  close(): Promise<void>;
}

const PASS: BeaconProxyBehaviour = {
  mode: 'pass',
  routes: 'upstream',
  missingSlots: new Set(),
  missingBlobs: new Set(),
  corruptBlobs: new Set(),
};

const BLOB_ROUTE = /^\/eth\/v1\/beacon\/(blobs|blob_sidecars)\/(\d+)$/;

/** A blob's KZG commitment and proof, by the blob's hex. */
type SidecarProofs = Map<string, { readonly commitment: Uint8Array; readonly proof: Uint8Array }>;

export async function startBeaconProxy(upstreamUrl: string): Promise<BeaconProxy> {
  let behaviour = PASS;
  const proofs: SidecarProofs = new Map();
  const server = await startTestHttpServer(
    () => behaviour.mode,
    (request, response) => serve(upstreamUrl, behaviour, proofs, request, response),
  );
  return {
    url: server.url,
    requests: server.requests,
    set: (change) => (behaviour = { ...behaviour, ...change }),
    reset: () => (behaviour = PASS),
    close: server.close,
  };
}

async function serve(
  upstream: string,
  behaviour: BeaconProxyBehaviour,
  proofs: SidecarProofs,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://proxy');
  if (url.pathname === '/eth/v1/config/spec' && behaviour.specSecondsPerSlot !== undefined) {
    return writeJson(response, 200, { data: { SECONDS_PER_SLOT: String(behaviour.specSecondsPerSlot) } });
  }
  const route = BLOB_ROUTE.exec(url.pathname);
  if (route === null) return forward(upstream, url, response);
  if (behaviour.blobAnswer !== undefined) return writeRaw(response, behaviour.blobAnswer);
  const [, kind, slotText] = route;
  const slot = BigInt(slotText!);
  if (behaviour.missingSlots.has(slot)) return writeJson(response, 404, { code: 404, message: 'Block not found' });
  if (behaviour.routes === 'sidecarsOnly') {
    if (kind === 'blobs') return void response.writeHead(404).end();
    const sidecars = await sidecarsOf(upstream, slot, behaviour, proofs);
    if (sidecars === undefined) return writeJson(response, 404, { code: 404, message: 'Block not found' });
    return writeJson(response, 200, { data: sidecars });
  }
  if (kind === 'blob_sidecars') return forward(upstream, url, response);
  const hashes = url.searchParams.get('versioned_hashes');
  if (hashes === null) return forward(upstream, url, response);
  const answer = await blobsByHash(upstream, slot, hashes.split(',') as Hex[], behaviour);
  if (answer.status !== 200) return writeJson(response, answer.status, answer.body);
  return writeJson(response, 200, { execution_optimistic: false, finalized: false, data: answer.blobs });
}

async function forward(upstream: string, url: URL, response: ServerResponse): Promise<void> {
  const answer = await fetch(`${upstream}${url.pathname}${url.search}`);
  const body = Buffer.from(await answer.arrayBuffer());
  const contentType = answer.headers.get('content-type');
  response.writeHead(answer.status, contentType === null ? {} : { 'content-type': contentType });
  response.end(body);
}

/** Upstream's blobs of `slot` with `hashes`, asked one hash at a time so each blob's hash is known. */
async function blobsByHash(
  upstream: string,
  slot: bigint,
  hashes: readonly Hex[],
  behaviour: BeaconProxyBehaviour,
): Promise<{ status: number; body?: unknown; blobs: Hex[] }> {
  const blobs: Hex[] = [];
  for (const hash of hashes) {
    if (behaviour.missingBlobs.has(hash)) continue;
    const answer = await fetch(`${upstream}/eth/v1/beacon/blobs/${slot}?versioned_hashes=${hash}`);
    const body = (await answer.json()) as { data?: Hex[] };
    if (answer.status !== 200) return { status: answer.status, body, blobs: [] };
    for (const blob of body.data ?? []) blobs.push(corrupts(behaviour, hash) ? flipHex(blob) : blob);
  }
  return { status: 200, blobs };
}

/**
 * Upstream's blobs of `slot` as sidecars, each with the commitment and proof c-kzg computes for the true blob;
 * undefined when upstream has no block there.
 */
async function sidecarsOf(
  upstream: string,
  slot: bigint,
  behaviour: BeaconProxyBehaviour,
  proofs: SidecarProofs,
): Promise<unknown[] | undefined> {
  const answer = await fetch(`${upstream}/eth/v1/beacon/blobs/${slot}`);
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) throw new Error(`upstream answered HTTP ${answer.status} for the blobs of slot ${slot}`);
  const { data } = (await answer.json()) as { data: Hex[] };
  const kzg = getKzg();
  return data.flatMap((blobHex, index) => {
    const blob = hexToBytes(blobHex);
    let kept = proofs.get(blobHex);
    if (kept === undefined) {
      const commitment = kzg.blobToKzgCommitment(blob);
      kept = { commitment, proof: kzg.computeBlobKzgProof(blob, commitment) };
      proofs.set(blobHex, kept);
    }
    const { commitment, proof } = kept;
    const hash = commitmentVersionedHash(commitment);
    if (behaviour.missingBlobs.has(hash)) return [];
    return [
      {
        index: String(index),
        blob: bytesToHex(corrupts(behaviour, hash) ? flipBlobBytes(blob) : blob),
        kzg_commitment: bytesToHex(commitment),
        kzg_proof: bytesToHex(proof),
        signed_block_header: { message: { slot: String(slot) }, signature: `0x${'00'.repeat(96)}` },
        kzg_commitment_inclusion_proof: Array.from({ length: 17 }, () => `0x${'00'.repeat(32)}`),
      },
    ];
  });
}

function corrupts(behaviour: BeaconProxyBehaviour, hash: Hex): boolean {
  return behaviour.corruptBlobs === 'all' || behaviour.corruptBlobs.has(hash);
}

function flipHex(blob: Hex): Hex {
  return bytesToHex(flipBlobBytes(hexToBytes(blob)));
}
