import fc from 'fast-check';
import { expect, test } from 'vitest';
import { CHECKPOINT_MANA_LIMIT, TXS_PER_BLOCK_MAX } from '../../spec/constants.js';
import { blockBudget, CHECKPOINT_TX_DA_GAS_LIMIT } from './blockBudget.js';

const none = { manaUsed: 0, daGasUsed: 0, txCount: 0 };

test('derived budgets are (checkpoint limit / blocks) x multiplier', () => {
  const budget = blockBudget({ perBlockAllocationMultiplier: 2 }, 4, none);
  expect(budget.l2Gas).toBe(CHECKPOINT_MANA_LIMIT / 2);
  expect(budget.daGas).toBe(Math.floor((CHECKPOINT_TX_DA_GAS_LIMIT / 4) * 2));
});

test('explicit overrides are capped at the checkpoint limit; what earlier blocks used is taken off', () => {
  expect(
    blockBudget({ perBlockAllocationMultiplier: 2, maxL2BlockGas: 10 * CHECKPOINT_MANA_LIMIT }, 4, none).l2Gas,
  ).toBe(CHECKPOINT_MANA_LIMIT);
  expect(blockBudget({ perBlockAllocationMultiplier: 2, maxL2BlockGas: 1_000 }, 4, none).l2Gas).toBe(1_000);
  expect(
    blockBudget({ perBlockAllocationMultiplier: 2 }, 1, { ...none, manaUsed: CHECKPOINT_MANA_LIMIT - 5 }).l2Gas,
  ).toBe(5);
  expect(
    blockBudget({ perBlockAllocationMultiplier: 1, maxTxsPerCheckpoint: 10 }, 2, { ...none, txCount: 7 }).txCount,
  ).toBe(3);
});

test('property: a checkpoint built block by block never exceeds its limits', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 16 }),
      fc.double({ min: 0.1, max: 16, noNaN: true }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 16 }),
      (blocks, multiplier, fractions) => {
        let used = { ...none };
        for (const fraction of fractions) {
          const budget = blockBudget({ perBlockAllocationMultiplier: multiplier }, blocks, used);
          used = {
            manaUsed: used.manaUsed + Math.floor(budget.l2Gas * fraction),
            daGasUsed: used.daGasUsed + Math.floor(budget.daGas * fraction),
            txCount: 0,
          };
        }
        expect(used.manaUsed).toBeLessThanOrEqual(CHECKPOINT_MANA_LIMIT);
        expect(used.daGasUsed).toBeLessThanOrEqual(CHECKPOINT_TX_DA_GAS_LIMIT);
      },
    ),
  );
});

test('a block never takes more txs than the world state applies in one block', () => {
  expect(blockBudget({ perBlockAllocationMultiplier: 2 }, 1, none).txCount).toBe(TXS_PER_BLOCK_MAX);
});
