/**
 * BlobCheckerPort with KZG (c-kzg, adapters/l1/kzg.ts). A candidate served with its commitment and proof is checked
 * by verifying the proof, and answers the versioned hash of the served commitment; a bare blob has its commitment
 * computed. Invalid input (a wrong size, a field element at or above the BLS modulus, a commitment or proof that is
 * not a curve point, a proof that does not hold) answers undefined and never throws.
 *
 * c-kzg is synchronous: a commitment takes 25 to 50 ms, loading the trusted setup seconds. Checks run on a thread of
 * their own (adapters/blobs/kzgThread.ts, one per process, started at the first check), so a syncing node answers
 * JSON-RPC while its blobs are checked. That thread loads its own trusted setup: until it has, a process whose event
 * loop has one loaded already (an L1 publisher's) checks there, as it did before the thread, because making the
 * node's first checkpoints wait for a second load made a sequencer's epoch proof miss its window on a loaded machine.
 * Should the thread die, checks run on the event loop too. There they run one at a time, each after a turn of the
 * loop (setImmediate), so a checkpoint's blobs checked together never hold the loop for more than one blob. Queued
 * checks are bounded by what callers ask at once (a checkpoint's blobs).
 */
import { setImmediate } from 'node:timers/promises';
import type { BlobCandidate, BlobCheckerPort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { BLOB_SIZE_BYTES } from '../../spec/constants.js';
import { blobCommitment, blobKzgProofHolds, commitmentVersionedHash, isKzgLoaded } from '../l1/kzg.js';
import { KzgRefusedError, startKzgThread, type KzgThread } from './kzgThread.js';

/** Bytes of a KZG commitment or proof (a compressed BLS12-381 G1 point). */
const KZG_POINT_BYTES = 48;
const KZG_POINT_HEX_PATTERN = new RegExp(`^0x[0-9a-fA-F]{${2 * KZG_POINT_BYTES}}$`);

/**
 * One thread per process, started at the first check: every checker of the process (a local network runs several
 * nodes in one) shares it, so the trusted setup is loaded once more at most, not once per node.
 */
let sharedThread: KzgThread | undefined;

export function createKzgBlobChecker(): BlobCheckerPort {
  let previous: Promise<unknown> = Promise.resolve();
  const onTheLoop = (candidate: BlobCandidate): Promise<Hex | undefined> => {
    // After the previous check and a turn of the loop: an immediate queued now runs after pending I/O.
    const check = previous.then(async () => {
      await setImmediate();
      return versionedHashNow(candidate);
    });
    previous = check;
    return check;
  };
  return {
    async versionedHashOf(candidate) {
      const thread = (sharedThread ??= startKzgThread());
      // While the thread loads its trusted setup (seconds), a process that has one loaded already (its L1 publisher
      // made blob commitments) checks here rather than wait: a node's first checkpoint must not wait for the thread.
      if (!thread.ready && isKzgLoaded()) return onTheLoop(candidate);
      try {
        return await versionedHashOnThread(thread, candidate);
      } catch (error) {
        if (error instanceof KzgRefusedError) return undefined; // not a valid blob, commitment or proof
        return onTheLoop(candidate); // the thread died: check here
      }
    },
  };
}

async function versionedHashOnThread(thread: KzgThread, candidate: BlobCandidate): Promise<Hex | undefined> {
  const { blob, kzgCommitment, kzgProof } = candidate;
  if (blob.length !== BLOB_SIZE_BYTES) return undefined;
  if (kzgCommitment === undefined || kzgProof === undefined)
    return commitmentVersionedHash(await thread.commitment(blob));
  const commitment = kzgPointBytes(kzgCommitment);
  const proof = kzgPointBytes(kzgProof);
  if (commitment === undefined || proof === undefined) return undefined;
  return (await thread.proofHolds(blob, commitment, proof)) ? commitmentVersionedHash(commitment) : undefined;
}

function versionedHashNow(candidate: BlobCandidate): Hex | undefined {
  const { blob, kzgCommitment, kzgProof } = candidate;
  if (blob.length !== BLOB_SIZE_BYTES) return undefined;
  try {
    if (kzgCommitment === undefined || kzgProof === undefined) return commitmentVersionedHash(blobCommitment(blob));
    const commitment = kzgPointBytes(kzgCommitment);
    const proof = kzgPointBytes(kzgProof);
    if (commitment === undefined || proof === undefined) return undefined;
    return blobKzgProofHolds(blob, commitment, proof) ? commitmentVersionedHash(commitment) : undefined;
  } catch {
    return undefined; // c-kzg refused the bytes: not a valid blob, commitment or proof
  }
}

function kzgPointBytes(hex: Hex): Uint8Array | undefined {
  return KZG_POINT_HEX_PATTERN.test(hex) ? new Uint8Array(Buffer.from(hex.slice(2), 'hex')) : undefined;
}
