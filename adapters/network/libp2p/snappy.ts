/**
 * Snappy blocks (the raw format: the uncompressed length as a varint, then the block), pure JavaScript. The length in
 * front is read and bounded before anything is allocated, so a peer cannot make us inflate more than the bound.
 */
import { compress, uncompress } from 'snappyjs';
import { CodecError } from '../../../spec/codec/bytes.js';

/** The most bytes snappy can turn `length` bytes into (the format's worst case). */
export function snappyCompressedBytesMax(length: number): number {
  return 32 + length + Math.ceil(length / 6);
}

export function snappyCompress(bytes: Uint8Array): Uint8Array {
  return compress(bytes);
}

/** The uncompressed length a block declares, or undefined when its varint is malformed (more than 5 bytes). */
export function snappyDeclaredLength(block: Uint8Array): number | undefined {
  let length = 0;
  for (let i = 0; i < 5 && i < block.length; i++) {
    const byte = block[i]!;
    length += (byte & 0x7f) * 2 ** (7 * i);
    if (byte < 0x80) return length;
  }
  return undefined;
}

/** The block's bytes; CodecError when it declares more than `bytesMax`, is corrupt, or is not the length it says. */
export function snappyUncompress(block: Uint8Array, bytesMax: number): Uint8Array {
  if (block.length > snappyCompressedBytesMax(bytesMax)) {
    throw new CodecError(`a compressed block of ${block.length} bytes is above the bound for ${bytesMax} bytes`);
  }
  const declared = snappyDeclaredLength(block);
  if (declared === undefined || declared > bytesMax) {
    throw new CodecError(`a compressed block declares ${declared ?? 'no'} bytes, above ${bytesMax}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = uncompress(block, bytesMax);
  } catch {
    throw new CodecError('a compressed block is corrupt');
  }
  if (bytes.length !== declared || bytes.length > bytesMax) throw new CodecError('a compressed block is corrupt');
  return bytes;
}
