import { beforeAll, describe, expect, it } from 'vitest';
import type { Block, BlockHeader, CheckpointHeader, GasFees, Hex, TxEffect } from '../../spec/chain.js';
import { bytesToHex, zeroHex } from '../../spec/codec/bytes.js';
import { encodeCheckpointPayload, payloadToBlobs } from '../../spec/codec/checkpointBlobs.js';
import { checkpointHash, encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import { inboxTreeHash } from '../../spec/messages/inbox.js';
import { MEMORY_CHAIN_CONSTANTS, openMemoryChain, proposeBlock } from '../../test/helpers/memoryChain.js';
import { checkpointProposalOf, type CheckpointProposal } from '../../test/helpers/scriptedL1.js';
import { appendLeaves, type AppendOnlyTree } from '../merkle/appendOnlyTree.js';
import type { CheckpointProposedLog } from '../ports.js';
import { decodeCheckpoint, type CheckpointContext } from './checkpointDecoding.js';

const SLOT = 2;
const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const withMessage = (n: number): TxEffect => ({
  ...minimalTxEffect(hex32(0x7000 + n), hex32(0x9000 + n)),
  l2ToL1Messages: [hex32(0x5000 + n)],
});
const L1 = { blockNumber: 7n, blockHash: hex32(0xb7), txHash: hex32(0x77), logIndex: 0 };
const SIGNATURES = [{ signer: `0x${'ab'.repeat(20)}`, signature: `0x${'cd'.repeat(96)}` }] as never[];

let blocks: Block[];
let proposal: CheckpointProposal;
let genesisTree: AppendOnlyTree;
let fees: GasFees;

beforeAll(async () => {
  const node = await openMemoryChain();
  blocks = [await proposeBlock(node, SLOT, [withMessage(1)]), await proposeBlock(node, SLOT, [withMessage(2)])];
  genesisTree = await node.chain.update((u) => u.getArchiveTree(0));
  proposal = checkpointProposalOf(1, MEMORY_CHAIN_CONSTANTS.genesisArchiveRoot, SLOT, blocks, 36);
  fees = blocks[0]!.header.globalVariables.gasFees;
});

interface Tamper {
  readonly header?: Partial<CheckpointHeader>;
  readonly log?: Partial<CheckpointProposedLog>;
  readonly blocks?: (blocks: { header: BlockHeader; txEffects: readonly TxEffect[] }[]) => void;
  readonly blobs?: Uint8Array[];
  readonly ctx?: Partial<CheckpointContext>;
}

/** Decodes the proposal as published, or with one thing changed. */
function decode(tamper: Tamper = {}) {
  const header = bytesToHex(encodeCheckpointHeader({ ...proposal.header, ...tamper.header }));
  const payload = blocks.map((b) => ({ header: structuredClone(b.header), txEffects: b.body.txEffects }));
  tamper.blocks?.(payload);
  const blobs = tamper.blobs ?? (tamper.blocks ? payloadToBlobs(encodeCheckpointPayload(payload)) : proposal.blobs);
  const log: CheckpointProposedLog = { ...proposal.log, header, l1: L1, ...tamper.log };
  return decodeCheckpoint(log, blobs, {
    previousArchiveTree: genesisTree,
    chainId: MEMORY_CHAIN_CONSTANTS.l1ChainId,
    rollupVersion: MEMORY_CHAIN_CONSTANTS.rollupVersion,
    l1BlockTimestamp: 84n,
    expectedGasFees: fees,
    expectedInHash: inboxTreeHash([]),
    attestations: SIGNATURES,
    ...tamper.ctx,
  });
}

function refusal(tamper: Tamper): string {
  const result = decode(tamper);
  if (result.ok) throw new Error('the tampered checkpoint was accepted');
  return result.reason;
}

/** Changes one field of block `index`'s header in the payload. */
const onBlock =
  (index: number, change: (header: { -readonly [K in keyof BlockHeader]: BlockHeader[K] }) => void) =>
  (payload: { header: BlockHeader }[]) =>
    change(payload[index]!.header as { -readonly [K in keyof BlockHeader]: BlockHeader[K] });
const globals = (index: number, values: Partial<BlockHeader['globalVariables']>) =>
  onBlock(index, (h) => (h.globalVariables = { ...h.globalVariables, ...values }));

describe('decodeCheckpoint', () => {
  it('rebuilds the blocks and the checkpoint the proposer published', () => {
    const result = decode();
    if (!result.ok) throw new Error(result.reason);
    const { checkpoint, blocks: decoded } = result.value;
    expect(decoded.map((d) => d.block)).toEqual(blocks);
    expect(decoded.map((d) => d.archiveTree.size)).toEqual([2, 3]);
    expect(checkpoint).toEqual({
      number: 1,
      header: proposal.header,
      archiveRoot: blocks[1]!.archive.root,
      hash: checkpointHash(proposal.header, blocks[1]!.archive.root),
      firstBlockNumber: 1,
      blockCount: 2,
      blobVersionedHashes: proposal.log.blobVersionedHashes,
      l1: { blockNumber: 7n, blockHash: L1.blockHash, timestamp: 84n, txHash: L1.txHash },
      attestations: SIGNATURES,
    });
  });

  it('refuses undecodable data', () => {
    expect(refusal({ log: { header: '0x0102' } })).toMatch(/^undecodable checkpoint data: /);
    expect(refusal({ blobs: [] })).toMatch(/^undecodable checkpoint data: /);
  });

  it('refuses a header that does not match the log, the blobs, the archive or the fee rule', () => {
    expect(refusal({ log: { slotNumber: SLOT + 1 } })).toBe(`header slot ${SLOT} != log slot ${SLOT + 1}`);
    expect(refusal({ log: { blobVersionedHashes: [hex32(1)] } })).toBe('header blobsHash does not match the blobs');
    expect(refusal({ ctx: { previousArchiveTree: appendLeaves(genesisTree, [hex32(1)]) } })).toBe(
      'header lastArchiveRoot is not the previous archive',
    );
    const l2 = { ...fees, feePerL2Gas: fees.feePerL2Gas + 1n };
    const da = { ...fees, feePerDaGas: fees.feePerDaGas + 1n };
    expect(refusal({ ctx: { expectedGasFees: l2 } })).toBe(
      `header gas fees ${fees.feePerL2Gas}/${fees.feePerDaGas} are not the minimum fees ${l2.feePerL2Gas}/${fees.feePerDaGas}`,
    );
    expect(refusal({ ctx: { expectedGasFees: da } })).toMatch(/^header gas fees .* are not the minimum fees/);
    expect(refusal({ header: { blockCount: 3 } })).toBe('blobs carry 2 blocks, header says 3');
    expect(refusal({ ctx: { expectedInHash: hex32(5) } })).toBe(
      `header inHash ${inboxTreeHash([])} is not the inbox tree's hash ${hex32(5)}`,
    );
    expect(refusal({ header: { outHash: hex32(5) } })).toBe(
      "header outHash is not the root of its blocks' L2-to-L1 messages",
    );
  });

  it("refuses blocks whose message commitments are not the checkpoint's", () => {
    const inHash = (index: number) =>
      onBlock(index, (h) => (h.contentCommitment = { ...h.contentCommitment, inHash: hex32(9) }));
    expect(refusal({ blocks: inHash(0) })).toBe(`block 1 inHash is not ${inboxTreeHash([])}`);
    expect(refusal({ blocks: inHash(1) })).toBe(`block 2 inHash is not ${zeroHex(32)}`);
    const outHash = onBlock(1, (h) => (h.contentCommitment = { ...h.contentCommitment, outHash: hex32(9) }));
    expect(refusal({ blocks: outHash })).toBe('block 2 outHash is not the root of its L2-to-L1 messages');
  });

  it('refuses blocks that do not chain onto the archive or carry other globals', () => {
    expect(refusal({ blocks: globals(1, { blockNumber: 3 }) })).toBe('block number 3, expected 2');
    const root = onBlock(1, (h) => (h.lastArchive = { ...h.lastArchive, root: hex32(1) }));
    expect(refusal({ blocks: root })).toBe('block 2 does not chain onto the archive');
    const size = onBlock(1, (h) => (h.lastArchive = { ...h.lastArchive, nextAvailableLeafIndex: 3 }));
    expect(refusal({ blocks: size })).toBe('block 2 does not chain onto the archive');
    expect(refusal({ blocks: globals(1, { slotNumber: SLOT + 1 }) })).toBe(
      `block 2 slot ${SLOT + 1} != checkpoint slot`,
    );
    const feesDiffer = "block 1 gas fees differ from its checkpoint's";
    expect(refusal({ blocks: globals(0, { gasFees: { ...fees, feePerDaGas: 0n } }) })).toBe(feesDiffer);
    expect(refusal({ blocks: globals(0, { gasFees: { ...fees, feePerL2Gas: 0n } }) })).toBe(feesDiffer);
    expect(refusal({ blocks: globals(0, { chainId: 1 }) })).toBe('block 1 has another chain id or version');
    expect(refusal({ blocks: globals(0, { version: 2 }) })).toBe('block 1 has another chain id or version');
  });

  it("refuses tx effects that are not the header's, and an archive root L1 did not record", () => {
    const effects = (payload: { txEffects: readonly TxEffect[] }[]) => {
      payload[1]!.txEffects = [{ ...payload[1]!.txEffects[0]!, transactionFee: 1n }];
    };
    expect(refusal({ blocks: effects as never })).toBe("block 2 tx effects do not match its header's txsEffectsHash");
    expect(refusal({ log: { archive: hex32(1) } })).toBe('rebuilt archive root differs from the one recorded on L1');
  });
});
