import type { BlockHeader, TreeSnapshot } from '../chain.js';
import { hashToField } from '../hash.js';
import type { ByteReader } from './bytes.js';
import { ByteWriter, CodecError } from './bytes.js';

/**
 * Block header encoding: fixed-width big-endian fields in declaration order. The block hash (and archive leaf) is
 * hashToField of these bytes.
 *
 * | field                          | bytes |
 * |--------------------------------|-------|
 * | lastArchive root, next index   | 32, 8 |
 * | l1ToL2 / noteHash / nullifier / publicData: root, next index | 4 x (32, 8) |
 * | chainId, version, blockNumber  | 4, 4, 4 |
 * | slotNumber, timestamp          | 8, 8 |
 * | coinbase, feeRecipient         | 20, 32 |
 * | feePerDaGas, feePerL2Gas       | 16, 16 |
 * | txsEffectsHash, inHash, outHash| 32, 32, 32 |
 * | totalFees, totalManaUsed       | 32, 8 |
 */
export const BLOCK_HEADER_BYTES = 5 * 40 + 12 + 16 + 52 + 32 + 96 + 40;

function writeSnapshot(w: ByteWriter, s: TreeSnapshot): void {
  w.hex(s.root, 32).uint(s.nextAvailableLeafIndex, 8);
}

function readSnapshot(r: ByteReader): TreeSnapshot {
  return { root: r.hex(32), nextAvailableLeafIndex: r.number(8) };
}

export function encodeBlockHeader(h: BlockHeader): Uint8Array {
  const w = new ByteWriter();
  writeSnapshot(w, h.lastArchive);
  writeSnapshot(w, h.state.l1ToL2MessageTree);
  writeSnapshot(w, h.state.noteHashTree);
  writeSnapshot(w, h.state.nullifierTree);
  writeSnapshot(w, h.state.publicDataTree);
  const g = h.globalVariables;
  w.uint(g.chainId, 4).uint(g.version, 4).uint(g.blockNumber, 4);
  w.uint(g.slotNumber, 8).uint(g.timestamp, 8);
  w.hex(g.coinbase, 20).hex(g.feeRecipient, 32);
  w.uint(g.gasFees.feePerDaGas, 16).uint(g.gasFees.feePerL2Gas, 16);
  const c = h.contentCommitment;
  w.hex(c.txsEffectsHash, 32).hex(c.inHash, 32).hex(c.outHash, 32);
  w.uint(h.totalFees, 32).uint(h.totalManaUsed, 8);
  const out = w.finish();
  if (out.length !== BLOCK_HEADER_BYTES) throw new CodecError(`header encoded to ${out.length} bytes`);
  return out;
}

export function decodeBlockHeader(reader: ByteReader): BlockHeader {
  const lastArchive = readSnapshot(reader);
  const l1ToL2MessageTree = readSnapshot(reader);
  const noteHashTree = readSnapshot(reader);
  const nullifierTree = readSnapshot(reader);
  const publicDataTree = readSnapshot(reader);
  const chainId = reader.number(4);
  const version = reader.number(4);
  const blockNumber = reader.number(4);
  const slotNumber = reader.number(8);
  const timestamp = reader.bigint(8);
  const coinbase = reader.hex(20);
  const feeRecipient = reader.hex(32);
  const feePerDaGas = reader.bigint(16);
  const feePerL2Gas = reader.bigint(16);
  const txsEffectsHash = reader.hex(32);
  const inHash = reader.hex(32);
  const outHash = reader.hex(32);
  const totalFees = reader.bigint(32);
  const totalManaUsed = reader.bigint(8);
  return {
    lastArchive,
    state: { l1ToL2MessageTree, noteHashTree, nullifierTree, publicDataTree },
    globalVariables: {
      chainId,
      version,
      blockNumber,
      slotNumber,
      timestamp,
      coinbase,
      feeRecipient,
      gasFees: { feePerDaGas, feePerL2Gas },
    },
    contentCommitment: { txsEffectsHash, inHash, outHash },
    totalFees,
    totalManaUsed,
  };
}

export function blockHash(header: BlockHeader) {
  return hashToField(encodeBlockHeader(header));
}
