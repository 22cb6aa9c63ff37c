import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Block, CheckpointHeader, GasFees, Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import type { CheckpointProposedLog } from '../../core/ports.js';
import { feeFloor, nextGasFees } from '../../core/fees/minFees.js';
import { checkBlocksOfCheckpoint, checkCheckpointFees, referenceFloor, referenceNextFees } from './checkpointFees.js';

/** The default rate (base currency per fee asset, 12 decimals): floors of 1,000 per mana and 100 per DA gas. */
const RATE = 10_000_000n;
const FLOOR = referenceFloor(RATE);
const LIMIT = 200_000_000n;
const root = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

function header(slotNumber: number, gasFees: GasFees, totalManaUsed: bigint): CheckpointHeader {
  return {
    lastArchiveRoot: root(slotNumber),
    slotNumber,
    timestamp: BigInt(slotNumber * 36),
    coinbase: `0x${'11'.repeat(20)}`,
    feeRecipient: root(0),
    gasFees,
    blockCount: 1,
    blobsHash: root(1),
    totalManaUsed,
    inHash: root(2),
    outHash: root(3),
  };
}

function logOf(checkpointNumber: number, h: CheckpointHeader, l1Block = checkpointNumber): CheckpointProposedLog {
  return {
    checkpointNumber,
    archive: root(100 + checkpointNumber),
    slotNumber: h.slotNumber,
    header: bytesToHex(encodeCheckpointHeader(h)),
    blobVersionedHashes: [],
    attestations: '0x',
    l1: { blockNumber: BigInt(l1Block), blockHash: root(l1Block), txHash: root(l1Block), logIndex: 0 },
  };
}

/** A chain of checkpoints using `manaUsed` each, with the fees `feesOf` gives from the previous one's. */
function chainOf(manaUsed: readonly bigint[], feesOf: (previous: CheckpointHeader | undefined) => GasFees) {
  const logs: CheckpointProposedLog[] = [];
  let previous: CheckpointHeader | undefined;
  manaUsed.forEach((mana, i) => {
    const h = header(i + 1, feesOf(previous), mana);
    logs.push(logOf(i + 1, h));
    previous = h;
  });
  return logs;
}

const byRule = (previous: CheckpointHeader | undefined) =>
  referenceNextFees(previous && { gasFees: previous.gasFees, manaUsed: previous.totalManaUsed }, FLOOR);

describe('checkpoint fee checker', () => {
  it('states the protocol fee rule as core/fees does, in its own words', () => {
    const basis = fc.record({
      gasFees: fc.record({
        feePerDaGas: fc.bigInt({ min: 1n, max: 10n ** 6n }),
        feePerL2Gas: fc.bigInt({ min: 1n, max: 10n ** 24n }),
      }),
      manaUsed: fc.bigInt({ min: 0n, max: 2n * LIMIT }),
    });
    fc.assert(
      fc.property(basis, fc.bigInt({ min: 1n, max: 10n ** 30n }), (previous, rate) => {
        expect(referenceFloor(rate)).toEqual(feeFloor(rate));
        expect(referenceNextFees(previous, referenceFloor(rate))).toEqual(nextGasFees(previous, feeFloor(rate)));
      }),
    );
  });

  it('passes a congested chain whose fees follow the rule, and fails one held at the floor', () => {
    const mana = [LIMIT, LIMIT, LIMIT / 2n, 0n, LIMIT];
    expect(checkCheckpointFees(chainOf(mana, byRule), RATE)).toEqual([]);
    const heldAtFloor = checkCheckpointFees(
      chainOf(mana, () => FLOOR),
      RATE,
    );
    expect(heldAtFloor.map((f) => f.kind)).toEqual(['checkpointFeesWrong', 'checkpointFeesWrong']);
    expect(heldAtFloor[0]!.detail).toMatch(/checkpoint 2 .* charges 1000 per mana.*the fee rule gives 1125 per mana/);
  });

  it('fails fees below the floor and a DA fee other than the floor', () => {
    const sinking = checkCheckpointFees(
      chainOf([0n, 0n], (p) => (p ? { ...p.gasFees, feePerL2Gas: 875n } : FLOOR)),
      RATE,
    );
    expect(sinking).toEqual([expect.objectContaining({ kind: 'checkpointFeesWrong' })]);
    const da = checkCheckpointFees(
      chainOf([0n], () => ({ ...FLOOR, feePerDaGas: FLOOR.feePerDaGas + 1n })),
      RATE,
    );
    expect(da).toHaveLength(1);
  });

  it('takes a re-proposed checkpoint after a prune from the checkpoint before it that L1 kept', () => {
    const [one, two] = chainOf([LIMIT, LIMIT], byRule);
    const afterOne = byRule(header(1, FLOOR, LIMIT));
    const reproposed = logOf(2, header(9, afterOne, 0n), 9);
    expect(checkCheckpointFees([one!, two!, reproposed], RATE)).toEqual([]);
  });

  it('fails a block charging other fees than its checkpoint, and blocks whose mana does not add up', () => {
    const h = header(1, FLOOR, 30_000n);
    const block = (number: number, gasFees: GasFees, totalManaUsed: bigint) =>
      ({ header: { globalVariables: { blockNumber: number, gasFees }, totalManaUsed } }) as unknown as Block;
    expect(checkBlocksOfCheckpoint(1, h, [block(1, FLOOR, 10_000n), block(2, FLOOR, 20_000n)])).toEqual([]);
    const wrong = checkBlocksOfCheckpoint(1, h, [
      block(1, FLOOR, 10_000n),
      block(2, { ...FLOOR, feePerL2Gas: 1n }, 0n),
    ]);
    expect(wrong.map((f) => f.detail)).toEqual([
      expect.stringMatching(/block 2 of checkpoint 1 charges 1 per mana/),
      expect.stringMatching(/checkpoint 1 records 30000 mana used, its 2 blocks 10000/),
    ]);
  });
});
