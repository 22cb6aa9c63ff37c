import fc from 'fast-check';
import { EXECUTION_RESULT_CODES } from './txEffect.js';
import { describe, expect, it } from 'vitest';
import type { BlockHeader, CheckpointHeader, Hex } from '../chain.js';
import { BLOB_PAYLOAD_BYTES_MAX, BLOBS_PER_CHECKPOINT_MAX } from '../constants.js';
import { BLOCK_HEADER_BYTES, decodeBlockHeader, encodeBlockHeader } from './blockHeader.js';
import { bigintToBytes, ByteReader, bytesToBigint, bytesToHex, CodecError, hexToBytes, writeHexInto } from './bytes.js';
import { blobsToPayload, decodeCheckpointPayload, encodeCheckpointPayload, payloadToBlobs } from './checkpointBlobs.js';
import {
  CHECKPOINT_HEADER_BLOBS_HASH_OFFSET,
  CHECKPOINT_HEADER_BYTES,
  decodeCheckpointHeader,
  encodeCheckpointHeader,
} from './checkpointHeader.js';

const hexOf = (size: number) => fc.uint8Array({ minLength: size, maxLength: size }).map((b) => bytesToHex(b) as Hex);
const uint = (bits: number) => fc.bigInt({ min: 0n, max: 2n ** BigInt(bits) - 1n });
const snapshot = fc.record({ root: hexOf(32), nextAvailableLeafIndex: fc.integer({ min: 0, max: 2 ** 40 }) });
const gasFees = fc.record({ feePerDaGas: uint(128), feePerL2Gas: uint(128) });

const blockHeader: fc.Arbitrary<BlockHeader> = fc.record({
  lastArchive: snapshot,
  state: fc.record({
    l1ToL2MessageTree: snapshot,
    noteHashTree: snapshot,
    nullifierTree: snapshot,
    publicDataTree: snapshot,
  }),
  globalVariables: fc.record({
    chainId: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    version: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    blockNumber: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
    slotNumber: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    timestamp: uint(64),
    coinbase: hexOf(20),
    feeRecipient: hexOf(32),
    gasFees,
  }),
  contentCommitment: fc.record({ txsEffectsHash: hexOf(32), inHash: hexOf(32), outHash: hexOf(32) }),
  totalFees: uint(256),
  totalManaUsed: uint(64),
});

const checkpointHeader: fc.Arbitrary<CheckpointHeader> = fc.record({
  lastArchiveRoot: hexOf(32),
  slotNumber: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  timestamp: uint(64),
  coinbase: hexOf(20),
  feeRecipient: hexOf(32),
  gasFees,
  blockCount: fc.integer({ min: 0, max: 65_535 }),
  blobsHash: hexOf(32),
  totalManaUsed: uint(64),
  inHash: hexOf(32),
  outHash: hexOf(32),
});

describe('byte codecs', () => {
  it('block headers round-trip at their fixed size', () => {
    fc.assert(
      fc.property(blockHeader, (h) => {
        const bytes = encodeBlockHeader(h);
        expect(bytes.length).toBe(BLOCK_HEADER_BYTES);
        expect(decodeBlockHeader(new ByteReader(bytes))).toEqual(h);
      }),
    );
  });

  it('checkpoint headers round-trip, with blobsHash where the contract reads it', () => {
    fc.assert(
      fc.property(checkpointHeader, (h) => {
        const bytes = encodeCheckpointHeader(h);
        expect(bytes.length).toBe(CHECKPOINT_HEADER_BYTES);
        expect(
          bytesToHex(bytes.subarray(CHECKPOINT_HEADER_BLOBS_HASH_OFFSET, CHECKPOINT_HEADER_BLOBS_HASH_OFFSET + 32)),
        ).toBe(h.blobsHash);
        expect(decodeCheckpointHeader(bytes)).toEqual(h);
      }),
    );
  });

  it('checkpoint payloads round-trip through blobs whose field elements start with a zero byte', () => {
    const effect = fc.record({
      txHash: hexOf(32),
      executionResult: fc.constantFrom(...EXECUTION_RESULT_CODES),
      transactionFee: fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }),
      noteHashes: fc.array(hexOf(32), { maxLength: 3 }),
      nullifiers: fc.array(hexOf(32), { minLength: 1, maxLength: 3 }),
      l2ToL1Messages: fc.array(hexOf(32), { maxLength: 2 }),
      publicDataWrites: fc.array(fc.record({ leafSlot: hexOf(32), value: hexOf(32) }), { maxLength: 2 }),
      privateLogs: fc.array(fc.record({ tag: hexOf(32), fields: fc.array(hexOf(32), { maxLength: 3 }) }), {
        maxLength: 2,
      }),
      publicLogs: fc.array(
        fc.record({ contractAddress: hexOf(32), tag: hexOf(32), fields: fc.array(hexOf(32), { maxLength: 3 }) }),
        { maxLength: 2 },
      ),
      contractClassPublications: fc.array(
        fc.record({
          id: hexOf(32),
          version: fc.nat(),
          artifactHash: hexOf(32),
          privateFunctionsRoot: hexOf(32),
          publicBytecodeCommitment: hexOf(32),
          packedBytecode: fc.uint8Array({ maxLength: 64 }).map((b) => `0x${Buffer.from(b).toString('hex')}` as const),
        }),
        { maxLength: 1 },
      ),
      contractInstancePublications: fc.array(
        fc.record({
          address: hexOf(32),
          version: fc.nat(),
          salt: hexOf(32),
          deployer: hexOf(32),
          currentContractClassId: hexOf(32),
          originalContractClassId: hexOf(32),
          initializationHash: hexOf(32),
          publicKeysHash: hexOf(32),
        }),
        { maxLength: 2 },
      ),
    });
    const txEffects = fc.array(effect, { maxLength: 6 });
    fc.assert(
      fc.property(fc.array(fc.record({ header: blockHeader, txEffects }), { minLength: 1, maxLength: 4 }), (blocks) => {
        const blobs = payloadToBlobs(encodeCheckpointPayload(blocks));
        for (const blob of blobs) for (let f = 0; f < blob.length; f += 32) expect(blob[f]).toBe(0);
        expect(decodeCheckpointPayload(blobsToPayload(blobs))).toEqual(blocks);
      }),
      { numRuns: 30 },
    );
  });

  it('unframes blobs as the whole-blob reading does, copying only what the payload spans', () => {
    /** The plain reading: every field element's 31 bytes copied out, then the framed length read off the front. */
    const reference = (blobs: readonly Uint8Array[]): Uint8Array => {
      const pieces = new Uint8Array(blobs.length * 4096 * 31);
      blobs.forEach((blob, b) => {
        for (let f = 0; f < 4096; f++) {
          if (blob[f * 32] !== 0) throw new CodecError('does not start with a zero byte');
          pieces.set(blob.subarray(f * 32 + 1, f * 32 + 32), (b * 4096 + f) * 31);
        }
      });
      const r = new ByteReader(pieces);
      const length = r.number(4);
      if (length > r.remaining) throw new CodecError('exceeds the blob data');
      return r.bytes(length).slice();
    };
    const outcome = (read: () => Uint8Array) => {
      try {
        return read();
      } catch (error) {
        return error instanceof CodecError ? 'refused' : error;
      }
    };
    const corruption = fc.option(fc.record({ at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }), {
      nil: undefined,
    });
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 200_000 }),
        corruption,
        fc.option(fc.nat(), { nil: undefined }),
        (payload, corrupt, forgedLength) => {
          const blobs = payloadToBlobs(payload);
          expect(blobsToPayload(blobs)).toEqual(payload);
          if (corrupt !== undefined) blobs[0]![corrupt.at % blobs[0]!.length] = corrupt.value;
          if (forgedLength !== undefined) new DataView(blobs[0]!.buffer).setUint32(1, forgedLength % 2 ** 32);
          expect(outcome(() => blobsToPayload(blobs))).toEqual(outcome(() => reference(blobs)));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects payloads that need more blobs than a checkpoint may carry, and corrupted blobs', () => {
    expect(() => payloadToBlobs(new Uint8Array(BLOB_PAYLOAD_BYTES_MAX * BLOBS_PER_CHECKPOINT_MAX))).toThrow(CodecError);
    const blobs = payloadToBlobs(new Uint8Array([1, 2, 3]));
    blobs[0]![32] = 1;
    expect(() => blobsToPayload(blobs)).toThrow(/does not start with a zero byte/);
    expect(() => decodeCheckpointPayload(new Uint8Array([9, 0, 1]))).toThrow(/unknown checkpoint blob format/);
    expect(() => decodeCheckpointHeader(new Uint8Array(10))).toThrow(CodecError);
  });
});

describe('writeHexInto', () => {
  it('writes what hexToBytes decodes, at the offset, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 8 }),
        fc.boolean(),
        (bytes, offset, upper) => {
          const hex = (upper ? `0x${bytesToHex(bytes).slice(2).toUpperCase()}` : bytesToHex(bytes)) as Hex;
          const target = new Uint8Array(offset + bytes.length + 3).fill(0xee);
          writeHexInto(target, offset, hex, bytes.length);
          expect(target.subarray(offset, offset + bytes.length)).toEqual(hexToBytes(hex, bytes.length));
          expect(
            [...target.subarray(0, offset), ...target.subarray(offset + bytes.length)].every((b) => b === 0xee),
          ).toBe(true);
        },
      ),
    );
  });

  it('refuses what hexToBytes refuses, with its error', () => {
    const bad = fc.oneof(
      fc.string({ maxLength: 70 }),
      hexOf(31),
      hexOf(33),
      hexOf(32).chain((hex) =>
        fc
          .tuple(fc.integer({ min: 2, max: 65 }), fc.constantFrom('g', 'x', ' ', 'Z'))
          .map(([i, c]) => (hex.slice(0, i) + c + hex.slice(i + 1)) as Hex),
      ),
    );
    fc.assert(
      fc.property(bad, (hex) => {
        let expected: unknown;
        try {
          hexToBytes(hex as Hex, 32);
        } catch (error) {
          expected = error;
        }
        fc.pre(expected !== undefined);
        expect(() => writeHexInto(new Uint8Array(32), 0, hex as Hex, 32)).toThrow(expected as Error);
        expect(expected).toBeInstanceOf(CodecError);
      }),
    );
  });
});

describe('bigint <-> bytes', () => {
  /** The byte-at-a-time definitions the fast paths must agree with. */
  const referenceToBytes = (value: bigint, size: number): Uint8Array => {
    const out = new Uint8Array(size);
    let v = value;
    for (let i = size - 1; i >= 0; i--) {
      out[i] = Number(v & 0xffn);
      v >>= 8n;
    }
    if (v !== 0n) throw new CodecError(`value ${value} does not fit in ${size} bytes`);
    return out;
  };
  const referenceToBigint = (bytes: Uint8Array): bigint => bytes.reduce((v, b) => (v << 8n) | BigInt(b), 0n);
  const sized = fc
    .integer({ min: 0, max: 40 })
    .chain((size) =>
      fc.tuple(
        fc.constant(size),
        fc.oneof(
          fc.bigInt({ min: 0n, max: 2n ** BigInt(8 * size + 8) }),
          fc.bigInt({ min: 0n, max: 2n ** 60n }),
          fc.constantFrom(0n, 255n, 256n, 2n ** 53n - 1n, 2n ** 53n),
        ),
      ),
    );

  it('bigintToBytes writes what the byte-at-a-time definition writes, and refuses what it refuses', () => {
    fc.assert(
      fc.property(sized, ([size, value]) => {
        let expected: Uint8Array | Error;
        try {
          expected = referenceToBytes(value, size);
        } catch (error) {
          expected = error as Error;
        }
        if (expected instanceof Error) expect(() => bigintToBytes(value, size)).toThrow(expected.message);
        else expect(bigintToBytes(value, size)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
    expect(() => bigintToBytes(-1n, 4)).toThrow(CodecError);
  });

  it('bytesToBigint reads what the byte-at-a-time definition reads, at any offset of a larger buffer', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.integer({ min: 0, max: 5 }), (bytes, offset) => {
        const backing = new Uint8Array(offset + bytes.length + 2).fill(0xff);
        backing.set(bytes, offset);
        const view = backing.subarray(offset, offset + bytes.length);
        expect(bytesToBigint(view)).toBe(referenceToBigint(bytes));
      }),
      { numRuns: 500 },
    );
  });
});
