/**
 * KZG for EIP-4844 blobs, backed by c-kzg (native). The trusted setup (about 2.5 s to load) is loaded once per
 * process, on first use.
 */
import cKzg from 'c-kzg';
import { createHash } from 'node:crypto';
import { defineKzg, type Kzg } from 'viem';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { BLOB_SIZE_BYTES, VERSIONED_HASH_VERSION_KZG } from '../../spec/constants.js';

let kzg: Kzg | undefined;

/** The viem Kzg object (c-kzg with the mainnet trusted setup loaded). */
export function getKzg(): Kzg {
  if (kzg === undefined) {
    try {
      // Argument 0: no precomputation, the fastest load; c-kzg 4 takes a number here, not a file path.
      cKzg.loadTrustedSetup(0);
    } catch (error) {
      // Another module of this process may have loaded it already; anything else is a real failure.
      if (!/already loaded/i.test((error as Error).message)) throw error;
    }
    kzg = defineKzg(cKzg);
  }
  return kzg;
}

/** Whether this thread has loaded the trusted setup already (getKzg was called), so that a check costs no load. */
export function isKzgLoaded(): boolean {
  return kzg !== undefined;
}

/** KZG commitment (48 bytes) of one blob. */
export function blobCommitment(blob: Uint8Array): Uint8Array {
  if (blob.length !== BLOB_SIZE_BYTES) throw new Error(`a blob is ${BLOB_SIZE_BYTES} bytes, got ${blob.length}`);
  return getKzg().blobToKzgCommitment(blob);
}

/**
 * Whether `proof` shows that `commitment` commits to `blob` (c-kzg's verifyBlobKzgProof: two pairings, far cheaper
 * than computing the commitment). Throws when an input is malformed: a wrong size, a field element at or above the
 * BLS modulus, a point not on the curve.
 */
export function blobKzgProofHolds(blob: Uint8Array, commitment: Uint8Array, proof: Uint8Array): boolean {
  getKzg();
  return cKzg.verifyBlobKzgProof(blob, commitment, proof);
}

/** EIP-4844 versioned hash of a commitment: sha256(commitment) with its first byte replaced by the version. */
export function commitmentVersionedHash(commitment: Uint8Array): Hex {
  const digest = createHash('sha256').update(commitment).digest();
  digest[0] = VERSIONED_HASH_VERSION_KZG;
  return bytesToHex(digest);
}

/** Versioned hashes of `blobs`, in order. */
export function blobVersionedHashes(blobs: readonly Uint8Array[]): Hex[] {
  return blobs.map((blob) => commitmentVersionedHash(blobCommitment(blob)));
}
