/**
 * Proofs (docs/protocol.md, Proofs): with no circuits in this project, the proof of a statement is the keccak256
 * commitment to its public inputs; the default verifier accepts exactly that. A tx's public inputs are its preimage
 * encoding (spec/codec/tx.ts), so a tx proof binds every field its hash covers.
 */
import type { Hex } from './chain.js';
import { encodeTxPreimage, type TxPreimage } from './codec/tx.js';
import { keccak256Hex } from './keccak.js';

export function commitmentProof(publicInputs: Uint8Array): Hex {
  return keccak256Hex(publicInputs);
}

/** A tx's public inputs: its preimage encoding. */
export function txPublicInputs(tx: TxPreimage): Uint8Array {
  return encodeTxPreimage(tx);
}

/** The proof the default verifier accepts for a tx. */
export function txProofFor(tx: TxPreimage): Hex {
  return commitmentProof(txPublicInputs(tx));
}
