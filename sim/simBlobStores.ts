/**
 * The blob sources a simulated node has besides its consensus client (sim/l1/link.ts): the team's shared blob file
 * store, which every node copies the blobs it fetched or published to and reads when its consensus client lacks one,
 * and a blob archive API that keeps every proposal's blobs L1 ever included, asked last. Faults: the file store
 * serves corrupted blobs (`blobs.corrupted`); the archive answers after a latency.
 */
import type { BlobCheckerPort, BlobsPort, BlobSourcePort, BlobUploadPort, NodePorts } from '../core/ports.js';
import type { Hex } from '../spec/chain.js';
import { BLOB_SIZE_BYTES } from '../spec/constants.js';
import { simVersionedHash } from './l1/blobs.js';
import type { SimL1Link } from './l1/link.js';
import type { Scheduler } from './scheduler.js';
import type { SimL1 } from './simL1.js';

/** Simulated time a blob archive API takes to answer (it is remote and slow). */
export const SIM_BLOB_ARCHIVE_LATENCY_MS = 500;

/** The simulator's checker: blobs are bound to versioned hashes by simVersionedHash (no KZG here). */
export const simBlobChecker: BlobCheckerPort = {
  versionedHashOf: async ({ blob }) => (blob.length === BLOB_SIZE_BYTES ? simVersionedHash(blob) : undefined),
};

/** A node's L1 ports over one link alone: its reader, and its consensus client as the only blob source. */
export function l1PortsOverLink(link: SimL1Link): Pick<NodePorts, 'l1' | 'blobs'> {
  return { l1: link.reader, blobs: { sources: [link.blobSource], checker: simBlobChecker } };
}

export class SimBlobStores {
  private readonly fileStore = new Map<Hex, Uint8Array>();
  private corrupted = false;

  constructor(
    private readonly l1: SimL1,
    private readonly scheduler: Scheduler,
  ) {}

  /** While true, the file store serves every blob with its first byte flipped. */
  setCorrupted(corrupted: boolean): void {
    this.corrupted = corrupted;
  }

  /** How many blobs the shared file store holds. */
  fileStoreSize(): number {
    return this.fileStore.size;
  }

  /** A node's blob ports: its link's consensus client, then the shared file store, then the archive. */
  portsFor(label: string, link: SimL1Link): BlobsPort {
    return {
      sources: [link.blobSource, this.fileStoreSource(), this.archiveSource(label)],
      upload: this.upload(),
      checker: simBlobChecker,
    };
  }

  private fileStoreSource(): BlobSourcePort {
    return {
      kind: 'fileStore',
      name: 'fileStore/team',
      getBlobs: async (request) =>
        request.versionedHashes.flatMap((hash) => {
          const blob = this.fileStore.get(hash);
          return blob === undefined ? [] : [{ blob: this.corrupted ? corrupt(blob) : blob.slice() }];
        }),
      check: async () => undefined,
    };
  }

  private upload(): BlobUploadPort {
    return {
      name: 'fileStore/team',
      putBlobs: async (blobs) => {
        for (const { versionedHash, blob } of blobs) this.fileStore.set(versionedHash, blob.slice());
      },
      check: async () => undefined,
    };
  }

  private archiveSource(label: string): BlobSourcePort {
    return {
      kind: 'archive',
      name: 'archive/blobscan',
      getBlobs: async (request) => {
        await this.scheduler.sleep(SIM_BLOB_ARCHIVE_LATENCY_MS, { owner: `archive/${label}`, label: 'getBlobs' });
        return this.l1.archivedBlobsOf(request.l1.txHash, request.versionedHashes).map((blob) => ({ blob }));
      },
      check: async () => undefined,
    };
  }
}

function corrupt(blob: Uint8Array): Uint8Array {
  const copy = blob.slice();
  copy[0] = copy[0]! ^ 0xff;
  return copy;
}
