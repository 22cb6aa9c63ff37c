/**
 * The epoch proof's statement (docs/protocol.md, Proof submission and settlement; contracts/Rollup.sol,
 * submitEpochProof): checkpoints `fromCheckpoint..toCheckpoint` are exactly epoch `epoch`'s, and applying them to the
 * archive `previousArchive` gives `endArchive`, emitting the L2-to-L1 messages committed to by `outHash`. With no
 * circuits, the proof is the keccak256 commitment to the encoded public inputs (spec/proof.ts), which the rollup's
 * verifier contract checks.
 */
import type { Hex } from '../../spec/chain.js';
import { bigintToBytes, hexToBytes, zeroHex } from '../../spec/codec/bytes.js';
import { commitmentProof } from '../../spec/proof.js';
import { assert } from '../assert.js';

export interface EpochProofPublicInputs {
  readonly epoch: number;
  readonly fromCheckpoint: number;
  readonly toCheckpoint: number;
  /** Archive root after checkpoint `fromCheckpoint - 1` (the genesis archive for checkpoint 1). */
  readonly previousArchive: Hex;
  /** Archive root after checkpoint `toCheckpoint`. */
  readonly endArchive: Hex;
  /** Root of the epoch's L2-to-L1 messages over the proven checkpoints (spec/messages/outbox.ts); zero when none. */
  readonly outHash: Hex;
}

/** Bytes of one ABI word; the encoding is abi.encode of six static words. */
const WORD_BYTES = 32;
export const EPOCH_PROOF_PUBLIC_INPUTS_BYTES = 6 * WORD_BYTES;

/** The out hash of an epoch without L2-to-L1 messages (the outbox records no root for it). */
export const EPOCH_OUT_HASH_NONE: Hex = zeroHex(WORD_BYTES);

/**
 * abi.encode(uint256 epoch, uint256 fromCheckpoint, uint256 toCheckpoint, bytes32 previousArchive,
 * bytes32 endArchive, bytes32 outHash): what Rollup.submitEpochProof hands its verifier.
 */
export function encodeEpochProofPublicInputs(inputs: EpochProofPublicInputs): Uint8Array {
  const { epoch, fromCheckpoint, toCheckpoint } = inputs;
  for (const [name, value] of Object.entries({ epoch, fromCheckpoint, toCheckpoint })) {
    assert(Number.isSafeInteger(value) && value >= 0, `epoch proof ${name} ${value} is a non-negative integer`);
  }
  const out = new Uint8Array(EPOCH_PROOF_PUBLIC_INPUTS_BYTES);
  const words = [
    bigintToBytes(BigInt(epoch), WORD_BYTES),
    bigintToBytes(BigInt(fromCheckpoint), WORD_BYTES),
    bigintToBytes(BigInt(toCheckpoint), WORD_BYTES),
    hexToBytes(inputs.previousArchive, WORD_BYTES),
    hexToBytes(inputs.endArchive, WORD_BYTES),
    hexToBytes(inputs.outHash, WORD_BYTES),
  ];
  words.forEach((word, i) => out.set(word, i * WORD_BYTES));
  return out;
}

/** The proof the commitment verifier accepts for these public inputs. */
export function epochProofFor(inputs: EpochProofPublicInputs): Hex {
  return commitmentProof(encodeEpochProofPublicInputs(inputs));
}
