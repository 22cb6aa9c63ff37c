import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CheckpointHeader, Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import type { ChainPrunedLog, CheckpointProposedLog } from '../../core/ports.js';
import { drawCommittee, proposerOf } from '../../core/validators/committee.js';
import { checkProposers, referenceProposer } from './proposers.js';

const word = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const address = (n: number): Hex => `0x${n.toString(16).padStart(40, '0')}`;
const VALIDATORS = [1, 2, 3, 4, 5].map(address);
const EPOCH_SLOTS = 2;
const GENESIS = word(0xa0);
const l1 = (blockNumber: number, logIndex = 0) => ({
  blockNumber: BigInt(blockNumber),
  blockHash: word(blockNumber),
  txHash: word(blockNumber),
  logIndex,
});

function proposed(checkpointNumber: number, slotNumber: number, coinbase: Hex, l1Block: number): CheckpointProposedLog {
  const header: CheckpointHeader = {
    lastArchiveRoot: word(1),
    slotNumber,
    timestamp: 0n,
    coinbase,
    feeRecipient: word(0),
    gasFees: { feePerDaGas: 1n, feePerL2Gas: 1n },
    blockCount: 1,
    blobsHash: word(2),
    totalManaUsed: 0n,
    inHash: word(3),
    outHash: word(4),
  };
  const archive = word(0xc000 + slotNumber);
  const encoded = bytesToHex(encodeCheckpointHeader(header));
  return {
    checkpointNumber,
    archive,
    slotNumber,
    header: encoded,
    blobVersionedHashes: [],
    attestations: '0x',
    l1: l1(l1Block),
  };
}

/** Checkpoints at these slots, one per L1 block, each proposed by the reference proposer. */
function honestChain(slots: readonly number[]): CheckpointProposedLog[] {
  const logs: CheckpointProposedLog[] = [];
  for (const [i, slot] of slots.entries()) {
    const sourceEnd = Math.max(0, Math.floor(slot / EPOCH_SLOTS) - 2) * EPOCH_SLOTS;
    const source = logs.filter((log) => log.slotNumber < sourceEnd).at(-1)?.archive ?? GENESIS;
    logs.push(proposed(i + 1, slot, referenceProposer(VALIDATORS, slot, EPOCH_SLOTS, source), 10 + i));
  }
  return logs;
}

const input = (proposedLogs: CheckpointProposedLog[], pruned: ChainPrunedLog[] = []) => ({
  proposed: proposedLogs,
  pruned,
  validators: VALIDATORS,
  epochDurationSlots: EPOCH_SLOTS,
  genesisArchiveRoot: GENESIS,
});

describe('proposer checker', () => {
  it('draws the proposer as core/validators does, in its own words', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 32 }),
        fc.integer({ min: 0, max: 2 ** 30 }),
        (count, slot, epochSlots, source) => {
          const validators = Array.from({ length: count }, (_, i) => address(i + 1));
          const committee = drawCommittee(
            validators.map((a) => ({ address: a, blsPublicKey: `0x${'00'.repeat(48)}` })),
            Math.floor(slot / epochSlots),
            word(source),
          );
          const expected = proposerOf(committee, slot, epochSlots)!.address;
          expect(referenceProposer(validators, slot, epochSlots, word(source))).toBe(expected);
        },
      ),
      { numRuns: 50 },
    );
  });

  it("passes checkpoints proposed by their slot's proposer, and fails one proposed by another validator", () => {
    const logs = honestChain([1, 2, 4, 5, 7, 9]);
    expect(checkProposers(input(logs))).toEqual([]);
    const source = logs.filter((log) => log.slotNumber < 6).at(-1)!.archive;
    const other = VALIDATORS.find((v) => v !== referenceProposer(VALIDATORS, 9, EPOCH_SLOTS, source))!;
    const wrong = [...logs.slice(0, 5), proposed(6, 9, other, 15)];
    expect(checkProposers(input(wrong))).toEqual([
      expect.objectContaining({ kind: 'proposerWrong', detail: expect.stringMatching(/checkpoint 6 of slot 9/) }),
    ]);
  });

  it('passes an empty validator set (any sequencer proposes)', () => {
    expect(checkProposers({ ...input([proposed(1, 1, address(9), 1)]), validators: [] })).toEqual([]);
  });

  it('seeds an epoch from the chain L1 kept after a prune', () => {
    const before = honestChain([1, 2, 3]);
    const pruned: ChainPrunedLog = { provenCheckpointNumber: 1, pendingCheckpointCount: 3, l1: l1(20) };
    // After the prune, checkpoint 2 is re-proposed at slot 8 (epoch 4, seeded by the last checkpoint before slot 4).
    const source = before[0]!.archive;
    const reproposed = proposed(2, 8, referenceProposer(VALIDATORS, 8, EPOCH_SLOTS, source), 21);
    expect(checkProposers(input([...before, reproposed], [pruned]))).toEqual([]);
  });
});
