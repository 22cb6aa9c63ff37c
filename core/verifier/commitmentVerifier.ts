/**
 * The default verifier (PROTOCOL.md, Chain: there are no zero-knowledge circuits here): a proof is valid exactly
 * when it is the 32-byte keccak256 commitment to the public inputs, so changing any public input invalidates it.
 */
import { keccak256 } from 'viem';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex, hexToBytes } from '../../spec/codec/bytes.js';
import { encodeTxPreimage, type TxPreimage } from '../../spec/codec/tx.js';
import type { VerifierPort } from '../ports.js';

const COMMITMENT_BYTES = 32;

export function commitmentProof(publicInputs: Uint8Array): Hex {
  return keccak256(publicInputs);
}

export const commitmentVerifier: VerifierPort = {
  async verify(publicInputs, proof) {
    return proof.length === COMMITMENT_BYTES && bytesToHex(proof) === commitmentProof(publicInputs);
  },
};

/** A tx's public inputs: its preimage encoding (everything its hash covers). */
export function txPublicInputs(tx: TxPreimage): Uint8Array {
  return encodeTxPreimage(tx);
}

/** The proof the default verifier accepts for a tx (what a client's prover produces in this project). */
export function txProofFor(tx: TxPreimage): Hex {
  return commitmentProof(txPublicInputs(tx));
}

export function verifyTxProof(verifier: VerifierPort, tx: TxPreimage & { readonly proof: Hex }): Promise<boolean> {
  return verifier.verify(txPublicInputs(tx), hexToBytes(tx.proof));
}
