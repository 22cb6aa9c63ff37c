import { describe, expect, it } from 'vitest';
import { encodePacked, keccak256, toBytes } from 'viem';
import { CodecError, bytesToHex } from '../codec/bytes.js';
import { checkpointHash } from '../codec/checkpointHeader.js';
import { hashToField } from '../hash.js';
import type { CheckpointHeader, Hex } from '../chain.js';
import {
  CHECKPOINT_ATTESTATIONS_MAX,
  decodeCheckpointAttestations,
  encodeCheckpointAttestations,
} from './checkpointAttestations.js';
import { committeeSeed, committeeSeedPreimage, memberDrawPreimage, proposerDrawPreimage } from './committeeDraws.js';
import {
  BLOCK_PROPOSAL_PAYLOAD_BYTES,
  CHECKPOINT_PROPOSAL_PAYLOAD_BYTES,
  PROOF_OF_POSSESSION_MESSAGE_BYTES,
  SIGNING_DOMAIN_NAMES,
  blockProposalPayloadHash,
  checkpointHeaderHash,
  checkpointProposalPayloadHash,
  checkpointProposalPayloadOf,
  decodeCheckpointProposalPayload,
  domainSeparator,
  encodeBlockProposalPayload,
  encodeCheckpointProposalPayload,
  proofOfPossessionMessage,
  signingMessage,
  txHashesHash,
  type CheckpointProposalPayload,
} from './signingPayloads.js';

const h = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const payload: CheckpointProposalPayload = {
  l1ChainId: 31337,
  rollupVersion: 7,
  slot: 1234,
  checkpointNumber: 99,
  archiveRoot: h(0xaa),
  checkpointHeaderHash: h(0xbb),
};
const domainHex = (name: keyof typeof SIGNING_DOMAIN_NAMES): Hex => bytesToHex(domainSeparator(name));

describe('domain separators', () => {
  it('are keccak256 of their ASCII names, all distinct', () => {
    for (const [domain, name] of Object.entries(SIGNING_DOMAIN_NAMES)) {
      expect(domainHex(domain as keyof typeof SIGNING_DOMAIN_NAMES)).toBe(keccak256(toBytes(name)));
    }
    expect(
      new Set(Object.keys(SIGNING_DOMAIN_NAMES).map((d) => domainHex(d as keyof typeof SIGNING_DOMAIN_NAMES))).size,
    ).toBe(Object.keys(SIGNING_DOMAIN_NAMES).length);
  });

  it('hands out copies, so a caller cannot corrupt one', () => {
    domainSeparator('attester').fill(0);
    expect(domainHex('attester')).toBe(keccak256(toBytes(SIGNING_DOMAIN_NAMES.attester)));
  });
});

describe('checkpoint proposal payload', () => {
  it("is Solidity's abi.encodePacked of its fields, 128 bytes", () => {
    const packed = encodePacked(
      ['bytes32', 'uint64', 'uint64', 'uint64', 'uint64', 'bytes32', 'bytes32'],
      [
        domainHex('checkpointProposalPayload'),
        31337n,
        7n,
        1234n,
        99n,
        payload.archiveRoot,
        payload.checkpointHeaderHash,
      ],
    );
    expect(bytesToHex(encodeCheckpointProposalPayload(payload))).toBe(packed);
    expect(CHECKPOINT_PROPOSAL_PAYLOAD_BYTES).toBe(128);
    expect(checkpointProposalPayloadHash(payload)).toBe(keccak256(packed));
  });

  it('decodes what it encodes, and refuses a wrong size or domain', () => {
    const bytes = encodeCheckpointProposalPayload(payload);
    expect(decodeCheckpointProposalPayload(bytes)).toEqual(payload);
    expect(() => decodeCheckpointProposalPayload(bytes.subarray(1))).toThrow(CodecError);
    const foreign = bytes.slice();
    foreign.set(domainSeparator('blockProposalPayload'), 0);
    expect(() => decodeCheckpointProposalPayload(foreign)).toThrow(/domain separator/);
  });

  it("of a checkpoint takes the header's slot and hashes the header alone", () => {
    const header: CheckpointHeader = {
      lastArchiveRoot: h(1),
      slotNumber: 77,
      timestamp: 1_700_000_000n,
      coinbase: `0x${'11'.repeat(20)}`,
      feeRecipient: h(2),
      gasFees: { feePerDaGas: 3n, feePerL2Gas: 4n },
      blockCount: 2,
      blobsHash: h(5),
      totalManaUsed: 6n,
      inHash: h(7),
      outHash: h(8),
    };
    const built = checkpointProposalPayloadOf(
      { l1ChainId: 1, rollupVersion: 2 },
      { number: 9, header, archiveRoot: h(0xcc) },
    );
    expect(built).toMatchObject({
      slot: 77,
      checkpointNumber: 9,
      archiveRoot: h(0xcc),
      checkpointHeaderHash: checkpointHeaderHash(header),
    });
    expect(built.checkpointHeaderHash).not.toBe(checkpointHash(header, h(0xcc)));
  });
});

describe('block proposal payload', () => {
  it("is abi.encodePacked of its fields with the tx hashes' keccak256, 130 bytes", () => {
    const block = {
      l1ChainId: 1,
      rollupVersion: 2,
      slot: 3,
      blockNumber: 4,
      indexWithinCheckpoint: 5,
      archiveRoot: h(6),
      txHashes: [h(7), h(8)],
    };
    const packed = encodePacked(
      ['bytes32', 'uint64', 'uint64', 'uint64', 'uint64', 'uint16', 'bytes32', 'bytes32'],
      [
        domainHex('blockProposalPayload'),
        1n,
        2n,
        3n,
        4n,
        5,
        h(6),
        keccak256(encodePacked(['bytes32', 'bytes32'], [h(7), h(8)])),
      ],
    );
    expect(bytesToHex(encodeBlockProposalPayload(block))).toBe(packed);
    expect(BLOCK_PROPOSAL_PAYLOAD_BYTES).toBe(130);
    expect(blockProposalPayloadHash(block)).toBe(keccak256(packed));
    expect(txHashesHash([])).toBe(keccak256('0x'));
  });

  it('refuses a block index beyond a checkpoint', () => {
    const block = {
      l1ChainId: 1,
      rollupVersion: 2,
      slot: 3,
      blockNumber: 4,
      indexWithinCheckpoint: 16,
      archiveRoot: h(6),
      txHashes: [],
    };
    expect(() => encodeBlockProposalPayload(block)).toThrow(CodecError);
  });
});

describe('signing messages', () => {
  it('wrap the payload hash with the role, so proposer and attester messages differ', () => {
    const hash = checkpointProposalPayloadHash(payload);
    expect(bytesToHex(signingMessage('attester', hash))).toBe(
      keccak256(encodePacked(['bytes32', 'bytes32'], [domainHex('attester'), hash])),
    );
    expect(bytesToHex(signingMessage('proposer', hash))).not.toBe(bytesToHex(signingMessage('attester', hash)));
  });

  it('of a proof of possession bind the address and the key, 100 bytes', () => {
    const key: Hex = `0x${'ab'.repeat(48)}`;
    const address: Hex = `0x${'12'.repeat(20)}`;
    const message = proofOfPossessionMessage(address, key);
    expect(message.length).toBe(PROOF_OF_POSSESSION_MESSAGE_BYTES);
    expect(bytesToHex(message)).toBe(
      encodePacked(['bytes32', 'address', 'bytes'], [domainHex('proofOfPossession'), address, key]),
    );
  });
});

describe('committee draw preimages', () => {
  it('are packed fields under their own domains', () => {
    expect(bytesToHex(committeeSeedPreimage(5, h(9)))).toBe(
      encodePacked(['bytes32', 'uint64', 'bytes32'], [domainHex('committeeSeed'), 5n, h(9)]),
    );
    expect(committeeSeed(5, h(9))).toBe(hashToField(committeeSeedPreimage(5, h(9))));
    expect(bytesToHex(memberDrawPreimage(h(1), 2, 3))).toBe(
      encodePacked(['bytes32', 'bytes32', 'uint32', 'uint32'], [domainHex('committeeMemberDraw'), h(1), 2, 3]),
    );
    expect(bytesToHex(proposerDrawPreimage(h(1), 2, 3))).toBe(
      encodePacked(['bytes32', 'bytes32', 'uint64', 'uint32'], [domainHex('proposerDraw'), h(1), 2n, 3]),
    );
  });
});

describe('published checkpoint attestations', () => {
  const sig = (n: number): Hex => `0x${n.toString(16).padStart(2, '0').repeat(96)}`;

  it('round-trip, keeping order and duplicates for the quorum check to judge', () => {
    const list = [
      { committeeIndex: 3, signature: sig(1) },
      { committeeIndex: 0, signature: sig(2) },
      { committeeIndex: 3, signature: sig(3) },
    ];
    const bytes = encodeCheckpointAttestations(list);
    expect(bytes.length).toBe(2 + 3 * 98);
    expect(decodeCheckpointAttestations(bytes)).toEqual(list);
    expect(decodeCheckpointAttestations(encodeCheckpointAttestations([]))).toEqual([]);
  });

  it('refuse a truncated list and a count above the committee size', () => {
    const bytes = encodeCheckpointAttestations([{ committeeIndex: 1, signature: sig(1) }]);
    expect(() => decodeCheckpointAttestations(bytes.subarray(0, bytes.length - 1))).toThrow(CodecError);
    const tooMany = new Uint8Array(2);
    new DataView(tooMany.buffer).setUint16(0, CHECKPOINT_ATTESTATIONS_MAX + 1);
    expect(() => decodeCheckpointAttestations(tooMany)).toThrow(/at most/);
    expect(() =>
      encodeCheckpointAttestations(
        Array.from({ length: CHECKPOINT_ATTESTATIONS_MAX + 1 }, () => ({ committeeIndex: 0, signature: sig(1) })),
      ),
    ).toThrow(CodecError);
  });
});
