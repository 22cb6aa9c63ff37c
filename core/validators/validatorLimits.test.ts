import { describe, expect, it } from 'vitest';
import { validatorLimitRefusal, type BlockUsage } from './validatorLimits.js';

const blocks: BlockUsage[] = [
  { txCount: 3, l2Gas: 500n, daGas: 2_000 },
  { txCount: 1, l2Gas: 900n, daGas: 400 },
];

describe('validatorLimitRefusal', () => {
  it('lets every block sit exactly at each limit', () => {
    expect(
      validatorLimitRefusal(
        { maxTxsPerBlock: 3, maxTxsPerCheckpoint: 4, maxL2BlockGas: 900, maxDABlockGas: 2_000 },
        blocks,
      ),
    ).toBeUndefined();
    expect(validatorLimitRefusal({}, blocks)).toBeUndefined();
  });

  it('refuses one unit over any limit, in the order txs per block, per checkpoint, L2 gas, DA gas', () => {
    expect(validatorLimitRefusal({ maxTxsPerBlock: 2 }, blocks)).toBe('tooManyTxsPerBlock');
    expect(validatorLimitRefusal({ maxTxsPerCheckpoint: 3 }, blocks)).toBe('tooManyTxsPerCheckpoint');
    expect(validatorLimitRefusal({ maxL2BlockGas: 899 }, blocks)).toBe('tooMuchL2Gas');
    expect(validatorLimitRefusal({ maxDABlockGas: 1_999 }, blocks)).toBe('tooMuchDAGas');
    expect(
      validatorLimitRefusal({ maxTxsPerBlock: 0, maxTxsPerCheckpoint: 0, maxL2BlockGas: 0, maxDABlockGas: 0 }, blocks),
    ).toBe('tooManyTxsPerBlock');
    expect(validatorLimitRefusal({ maxL2BlockGas: 0, maxDABlockGas: 0 }, blocks)).toBe('tooMuchL2Gas');
  });

  it('checks each block on its own: a limit above the average but below one block refuses', () => {
    expect(validatorLimitRefusal({ maxL2BlockGas: 700 }, blocks)).toBe('tooMuchL2Gas');
    expect(validatorLimitRefusal({ maxDABlockGas: 1_200 }, blocks)).toBe('tooMuchDAGas');
  });
});
