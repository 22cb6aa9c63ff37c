import type { CheckpointHeader, Hex } from '../chain.js';
import { hashToField } from '../hash.js';
import { ByteReader, ByteWriter, CodecError, hexToBytes } from './bytes.js';

/**
 * Checkpoint header encoding, published to L1 with each checkpoint:
 * lastArchiveRoot 32 | slotNumber 8 | timestamp 8 | coinbase 20 | feeRecipient 32 | feePerDaGas 16 |
 * feePerL2Gas 16 | blockCount 2 | blobsHash 32 | totalManaUsed 8 | inHash 32 | outHash 32.
 */
export const CHECKPOINT_HEADER_BYTES = 32 + 8 + 8 + 20 + 32 + 16 + 16 + 2 + 32 + 8 + 32 + 32;
/** Where blobsHash sits in the encoding (the rollup contract checks it against the blob hashes argument). */
export const CHECKPOINT_HEADER_BLOBS_HASH_OFFSET = 32 + 8 + 8 + 20 + 32 + 16 + 16 + 2;
/** Where inHash sits (the rollup contract checks it against the inbox). */
export const CHECKPOINT_HEADER_IN_HASH_OFFSET = CHECKPOINT_HEADER_BLOBS_HASH_OFFSET + 32 + 8;

export function encodeCheckpointHeader(h: CheckpointHeader): Uint8Array {
  return new ByteWriter()
    .hex(h.lastArchiveRoot, 32)
    .uint(h.slotNumber, 8)
    .uint(h.timestamp, 8)
    .hex(h.coinbase, 20)
    .hex(h.feeRecipient, 32)
    .uint(h.gasFees.feePerDaGas, 16)
    .uint(h.gasFees.feePerL2Gas, 16)
    .uint(h.blockCount, 2)
    .hex(h.blobsHash, 32)
    .uint(h.totalManaUsed, 8)
    .hex(h.inHash, 32)
    .hex(h.outHash, 32)
    .finish();
}

export function decodeCheckpointHeader(bytes: Uint8Array): CheckpointHeader {
  if (bytes.length !== CHECKPOINT_HEADER_BYTES) {
    throw new CodecError(`checkpoint header must be ${CHECKPOINT_HEADER_BYTES} bytes, got ${bytes.length}`);
  }
  const r = new ByteReader(bytes);
  return {
    lastArchiveRoot: r.hex(32),
    slotNumber: r.number(8),
    timestamp: r.bigint(8),
    coinbase: r.hex(20),
    feeRecipient: r.hex(32),
    gasFees: { feePerDaGas: r.bigint(16), feePerL2Gas: r.bigint(16) },
    blockCount: r.number(2),
    blobsHash: r.hex(32),
    totalManaUsed: r.bigint(8),
    inHash: r.hex(32),
    outHash: r.hex(32),
  };
}

/** hashToField(encodeCheckpointHeader(header) || archiveRoot). */
export function checkpointHash(header: CheckpointHeader, archiveRoot: Hex): Hex {
  const enc = encodeCheckpointHeader(header);
  const buf = new Uint8Array(enc.length + 32);
  buf.set(enc, 0);
  buf.set(hexToBytes(archiveRoot, 32), enc.length);
  return hashToField(buf);
}

/** hashToField of the concatenated blob versioned hashes (binds the header to its blobs). */
export function blobsHash(versionedHashes: readonly Hex[]): Hex {
  const buf = new Uint8Array(32 * versionedHashes.length);
  versionedHashes.forEach((h, i) => buf.set(hexToBytes(h, 32), 32 * i));
  return hashToField(buf);
}
