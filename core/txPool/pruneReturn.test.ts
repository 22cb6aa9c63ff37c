import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { blockHashOf, feePayerOf, makeTx, nullifierOf, txHashOf, type TxSpec } from '../../test/txPool/txFixtures.js';
import { decideAdmission } from './admitTx.js';
import { decideAfterChainPruned, type ChainPrunedInput } from './pruneReturn.js';
import { TxPool } from './txPool.js';

function poolOf(capacity: number, ...specs: TxSpec[]): TxPool {
  const pool = TxPool.empty(capacity);
  for (const spec of specs) {
    const decision = decideAdmission(pool, makeTx(spec), { feePayerBalance: 10n ** 30n, priceBumpPercentage: 10 });
    if (decision.kind !== 'accepted') throw new Error(`fixture tx ${spec.hash} not accepted`);
    pool.apply(decision.change);
  }
  return pool;
}

function pruned(returning: TxSpec[], overrides: Partial<ChainPrunedInput> = {}): ChainPrunedInput {
  const returningTxs = returning.map(makeTx);
  const payers = new Set(returningTxs.map((tx) => tx.feePayer));
  return {
    returningTxs,
    nextSlotTimestamp: 0n,
    minFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 0n },
    unavailableAnchorBlockHashes: new Set(),
    feePayerBalances: new Map([...payers].map((payer) => [payer, 10n ** 30n] as const)),
    ...overrides,
  };
}

function prune(pool: TxPool, input: ChainPrunedInput) {
  const outcome = decideAfterChainPruned(pool, input);
  pool.apply(outcome.change);
  pool.verify();
  return outcome;
}

const hashes = (pool: TxPool): Hex[] => pool.ordered().map((p) => p.txHash);

describe('decideAfterChainPruned', () => {
  it('returns the txs of removed blocks to pending, after the txs already pooled', () => {
    const pool = poolOf(10, { hash: 1, priorityFee: 5n });
    const outcome = prune(
      pool,
      pruned([
        { hash: 2, priorityFee: 5n },
        { hash: 3, priorityFee: 7n },
      ]),
    );
    expect(outcome.returnedTxHashes).toEqual([txHashOf(3), txHashOf(2)]);
    expect(outcome.removed).toEqual([]);
    expect(outcome.notReturned).toEqual([]);
    expect(hashes(pool)).toEqual([txHashOf(3), txHashOf(1), txHashOf(2)]);
    expect(pool.get(txHashOf(2))!.arrivalSequence).toBeLessThan(pool.get(txHashOf(3))!.arrivalSequence);
  });

  it('keeps a returning tx that outranks a conflicting pooled tx by any margin (no RPC bump)', () => {
    const pool = poolOf(10, { hash: 1, priorityFee: 100n, nullifiers: [7] });
    const outcome = prune(pool, pruned([{ hash: 2, priorityFee: 101n, nullifiers: [7, 8] }]));
    expect(outcome.removed).toEqual([
      { txHash: txHashOf(1), reason: 'nullifierConflict', keptTxHash: txHashOf(2), nullifier: nullifierOf(7) },
    ]);
    expect(hashes(pool)).toEqual([txHashOf(2)]);
  });

  it('keeps the pooled tx when it ranks higher, equal fees going to the earlier arrival', () => {
    const pool = poolOf(10, { hash: 1, priorityFee: 100n, nullifiers: [7] });
    const outcome = prune(pool, pruned([{ hash: 2, priorityFee: 100n, nullifiers: [7] }]));
    expect(outcome.notReturned).toEqual([
      { txHash: txHashOf(2), reason: 'nullifierConflict', keptTxHash: txHashOf(1), nullifier: nullifierOf(7) },
    ]);
    expect(hashes(pool)).toEqual([txHashOf(1)]);
  });

  it('resolves conflicts among the returning txs by rank too', () => {
    const pool = poolOf(10);
    const outcome = prune(
      pool,
      pruned([
        { hash: 1, priorityFee: 3n, nullifiers: [7] },
        { hash: 2, priorityFee: 4n, nullifiers: [7] },
      ]),
    );
    expect(outcome.returnedTxHashes).toEqual([txHashOf(2)]);
    expect(outcome.notReturned).toMatchObject([
      { txHash: txHashOf(1), reason: 'nullifierConflict', keptTxHash: txHashOf(2) },
    ]);
  });

  it('in a full pool, a returning tx enters only above the lowest tx', () => {
    const pool = poolOf(2, { hash: 1, priorityFee: 50n }, { hash: 2, priorityFee: 20n });
    const outcome = prune(
      pool,
      pruned([
        { hash: 3, priorityFee: 21n },
        { hash: 4, priorityFee: 20n },
      ]),
    );
    expect(outcome.removed).toEqual([
      { txHash: txHashOf(2), reason: 'poolFull', byTxHash: txHashOf(3), priorityFee: 20n, newcomerPriorityFee: 21n },
    ]);
    expect(outcome.notReturned).toEqual([{ txHash: txHashOf(4), reason: 'overCapacity', capacity: 2 }]);
    expect(hashes(pool)).toEqual([txHashOf(1), txHashOf(3)]);
  });

  it('evicts pooled txs anchored to a removed block, and leaves out returning ones anchored there', () => {
    const pool = poolOf(10, { hash: 1, anchorBlock: 3 }, { hash: 2, anchorBlock: 1 });
    const outcome = prune(
      pool,
      pruned([{ hash: 3, anchorBlock: 3 }], { unavailableAnchorBlockHashes: new Set([blockHashOf(3)]) }),
    );
    expect(outcome.removed).toEqual([{ txHash: txHashOf(1), reason: 'anchorPruned', anchorBlockHash: blockHashOf(3) }]);
    expect(outcome.notReturned).toEqual([
      { txHash: txHashOf(3), reason: 'anchorPruned', anchorBlockHash: blockHashOf(3) },
    ]);
    expect(hashes(pool)).toEqual([txHashOf(2)]);
  });

  it('leaves out expired returning txs', () => {
    const pool = poolOf(10);
    const outcome = prune(pool, pruned([{ hash: 1, expirationTimestamp: 5n }], { nextSlotTimestamp: 6n }));
    expect(outcome.notReturned).toEqual([
      { txHash: txHashOf(1), reason: 'expired', expirationTimestamp: 5n, nextSlotTimestamp: 6n },
    ]);
  });

  it("walks the payers' balances over pooled and returning txs together", () => {
    const pool = poolOf(10, { hash: 1, feePayer: 1, priorityFee: 10n, l2Gas: 5, daGas: 0 }); // costs 50
    const input = pruned(
      [
        { hash: 2, feePayer: 1, priorityFee: 20n, l2Gas: 3, daGas: 0 },
        { hash: 3, feePayer: 1, priorityFee: 5n, l2Gas: 1, daGas: 0 },
      ],
      {
        feePayerBalances: new Map([[feePayerOf(1), 100n]]),
      },
    ); // costs 60 and 5
    const outcome = prune(pool, input);
    expect(outcome.removed).toEqual([
      { txHash: txHashOf(1), reason: 'feePayerBalance', feePayer: feePayerOf(1), balance: 100n, needed: 110n },
    ]);
    expect(hashes(pool)).toEqual([txHashOf(2), txHashOf(3)]);
  });

  it('leaves a returning tx that is already pooled as it is', () => {
    const pool = poolOf(10, { hash: 1 });
    const before = pool.get(txHashOf(1));
    const outcome = prune(pool, pruned([{ hash: 1 }, { hash: 2 }, { hash: 2 }]));
    expect(outcome.returnedTxHashes).toEqual([txHashOf(2)]);
    expect(pool.get(txHashOf(1))).toBe(before);
  });

  it('needs the balance of every payer of a returning tx', () => {
    const pool = poolOf(10);
    expect(() => decideAfterChainPruned(pool, pruned([{ hash: 1 }], { feePayerBalances: new Map() }))).toThrow(
      /balance of fee payer/,
    );
  });
});
