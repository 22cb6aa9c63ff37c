import type { Hex } from '../chain.js';
import { CodedError, type NoDetails } from '../errors.js';

/** Errors of the byte codecs; a decoding failure of untrusted data (blobs, L1 logs) is never an assertion. */
export class CodecError extends CodedError<'CODEC_INVALID', NoDetails> {
  constructor(message: string) {
    super('CODEC_INVALID', message, {});
    this.name = 'CodecError';
  }
}

const HEX_RE = /^0x[0-9a-fA-F]*$/;
/** A ByteWriter's first buffer; most encodings (headers, tx effects of a few fields) fit it. */
const BYTE_WRITER_INITIAL_BYTES = 256;
const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);
/** Bytes whose big-endian value always fits a safe integer (6 bytes: below 2^48). */
const SAFE_INTEGER_BYTES = 6;

export function isHex(value: unknown): value is Hex {
  return typeof value === 'string' && HEX_RE.test(value) && value.length % 2 === 0;
}

export function bytesToHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`;
}

/**
 * Writes the `size`-byte value `hex` into `target` at `offset`, without allocating: the fast path of hexToBytes for
 * fixed-width fields. Invalid or mis-sized hex throws hexToBytes' own CodecError.
 */
export function writeHexInto(target: Uint8Array, offset: number, hex: Hex, size: number): void {
  const buffer = Buffer.isBuffer(target) ? target : Buffer.from(target.buffer, target.byteOffset, target.byteLength);
  // Buffer's hex decoding stops at the first pair that is not hex, so a short count means the string was not valid.
  if (
    typeof hex === 'string' &&
    hex.length === 2 + 2 * size &&
    hex.charCodeAt(0) === 48 &&
    hex.charCodeAt(1) === 120 &&
    buffer.write(hex.slice(2), offset, size, 'hex') === size
  ) {
    return;
  }
  target.set(hexToBytes(hex, size), offset);
}

/** Decodes hex; when `size` is given the value must be exactly that many bytes. */
export function hexToBytes(hex: Hex, size?: number): Uint8Array {
  const bytes = decodeHex(hex);
  if (bytes === undefined)
    throw new CodecError(`not an even-length 0x-prefixed hex string: ${String(hex).slice(0, 80)}`);
  if (size !== undefined && bytes.length !== size) {
    throw new CodecError(`expected ${size} bytes, got ${bytes.length}`);
  }
  return bytes;
}

/**
 * The bytes of an even-length 0x-prefixed hex string, or undefined for anything else: one pass of Buffer's decoder,
 * which stops at the first pair that is not hex (a short count), instead of a pattern match and then a decode.
 */
function decodeHex(hex: unknown): Uint8Array | undefined {
  if (typeof hex !== 'string' || hex.length % 2 !== 0 || hex.charCodeAt(0) !== 48 || hex.charCodeAt(1) !== 120)
    return undefined;
  const length = (hex.length - 2) / 2;
  const bytes = new Uint8Array(length);
  if (length === 0) return bytes;
  const written = Buffer.from(bytes.buffer, 0, length).write(hex.slice(2), 0, length, 'hex');
  return written === length ? bytes : undefined;
}

export function bigintToBytes(value: bigint, size: number): Uint8Array {
  if (value < 0n) throw new CodecError(`negative value ${value}`);
  const out = new Uint8Array(size);
  if (value <= MAX_SAFE_BIGINT) {
    // Small values (counts, sizes, gas, fees) in number arithmetic: no bigint operation per byte.
    let v = Number(value);
    for (let i = size - 1; i >= 0 && v > 0; i--) {
      out[i] = v % 256;
      v = Math.floor(v / 256);
    }
    if (v !== 0) throw new CodecError(`value ${value} does not fit in ${size} bytes`);
    return out;
  }
  const hex = value.toString(16);
  if (hex.length > 2 * size) throw new CodecError(`value ${value} does not fit in ${size} bytes`);
  Buffer.from(out.buffer, out.byteOffset, out.byteLength).write(hex.padStart(2 * size, '0'), 'hex');
  return out;
}

export function bytesToBigint(bytes: Uint8Array): bigint {
  if (bytes.length <= SAFE_INTEGER_BYTES) {
    let v = 0;
    for (const b of bytes) v = v * 256 + b;
    return BigInt(v);
  }
  return BigInt(`0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')}`);
}

export function zeroHex(size: number): Hex {
  return `0x${'00'.repeat(size)}`;
}

/** Sequential big-endian writer of fixed-width fields. */
export class ByteWriter {
  /** Written bytes are `buffer[0, length)`; the buffer doubles when a write does not fit. */
  private buffer: Buffer = Buffer.allocUnsafe(BYTE_WRITER_INITIAL_BYTES);
  private length = 0;

  /** Copies `data` in (a later change to `data` does not reach what was written). */
  bytes(data: Uint8Array): this {
    this.reserve(data.length);
    this.buffer.set(data, this.length);
    this.length += data.length;
    return this;
  }

  /** Decodes the hex straight into the output; a value that is not `size` bytes of hex throws hexToBytes' error. */
  hex(value: Hex, size: number): this {
    this.reserve(size);
    writeHexInto(this.buffer, this.length, value, size);
    this.length += size;
    return this;
  }

  /** `value` big-endian in `size` bytes, as bigintToBytes writes it (same errors); a safe integer allocates nothing. */
  uint(value: bigint | number, size: number): this {
    if (
      typeof value !== 'number' ||
      !Number.isSafeInteger(value) ||
      value < 0 ||
      !Number.isSafeInteger(size) ||
      size < 0
    )
      return this.bytes(bigintToBytes(BigInt(value), size));
    this.reserve(size);
    let v = value;
    for (let i = this.length + size - 1; i >= this.length; i--) {
      this.buffer[i] = v % 256;
      v = Math.floor(v / 256);
    }
    if (v !== 0) throw new CodecError(`value ${value} does not fit in ${size} bytes`);
    this.length += size;
    return this;
  }

  finish(): Uint8Array {
    return new Uint8Array(this.buffer.subarray(0, this.length));
  }

  private reserve(bytes: number): void {
    const needed = this.length + bytes;
    if (needed <= this.buffer.length) return;
    let capacity = this.buffer.length * 2;
    while (capacity < needed) capacity *= 2;
    const grown = Buffer.allocUnsafe(capacity);
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}

/** Sequential reader; every read checks bounds and throws CodecError past the end. */
export class ByteReader {
  private offset = 0;
  constructor(private readonly data: Uint8Array) {}

  get remaining(): number {
    return this.data.length - this.offset;
  }

  bytes(size: number): Uint8Array {
    const start = this.take(size);
    return this.data.subarray(start, start + size);
  }

  hex(size: number): Hex {
    return bytesToHex(this.bytes(size));
  }

  bigint(size: number): bigint {
    return bytesToBigint(this.bytes(size));
  }

  number(size: number): number {
    if (size >= 0 && size <= SAFE_INTEGER_BYTES) {
      // Always a safe integer: read in number arithmetic, with no view and no bigint.
      const start = this.take(size);
      let v = 0;
      for (let i = start; i < start + size; i++) v = v * 256 + this.data[i]!;
      return v;
    }
    const v = this.bigint(size);
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new CodecError(`value ${v} is not a safe integer`);
    return Number(v);
  }

  /** Moves past `size` bytes and returns where they start; CodecError when they run past the end. */
  private take(size: number): number {
    if (size < 0 || this.offset + size > this.data.length) {
      throw new CodecError(`read of ${size} bytes at offset ${this.offset} past end ${this.data.length}`);
    }
    const start = this.offset;
    this.offset += size;
    return start;
  }
}
