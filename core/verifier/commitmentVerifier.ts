/**
 * The default verifier (docs/protocol.md, Proofs; spec/proof.ts): a proof is valid exactly when it is the 32-byte
 * keccak256 commitment to the public inputs, so changing any public input invalidates it.
 */
import type { Hex } from '../../spec/chain.js';
import { bytesToHex, hexToBytes } from '../../spec/codec/bytes.js';
import type { TxPreimage } from '../../spec/codec/tx.js';
import { commitmentProof, txPublicInputs } from '../../spec/proof.js';
import type { VerifierPort } from '../ports.js';

const COMMITMENT_BYTES = 32;

export const commitmentVerifier: VerifierPort = {
  async verify(publicInputs, proof) {
    return proof.length === COMMITMENT_BYTES && bytesToHex(proof) === commitmentProof(publicInputs);
  },
};

export function verifyTxProof(verifier: VerifierPort, tx: TxPreimage & { readonly proof: Hex }): Promise<boolean> {
  return verifier.verify(txPublicInputs(tx), hexToBytes(tx.proof));
}
