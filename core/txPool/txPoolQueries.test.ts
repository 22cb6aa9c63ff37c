import { describe, expect, it } from 'vitest';
import { NodeError } from '../errors.js';
import { makeTx, txHashOf, type TxSpec } from '../../test/txPool/txFixtures.js';
import { decideAdmission } from './admitTx.js';
import { TxPool } from './txPool.js';
import { answeredTx, maxPriorityFees, pendingTxPage } from './txPoolQueries.js';

function poolOf(...specs: TxSpec[]): TxPool {
  const pool = TxPool.empty();
  for (const spec of specs) {
    const decision = decideAdmission(pool, makeTx(spec), { feePayerBalance: 10n ** 30n, priceBumpPercentage: 10 });
    if (decision.kind !== 'accepted') throw new Error(`fixture tx ${spec.hash} not accepted`);
    pool.apply(decision.change);
  }
  return pool;
}

describe('pendingTxPage', () => {
  const pool = poolOf(
    { hash: 1, priorityFee: 1n },
    { hash: 2, priorityFee: 3n },
    { hash: 3, priorityFee: 2n },
    { hash: 4, priorityFee: 3n },
  );
  const page = (request: Parameters<typeof pendingTxPage>[1]) => pendingTxPage(pool, request).txs.map((p) => p.txHash);

  it('lists txs highest priority first, equal fees by arrival', () => {
    expect(page({})).toEqual([txHashOf(2), txHashOf(4), txHashOf(3), txHashOf(1)]);
  });

  it('continues after the cursor', () => {
    expect(page({ limit: 2 })).toEqual([txHashOf(2), txHashOf(4)]);
    expect(page({ limit: 2, after: txHashOf(4) })).toEqual([txHashOf(3), txHashOf(1)]);
    expect(page({ limit: 2, after: txHashOf(1) })).toEqual([]);
  });

  it('answers an empty page, saying so, when the cursor is no longer pooled', () => {
    expect(pendingTxPage(pool, { after: txHashOf(99) })).toEqual({ txs: [], afterFound: false });
  });

  it('refuses a limit above the bound rather than cutting the page', () => {
    expect(() => pendingTxPage(pool, { limit: 101 })).toThrow(NodeError);
    expect(() => pendingTxPage(pool, { limit: 6, pageSizeMax: 5 })).toThrow(
      expect.objectContaining({ code: 'LIMIT_EXCEEDED', details: { limit: 'txsPerCallMax', value: 5, requested: 6 } }),
    );
    expect(page({ limit: 0 })).toEqual([]);
  });
});

describe('maxPriorityFees', () => {
  it('is zero for an empty pool', () => {
    expect(maxPriorityFees(TxPool.empty())).toEqual({ feePerDaGas: 0n, feePerL2Gas: 0n });
  });

  it('takes per dimension the highest fee a pooled tx can pay as priority fee', () => {
    const pool = poolOf(
      { hash: 1, priorityFee: 7n, maxFeePerDaGas: 2n, maxPriorityFeePerDaGas: 9n },
      { hash: 2, priorityFee: 20n, maxFeePerL2Gas: 5n, maxFeePerDaGas: 1n, maxPriorityFeePerDaGas: 1n },
    );
    expect(maxPriorityFees(pool)).toEqual({ feePerDaGas: 2n, feePerL2Gas: 7n });
  });
});

describe('answeredTx', () => {
  it('strips the proof unless asked for', () => {
    const tx = makeTx({ hash: 1 });
    expect(answeredTx(tx, false)).toEqual({ ...tx, proof: '0x' });
    expect(answeredTx(tx, true)).toBe(tx);
  });
});
