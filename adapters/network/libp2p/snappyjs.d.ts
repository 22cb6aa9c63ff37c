/** Types of snappyjs 0.7 (it ships none): raw snappy blocks, the uncompressed length as a varint in front. */
declare module 'snappyjs' {
  export function compress(uncompressed: Uint8Array): Uint8Array;
  /** Throws when the declared length is above `maxLength` (checked before allocating) or the block is corrupt. */
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array;
}
