import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { blockHashOf, feePayerOf, makeTx, nullifierOf, txHashOf, type TxSpec } from '../../test/txPool/txFixtures.js';
import { decideAdmission } from './admitTx.js';
import { decideAfterBlocksAdded, type BlocksAddedInput } from './poolMaintenance.js';
import { TxPool } from './txPool.js';

function poolOf(...specs: TxSpec[]): TxPool {
  const pool = TxPool.empty();
  for (const spec of specs) {
    const decision = decideAdmission(pool, makeTx(spec), { feePayerBalance: 10n ** 30n, priceBumpPercentage: 10 });
    if (decision.kind !== 'accepted') throw new Error(`fixture tx ${spec.hash} not accepted`);
    pool.apply(decision.change);
  }
  return pool;
}

function blocksAdded(overrides: Partial<BlocksAddedInput> = {}): BlocksAddedInput {
  return {
    minedTxHashes: [],
    minedNullifiers: new Set(),
    nextSlotTimestamp: 0n,
    minFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 0n },
    unavailableAnchorBlockHashes: new Set(),
    feePayerBalances: new Map(),
    ...overrides,
  };
}

/** Decides, applies, verifies; returns the removals. */
function maintain(pool: TxPool, input: BlocksAddedInput) {
  const outcome = decideAfterBlocksAdded(pool, input);
  pool.apply(outcome.change);
  pool.verify();
  return outcome.removed;
}

const hashes = (pool: TxPool): Hex[] => pool.ordered().map((p) => p.txHash);

describe('decideAfterBlocksAdded', () => {
  it('changes nothing when nothing happened to pooled txs', () => {
    const pool = poolOf({ hash: 1 }, { hash: 2 });
    expect(maintain(pool, blocksAdded({ minedTxHashes: [txHashOf(9)] }))).toEqual([]);
    expect(pool.count).toBe(2);
  });

  it('removes mined txs', () => {
    const pool = poolOf({ hash: 1 }, { hash: 2 });
    expect(maintain(pool, blocksAdded({ minedTxHashes: [txHashOf(1)] }))).toEqual([
      { txHash: txHashOf(1), reason: 'mined' },
    ]);
    expect(hashes(pool)).toEqual([txHashOf(2)]);
  });

  it('evicts txs whose nullifier another tx put in the tree', () => {
    const pool = poolOf({ hash: 1, nullifiers: [1, 5] }, { hash: 2, nullifiers: [2] });
    expect(maintain(pool, blocksAdded({ minedNullifiers: new Set([nullifierOf(5)]) }))).toEqual([
      { txHash: txHashOf(1), reason: 'nullifierMined', nullifier: nullifierOf(5) },
    ]);
  });

  it('evicts txs anchored to a block no longer kept', () => {
    const pool = poolOf({ hash: 1, anchorBlock: 3 }, { hash: 2, anchorBlock: 4 });
    expect(maintain(pool, blocksAdded({ unavailableAnchorBlockHashes: new Set([blockHashOf(3)]) }))).toEqual([
      { txHash: txHashOf(1), reason: 'anchorPruned', anchorBlockHash: blockHashOf(3) },
    ]);
  });

  it('evicts txs expiring before the next slot, and keeps one expiring at it', () => {
    const pool = poolOf({ hash: 1, expirationTimestamp: 99n }, { hash: 2, expirationTimestamp: 100n });
    expect(maintain(pool, blocksAdded({ nextSlotTimestamp: 100n }))).toEqual([
      { txHash: txHashOf(1), reason: 'expired', expirationTimestamp: 99n, nextSlotTimestamp: 100n },
    ]);
    expect(hashes(pool)).toEqual([txHashOf(2)]);
  });

  it('evicts txs whose max fee per gas fell below a risen minimum, in either dimension', () => {
    const pool = poolOf(
      { hash: 1, maxFeePerL2Gas: 9n, priorityFee: 1n, maxFeePerDaGas: 5n },
      { hash: 2, maxFeePerL2Gas: 10n, priorityFee: 1n, maxFeePerDaGas: 4n },
      { hash: 3, maxFeePerL2Gas: 10n, priorityFee: 1n, maxFeePerDaGas: 5n },
    );
    const minFeesPerGas = { feePerDaGas: 5n, feePerL2Gas: 10n };
    expect(maintain(pool, blocksAdded({ minFeesPerGas }))).toEqual([
      {
        txHash: txHashOf(1),
        reason: 'feeBelowMinimum',
        maxFeesPerGas: { feePerDaGas: 5n, feePerL2Gas: 9n },
        minFeesPerGas,
      },
      {
        txHash: txHashOf(2),
        reason: 'feeBelowMinimum',
        maxFeesPerGas: { feePerDaGas: 4n, feePerL2Gas: 10n },
        minFeesPerGas,
      },
    ]);
    expect(hashes(pool)).toEqual([txHashOf(3)]);
  });

  it('walks again the payers given with a new balance, keeping the highest-priority txs that fit', () => {
    // Costs: l2Gas * priorityFee (daGas 0): 30, 40, 20.
    const pool = poolOf(
      { hash: 1, feePayer: 1, priorityFee: 30n, l2Gas: 1, daGas: 0 },
      { hash: 2, feePayer: 1, priorityFee: 20n, l2Gas: 2, daGas: 0 },
      { hash: 3, feePayer: 1, priorityFee: 10n, l2Gas: 2, daGas: 0 },
      { hash: 4, feePayer: 2, priorityFee: 10n, l2Gas: 100, daGas: 0 },
    );
    const removed = maintain(pool, blocksAdded({ feePayerBalances: new Map([[feePayerOf(1), 50n]]) }));
    expect(removed).toEqual([
      { txHash: txHashOf(2), reason: 'feePayerBalance', feePayer: feePayerOf(1), balance: 50n, needed: 70n },
    ]);
    expect(hashes(pool)).toEqual([txHashOf(1), txHashOf(3), txHashOf(4)]);
  });

  it('walks after the other removals, so a mined tx frees its payer balance', () => {
    const pool = poolOf(
      { hash: 1, feePayer: 1, priorityFee: 30n, l2Gas: 1, daGas: 0 },
      { hash: 2, feePayer: 1, priorityFee: 20n, l2Gas: 1, daGas: 0 },
    );
    const removed = maintain(
      pool,
      blocksAdded({ minedTxHashes: [txHashOf(1)], feePayerBalances: new Map([[feePayerOf(1), 20n]]) }),
    );
    expect(removed).toEqual([{ txHash: txHashOf(1), reason: 'mined' }]);
  });

  it('reports one reason per tx, the first that holds', () => {
    const pool = poolOf({ hash: 1, expirationTimestamp: 1n, anchorBlock: 3, nullifiers: [4] });
    const removed = maintain(
      pool,
      blocksAdded({
        minedTxHashes: [txHashOf(1)],
        minedNullifiers: new Set([nullifierOf(4)]),
        unavailableAnchorBlockHashes: new Set([blockHashOf(3)]),
        nextSlotTimestamp: 10n,
      }),
    );
    expect(removed).toEqual([{ txHash: txHashOf(1), reason: 'mined' }]);
  });
});
