import type { Hex } from '../../spec/chain.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { hashToField } from '../../spec/hash.js';

/** PROTOCOL.md: a public storage slot's leaf slot in the public data tree is hashToField(contractAddress || slot). */
export function publicDataLeafSlot(contractAddress: Hex, slot: Hex): Hex {
  const input = new Uint8Array(64);
  input.set(hexToBytes(contractAddress, 32), 0);
  input.set(hexToBytes(slot, 32), 32);
  return hashToField(input);
}
