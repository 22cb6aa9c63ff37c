/**
 * Field elements as the public VM holds them: bigints in [0, FR_MODULUS), written on the wire and in state as
 * 32-byte big-endian hex. Short strings (at most 31 bytes of UTF-8) pack into one field, left-aligned after a zero
 * byte, so a program can carry a readable revert reason or log tag.
 */
import type { Hex } from '../chain.js';
import { bytesToHex, CodecError, hexToBytes } from '../codec/bytes.js';
import { FR_MODULUS } from '../constants.js';
import { SHORT_STRING_BYTES_MAX } from './vmConstants.js';

const FIELD_BYTES = 32;

/** The canonical representative of `value` modulo the field (negative values wrap). */
export function toField(value: bigint): bigint {
  const reduced = value % FR_MODULUS;
  return reduced < 0n ? reduced + FR_MODULUS : reduced;
}

export function isField(value: bigint): boolean {
  return value >= 0n && value < FR_MODULUS;
}

/** 32-byte lowercase hex of a field element. */
export function fieldToHex(value: bigint): Hex {
  if (!isField(value)) throw new CodecError(`${value} is not a field element`);
  return `0x${value.toString(16).padStart(FIELD_BYTES * 2, '0')}`;
}

/** Reads 32-byte hex as a field element; a value at or above the modulus is refused. */
export function hexToField(hex: Hex): bigint {
  const value = BigInt(bytesToHex(hexToBytes(hex, FIELD_BYTES)));
  if (value >= FR_MODULUS) throw new CodecError(`${hex} is not below the field modulus`);
  return value;
}

/** Packs a string of at most 31 UTF-8 bytes into a field: zero, the bytes, then zero padding. */
export function shortStringToField(text: string): bigint {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length > SHORT_STRING_BYTES_MAX) {
    throw new CodecError(`"${text}" is ${bytes.length} bytes of UTF-8, at most ${SHORT_STRING_BYTES_MAX} fit a field`);
  }
  const padded = new Uint8Array(FIELD_BYTES);
  padded.set(bytes, 1);
  return BigInt(bytesToHex(padded));
}

/**
 * The string a field packs, when it is one `shortStringToField` could have made of printable ASCII (trailing zero
 * padding, nothing after it); otherwise undefined.
 */
export function fieldToShortString(value: bigint): string | undefined {
  if (value === 0n || !isField(value)) return undefined;
  const bytes = hexToBytes(fieldToHex(value));
  if (bytes[0] !== 0) return undefined;
  let end = FIELD_BYTES;
  while (end > 1 && bytes[end - 1] === 0) end--;
  const text = bytes.subarray(1, end);
  const printable = text.every((byte) => byte >= 0x20 && byte < 0x7f);
  return printable ? new TextDecoder().decode(text) : undefined;
}
