import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../spec/codec/bytes.js';
import type { BlockHeader } from '../../spec/chain.js';
import { blockHash, encodeBlockHeader } from '../../spec/codec/blockHeader.js';
import { encodeTxEffects, txEffectsDaGas } from '../../spec/codec/txEffect.js';
import { BLOCK_PROPOSAL_BODY_BYTES_MAX, BLOCK_PROPOSALS_PER_SLOT_MAX } from '../../spec/validators/constants.js';
import {
  proposedCheckpoint,
  sizedTxEffect,
  type BlockSpec,
  type ProposedCheckpointFixture,
} from '../../test/validators/proposedBlocksFixture.js';
import { hex32 } from '../../test/validators/validatorFixtures.js';
import { appendLeaves, treeRoot } from '../merkle/appendOnlyTree.js';
import { BlockContentStore, checkedBlockContent, proposedBlocksRefusal, type ProposedBlock } from './blockContent.js';
import type { ValidatorLimits } from './validatorLimits.js';

const twoBlocks: BlockSpec[] = [
  { txEffects: [sizedTxEffect(1, 3), sizedTxEffect(2)], manaUsed: 400n },
  { txEffects: [sizedTxEffect(3)], manaUsed: 100n },
];

const asProposed = (fixture: ProposedCheckpointFixture): ProposedBlock[] =>
  fixture.blocks.map((b) => ({ payload: b.payload, content: b.content }));
const refusal = (fixture: ProposedCheckpointFixture, limits: ValidatorLimits, blocks = asProposed(fixture)) =>
  proposedBlocksRefusal(fixture.previousArchive, fixture.checkpointHeader, blocks, limits);

describe('checkedBlockContent', () => {
  const fixture = proposedCheckpoint(twoBlocks);
  const [first] = fixture.blocks;

  it('decodes an honest header and body into the block that was built', () => {
    expect(checkedBlockContent(first!.payload, first!.header, first!.body)).toEqual({
      ok: true,
      content: first!.content,
    });
  });

  it('refuses a body whose tx hashes do not hash to the signed txHashesHash', () => {
    const reordered = bytesToHex(encodeTxEffects([...first!.content.txEffects].reverse()));
    expect(checkedBlockContent(first!.payload, first!.header, reordered)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/txHashesHash/),
    });
    const dropped = bytesToHex(encodeTxEffects(first!.content.txEffects.slice(1)));
    expect(checkedBlockContent(first!.payload, first!.header, dropped)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/txHashesHash/),
    });
  });

  it("refuses a body with the signed tx hashes whose effects are not the header's (padded to look smaller or larger)", () => {
    const slimmer = first!.content.txEffects.map((e) => ({ ...e, noteHashes: [] }));
    expect(checkedBlockContent(first!.payload, first!.header, bytesToHex(encodeTxEffects(slimmer)))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/txsEffectsHash/),
    });
  });

  it('refuses a header for another block or slot', () => {
    const header = bytesToHex(
      encodeBlockHeader({
        ...first!.content.header,
        globalVariables: { ...first!.content.header.globalVariables, slotNumber: 99 },
      }),
    );
    expect(checkedBlockContent(first!.payload, header, first!.body)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/another block number or slot/),
    });
  });

  it('refuses oversized, truncated, trailing, non-hex or missing content without throwing', () => {
    const oversized = `0x${'00'.repeat(BLOCK_PROPOSAL_BODY_BYTES_MAX + 1)}` as const;
    expect(checkedBlockContent(first!.payload, first!.header, oversized)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/at most 761856 bytes/),
    });
    expect(checkedBlockContent(first!.payload, first!.header, first!.body.slice(0, -2))).toMatchObject({ ok: false });
    expect(checkedBlockContent(first!.payload, first!.header, `${first!.body}00`)).toMatchObject({ ok: false });
    expect(checkedBlockContent(first!.payload, first!.header, '0xzz')).toMatchObject({ ok: false });
    expect(checkedBlockContent(first!.payload, first!.header.slice(0, -2), first!.body)).toMatchObject({ ok: false });
    expect(checkedBlockContent(first!.payload, undefined, first!.body)).toMatchObject({ ok: false });
    expect(checkedBlockContent(first!.payload, first!.header, 7)).toMatchObject({ ok: false });
  });
});

describe('proposedBlocksRefusal', () => {
  const fixture = proposedCheckpoint(twoBlocks);
  const daGasOf = (index: number) => txEffectsDaGas(fixture.blocks[index]!.content.txEffects);

  it('passes honest blocks with no limits, and refuses a block whose body did not pass its checks', () => {
    expect(refusal(fixture, {})).toBeUndefined();
    const withoutBody = asProposed(fixture).map((b, i) => (i === 1 ? { ...b, content: undefined } : b));
    expect(refusal(fixture, {}, withoutBody)).toBe('blockBodyMismatch');
  });

  it('refuses a header that is not the one the signed archive root commits to', () => {
    const lighter = asProposed(fixture).map((b, i) =>
      i === 0 && b.content
        ? { ...b, content: { ...b.content, header: { ...b.content.header, totalManaUsed: 1n } } }
        : b,
    );
    expect(refusal(fixture, { maxL2BlockGas: 300 }, lighter)).toBe('blockHeaderMismatch');
    const swapped = [...asProposed(fixture)].reverse();
    expect(refusal(fixture, {}, swapped)).toBe('blockHeaderMismatch');
  });

  it('refuses blocks whose figures do not add up to the signed checkpoint header', () => {
    expect(refusal({ ...fixture, checkpointHeader: { ...fixture.checkpointHeader, totalManaUsed: 499n } }, {})).toBe(
      'blockHeaderMismatch',
    );
  });

  it('measures DA gas per block as the sequencer does: exactly at the limit passes, one unit under it refuses', () => {
    const largest = Math.max(daGasOf(0), daGasOf(1));
    expect(daGasOf(0)).toBe(16 * (105 + 3 * 32 + 105));
    expect(refusal(fixture, { maxDABlockGas: largest })).toBeUndefined();
    expect(refusal(fixture, { maxDABlockGas: largest - 1 })).toBe('tooMuchDAGas');
    // The average over the two blocks fits this limit; the larger block alone does not.
    expect(refusal(fixture, { maxDABlockGas: Math.ceil((daGasOf(0) + daGasOf(1)) / 2) })).toBe('tooMuchDAGas');
  });

  it('measures L2 gas per block from the block header, not the checkpoint average', () => {
    expect(refusal(fixture, { maxL2BlockGas: 400 })).toBeUndefined();
    expect(refusal(fixture, { maxL2BlockGas: 399 })).toBe('tooMuchL2Gas');
    expect(refusal(fixture, { maxL2BlockGas: 250 })).toBe('tooMuchL2Gas');
  });

  it('counts txs per block and per checkpoint', () => {
    expect(refusal(fixture, { maxTxsPerBlock: 2, maxTxsPerCheckpoint: 3 })).toBeUndefined();
    expect(refusal(fixture, { maxTxsPerBlock: 1 })).toBe('tooManyTxsPerBlock');
    expect(refusal(fixture, { maxTxsPerCheckpoint: 2 })).toBe('tooManyTxsPerCheckpoint');
  });
});

describe('BlockContentStore', () => {
  it('holds contents by slot and payload hash and forgets the slots before a given one', () => {
    const store = new BlockContentStore();
    const [first, second] = proposedCheckpoint(twoBlocks).blocks;
    store.add(7, first!.payload.archiveRoot, first!.content);
    store.add(8, second!.payload.archiveRoot, second!.content);
    expect(store.get(7, first!.payload.archiveRoot)).toBe(first!.content);
    expect(store.has(8, first!.payload.archiveRoot)).toBe(false);
    store.dropBefore(8);
    expect(store.has(7, first!.payload.archiveRoot)).toBe(false);
    expect(store.has(8, second!.payload.archiveRoot)).toBe(true);
    expect(() => store.add(9, first!.payload.archiveRoot, first!.content)).not.toThrow();
    expect(() => store.add(10, first!.payload.archiveRoot, first!.content)).toThrow(/current and the next slots/);
  });
});

describe('the gossiped body', () => {
  it('is exactly the bytes the DA gas is measured on', () => {
    const [first] = proposedCheckpoint(twoBlocks).blocks;
    expect(16 * hexToBytes(first!.body).length).toBe(txEffectsDaGas(first!.content.txEffects));
  });
});

describe('checkedBlockContent block number', () => {
  it('refuses a header for another block number in the same slot', () => {
    const [first] = proposedCheckpoint(twoBlocks).blocks;
    const header = bytesToHex(
      encodeBlockHeader({
        ...first!.content.header,
        globalVariables: { ...first!.content.header.globalVariables, blockNumber: 99 },
      }),
    );
    expect(checkedBlockContent(first!.payload, header, first!.body)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/another block number or slot/),
    });
  });
});

describe('proposedBlocksRefusal binds each header to the archive', () => {
  const fixture = proposedCheckpoint([{ txEffects: [sizedTxEffect(1)], manaUsed: 100n }]);
  const [block] = fixture.blocks;

  /** The block with its header changed and its signed archive root recomputed to match, so only the change is wrong. */
  const withHeader = (change: (header: BlockHeader) => BlockHeader): ProposedBlock[] => {
    const header = change(block!.content.header);
    const archiveRoot = treeRoot(appendLeaves(fixture.previousArchive, [blockHash(header)]));
    return [{ payload: { ...block!.payload, archiveRoot }, content: { ...block!.content, header } }];
  };

  it('accepts the honest block, also when rebound the same way', () => {
    expect(refusal(fixture, {})).toBeUndefined();
    expect(
      refusal(
        fixture,
        {},
        withHeader((h) => h),
      ),
    ).toBeUndefined();
  });

  it('refuses a block at another index within its checkpoint', () => {
    const moved = [{ ...block!, payload: { ...block!.payload, indexWithinCheckpoint: 1 } }];
    expect(refusal(fixture, {}, moved)).toBe('blockHeaderMismatch');
  });

  it('refuses a header numbering its block other than the archive size', () => {
    const renumbered = withHeader((h) => ({ ...h, globalVariables: { ...h.globalVariables, blockNumber: 5 } }));
    expect(refusal(fixture, {}, renumbered)).toBe('blockHeaderMismatch');
  });

  it('refuses a header whose last archive is not the archive it builds on', () => {
    const wrongSize = withHeader((h) => ({ ...h, lastArchive: { ...h.lastArchive, nextAvailableLeafIndex: 5 } }));
    expect(refusal(fixture, {}, wrongSize)).toBe('blockHeaderMismatch');
    const wrongRoot = withHeader((h) => ({ ...h, lastArchive: { ...h.lastArchive, root: hex32(5) } }));
    expect(refusal(fixture, {}, wrongRoot)).toBe('blockHeaderMismatch');
  });

  it('refuses a block whose signed archive root is not the header appended', () => {
    const resigned = [{ ...block!, payload: { ...block!.payload, archiveRoot: hex32(5) } }];
    expect(refusal(fixture, {}, resigned)).toBe('blockHeaderMismatch');
  });
});

describe('BlockContentStore per-slot bound', () => {
  it(`holds ${BLOCK_PROPOSALS_PER_SLOT_MAX} contents in a slot and refuses one more`, () => {
    const store = new BlockContentStore();
    const [first] = proposedCheckpoint(twoBlocks).blocks;
    for (let n = 0; n < BLOCK_PROPOSALS_PER_SLOT_MAX; n++) store.add(7, hex32(n), first!.content);
    expect(store.has(7, hex32(BLOCK_PROPOSALS_PER_SLOT_MAX - 1))).toBe(true);
    expect(() => store.add(7, hex32(BLOCK_PROPOSALS_PER_SLOT_MAX), first!.content)).toThrow(
      `a slot holds at most ${BLOCK_PROPOSALS_PER_SLOT_MAX} block contents`,
    );
  });
});
