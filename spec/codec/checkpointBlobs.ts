import {
  BLOB_FIELD_ELEMENT_BYTES,
  BLOB_FIELD_ELEMENTS,
  BLOB_PAYLOAD_BYTES_PER_FIELD,
  BLOB_SIZE_BYTES,
  BLOBS_PER_CHECKPOINT_MAX,
  BLOCKS_PER_CHECKPOINT_MAX,
} from '../constants.js';
import type { BlockHeader, TxEffect } from '../chain.js';
import { BLOCK_HEADER_BYTES, decodeBlockHeader, encodeBlockHeader } from './blockHeader.js';
import { ByteReader, ByteWriter, CodecError } from './bytes.js';
import { readTxEffect, writeTxEffect } from './txEffect.js';

/**
 * What a checkpoint's blobs carry: every block's header and tx effects, enough for a node that follows L1 alone to
 * rebuild the blocks. Layout of the payload: format u8 | blockCount u16 | per block: header | txCount u32 | per tx:
 * its effects (spec/codec/txEffect.ts). The payload is framed with a u32 byte length, cut into 31-byte pieces, each stored in a 32-byte blob
 * field element behind a zero byte (so every element is below the BLS modulus), and padded with zero elements.
 */
export const CHECKPOINT_BLOB_FORMAT = 2;
const TX_COUNT_PER_BLOCK_MAX = 65_536;
/** The smallest encoded tx effect: hash, result, fee and eight empty list counts. */
const TX_EFFECT_BYTES_MIN = 32 + 1 + 32 + 8;

export interface CheckpointBlobBlock {
  readonly header: BlockHeader;
  readonly txEffects: readonly TxEffect[];
}

export function encodeCheckpointPayload(blocks: readonly CheckpointBlobBlock[]): Uint8Array {
  if (blocks.length === 0 || blocks.length > BLOCKS_PER_CHECKPOINT_MAX) {
    throw new CodecError(`a checkpoint carries 1 to ${BLOCKS_PER_CHECKPOINT_MAX} blocks, got ${blocks.length}`);
  }
  const w = new ByteWriter().uint(CHECKPOINT_BLOB_FORMAT, 1).uint(blocks.length, 2);
  for (const block of blocks) {
    w.bytes(encodeBlockHeader(block.header)).uint(block.txEffects.length, 4);
    for (const effect of block.txEffects) writeTxEffect(w, effect);
  }
  return w.finish();
}

export function decodeCheckpointPayload(payload: Uint8Array): CheckpointBlobBlock[] {
  const r = new ByteReader(payload);
  const format = r.number(1);
  if (format !== CHECKPOINT_BLOB_FORMAT) throw new CodecError(`unknown checkpoint blob format ${format}`);
  const blockCount = r.number(2);
  if (blockCount === 0 || blockCount > BLOCKS_PER_CHECKPOINT_MAX) {
    throw new CodecError(`checkpoint blob declares ${blockCount} blocks`);
  }
  const blocks: CheckpointBlobBlock[] = [];
  for (let i = 0; i < blockCount; i++) {
    const header = decodeBlockHeader(new ByteReader(r.bytes(BLOCK_HEADER_BYTES)));
    const txCount = r.number(4);
    if (txCount > TX_COUNT_PER_BLOCK_MAX || txCount * TX_EFFECT_BYTES_MIN > r.remaining) {
      throw new CodecError(`block ${i} declares ${txCount} txs, more than the payload holds`);
    }
    const txEffects: TxEffect[] = [];
    for (let t = 0; t < txCount; t++) txEffects.push(readTxEffect(r));
    blocks.push({ header, txEffects });
  }
  if (r.remaining !== 0) throw new CodecError(`${r.remaining} trailing bytes after the last block`);
  return blocks;
}

/** Frames a payload into whole blobs of BLOB_SIZE_BYTES. */
export function payloadToBlobs(payload: Uint8Array): Uint8Array[] {
  const framed = new ByteWriter().uint(payload.length, 4).bytes(payload).finish();
  const fieldCount = Math.ceil(framed.length / BLOB_PAYLOAD_BYTES_PER_FIELD);
  const blobCount = Math.max(1, Math.ceil(fieldCount / BLOB_FIELD_ELEMENTS));
  if (blobCount > BLOBS_PER_CHECKPOINT_MAX) {
    throw new CodecError(
      `payload of ${payload.length} bytes needs ${blobCount} blobs, at most ${BLOBS_PER_CHECKPOINT_MAX}`,
    );
  }
  const blobs = Array.from({ length: blobCount }, () => new Uint8Array(BLOB_SIZE_BYTES));
  for (let f = 0; f < fieldCount; f++) {
    const piece = framed.subarray(f * BLOB_PAYLOAD_BYTES_PER_FIELD, (f + 1) * BLOB_PAYLOAD_BYTES_PER_FIELD);
    const blob = blobs[Math.floor(f / BLOB_FIELD_ELEMENTS)]!;
    blob.set(piece, (f % BLOB_FIELD_ELEMENTS) * BLOB_FIELD_ELEMENT_BYTES + 1);
  }
  return blobs;
}

/**
 * Inverse of payloadToBlobs; rejects blobs whose field elements do not start with a zero byte. Every field element's
 * first byte is checked, but only the field elements the framed payload spans are copied out.
 */
export function blobsToPayload(blobs: readonly Uint8Array[]): Uint8Array {
  if (blobs.length === 0) throw new CodecError('no blobs');
  for (const blob of blobs) {
    if (blob.length !== BLOB_SIZE_BYTES) throw new CodecError(`blob of ${blob.length} bytes`);
    for (let f = 0; f < BLOB_FIELD_ELEMENTS; f++) {
      if (blob[f * BLOB_FIELD_ELEMENT_BYTES] !== 0)
        throw new CodecError(`blob field element ${f} does not start with a zero byte`);
    }
  }
  const capacity = blobs.length * BLOB_FIELD_ELEMENTS * BLOB_PAYLOAD_BYTES_PER_FIELD;
  const first = blobs[0]!;
  // The 4-byte length prefix sits in the first field element (31 payload bytes each).
  const length = new ByteReader(first.subarray(1, 5)).number(4);
  if (length > capacity - 4) throw new CodecError(`framed length ${length} exceeds the blob data`);
  const fieldCount = Math.ceil((4 + length) / BLOB_PAYLOAD_BYTES_PER_FIELD);
  const pieces = new Uint8Array(fieldCount * BLOB_PAYLOAD_BYTES_PER_FIELD);
  for (let f = 0; f < fieldCount; f++) {
    const blob = blobs[Math.floor(f / BLOB_FIELD_ELEMENTS)]!;
    const start = (f % BLOB_FIELD_ELEMENTS) * BLOB_FIELD_ELEMENT_BYTES + 1;
    pieces.set(blob.subarray(start, start + BLOB_PAYLOAD_BYTES_PER_FIELD), f * BLOB_PAYLOAD_BYTES_PER_FIELD);
  }
  return pieces.slice(4, 4 + length);
}
