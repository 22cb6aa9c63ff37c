/**
 * Rules of the validator integration that hold for all inputs: the payload a proposer signs is the one every node
 * rebuilds from the L1 log; a proposed checkpoint is refused exactly when one of its blocks breaks one of the
 * validator's own limits, each measured on that block (never the sequencer's limits); the refusal memory stays
 * bounded and forgets a number once it is adopted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckpointProposedLog } from '../../core/ports.js';
import { payloadOfLog, RefusedCheckpoints } from '../../core/validators/syncQuorum.js';
import { checkedBlockContent, proposedBlocksRefusal } from '../../core/validators/blockContent.js';
import type { ValidatorLimits } from '../../core/validators/validatorLimits.js';
import type { CheckpointHeader, Hex, L1RollupConstants } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { DA_GAS_PER_BYTE } from '../../spec/constants.js';
import { REFUSED_CHECKPOINTS_KEPT_MAX } from '../../spec/validators/constants.js';
import { checkpointProposalPayloadOf } from '../../spec/validators/signingPayloads.js';
import { proposedCheckpoint, sizedTxEffect, type BlockSpec } from './proposedBlocksFixture.js';
import { hex32 } from './validatorFixtures.js';

const constants: L1RollupConstants = {
  l1ChainId: 31337,
  rollupVersion: 7,
  l1StartBlock: 1n,
  l1GenesisTime: 1_700_000_000n,
  slotDuration: 36,
  epochDuration: 32,
  ethereumSlotDuration: 12,
  proofSubmissionEpochs: 1,
  genesisArchiveRoot: hex32(1),
  ethPerFeeAsset: 1n,
};

const fr = fc.bigInt({ min: 0n, max: (1n << 248n) - 1n }).map((n) => hex32(n));
const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => bytesToHex(b));
const header: fc.Arbitrary<CheckpointHeader> = fc.record({
  lastArchiveRoot: fr,
  slotNumber: fc.integer({ min: 1, max: 2 ** 40 }),
  timestamp: fc.bigInt({ min: 0n, max: 2n ** 63n }),
  coinbase: address,
  feeRecipient: fr,
  gasFees: fc.record({
    feePerDaGas: fc.bigInt({ min: 0n, max: 2n ** 64n }),
    feePerL2Gas: fc.bigInt({ min: 0n, max: 2n ** 64n }),
  }),
  blockCount: fc.integer({ min: 1, max: 8 }),
  inHash: fr,
  outHash: fr,
  blobsHash: fr,
  totalManaUsed: fc.bigInt({ min: 0n, max: 2n ** 63n }),
});

const logOf = (
  checkpointNumber: number,
  archive: Hex,
  h: CheckpointHeader,
  txHash: Hex = hex32(9),
): CheckpointProposedLog => ({
  checkpointNumber,
  archive,
  slotNumber: h.slotNumber,
  header: bytesToHex(encodeCheckpointHeader(h)),
  blobVersionedHashes: [],
  attestations: '0x0000',
  l1: { blockNumber: 5n, blockHash: hex32(5), txHash, logIndex: 0 },
});

describe('validator integration rules', () => {
  it('the payload a proposer signs is the one a follower rebuilds from the published log', () => {
    fc.assert(
      fc.property(header, fc.integer({ min: 1, max: 2 ** 40 }), fr, (h, checkpointNumber, archiveRoot) => {
        const signed = checkpointProposalPayloadOf(constants, { number: checkpointNumber, header: h, archiveRoot });
        expect(payloadOfLog(constants, logOf(checkpointNumber, archiveRoot, h))).toEqual(signed);
      }),
      { seed: 61, numRuns: 200 },
    );
  });

  it('a proposal is refused exactly when one of its blocks breaks one of the validator limits; unset limits never refuse', () => {
    const limit = (max: number) => fc.option(fc.integer({ min: 0, max }), { nil: undefined });
    const limits: fc.Arbitrary<ValidatorLimits> = fc
      .record({
        maxTxsPerBlock: limit(6),
        maxTxsPerCheckpoint: limit(12),
        maxL2BlockGas: limit(1_000),
        maxDABlockGas: limit(16 * 1_500),
      })
      .map((l) => Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined)) as ValidatorLimits);
    // Each block: its txs' note hash counts (an effect's size) and its mana.
    const block = fc.record({
      noteHashCounts: fc.array(fc.integer({ min: 0, max: 8 }), { maxLength: 6 }),
      manaUsed: fc.bigInt({ min: 0n, max: 1_200n }),
    });
    fc.assert(
      fc.property(limits, fc.array(block, { minLength: 1, maxLength: 4 }), (l, blocks) => {
        let txNumber = 0;
        const specs: BlockSpec[] = blocks.map((b) => ({
          txEffects: b.noteHashCounts.map((count) => sizedTxEffect(txNumber++, count)),
          manaUsed: b.manaUsed,
        }));
        const fixture = proposedCheckpoint(specs);
        const proposed = fixture.blocks.map((b) => ({ payload: b.payload, content: b.content }));
        // Each block measured on its own: the encoded effect of a tx with n note hashes is 105 + 32n bytes.
        const daGas = blocks.map((b) => b.noteHashCounts.reduce((sum, n) => sum + DA_GAS_PER_BYTE * (105 + 32 * n), 0));
        const breaks =
          (l.maxTxsPerBlock !== undefined && blocks.some((b) => b.noteHashCounts.length > l.maxTxsPerBlock!)) ||
          (l.maxTxsPerCheckpoint !== undefined && txNumber > l.maxTxsPerCheckpoint) ||
          (l.maxL2BlockGas !== undefined && blocks.some((b) => b.manaUsed > BigInt(l.maxL2BlockGas!))) ||
          (l.maxDABlockGas !== undefined && daGas.some((gas) => gas > l.maxDABlockGas!));
        expect(
          proposedBlocksRefusal(fixture.previousArchive, fixture.checkpointHeader, proposed, l) !== undefined,
        ).toBe(breaks);
        expect(proposedBlocksRefusal(fixture.previousArchive, fixture.checkpointHeader, proposed, {})).toBeUndefined();
        // Every gossiped form passes the content checks and gives back the block measured above.
        for (const b of fixture.blocks)
          expect(checkedBlockContent(b.payload, b.header, b.body)).toEqual({ ok: true, content: b.content });
      }),
      { seed: 62, numRuns: 150 },
    );
  });

  it('remembers at most its bound of refused checkpoints and forgets a number, and those above it, once adopted', () => {
    const refused = new RefusedCheckpoints();
    const h = {
      lastArchiveRoot: hex32(1),
      slotNumber: 3,
      timestamp: 0n,
      coinbase: `0x${'00'.repeat(20)}` as Hex,
      feeRecipient: hex32(0),
      gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
      blockCount: 1,
      blobsHash: hex32(2),
      totalManaUsed: 0n,
      inHash: hex32(0),
      outHash: hex32(0),
    };
    for (let n = 1; n <= REFUSED_CHECKPOINTS_KEPT_MAX + 10; n++) refused.add(logOf(n, hex32(n), h));
    expect(refused.size).toBe(REFUSED_CHECKPOINTS_KEPT_MAX);
    expect(refused.has(1)).toBe(false);
    expect(refused.has(REFUSED_CHECKPOINTS_KEPT_MAX + 10)).toBe(true);
    refused.forgetFrom(20);
    expect(refused.has(19)).toBe(true);
    expect(refused.has(20)).toBe(false);
    expect(refused.has(REFUSED_CHECKPOINTS_KEPT_MAX + 10)).toBe(false);
  });
});
