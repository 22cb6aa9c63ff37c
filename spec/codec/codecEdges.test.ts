/**
 * What the first mutation run of spec/codec let live: a block carrying the most txs, a checkpoint header with a byte
 * too many, the teardown call in the tx hash, a tx's accounted size, and the errors a malformed value gets.
 */
import { describe, expect, it } from 'vitest';
import type { Hex } from '../chain.js';
import { hashToField } from '../hash.js';
import type { TxValue } from '../wire/tx.js';
import { BLOCK_HEADER_BYTES } from './blockHeader.js';
import { ByteWriter, CodecError, hexToBytes, writeHexInto } from './bytes.js';
import { decodeCheckpointPayload } from './checkpointBlobs.js';
import { CHECKPOINT_HEADER_BYTES, decodeCheckpointHeader } from './checkpointHeader.js';
import { computeTxHash, encodeTxPreimage, txSizeBytes } from './tx.js';

const h = (n: number, bytes = 32): Hex => `0x${n.toString(16).padStart(bytes * 2, '0')}`;
const call = (n: number) => ({ contractAddress: h(n), msgSender: h(n + 1), isStaticCall: false, calldata: [h(n)] });

const baseTx: TxValue = {
  txHash: h(0),
  chainId: 31337,
  version: 1,
  anchorBlockHash: h(7),
  expirationTimestamp: 1_700_000_000n,
  feePayer: h(9),
  gasSettings: {
    gasLimits: { daGas: 1000, l2Gas: 2000 },
    maxFeesPerGas: { feePerDaGas: 3n, feePerL2Gas: 4n },
    maxPriorityFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 2n },
  },
  sideEffects: {
    nullifiers: [h(11)],
    noteHashes: [],
    privateLogs: [],
    l2ToL1Messages: [],
    contractClassPublications: [],
    contractInstancePublications: [],
  },
  publicCalls: { setup: [], appLogic: [], teardown: call(30) },
  proof: '0x1234',
};

describe('codec edges', () => {
  it('a block may carry 65,536 txs, the most a payload declares', () => {
    const header = new Uint8Array(BLOCK_HEADER_BYTES);
    const txCount = 65_536;
    // Empty effects are 73 zero bytes each: hash 0, result 'success', fee 0 and eight empty lists.
    const payload = new ByteWriter()
      .uint(2, 1)
      .uint(1, 2)
      .bytes(header)
      .uint(txCount, 4)
      .bytes(new Uint8Array(73 * txCount))
      .finish();
    const [block] = decodeCheckpointPayload(payload);
    expect(block?.txEffects).toHaveLength(txCount);
  });

  it('a checkpoint header with a byte too many or too few is refused, saying so', () => {
    const message = (length: number) => `checkpoint header must be ${CHECKPOINT_HEADER_BYTES} bytes, got ${length}`;
    expect(() => decodeCheckpointHeader(new Uint8Array(CHECKPOINT_HEADER_BYTES + 1))).toThrow(
      message(CHECKPOINT_HEADER_BYTES + 1),
    );
    expect(() => decodeCheckpointHeader(new Uint8Array(CHECKPOINT_HEADER_BYTES - 1))).toThrow(
      message(CHECKPOINT_HEADER_BYTES - 1),
    );
  });

  it('the tx hash covers the teardown call, field by field', () => {
    const hash = computeTxHash(baseTx);
    const withTeardown = (teardown: TxValue['publicCalls']['teardown']) =>
      computeTxHash({ ...baseTx, publicCalls: { ...baseTx.publicCalls, teardown } });
    expect(withTeardown(call(31))).not.toBe(hash);
    expect(withTeardown({ ...call(30), calldata: [h(99)] })).not.toBe(hash);
    expect(hash).toBe(hashToField(encodeTxPreimage(baseTx)));
  });

  it("a tx's size is its preimage, its 32-byte hash and its proof", () => {
    expect(txSizeBytes(baseTx)).toBe(encodeTxPreimage(baseTx).length + 32 + 2);
  });

  it('refuses a non-string of the right length with the codec error, and cuts a long bad value in its message', () => {
    const notAString = Array.from({ length: 66 }, () => '0') as unknown as Hex;
    expect(() => writeHexInto(new Uint8Array(32), 0, notAString, 32)).toThrow(CodecError);
    const long = `0x${'zz'.repeat(100)}` as Hex;
    expect(() => hexToBytes(long)).toThrow(
      new CodecError(`not an even-length 0x-prefixed hex string: ${long.slice(0, 80)}`),
    );
  });
});
