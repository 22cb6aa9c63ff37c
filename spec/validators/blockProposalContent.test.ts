import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BlockHeader, Hex } from '../chain.js';
import { bytesToHex, CodecError } from '../codec/bytes.js';
import { decodeTxEffects, encodeTxEffects, minimalTxEffect } from '../codec/txEffect.js';
import { BLOCK_PROPOSAL_BODY_BYTES_MAX, BLOCK_PROPOSAL_TX_HASHES_MAX } from './constants.js';
import { decodeBlockProposalContent, encodeBlockProposalContent } from './blockProposalContent.js';

const h = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const snapshot = (n: number) => ({ root: h(n), nextAvailableLeafIndex: n });
const header: BlockHeader = {
  lastArchive: snapshot(1),
  state: {
    l1ToL2MessageTree: snapshot(2),
    noteHashTree: snapshot(3),
    nullifierTree: snapshot(4),
    publicDataTree: snapshot(5),
  },
  globalVariables: {
    chainId: 31337,
    version: 1,
    blockNumber: 6,
    slotNumber: 7,
    timestamp: 8n,
    coinbase: `0x${'09'.repeat(20)}`,
    feeRecipient: h(10),
    gasFees: { feePerDaGas: 11n, feePerL2Gas: 12n },
  },
  contentCommitment: { txsEffectsHash: h(13), inHash: h(14), outHash: h(15) },
  totalFees: 16n,
  totalManaUsed: 17n,
};

describe('block proposal content', () => {
  it('round-trips any header and list of effects', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 2 ** 30 }), fc.integer({ min: 0, max: 4 })), { maxLength: 12 }),
        fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
        (txs, mana) => {
          const txEffects = txs.map(([n, notes]) => ({
            ...minimalTxEffect(h(n), h(n + 1)),
            noteHashes: Array.from({ length: notes }, (_, i) => h(n + 2 + i)),
          }));
          const content = { header: { ...header, totalManaUsed: mana }, txEffects };
          const wire = encodeBlockProposalContent(content);
          expect(wire.body).toBe(bytesToHex(encodeTxEffects(txEffects)));
          expect(decodeBlockProposalContent(wire.header, wire.body)).toEqual(content);
        },
      ),
      { seed: 71, numRuns: 100 },
    );
  });

  it('refuses a body over its byte bound before decoding it, and more effects than a block may hold', () => {
    const { header: encodedHeader } = encodeBlockProposalContent({ header, txEffects: [] });
    expect(() =>
      decodeBlockProposalContent(encodedHeader, `0x${'ff'.repeat(BLOCK_PROPOSAL_BODY_BYTES_MAX + 1)}`),
    ).toThrow(/at most 761856 bytes/);
    const tooMany = Array.from({ length: BLOCK_PROPOSAL_TX_HASHES_MAX + 1 }, (_, i) =>
      minimalTxEffect(h(i + 1), h(i + 1)),
    );
    expect(() => decodeTxEffects(encodeTxEffects(tooMany), BLOCK_PROPOSAL_TX_HASHES_MAX)).toThrow(CodecError);
    expect(() => encodeBlockProposalContent({ header, txEffects: tooMany })).toThrow(CodecError);
    expect(decodeTxEffects(new Uint8Array(0), BLOCK_PROPOSAL_TX_HASHES_MAX)).toEqual([]);
  });

  it('refuses a header of the wrong size and content that is not hex', () => {
    const { header: encodedHeader, body } = encodeBlockProposalContent({
      header,
      txEffects: [minimalTxEffect(h(1), h(2))],
    });
    expect(() => decodeBlockProposalContent(`${encodedHeader}00`, body)).toThrow(CodecError);
    expect(() => decodeBlockProposalContent(encodedHeader, body.slice(0, -2))).toThrow(CodecError);
    expect(() => decodeBlockProposalContent(encodedHeader, null)).toThrow(CodecError);
    expect(() => decodeBlockProposalContent('0x1', body)).toThrow(CodecError);
  });
});
