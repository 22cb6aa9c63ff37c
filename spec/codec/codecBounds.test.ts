/**
 * The codecs at their edges: every bound accepted at its value and refused one past it, with the error a peer or an
 * operator reads; the hashes the L1 contract and other nodes recompute; the byte helpers' refusals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex, TxEffect } from '../chain.js';
import {
  BLOB_PAYLOAD_BYTES_MAX,
  BLOB_SIZE_BYTES,
  BLOBS_PER_CHECKPOINT_MAX,
  BLOCKS_PER_CHECKPOINT_MAX,
  DA_GAS_PER_BYTE,
  PUBLIC_BYTECODE_BYTES_MAX,
} from '../constants.js';
import { hashToField } from '../hash.js';
import { BLOCK_HEADER_BYTES, blockHash, encodeBlockHeader } from './blockHeader.js';
import {
  bigintToBytes,
  ByteReader,
  bytesToHex,
  ByteWriter,
  CodecError,
  hexToBytes,
  isHex,
  writeHexInto,
  zeroHex,
} from './bytes.js';
import { blobsToPayload, decodeCheckpointPayload, encodeCheckpointPayload, payloadToBlobs } from './checkpointBlobs.js';
import {
  blobsHash,
  CHECKPOINT_HEADER_BYTES,
  CHECKPOINT_HEADER_IN_HASH_OFFSET,
  checkpointHash,
  encodeCheckpointHeader,
} from './checkpointHeader.js';
import { readContractClass, writeContractClass } from './contracts.js';
import { decodeTxEffects, encodeTxEffects, minimalTxEffect, txEffectsDaGas } from './txEffect.js';

const h = (n: number, bytes = 32): Hex => `0x${n.toString(16).padStart(bytes * 2, '0')}`;

const HEADER = {
  lastArchive: { root: h(1), nextAvailableLeafIndex: 1 },
  state: {
    l1ToL2MessageTree: { root: h(2), nextAvailableLeafIndex: 2 },
    noteHashTree: { root: h(3), nextAvailableLeafIndex: 3 },
    nullifierTree: { root: h(4), nextAvailableLeafIndex: 4 },
    publicDataTree: { root: h(5), nextAvailableLeafIndex: 5 },
  },
  globalVariables: {
    chainId: 31337,
    version: 1,
    blockNumber: 7,
    slotNumber: 9,
    timestamp: 1_700_000_000n,
    coinbase: h(6, 20),
    feeRecipient: h(7),
    gasFees: { feePerDaGas: 1n, feePerL2Gas: 2n },
  },
  contentCommitment: { txsEffectsHash: h(8), inHash: h(9), outHash: h(10) },
  totalFees: 11n,
  totalManaUsed: 12n,
};

const CHECKPOINT_HEADER = {
  lastArchiveRoot: h(1),
  slotNumber: 9,
  timestamp: 1_700_000_000n,
  coinbase: h(6, 20),
  feeRecipient: h(7),
  gasFees: { feePerDaGas: 1n, feePerL2Gas: 2n },
  blockCount: 1,
  blobsHash: h(8),
  totalManaUsed: 12n,
  inHash: h(9),
  outHash: h(10),
};

/** An effect with every list empty: the smallest one the blobs may carry (73 bytes). */
const emptyEffect = (n: number): TxEffect => ({ ...minimalTxEffect(h(n), h(n)), nullifiers: [] });

const concat = (...parts: Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts));

describe('byte helpers at their edges', () => {
  it('isHex accepts exactly the even-length 0x-prefixed hex strings', () => {
    const valid = /^0x(?:[0-9a-fA-F]{2})*$/;
    const candidates = fc.oneof(
      fc.uint8Array({ maxLength: 8 }).map((bytes) => bytesToHex(bytes) as string),
      fc.uint8Array({ maxLength: 8 }).map((bytes) => bytesToHex(bytes).slice(0, -1)),
      fc.uint8Array({ maxLength: 8 }).map((bytes) => `0X${bytesToHex(bytes).slice(2)}`),
      fc.string({ maxLength: 8 }).map((text) => `0x${text}`),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(candidates, (text) => {
        expect(isHex(text)).toBe(valid.test(text));
      }),
    );
    expect(isHex('0xAbCd')).toBe(true);
    expect(isHex('0x')).toBe(true);
    expect(isHex('0xabc')).toBe(false);
    expect(isHex('x0ab')).toBe(false);
    expect(isHex('0xab\n')).toBe(false);
    expect(isHex(12)).toBe(false);
    expect(isHex(undefined)).toBe(false);
  });

  it('zeroHex is that many zero bytes', () => {
    expect(zeroHex(0)).toBe('0x');
    expect(hexToBytes(zeroHex(20))).toEqual(new Uint8Array(20));
  });

  it('a codec error says what it is', () => {
    const error = new CodecError('bad bytes');
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe('CODEC_INVALID');
    expect(String(error)).toBe('CodecError: bad bytes');
  });

  it('fixed-width hex refuses a value without its 0x prefix, whatever its length', () => {
    const body = '11'.repeat(32);
    for (const hex of [`1x${body}`, `0X${body}`, `x0${body}`, `00${body}`]) {
      expect(() => writeHexInto(new Uint8Array(32), 0, hex as Hex, 32)).toThrow(/not an even-length/);
      expect(() => new ByteWriter().hex(hex as Hex, 32)).toThrow(/not an even-length/);
      expect(() => hexToBytes(hex as Hex)).toThrow(/not an even-length/);
    }
    expect(() => hexToBytes('0x123' as Hex)).toThrow(/not an even-length 0x-prefixed hex string: 0x123/);
  });

  it('bigintToBytes says which value does not fit, on both its paths', () => {
    expect(() => bigintToBytes(256n, 1)).toThrow('value 256 does not fit in 1 bytes');
    expect(() => bigintToBytes(2n ** 64n, 8)).toThrow(`value ${2n ** 64n} does not fit in 8 bytes`);
    expect(bigintToBytes(2n ** 64n - 1n, 8)).toEqual(new Uint8Array(8).fill(0xff));
    expect(() => bigintToBytes(-5n, 8)).toThrow('negative value -5');
  });

  it('a reader refuses a read past the end or of a negative size, and moves past what it read', () => {
    const reader = new ByteReader(Uint8Array.from([1, 2, 3, 4]));
    expect(() => reader.bytes(-1)).toThrow('read of -1 bytes at offset 0 past end 4');
    expect(reader.remaining).toBe(4);
    expect(reader.bytes(1)).toEqual(Uint8Array.from([1]));
    expect(reader.remaining).toBe(3);
    expect(() => reader.bytes(4)).toThrow('read of 4 bytes at offset 1 past end 4');
    expect(reader.hex(3)).toBe('0x020304');
    expect(reader.remaining).toBe(0);
    expect(() => reader.bytes(1)).toThrow(CodecError);
  });

  it('a number read is refused above the largest safe integer, and read up to it', () => {
    const max = BigInt(Number.MAX_SAFE_INTEGER);
    expect(new ByteReader(bigintToBytes(max, 8)).number(8)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => new ByteReader(bigintToBytes(max + 1n, 8)).number(8)).toThrow(
      `value ${max + 1n} is not a safe integer`,
    );
  });
});

describe('header hashes', () => {
  it('a checkpoint hash is the hash of the encoded header followed by the archive root', () => {
    const encoded = encodeCheckpointHeader(CHECKPOINT_HEADER);
    expect(checkpointHash(CHECKPOINT_HEADER, h(42))).toBe(hashToField(concat(encoded, hexToBytes(h(42)))));
    expect(checkpointHash(CHECKPOINT_HEADER, h(43))).not.toBe(checkpointHash(CHECKPOINT_HEADER, h(42)));
    expect(() => checkpointHash(CHECKPOINT_HEADER, h(42, 31))).toThrow(/expected 32 bytes, got 31/);
  });

  it('inHash sits where the contract reads it', () => {
    const encoded = encodeCheckpointHeader(CHECKPOINT_HEADER);
    expect(encoded.length).toBe(CHECKPOINT_HEADER_BYTES);
    expect(bytesToHex(encoded.subarray(CHECKPOINT_HEADER_IN_HASH_OFFSET, CHECKPOINT_HEADER_IN_HASH_OFFSET + 32))).toBe(
      CHECKPOINT_HEADER.inHash,
    );
  });

  it('a blobs hash is the hash of the versioned hashes, in order', () => {
    const hashes = [h(1), h(2), h(3)];
    expect(blobsHash(hashes)).toBe(hashToField(concat(...hashes.map((x) => hexToBytes(x)))));
    expect(blobsHash([h(2), h(1), h(3)])).not.toBe(blobsHash(hashes));
    expect(blobsHash([])).toBe(hashToField(new Uint8Array()));
  });

  it('a block hash is the hash of the encoded header', () => {
    expect(encodeBlockHeader(HEADER).length).toBe(BLOCK_HEADER_BYTES);
    expect(blockHash(HEADER)).toBe(hashToField(encodeBlockHeader(HEADER)));
  });
});

describe('checkpoint payload bounds', () => {
  const block = (txEffects: readonly TxEffect[] = []) => ({ header: HEADER, txEffects });
  /** A payload of format 2 declaring `blockCount` blocks, with `rest` after the count. */
  const declared = (blockCount: number, rest = new Uint8Array()) =>
    new ByteWriter().uint(2, 1).uint(blockCount, 2).bytes(rest).finish();

  it('carries 1 to BLOCKS_PER_CHECKPOINT_MAX blocks, both ways', () => {
    const most = Array.from({ length: BLOCKS_PER_CHECKPOINT_MAX }, () => block());
    expect(decodeCheckpointPayload(encodeCheckpointPayload(most))).toHaveLength(BLOCKS_PER_CHECKPOINT_MAX);
    expect(() => encodeCheckpointPayload([])).toThrow(
      `a checkpoint carries 1 to ${BLOCKS_PER_CHECKPOINT_MAX} blocks, got 0`,
    );
    expect(() => encodeCheckpointPayload([...most, block()])).toThrow(/got 17/);
    expect(() => decodeCheckpointPayload(declared(0))).toThrow('checkpoint blob declares 0 blocks');
    expect(() => decodeCheckpointPayload(declared(BLOCKS_PER_CHECKPOINT_MAX + 1))).toThrow(
      `checkpoint blob declares ${BLOCKS_PER_CHECKPOINT_MAX + 1} blocks`,
    );
    expect(() => decodeCheckpointPayload(new Uint8Array([9, 0, 1]))).toThrow('unknown checkpoint blob format 9');
  });

  it('reads a block whose txs exactly fill the payload, and refuses a count the payload cannot hold', () => {
    const effects = [emptyEffect(1), emptyEffect(2), emptyEffect(3)];
    const payload = encodeCheckpointPayload([block(effects)]);
    expect(decodeCheckpointPayload(payload)).toEqual([block(effects)]);
    const txCountAt = 3 + BLOCK_HEADER_BYTES;
    const forged = payload.slice();
    new DataView(forged.buffer).setUint32(txCountAt, 4);
    expect(() => decodeCheckpointPayload(forged)).toThrow('block 0 declares 4 txs, more than the payload holds');
    new DataView(forged.buffer).setUint32(txCountAt, 65_537);
    const padded = concat(forged, new Uint8Array(73 * 65_537));
    expect(() => decodeCheckpointPayload(padded)).toThrow('block 0 declares 65537 txs, more than the payload holds');
    expect(() => decodeCheckpointPayload(concat(payload, new Uint8Array(2)))).toThrow(
      '2 trailing bytes after the last block',
    );
  });

  it('frames payloads up to the blobs a checkpoint may carry, and refuses one byte more', () => {
    const largest = BLOBS_PER_CHECKPOINT_MAX * BLOB_PAYLOAD_BYTES_MAX - 4;
    const payload = new Uint8Array(largest).fill(7);
    const blobs = payloadToBlobs(payload);
    expect(blobs).toHaveLength(BLOBS_PER_CHECKPOINT_MAX);
    // Compared as buffers: a deep equality of 760 kB takes seconds.
    expect(Buffer.from(blobsToPayload(blobs)).equals(payload)).toBe(true);
    expect(payloadToBlobs(new Uint8Array())).toHaveLength(1);
    expect(payloadToBlobs(new Uint8Array(BLOB_PAYLOAD_BYTES_MAX - 4))).toHaveLength(1);
    expect(payloadToBlobs(new Uint8Array(BLOB_PAYLOAD_BYTES_MAX - 3))).toHaveLength(2);
    expect(() => payloadToBlobs(new Uint8Array(largest + 1))).toThrow(
      `payload of ${largest + 1} bytes needs ${BLOBS_PER_CHECKPOINT_MAX + 1} blobs, at most ${BLOBS_PER_CHECKPOINT_MAX}`,
    );
  });

  it('refuses no blobs, a blob of the wrong size, and a framed length beyond the blobs', () => {
    expect(() => blobsToPayload([])).toThrow('no blobs');
    expect(() => blobsToPayload([new Uint8Array(BLOB_SIZE_BYTES - 1)])).toThrow(`blob of ${BLOB_SIZE_BYTES - 1} bytes`);
    const blob = payloadToBlobs(new Uint8Array(0))[0]!;
    const capacity = BLOB_PAYLOAD_BYTES_MAX;
    new DataView(blob.buffer).setUint32(1, capacity - 4);
    expect(blobsToPayload([blob])).toHaveLength(capacity - 4);
    new DataView(blob.buffer).setUint32(1, capacity - 3);
    expect(() => blobsToPayload([blob])).toThrow(`framed length ${capacity - 3} exceeds the blob data`);
    const corrupted = payloadToBlobs(new Uint8Array(0))[0]!;
    corrupted[32 * 4095] = 1;
    expect(() => blobsToPayload([corrupted])).toThrow('blob field element 4095 does not start with a zero byte');
  });
});

describe('contract class bytecode bound', () => {
  const publication = (bytes: number) => ({
    id: h(1),
    version: 1,
    artifactHash: h(2),
    privateFunctionsRoot: h(3),
    publicBytecodeCommitment: h(4),
    packedBytecode: bytesToHex(new Uint8Array(bytes).fill(1)),
  });

  it('carries bytecode up to PUBLIC_BYTECODE_BYTES_MAX both ways, and refuses a byte more', () => {
    const largest = publication(PUBLIC_BYTECODE_BYTES_MAX);
    const w = new ByteWriter();
    writeContractClass(w, largest);
    expect(readContractClass(new ByteReader(w.finish()))).toEqual(largest);
    const message = `public bytecode of ${PUBLIC_BYTECODE_BYTES_MAX + 1} bytes exceeds ${PUBLIC_BYTECODE_BYTES_MAX}`;
    expect(() => writeContractClass(new ByteWriter(), publication(PUBLIC_BYTECODE_BYTES_MAX + 1))).toThrow(message);
    const forged = new ByteWriter();
    writeContractClass(forged, publication(0));
    const bytes = forged.finish();
    new DataView(bytes.buffer).setUint32(bytes.length - 4, PUBLIC_BYTECODE_BYTES_MAX + 1);
    expect(() => readContractClass(new ByteReader(bytes))).toThrow(message);
  });
});

describe('tx effect lists', () => {
  it('decodes exactly countMax effects, refuses one more and a cut effect', () => {
    const effects = [minimalTxEffect(h(1), h(2)), emptyEffect(3)];
    const bytes = encodeTxEffects(effects);
    expect(decodeTxEffects(bytes, 2)).toEqual(effects);
    expect(decodeTxEffects(new Uint8Array(), 0)).toEqual([]);
    expect(() => decodeTxEffects(bytes, 1)).toThrow('a tx effect list holds at most 1 effects');
    expect(() => decodeTxEffects(bytes.subarray(0, bytes.length - 1), 2)).toThrow(CodecError);
  });

  it('DA gas is DA_GAS_PER_BYTE per encoded byte', () => {
    const effects = [minimalTxEffect(h(1), h(2)), emptyEffect(3)];
    expect(txEffectsDaGas(effects)).toBe(DA_GAS_PER_BYTE * (105 + 73));
    expect(txEffectsDaGas([])).toBe(0);
  });
});
