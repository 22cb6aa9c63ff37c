/**
 * The KZG checker on real blobs: the hash it answers is viem's, a served proof is verified rather than trusted, and
 * whatever is not a valid blob, commitment or proof answers undefined. Also measures both paths per blob.
 */
import { commitmentToVersionedHash } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BlobCandidate } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { payloadToBlobs } from '../../spec/codec/checkpointBlobs.js';
import { BLOB_SIZE_BYTES } from '../../spec/constants.js';
import { getKzg } from '../l1/kzg.js';
import { flipBlobBytes } from '../../test/helpers/httpTestServer.js';
import { createKzgBlobChecker } from './kzgBlobChecker.js';

/** `count` distinct valid blobs (the payload codec keeps every field element below the modulus). */
function makeBlobs(count: number, seed: number): Uint8Array[] {
  return Array.from({ length: count }, (_, i) => {
    const payload = new Uint8Array(100_000).map((_, j) => (j * 31 + i * 7 + seed) & 0xff);
    return payloadToBlobs(payload)[0]!;
  });
}

interface Served {
  readonly blob: Uint8Array;
  readonly hash: Hex;
  readonly commitment: Hex;
  readonly proof: Hex;
}

function serve(blob: Uint8Array): Served {
  const kzg = getKzg();
  const commitment = kzg.blobToKzgCommitment(blob);
  return {
    blob,
    hash: commitmentToVersionedHash({ commitment: bytesToHex(commitment) }),
    commitment: bytesToHex(commitment),
    proof: bytesToHex(kzg.computeBlobKzgProof(blob, commitment)),
  };
}

describe('createKzgBlobChecker', () => {
  const checker = createKzgBlobChecker();
  let a: Served;
  let b: Served;

  beforeAll(() => {
    [a, b] = makeBlobs(2, 1).map(serve) as [Served, Served];
  });

  it('answers the versioned hash of a bare blob, as viem computes it', async () => {
    expect(await checker.versionedHashOf({ blob: a.blob })).toBe(a.hash);
  });

  it('answers the served commitment hash when the served proof holds', async () => {
    expect(await checker.versionedHashOf({ blob: a.blob, kzgCommitment: a.commitment, kzgProof: a.proof })).toBe(
      a.hash,
    );
  });

  it('a corrupted blob has another hash bare, and fails its served proof', async () => {
    const corrupted = flipBlobBytes(a.blob);
    const bare = await checker.versionedHashOf({ blob: corrupted });
    expect(bare).toMatch(/^0x01[0-9a-f]{62}$/);
    expect(bare).not.toBe(a.hash);
    expect(await checker.versionedHashOf({ blob: corrupted, kzgCommitment: a.commitment, kzgProof: a.proof })).toBe(
      undefined,
    );
  });

  it('answers undefined for a proof of another blob, or a commitment that is not the blob one', async () => {
    expect(await checker.versionedHashOf({ blob: a.blob, kzgCommitment: a.commitment, kzgProof: b.proof })).toBe(
      undefined,
    );
    expect(await checker.versionedHashOf({ blob: a.blob, kzgCommitment: b.commitment, kzgProof: b.proof })).toBe(
      undefined,
    );
  });

  it('answers undefined, never throws, for bytes that are not a blob, commitment or proof', async () => {
    const overModulus = new Uint8Array(a.blob);
    overModulus.fill(0xff, 0, 32);
    const notOnCurve: Hex = `0x${'11'.repeat(48)}`;
    const cases: BlobCandidate[] = [
      { blob: new Uint8Array(0) },
      { blob: a.blob.subarray(0, BLOB_SIZE_BYTES - 1) },
      { blob: new Uint8Array(BLOB_SIZE_BYTES + 1) },
      { blob: overModulus },
      { blob: overModulus, kzgCommitment: a.commitment, kzgProof: a.proof },
      { blob: a.blob, kzgCommitment: notOnCurve, kzgProof: a.proof },
      { blob: a.blob, kzgCommitment: a.commitment, kzgProof: notOnCurve },
      { blob: a.blob, kzgCommitment: '0x1234', kzgProof: a.proof },
      { blob: a.blob, kzgCommitment: a.commitment, kzgProof: `0x${'zz'.repeat(48)}` as Hex },
    ];
    for (const candidate of cases) expect(await checker.versionedHashOf(candidate)).toBe(undefined);
  });

  it('lets timers run between the blobs of one checkpoint checked together', async () => {
    const events: string[] = [];
    let running = true;
    const tick = () => {
      events.push('tick');
      if (running) setTimeout(tick, 0);
    };
    setTimeout(tick, 0);
    const blobs = makeBlobs(4, 2);
    await Promise.all(blobs.map((blob) => checker.versionedHashOf({ blob }).then(() => events.push('blob'))));
    running = false;
    const blobAt = events.flatMap((event, i) => (event === 'blob' ? [i] : []));
    for (let k = 1; k < blobAt.length; k++) expect(events.slice(blobAt[k - 1]!, blobAt[k]), `${k}`).toContain('tick');
  });

  it('measures a commitment against a proof verification, per blob', async () => {
    const served = makeBlobs(6, 3).map(serve);
    const timePerBlob = async (candidates: BlobCandidate[]) => {
      const start = performance.now();
      for (const candidate of candidates) expect(await checker.versionedHashOf(candidate)).toMatch(/^0x01/);
      return (performance.now() - start) / candidates.length;
    };
    const commitmentMs = await timePerBlob(served.map(({ blob }) => ({ blob })));
    const proofMs = await timePerBlob(
      served.map(({ blob, commitment, proof }) => ({ blob, kzgCommitment: commitment, kzgProof: proof })),
    );
    console.info(`KZG check per blob: commitment ${commitmentMs.toFixed(1)} ms, proof ${proofMs.toFixed(1)} ms`);
    expect(proofMs).toBeLessThan(commitmentMs);
  });
});
