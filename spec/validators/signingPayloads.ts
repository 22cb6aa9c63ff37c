/**
 * What validators sign, byte for byte. Every field is big-endian and fixed-width, so the encodings equal Solidity's
 * `abi.encodePacked` of the same fields and the rollup contract can rebuild them.
 *
 * Domain separators: each is keccak256 of an ASCII name (SIGNING_DOMAIN_NAMES), 32 bytes, first in its preimage.
 * @chainsafe/blst fixes the hash-to-curve tag to Ethereum's (`BLS_SIG_BLS12381G2_XMD:SHA-256_SSWU_RO_POP_`), so the
 * separation lives in the signed bytes: a signature for one purpose never verifies for another, and a payload of this
 * rollup (chain id, rollup version) never verifies for another rollup.
 *
 * Checkpoint proposal payload, 128 bytes:
 *   domain(checkpointProposalPayload) 32 | l1ChainId 8 | rollupVersion 8 | slot 8 | checkpointNumber 8 |
 *   archiveRoot 32 | checkpointHeaderHash 32
 *   with checkpointHeaderHash = hashToField(encodeCheckpointHeader(header)) (spec/codec/checkpointHeader.ts).
 * Block proposal payload, 130 bytes:
 *   domain(blockProposalPayload) 32 | l1ChainId 8 | rollupVersion 8 | slot 8 | blockNumber 8 |
 *   indexWithinCheckpoint 2 | archiveRoot 32 | txHashesHash 32
 *   with txHashesHash = keccak256(txHash_0 || txHash_1 || ...), 32 bytes each, in block order.
 *   The gossip message carries the block's header and body beside the payload, unsigned
 *   (spec/validators/blockProposalContent.ts): the body's tx hashes hash to txHashesHash, and the header's hash,
 *   appended to the archive the block builds on, gives archiveRoot, so both are bound to this signature.
 * Payload hash: keccak256(payload). For a checkpoint proposal it is the wire's `payloadHash` / `proposalPayloadHash`.
 *
 * Signing message (the 32 bytes BLS signs): keccak256(domain(role) 32 | payloadHash 32), role `proposer` or
 * `attester`. The proposer of a checkpoint signs its payload hash as proposer and, being a committee member, also as
 * attester; the two signatures differ, so a proposal can never be replayed as an attestation or the reverse.
 *
 * Proof of possession, 100 bytes, signed as is (hashed to the curve by BLS):
 *   domain(proofOfPossession) 32 | validator address 20 | BLS public key 48
 */
import type { CheckpointHeader, Hex } from '../chain.js';
import { ByteReader, ByteWriter, CodecError } from '../codec/bytes.js';
import { encodeCheckpointHeader } from '../codec/checkpointHeader.js';
import { hashToField } from '../hash.js';
import { keccak256Bytes, keccak256Hex } from '../keccak.js';
import { BLOCKS_PER_CHECKPOINT_MAX } from '../constants.js';
import { BLOCK_PROPOSAL_TX_HASHES_MAX, BLS_PUBLIC_KEY_BYTES } from './constants.js';

/** ASCII names of the domain separators; a change of any encoding bumps its version suffix. */
export const SIGNING_DOMAIN_NAMES = {
  checkpointProposalPayload: 'svc-rollup.checkpointProposalPayload.v1',
  blockProposalPayload: 'svc-rollup.blockProposalPayload.v1',
  proposer: 'svc-rollup.proposerSignature.v1',
  attester: 'svc-rollup.attesterSignature.v1',
  proofOfPossession: 'svc-rollup.proofOfPossession.v1',
  committeeSeed: 'svc-rollup.committeeSeed.v1',
  committeeMemberDraw: 'svc-rollup.committeeMemberDraw.v1',
  proposerDraw: 'svc-rollup.proposerDraw.v1',
} as const;
export type SigningDomain = keyof typeof SIGNING_DOMAIN_NAMES;

const DOMAIN_BYTES = 32;

function computeDomainSeparators(): Record<SigningDomain, Uint8Array> {
  const entries = Object.entries(SIGNING_DOMAIN_NAMES).map(([domain, name]) => [
    domain,
    keccak256Bytes(new TextEncoder().encode(name)),
  ]);
  return Object.fromEntries(entries) as Record<SigningDomain, Uint8Array>;
}

const DOMAIN_SEPARATORS = computeDomainSeparators();

/** The 32-byte domain separator of `domain` (a fresh copy). */
export function domainSeparator(domain: SigningDomain): Uint8Array {
  return DOMAIN_SEPARATORS[domain].slice();
}

/** Which chain a payload belongs to: L1 chain id and rollup version (both in L1RollupConstants). */
export interface SigningChain {
  readonly l1ChainId: number;
  readonly rollupVersion: number;
}

/** What a checkpoint's proposer and attesters sign. */
export interface CheckpointProposalPayload extends SigningChain {
  readonly slot: number;
  readonly checkpointNumber: number;
  /** Archive root after the checkpoint's last block. */
  readonly archiveRoot: Hex;
  /** hashToField(encodeCheckpointHeader(header)). */
  readonly checkpointHeaderHash: Hex;
}

export const CHECKPOINT_PROPOSAL_PAYLOAD_BYTES = DOMAIN_BYTES + 8 + 8 + 8 + 8 + 32 + 32;

export function encodeCheckpointProposalPayload(payload: CheckpointProposalPayload): Uint8Array {
  return new ByteWriter()
    .bytes(domainSeparator('checkpointProposalPayload'))
    .uint(payload.l1ChainId, 8)
    .uint(payload.rollupVersion, 8)
    .uint(payload.slot, 8)
    .uint(payload.checkpointNumber, 8)
    .hex(payload.archiveRoot, 32)
    .hex(payload.checkpointHeaderHash, 32)
    .finish();
}

/** Decodes a payload received from a peer; CodecError when the size or the domain is wrong. */
export function decodeCheckpointProposalPayload(bytes: Uint8Array): CheckpointProposalPayload {
  if (bytes.length !== CHECKPOINT_PROPOSAL_PAYLOAD_BYTES) {
    throw new CodecError(
      `checkpoint proposal payload must be ${CHECKPOINT_PROPOSAL_PAYLOAD_BYTES} bytes, got ${bytes.length}`,
    );
  }
  const reader = new ByteReader(bytes);
  expectDomain(reader, 'checkpointProposalPayload');
  return {
    l1ChainId: reader.number(8),
    rollupVersion: reader.number(8),
    slot: reader.number(8),
    checkpointNumber: reader.number(8),
    archiveRoot: reader.hex(32),
    checkpointHeaderHash: reader.hex(32),
  };
}

/** keccak256 of the encoded payload: the wire's `payloadHash` and `proposalPayloadHash`. */
export function checkpointProposalPayloadHash(payload: CheckpointProposalPayload): Hex {
  return keccak256Hex(encodeCheckpointProposalPayload(payload));
}

/** hashToField(encodeCheckpointHeader(header)), the header's commitment inside a checkpoint proposal payload. */
export function checkpointHeaderHash(header: CheckpointHeader): Hex {
  return hashToField(encodeCheckpointHeader(header));
}

/** The payload of a built or published checkpoint; its slot is the header's. */
export function checkpointProposalPayloadOf(
  chain: SigningChain,
  checkpoint: { readonly number: number; readonly header: CheckpointHeader; readonly archiveRoot: Hex },
): CheckpointProposalPayload {
  return {
    l1ChainId: chain.l1ChainId,
    rollupVersion: chain.rollupVersion,
    slot: checkpoint.header.slotNumber,
    checkpointNumber: checkpoint.number,
    archiveRoot: checkpoint.archiveRoot,
    checkpointHeaderHash: checkpointHeaderHash(checkpoint.header),
  };
}

/** What a block's proposer signs when it gossips a block of the checkpoint it is building. */
export interface BlockProposalPayload extends SigningChain {
  readonly slot: number;
  readonly blockNumber: number;
  readonly indexWithinCheckpoint: number;
  /** Archive root after the block (its leaf is the block hash, which commits to the header). */
  readonly archiveRoot: Hex;
  readonly txHashes: readonly Hex[];
}

export const BLOCK_PROPOSAL_PAYLOAD_BYTES = DOMAIN_BYTES + 8 + 8 + 8 + 8 + 2 + 32 + 32;

/** keccak256 of the tx hashes, 32 bytes each, in block order. */
export function txHashesHash(txHashes: readonly Hex[]): Hex {
  if (txHashes.length > BLOCK_PROPOSAL_TX_HASHES_MAX) {
    throw new CodecError(
      `a block proposal lists at most ${BLOCK_PROPOSAL_TX_HASHES_MAX} tx hashes, got ${txHashes.length}`,
    );
  }
  const writer = new ByteWriter();
  for (const txHash of txHashes) writer.hex(txHash, 32);
  return keccak256Hex(writer.finish());
}

export function encodeBlockProposalPayload(payload: BlockProposalPayload): Uint8Array {
  if (payload.indexWithinCheckpoint >= BLOCKS_PER_CHECKPOINT_MAX) {
    throw new CodecError(
      `block index within its checkpoint must be below ${BLOCKS_PER_CHECKPOINT_MAX}, got ${payload.indexWithinCheckpoint}`,
    );
  }
  return new ByteWriter()
    .bytes(domainSeparator('blockProposalPayload'))
    .uint(payload.l1ChainId, 8)
    .uint(payload.rollupVersion, 8)
    .uint(payload.slot, 8)
    .uint(payload.blockNumber, 8)
    .uint(payload.indexWithinCheckpoint, 2)
    .hex(payload.archiveRoot, 32)
    .hex(txHashesHash(payload.txHashes), 32)
    .finish();
}

export function blockProposalPayloadHash(payload: BlockProposalPayload): Hex {
  return keccak256Hex(encodeBlockProposalPayload(payload));
}

/** A signer's role: the same payload hash signed as proposer and as attester gives two distinct messages. */
export type SigningRole = 'proposer' | 'attester';

/** The 32 bytes BLS signs: keccak256(domain(role) || payloadHash). */
export function signingMessage(role: SigningRole, payloadHash: Hex): Uint8Array {
  const preimage = new ByteWriter().bytes(domainSeparator(role)).hex(payloadHash, 32).finish();
  return keccak256Bytes(preimage);
}

export const PROOF_OF_POSSESSION_MESSAGE_BYTES = DOMAIN_BYTES + 20 + BLS_PUBLIC_KEY_BYTES;

/**
 * The message of a proof of possession: a validator proves it holds the secret key of the public key it registers,
 * which is what makes the committee's aggregate verification safe against rogue keys.
 */
export function proofOfPossessionMessage(validatorAddress: Hex, blsPublicKey: Hex): Uint8Array {
  return new ByteWriter()
    .bytes(domainSeparator('proofOfPossession'))
    .hex(validatorAddress, 20)
    .hex(blsPublicKey, BLS_PUBLIC_KEY_BYTES)
    .finish();
}

function expectDomain(reader: ByteReader, domain: SigningDomain): void {
  const found = reader.bytes(DOMAIN_BYTES);
  const expected = DOMAIN_SEPARATORS[domain];
  if (!found.every((byte, i) => byte === expected[i]))
    throw new CodecError(`payload does not start with the ${domain} domain separator`);
}
