/**
 * Reads blobs from a consensus (beacon) node: `GET /eth/v1/beacon/blobs/{slot}?versioned_hashes=...`. The beacon
 * slot of an execution block is (block timestamp - beacon genesis time) / 12. Anvil serves the same routes on its
 * JSON-RPC port, with {id} read as an execution block number; started with `--timestamp T0` and
 * `anvil_setBlockTimestampInterval(12)`, its block numbers and slots coincide, so this code runs unchanged on it.
 */
import { L1Error } from '../../core/l1/l1Error.js';
import type { Hex } from '../../spec/chain.js';
import { hexToBytes, isHex } from '../../spec/codec/bytes.js';
import { BLOB_SIZE_BYTES, L1_SLOT_DURATION_SECONDS } from '../../spec/constants.js';
import { matchBlobsToVersionedHashes } from './kzg.js';

export interface BeaconBlobReader {
  /** The blobs with `versionedHashes`, in that order, of the execution block with timestamp `blockTimestamp`. */
  getBlobs(blockTimestamp: bigint, versionedHashes: readonly Hex[]): Promise<Uint8Array[]>;
}

export interface BeaconBlobReaderOptions {
  readonly l1ConsensusHostUrl: string;
  readonly requestTimeoutMs?: number;
}

const BEACON_REQUEST_TIMEOUT_MS_DEFAULT = 10_000;

export function createBeaconBlobReader(options: BeaconBlobReaderOptions): BeaconBlobReader {
  const baseUrl = options.l1ConsensusHostUrl.replace(/\/+$/, '');
  const timeoutMs = options.requestTimeoutMs ?? BEACON_REQUEST_TIMEOUT_MS_DEFAULT;
  let genesisTime: Promise<bigint> | undefined;

  const getJson = async (path: string): Promise<{ status: number; body: unknown }> => {
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new L1Error('L1_UNREACHABLE', `consensus node at ${baseUrl} unreachable (GET ${path})`, { cause });
    }
    const body: unknown = response.ok ? await response.json() : undefined;
    return { status: response.status, body };
  };

  const readGenesisTime = async (): Promise<bigint> => {
    const { status, body } = await getJson('/eth/v1/beacon/genesis');
    const value = (body as { data?: { genesis_time?: unknown } } | undefined)?.data?.genesis_time;
    if (status !== 200 || typeof value !== 'string' || !/^\d+$/.test(value)) {
      throw new L1Error('L1_BLOBS_UNAVAILABLE', `consensus node at ${baseUrl} gave no genesis time (HTTP ${status})`);
    }
    return BigInt(value);
  };

  return {
    async getBlobs(blockTimestamp, versionedHashes) {
      genesisTime ??= readGenesisTime().catch((error: unknown) => {
        genesisTime = undefined; // do not cache a failure
        throw error;
      });
      const slot = (blockTimestamp - (await genesisTime)) / BigInt(L1_SLOT_DURATION_SECONDS);
      // Comma-separated: anvil keeps only the last of repeated `versioned_hashes` parameters.
      const { status, body } = await getJson(
        `/eth/v1/beacon/blobs/${slot}?versioned_hashes=${versionedHashes.join(',')}`,
      );
      if (status !== 200) {
        throw new L1Error(
          'L1_BLOBS_UNAVAILABLE',
          `consensus node at ${baseUrl} answered HTTP ${status} for the blobs of slot ${slot}`,
        );
      }
      const candidates = parseBlobList((body as { data?: unknown }).data);
      const matched = matchBlobsToVersionedHashes(candidates, versionedHashes);
      const missing = versionedHashes.filter((_, i) => matched[i] === undefined);
      if (missing.length > 0) {
        throw new L1Error(
          'L1_BLOBS_UNAVAILABLE',
          `consensus node at ${baseUrl} lacks blobs ${missing.join(', ')} of slot ${slot}`,
        );
      }
      return matched as Uint8Array[];
    },
  };
}

function parseBlobList(data: unknown): Uint8Array[] {
  if (!Array.isArray(data)) return [];
  return data
    .filter((item): item is Hex => isHex(item) && item.length === 2 + 2 * BLOB_SIZE_BYTES)
    .map((item) => hexToBytes(item));
}
