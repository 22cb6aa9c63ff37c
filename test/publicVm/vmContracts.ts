/**
 * Small contracts written in VM assembly, for the executor's tests: a counter, and a fee asset that mints.
 * Both dispatch on calldata[0] (spec/vm/assembler.ts `dispatch`).
 */
import type { AsmItem } from '../../spec/vm/assembler.js';
import { dispatch, selectorField } from '../../spec/vm/assembler.js';
import { shortStringToField } from '../../spec/vm/field.js';

export const COUNTER_SELECTORS = {
  increment: selectorField('increment()'),
  get: selectorField('get()'),
  fail: selectorField('fail()'),
  burn: selectorField('burn()'),
  nullify: selectorField('nullify(Field)'),
  shout: selectorField('shout(Field)'),
} as const;

/**
 * increment(): slot 0 += 1, emits log ("incremented", new value), returns the new value.
 * get(): returns slot 0. fail(): writes slot 1, emits a note hash, then reverts "fail". burn(): loops forever.
 * nullify(x): emits nullifier x. shout(n): emits n public logs (a loop).
 */
export function counterContract(): AsmItem[] {
  const s = COUNTER_SELECTORS;
  return [
    ...dispatch([
      { selector: s.increment, label: 'increment' },
      { selector: s.get, label: 'get' },
      { selector: s.fail, label: 'fail' },
      { selector: s.burn, label: 'burn' },
      { selector: s.nullify, label: 'nullify' },
      { selector: s.shout, label: 'shout' },
    ]),
    { label: 'increment' },
    { op: 'set', dst: 1, value: 0 },
    { op: 'sload', dst: 0, slot: 1 },
    { op: 'set', dst: 2, value: 1 },
    { op: 'add', dst: 0, a: 0, b: 2 },
    { op: 'sstore', slot: 1, value: 0 },
    { op: 'set', dst: 3, value: shortStringToField('incremented') },
    { op: 'emitlog', tag: 3, start: 0, count: 1 },
    { op: 'return', start: 0, count: 1 },
    { label: 'get' },
    { op: 'set', dst: 1, value: 0 },
    { op: 'sload', dst: 0, slot: 1 },
    { op: 'return', start: 0, count: 1 },
    { label: 'fail' },
    { op: 'set', dst: 1, value: 1 },
    { op: 'sstore', slot: 1, value: 1 },
    { op: 'emitnotehash', value: 1 },
    { op: 'set', dst: 0, value: shortStringToField('fail') },
    { op: 'revert', start: 0, count: 1 },
    { label: 'burn' },
    { op: 'jump', target: 'burn' },
    { label: 'nullify' },
    { op: 'set', dst: 1, value: 1 },
    { op: 'calldataload', dst: 0, index: 1 },
    { op: 'emitnullifier', value: 0 },
    { op: 'return', start: 0, count: 0 },
    { label: 'shout' },
    { op: 'set', dst: 1, value: 1 },
    { op: 'calldataload', dst: 0, index: 1 },
    { label: 'shoutLoop' },
    { op: 'not', dst: 2, a: 0 },
    { op: 'jumpi', cond: 2, target: 'shoutDone' },
    { op: 'emitlog', tag: 0, start: 0, count: 1 },
    { op: 'sub', dst: 0, a: 0, b: 1 },
    { op: 'jump', target: 'shoutLoop' },
    { label: 'shoutDone' },
    { op: 'return', start: 0, count: 0 },
  ];
}

export const FEE_ASSET_SELECTORS = { mint: selectorField('mint(Field,Field)') } as const;

/** mint(payer, amount): balance slot hashToField(payer) += amount (storageSlots.ts, feePayerBalanceStorageSlot). */
export function feeAssetContract(): AsmItem[] {
  return [
    ...dispatch([{ selector: FEE_ASSET_SELECTORS.mint, label: 'mint' }]),
    { label: 'mint' },
    { op: 'set', dst: 9, value: 1 },
    { op: 'calldataload', dst: 0, index: 9 },
    { op: 'set', dst: 9, value: 2 },
    { op: 'calldataload', dst: 1, index: 9 },
    { op: 'hash', dst: 2, start: 0, count: 1 },
    { op: 'sload', dst: 3, slot: 2 },
    { op: 'add', dst: 3, a: 3, b: 1 },
    { op: 'sstore', slot: 2, value: 3 },
    { op: 'return', start: 3, count: 1 },
  ];
}
