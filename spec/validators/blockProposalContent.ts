/**
 * What a block proposal's gossip message carries beside its signed payload: the block's header and its body, so
 * that a committee member can measure the block against its VALIDATOR_MAX_* limits. Neither is signed; both are
 * bound to what is (core/validators/blockContent.ts checks the bindings):
 *
 *   header  the encoded BlockHeader (spec/codec/blockHeader.ts), BLOCK_HEADER_BYTES. Its hash is the block's leaf in
 *           the archive tree, so the signed `archiveRoot` (the archive after the block) commits to it once the
 *           leaf is appended to the archive the block builds on.
 *   body    the block's tx effects, each encoded as the blobs carry it (spec/codec/txEffect.ts), concatenated in
 *           block order: at most BLOCK_PROPOSAL_BODY_BYTES_MAX bytes and BLOCK_PROPOSAL_TX_HASHES_MAX effects. The
 *           effects' tx hashes, in order, must hash to the signed `txHashesHash`, and the effects to the header's
 *           `txsEffectsHash`.
 *
 * Both travel as 0x-prefixed hex. The signed 130-byte payload and its domain are unchanged.
 */
import type { BlockHeader, Hex, TxEffect } from '../chain.js';
import { BLOCK_HEADER_BYTES, decodeBlockHeader, encodeBlockHeader } from '../codec/blockHeader.js';
import { ByteReader, bytesToHex, CodecError, hexToBytes, isHex } from '../codec/bytes.js';
import { decodeTxEffects, encodeTxEffects } from '../codec/txEffect.js';
import { BLOCK_PROPOSAL_BODY_BYTES_MAX, BLOCK_PROPOSAL_TX_HASHES_MAX } from './constants.js';

/** A proposed block's header and tx effects, decoded from its gossip message. */
export interface BlockProposalContent {
  readonly header: BlockHeader;
  readonly txEffects: readonly TxEffect[];
}

/** The gossiped form of a block's content: `header` and `body` as hex. */
export function encodeBlockProposalContent(content: BlockProposalContent): {
  readonly header: Hex;
  readonly body: Hex;
} {
  const body = encodeTxEffects(content.txEffects);
  if (body.length > BLOCK_PROPOSAL_BODY_BYTES_MAX)
    throw new CodecError(`a block body is at most ${BLOCK_PROPOSAL_BODY_BYTES_MAX} bytes, got ${body.length}`);
  if (content.txEffects.length > BLOCK_PROPOSAL_TX_HASHES_MAX) {
    throw new CodecError(
      `a block body holds at most ${BLOCK_PROPOSAL_TX_HASHES_MAX} tx effects, got ${content.txEffects.length}`,
    );
  }
  return { header: bytesToHex(encodeBlockHeader(content.header)), body: bytesToHex(body) };
}

/**
 * Decodes a peer's header and body; CodecError when either is not hex, the header is not BLOCK_HEADER_BYTES, the
 * body is over BLOCK_PROPOSAL_BODY_BYTES_MAX (both sizes checked on the hex length, before decoding), holds more
 * than BLOCK_PROPOSAL_TX_HASHES_MAX effects, or does not decode to whole effects.
 */
export function decodeBlockProposalContent(header: unknown, body: unknown): BlockProposalContent {
  if (!isHex(header) || !isHex(body)) throw new CodecError('a block proposal carries its header and body as hex');
  if (header.length !== 2 + 2 * BLOCK_HEADER_BYTES)
    throw new CodecError(`a block header is ${BLOCK_HEADER_BYTES} bytes`);
  if (body.length > 2 + 2 * BLOCK_PROPOSAL_BODY_BYTES_MAX)
    throw new CodecError(`a block body is at most ${BLOCK_PROPOSAL_BODY_BYTES_MAX} bytes`);
  const decodedHeader = decodeBlockHeader(new ByteReader(hexToBytes(header)));
  return { header: decodedHeader, txEffects: decodeTxEffects(hexToBytes(body), BLOCK_PROPOSAL_TX_HASHES_MAX) };
}
