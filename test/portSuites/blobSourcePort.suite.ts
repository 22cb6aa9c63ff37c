/**
 * The contract every blob source keyed by versioned hash keeps (file stores, blob archives; production and
 * simulated alike): it answers the blobs of a request it holds, only those, in any order; none for those it lacks
 * (a miss, not a failure); nothing for an empty request; and `check` resolves while it answers. The chain
 * (core/blobs/blobSourceChain.ts) relies on exactly this: a candidate that matches no requested hash is a wrong blob.
 * Consensus sources are keyed by block, and are held to the same answers in their own tests (on anvil and SimL1).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { BlobRequest, BlobSourcePort, VerifiedBlob } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { BLOB_SIZE_BYTES } from '../../spec/constants.js';

export interface BlobSourceFixture {
  readonly source: BlobSourcePort;
  /** Puts blobs where the source serves them from. */
  hold(blobs: readonly VerifiedBlob[]): Promise<void>;
  cleanup?(): Promise<void>;
}

/** A blob of recognizable bytes and a made-up versioned hash (stores key by hash; checking is the chain's job). */
export function suiteBlob(seed: number): VerifiedBlob {
  const blob = new Uint8Array(BLOB_SIZE_BYTES);
  for (let i = 0; i < 64; i++) blob[i * 1024] = (seed + i) & 0x7f;
  const versionedHash = `0x01${seed.toString(16).padStart(2, '0').repeat(31)}` as Hex;
  return { versionedHash, blob };
}

export function suiteRequest(versionedHashes: readonly Hex[]): BlobRequest {
  return {
    versionedHashes,
    l1: { blockNumber: 7n, blockHash: `0x${'07'.repeat(32)}`, timestamp: 84n, txHash: `0x${'70'.repeat(32)}` },
  };
}

const hexes = (blobs: readonly { blob: Uint8Array }[]) => blobs.map((b) => bytesToHex(b.blob)).sort();

export function describeBlobSourcePort(name: string, makeFixture: () => Promise<BlobSourceFixture>): void {
  describe(`BlobSourcePort contract: ${name}`, () => {
    let fixture: BlobSourceFixture | undefined;
    const open = async () => (fixture = await makeFixture());
    afterEach(async () => {
      await fixture?.cleanup?.();
      fixture = undefined;
    });

    it('answers the blobs it holds of a request, and only those', async () => {
      const { source, hold } = await open();
      const [a, b, c] = [suiteBlob(1), suiteBlob(2), suiteBlob(3)];
      await hold([a!, b!, c!]);
      const answer = await source.getBlobs(suiteRequest([a!.versionedHash, c!.versionedHash]));
      expect(hexes(answer)).toEqual(hexes([a!, c!]));
    });

    it('answers nothing, without failing, for blobs it lacks and for an empty request', async () => {
      const { source, hold } = await open();
      const held = suiteBlob(4);
      await hold([held]);
      expect(await source.getBlobs(suiteRequest([suiteBlob(5).versionedHash]))).toEqual([]);
      expect(hexes(await source.getBlobs(suiteRequest([suiteBlob(6).versionedHash, held.versionedHash])))).toEqual(
        hexes([held]),
      );
      expect(await source.getBlobs(suiteRequest([]))).toEqual([]);
    });

    it('says it answers, and names itself', async () => {
      const { source } = await open();
      await expect(source.check()).resolves.toBeUndefined();
      expect(source.name.length).toBeGreaterThan(0);
    });
  });
}
