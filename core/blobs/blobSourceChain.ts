/**
 * The blob-source chain: how the node finds a checkpoint's blobs. Sources are asked by kind, consensus clients first
 * (they hold recent blobs and answer fastest), then file stores (a team's own copies), in their configured order
 * within a kind; a round asks each of them for the blobs still missing. Rounds repeat after the delays of the
 * request's urgency: near the L1 tip a blob may still be on its way to the consensus client, so the chain waits a
 * little longer (BLOB_RETRY_DELAYS_NEAR_TIP_MS); in historical sync a missing blob is not coming, so it falls through
 * quickly (BLOB_RETRY_DELAYS_HISTORICAL_MS). The archive API is asked last: after the final round; in historical sync
 * also right after the first, before any wait. Every blob from anywhere is checked
 * against its versioned hash (BlobCheckerPort) before use; a source that serves a wrong blob is skipped for it and
 * logged. Blobs found are copied to the upload store, if any, without waiting for it.
 *
 * Per source the chain counts blobs served, missed and failed (a source error, or a wrong blob).
 */
import { L1Error } from '../l1/l1Error.js';
import type {
  BlobCandidate,
  BlobsPort,
  BlobRequest,
  BlobSourceKind,
  BlobSourcePort,
  BlobUploadPort,
  ClockPort,
  LoggerPort,
  VerifiedBlob,
} from '../ports.js';
import type { Hex } from '../../spec/chain.js';

/** Waits between rounds near the L1 tip (the blob may reach the consensus client late): 7 s in all. */
export const BLOB_RETRY_DELAYS_NEAR_TIP_MS: readonly number[] = [1_000, 1_000, 1_000, 2_000, 2_000];
/** Waits between rounds in historical sync (a missing blob is not coming): 2 s in all. */
export const BLOB_RETRY_DELAYS_HISTORICAL_MS: readonly number[] = [1_000, 1_000];
/** A proposal at most this many L1 blocks below the L1 head is fetched with the near-tip delays (about 6 minutes). */
export const BLOB_NEAR_TIP_L1_BLOCKS = 32n;

/**
 * A source that failed (threw: down, hanging until its timeout, answering errors) is skipped for this long in every
 * round but the last, so a hanging consensus client costs its timeout once rather than once per checkpoint while a
 * store has the blobs. The last round asks every source, so a source that recovered is never missed for good.
 */
export const BLOB_SOURCE_FAILURE_COOLDOWN_MS = 30_000;

export type BlobUrgency = 'nearTip' | 'historical';

/** Served: blobs a source gave that matched. Missed: asked for, not in its answer. Failed: it threw, or a wrong blob. */
export interface BlobSourceStats {
  readonly kind: BlobSourceKind;
  readonly name: string;
  readonly served: number;
  readonly missed: number;
  readonly failed: number;
}

/** The outcome of asking one source at startup. */
export type BlobSourceCheck =
  | { readonly kind: BlobSourceKind | 'upload'; readonly name: string; readonly ok: true }
  | { readonly kind: BlobSourceKind | 'upload'; readonly name: string; readonly ok: false; readonly reason: string };

export interface BlobSourceChain {
  /** The blobs of `request`, in the order of its versioned hashes; L1Error('L1_BLOBS_UNAVAILABLE') saying why not. */
  getBlobs(request: BlobRequest, urgency: BlobUrgency): Promise<Uint8Array[]>;
  /** Copies blobs this node published to the upload store (in the background; a failure is logged). */
  keepPublished(blobs: readonly VerifiedBlob[]): void;
  /** Asks every source (and the upload store) whether it answers. */
  checkSources(): Promise<BlobSourceCheck[]>;
  stats(): BlobSourceStats[];
}

export interface BlobSourceChainDeps {
  readonly blobs: BlobsPort;
  readonly clock: ClockPort;
  readonly logger: LoggerPort;
}

/** The urgency of fetching a proposal's blobs at L1 block `proposalBlock` when L1's head is `l1Head`. */
export function blobUrgency(proposalBlock: bigint, l1Head: bigint): BlobUrgency {
  return l1Head - proposalBlock <= BLOB_NEAR_TIP_L1_BLOCKS ? 'nearTip' : 'historical';
}

const KIND_ORDER: readonly BlobSourceKind[] = ['consensus', 'fileStore', 'archive'];

interface Counters {
  served: number;
  missed: number;
  failed: number;
}

/** What one fetch has found so far, and what each source said. */
interface Fetch {
  readonly request: BlobRequest;
  readonly found: Map<Hex, { readonly blob: Uint8Array; readonly from: BlobSourcePort }>;
  readonly outcomes: Map<BlobSourcePort, string>;
}

export function createBlobSourceChain(deps: BlobSourceChainDeps): BlobSourceChain {
  const { blobs, logger } = deps;
  const ordered = KIND_ORDER.flatMap((kind) => blobs.sources.filter((s) => s.kind === kind));
  const rounds = ordered.filter((s) => s.kind !== 'archive');
  const archives = ordered.filter((s) => s.kind === 'archive');
  const counters = new Map<BlobSourcePort, Counters>(ordered.map((s) => [s, { served: 0, missed: 0, failed: 0 }]));
  /** Until when (clock ms) each source that failed is skipped in rounds before the last. */
  const coolingUntil = new Map<BlobSourcePort, number>();
  const cooling = (source: BlobSourcePort) => (coolingUntil.get(source) ?? 0) > deps.clock.now();

  const missing = (fetch: Fetch): Hex[] => fetch.request.versionedHashes.filter((h) => !fetch.found.has(h));

  /** Asks one source for the blobs still missing and keeps those that check out. */
  const ask = async (source: BlobSourcePort, fetch: Fetch): Promise<void> => {
    const wanted = missing(fetch);
    const count = counters.get(source)!;
    let candidates: readonly BlobCandidate[];
    try {
      candidates = await source.getBlobs({ ...fetch.request, versionedHashes: wanted });
    } catch (error) {
      coolingUntil.set(source, deps.clock.now() + BLOB_SOURCE_FAILURE_COOLDOWN_MS);
      count.failed += wanted.length;
      fetch.outcomes.set(source, `failed: ${messageOf(error)}`);
      logger.debug('blob source failed', { source: source.name, error: messageOf(error) });
      return;
    }
    coolingUntil.delete(source);
    const wrong = await keepMatching(source, candidates, wanted, fetch);
    const stillMissing = missing(fetch).length;
    const served = wanted.length - stillMissing;
    count.served += served;
    count.failed += Math.min(wrong, stillMissing);
    count.missed += stillMissing - Math.min(wrong, stillMissing);
    fetch.outcomes.set(source, wrong > 0 ? `served ${wrong} wrong blob(s)` : `served ${served} of ${wanted.length}`);
  };

  /** Keeps the candidates whose versioned hash is one still wanted; returns how many matched nothing wanted. */
  const keepMatching = async (
    source: BlobSourcePort,
    candidates: readonly BlobCandidate[],
    wanted: readonly Hex[],
    fetch: Fetch,
  ): Promise<number> => {
    let wrong = 0;
    for (const candidate of candidates) {
      const hash = await blobs.checker.versionedHashOf(candidate);
      if (hash !== undefined && wanted.includes(hash) && !fetch.found.has(hash)) {
        fetch.found.set(hash, { blob: candidate.blob, from: source });
      } else if (hash === undefined || !wanted.includes(hash)) {
        wrong++;
      }
    }
    if (wrong > 0)
      logger.warn('a blob source served a blob that is not one asked for: skipped', {
        source: source.name,
        wrongBlobs: wrong,
        l1Block: fetch.request.l1.blockNumber,
      });
    return wrong;
  };

  const sleep = (ms: number) => new Promise<void>((resolve) => deps.clock.setTimeout(resolve, ms));

  const upload = (verified: readonly VerifiedBlob[]) => uploadInBackground(blobs.upload, verified, logger);

  /** Asks each of `sources` in turn for what is still missing; `all` also asks those cooling down after a failure. */
  const askEach = async (sources: readonly BlobSourcePort[], fetch: Fetch, all: boolean): Promise<void> => {
    for (const source of sources) {
      if (missing(fetch).length === 0) return;
      if (all || !cooling(source)) await ask(source, fetch);
    }
  };

  const search = async (fetch: Fetch, urgency: BlobUrgency): Promise<void> => {
    const delays = urgency === 'nearTip' ? BLOB_RETRY_DELAYS_NEAR_TIP_MS : BLOB_RETRY_DELAYS_HISTORICAL_MS;
    for (let round = 0; round <= delays.length && rounds.length > 0; round++) {
      if (missing(fetch).length === 0) return;
      if (round > 0) await sleep(delays[round - 1]!);
      await askEach(rounds, fetch, round === delays.length);
      // In historical sync a blob every consensus client and store lacks is not coming: the archive is asked
      // before any wait (and again after the last round), so a chain older than the clients keep syncs at speed.
      if (round === 0 && urgency === 'historical') await askEach(archives, fetch, false);
    }
    await askEach(archives, fetch, true);
  };

  return {
    async getBlobs(request, urgency) {
      const fetch: Fetch = { request, found: new Map(), outcomes: new Map() };
      await search(fetch, urgency);
      const absent = missing(fetch);
      if (absent.length > 0) throw unavailable(request, absent, fetch.outcomes, ordered.length);
      upload(
        [...fetch.found]
          .filter(([, { from }]) => from.kind !== 'fileStore' || from.name !== blobs.upload?.name)
          .map(([versionedHash, { blob }]) => ({ versionedHash, blob })),
      );
      return request.versionedHashes.map((hash) => fetch.found.get(hash)!.blob);
    },
    keepPublished: upload,
    checkSources: () => checkSources(ordered, blobs.upload),
    stats: () => ordered.map((s) => ({ kind: s.kind, name: s.name, ...counters.get(s)! })),
  };
}

/** Asks every source (and the upload store) whether it answers. */
async function checkSources(
  sources: readonly BlobSourcePort[],
  store: BlobUploadPort | undefined,
): Promise<BlobSourceCheck[]> {
  const probe = async (kind: BlobSourceCheck['kind'], name: string, check: () => Promise<void>) => {
    try {
      await check();
      return { kind, name, ok: true } as const;
    } catch (error) {
      return { kind, name, ok: false, reason: messageOf(error) } as const;
    }
  };
  const checks = sources.map((s) => probe(s.kind, s.name, () => s.check()));
  if (store !== undefined) checks.push(probe('upload', store.name, () => store.check()));
  return Promise.all(checks);
}

function uploadInBackground(
  store: BlobUploadPort | undefined,
  verified: readonly VerifiedBlob[],
  logger: LoggerPort,
): void {
  if (store === undefined || verified.length === 0) return;
  store.putBlobs(verified).catch((error: unknown) => {
    logger.warn('could not copy blobs to the upload store', { store: store.name, error: messageOf(error) });
  });
}

function unavailable(
  request: BlobRequest,
  absent: readonly Hex[],
  outcomes: ReadonlyMap<BlobSourcePort, string>,
  sourceCount: number,
): L1Error {
  const said = [...outcomes].map(([source, outcome]) => `${source.kind} ${source.name}: ${outcome}`).join('; ');
  const why = sourceCount === 0 ? 'no blob source is configured' : `last answers: ${said}`;
  return new L1Error(
    'L1_BLOBS_UNAVAILABLE',
    `no blob source has blob(s) ${absent.join(', ')} of L1 tx ${request.l1.txHash} (L1 block ${request.l1.blockNumber}); ${why}`,
  );
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
