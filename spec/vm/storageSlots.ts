/**
 * Where public VM state lands in the trees, and how emitted values are bound to the contract that emitted them.
 * Every hash is `hashToField` (docs/protocol.md, Tree hash) over 32-byte big-endian words.
 *
 * - Public storage: contract `c`, slot `s` is the public data leaf slot `hashToField(c || s)` (docs/protocol.md,
 *   Public data slots).
 * - Fee payer balances live in the fee asset contract as a map keyed by the payer: the contract's own slot of payer
 *   `p` is `hashToField(p)`, so its leaf slot is `hashToField(feeAsset || hashToField(p))`. A program computes the
 *   same slot with `hash` over one register holding `p`.
 * - A nullifier or note hash emitted by public code is siloed: `hashToField(contract || value)`, so no contract can
 *   emit a value in another contract's name. A tx's private side effects arrive already final and are not siloed
 *   again.
 * - An L2-to-L1 message leaf is `hashToField(recipient || content)`, the recipient (an EthAddress) left-padded to 32
 *   bytes. Private and public messages use the same rule.
 */
import type { Hex } from '../chain.js';
import { CodecError, hexToBytes } from '../codec/bytes.js';
import { hashToField } from '../hash.js';

const WORD_BYTES = 32;

/** hashToField of 32-byte words, concatenated in order. */
export function hashWords(words: readonly Hex[]): Hex {
  const input = new Uint8Array(words.length * WORD_BYTES);
  words.forEach((word, i) => input.set(hexToBytes(word, WORD_BYTES), i * WORD_BYTES));
  return hashToField(input);
}

/** docs/protocol.md, Public data slots: the public data tree's leaf slot of `slot` in `contractAddress`'s storage. */
export function publicDataLeafSlot(contractAddress: Hex, slot: Hex): Hex {
  return hashWords([contractAddress, slot]);
}

/** The fee asset contract's own storage slot holding `feePayer`'s balance: hashToField(feePayer). */
export function feePayerBalanceStorageSlot(feePayer: Hex): Hex {
  return hashWords([feePayer]);
}

/**
 * The public data leaf slot of `feePayer`'s balance, with the fee asset as the contract:
 * hashToField(feeAsset || hashToField(feePayer)). The value there is the balance, a field element.
 */
export function feePayerBalanceSlot(feeAsset: Hex, feePayer: Hex): Hex {
  return publicDataLeafSlot(feeAsset, feePayerBalanceStorageSlot(feePayer));
}

/** A nullifier emitted by public code of `contractAddress`, as it enters the nullifier tree. */
export function siloNullifier(contractAddress: Hex, nullifier: Hex): Hex {
  return hashWords([contractAddress, nullifier]);
}

/** A note hash emitted by public code of `contractAddress`, as it enters the note hash tree. */
export function siloNoteHash(contractAddress: Hex, noteHash: Hex): Hex {
  return hashWords([contractAddress, noteHash]);
}

/** The leaf of an L2-to-L1 message: hashToField(recipient left-padded to 32 bytes || content). */
export function l2ToL1MessageHash(recipient: Hex, content: Hex): Hex {
  const input = new Uint8Array(2 * WORD_BYTES);
  const recipientBytes = hexToBytes(recipient);
  if (recipientBytes.length > WORD_BYTES)
    throw new CodecError(`a message recipient has at most ${WORD_BYTES} bytes, got ${recipientBytes.length}`);
  input.set(recipientBytes, WORD_BYTES - recipientBytes.length);
  input.set(hexToBytes(content, WORD_BYTES), WORD_BYTES);
  return hashToField(input);
}
