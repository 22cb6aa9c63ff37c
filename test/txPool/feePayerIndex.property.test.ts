/**
 * The pool's per-fee-payer index (txPool.ts, priorityList.ts), checked against a model (fast-check model-based
 * testing): the model is the plain set of pooled txs, updated from each applied change. After every command, each
 * payer's indexed list equals a fresh sort of the payer's pooled txs in the model (by the order restated here), its
 * total equals their max costs' sum, and the payers indexed are exactly the model's. Commands admit fresh txs, send
 * repeats, replace pooled txs, add blocks (evicting by balance, fee, expiry, anchor), prune (txs coming back),
 * remove txs directly, and rebuild the pool by cloning or reloading it.
 *
 * Every admission, and the balance removals after blocks, are also checked against the balance walk restated on the
 * model (sort, then walk), so the index and the shortcut that skips the walk when a payer's total fits decide exactly
 * what the walk would.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideAdmission, type AdmissionDecision } from '../../core/txPool/admitTx.js';
import { decideAfterBlocksAdded } from '../../core/txPool/poolMaintenance.js';
import { decideAfterChainPruned } from '../../core/txPool/pruneReturn.js';
import { TxPool, type TxPoolChange } from '../../core/txPool/txPool.js';
import type { PooledTx } from '../../core/txPool/txPriority.js';
import type { TxRemoval } from '../../core/txPool/txRemoval.js';
import type { Hex } from '../../spec/chain.js';
import type { TxValue } from '../../spec/wire/tx.js';
import {
  blockHashOf,
  feePayerOf,
  fixtureMaxCost,
  makeTx,
  txSpecArbitrary,
  type ArbitraryTxSpec,
} from './txFixtures.js';

const PAYERS = [0, 1, 2, 3].map(feePayerOf);

interface Model {
  /** The pooled txs, as the applied changes left them. */
  readonly txs: Map<Hex, PooledTx>;
  nextHash: number;
  /** Every tx sent so far (for repeats) and the mined ones (for prunes). */
  readonly seen: TxValue[];
  mined: TxValue[];
}

interface Real {
  pool: TxPool;
}

type PoolCommand = fc.Command<Model, Real>;

/** Priority restated: min(max fee, max priority fee) per L2 gas. */
const priorityOf = (tx: TxValue): bigint => {
  const { maxFeesPerGas, maxPriorityFeesPerGas } = tx.gasSettings;
  return maxFeesPerGas.feePerL2Gas < maxPriorityFeesPerGas.feePerL2Gas
    ? maxFeesPerGas.feePerL2Gas
    : maxPriorityFeesPerGas.feePerL2Gas;
};

/** The pool order restated: fee descending, then arrival, then hash. */
function freshSort(txs: Iterable<PooledTx>): PooledTx[] {
  return [...txs].sort((a, b) => {
    const [feeA, feeB] = [priorityOf(a.tx), priorityOf(b.tx)];
    if (feeA !== feeB) return feeA > feeB ? -1 : 1;
    if (a.arrivalSequence !== b.arrivalSequence) return a.arrivalSequence - b.arrivalSequence;
    return a.txHash < b.txHash ? -1 : 1;
  });
}

function expectIndexMatchesModel(model: Model, pool: TxPool): void {
  pool.verify();
  expect(new Set(pool.ordered().map((p) => p.txHash))).toEqual(new Set(model.txs.keys()));
  const modelPayers = new Set([...model.txs.values()].map((p) => p.tx.feePayer));
  expect(pool.feePayers()).toEqual([...modelPayers].sort());
  for (const payer of new Set([...PAYERS, ...modelPayers])) {
    const expected = freshSort([...model.txs.values()].filter((p) => p.tx.feePayer === payer));
    expect(pool.feePayerTxs(payer).map((p) => p.txHash)).toEqual(expected.map((p) => p.txHash));
    expect(pool.feePayerMaxCostTotal(payer)).toBe(expected.reduce((sum, p) => sum + fixtureMaxCost(p.tx), 0n));
  }
}

/** Applies `change` to the pool and the model alike, then compares them. */
function applyChange(model: Model, real: Real, change: TxPoolChange): void {
  real.pool.apply(change);
  for (const txHash of change.removedTxHashes) model.txs.delete(txHash);
  for (const pooled of change.addedTxs) model.txs.set(pooled.txHash, pooled);
  expectIndexMatchesModel(model, real.pool);
}

/** The balance walk restated: sort, then keep each tx the balance still covers. */
function restatedWalk(txs: readonly PooledTx[], balance: bigint): { txHash: Hex; needed: bigint }[] {
  const uncovered: { txHash: Hex; needed: bigint }[] = [];
  let committed = 0n;
  for (const p of freshSort(txs)) {
    const needed = committed + fixtureMaxCost(p.tx);
    if (needed <= balance) committed = needed;
    else uncovered.push({ txHash: p.txHash, needed });
  }
  return uncovered;
}

/** Maintenance's balance removals restated: per payer given a balance, the walk over its txs not removed otherwise. */
function expectBalanceRemovalsAsRestated(
  model: Model,
  balances: ReadonlyMap<Hex, bigint>,
  removed: readonly TxRemoval[],
): void {
  const removedOtherwise = new Set(removed.flatMap((r) => (r.reason === 'feePayerBalance' ? [] : [r.txHash])));
  const expected = [...balances].flatMap(([payer, balance]) => {
    const walked = [...model.txs.values()].filter((p) => p.tx.feePayer === payer && !removedOtherwise.has(p.txHash));
    return restatedWalk(walked, balance).map((entry) => ({ ...entry, payer }));
  });
  const actual = removed.flatMap((r) =>
    r.reason === 'feePayerBalance' ? [{ txHash: r.txHash, needed: r.needed, payer: r.feePayer }] : [],
  );
  const byHash = (a: { txHash: Hex }, b: { txHash: Hex }) => (a.txHash < b.txHash ? -1 : a.txHash > b.txHash ? 1 : 0);
  expect(actual.sort(byHash)).toEqual(expected.sort(byHash));
}

/** The fee payer step of admission restated on the model: conflicts go, the newcomer joins, sort, walk. */
function expectFeePayerStepAsRestated(
  model: Model,
  pool: TxPool,
  tx: TxValue,
  balance: bigint,
  decision: AdmissionDecision,
): void {
  if (
    decision.kind === 'alreadyPooled' ||
    (decision.kind === 'rejected' && decision.rejection.code === 'NULLIFIER_CONFLICT')
  )
    return;
  const conflicts = sharesNullifierWith(tx);
  const stays = (p: PooledTx) => p.tx.feePayer === tx.feePayer && !conflicts(p);
  const newcomer: PooledTx = {
    tx,
    txHash: tx.txHash,
    arrivalSequence: pool.nextArrivalSequence,
    priorityFee: priorityOf(tx),
    maxCost: fixtureMaxCost(tx),
  };
  const uncovered = restatedWalk([...[...model.txs.values()].filter(stays), newcomer], balance);
  const newcomerUncovered = uncovered.find((entry) => entry.txHash === tx.txHash);
  if (decision.kind === 'rejected' && decision.rejection.code === 'INSUFFICIENT_FEE_PAYER_BALANCE') {
    expect(decision.rejection.details.needed).toBe(newcomerUncovered?.needed);
    return;
  }
  expect(newcomerUncovered).toBeUndefined();
  if (decision.kind !== 'accepted') return;
  const byBalance = decision.removed.flatMap((r) =>
    r.reason === 'feePayerBalance' ? [{ txHash: r.txHash, needed: r.needed }] : [],
  );
  expect(byBalance).toEqual(uncovered);
}

/**
 * A balance drawn outright, or relative to what the payer's txs that the walk would cover cost together (pooled txs
 * the decision does not remove otherwise, and the newcomer), so that balances just below, at and just above that
 * total, where the walk's shortcut is decided, come up often.
 */
type BalanceSpec = { readonly absolute: bigint } | { readonly relative: bigint };

function resolveBalance(
  model: Model,
  payer: Hex,
  spec: BalanceSpec,
  walked: (pooled: PooledTx) => boolean,
  newcomer?: TxValue,
): bigint {
  if ('absolute' in spec) return spec.absolute;
  const pooledCost = [...model.txs.values()]
    .filter((p) => p.tx.feePayer === payer && walked(p))
    .reduce((sum, p) => sum + fixtureMaxCost(p.tx), 0n);
  const total = pooledCost + (newcomer === undefined ? 0n : fixtureMaxCost(newcomer)) + spec.relative;
  return total < 0n ? 0n : total;
}

const sharesNullifierWith = (tx: TxValue) => {
  const nullifiers = new Set(tx.sideEffects.nullifiers);
  return (pooled: PooledTx) => pooled.tx.sideEffects.nullifiers.some((n) => nullifiers.has(n));
};

/** Decides on `tx`, checks the decision against the restated walk, and applies an acceptance. */
function admit(model: Model, real: Real, tx: TxValue, balanceSpec: BalanceSpec, bump: number): void {
  const conflicts = sharesNullifierWith(tx);
  const balance = resolveBalance(model, tx.feePayer, balanceSpec, (p) => !conflicts(p), tx);
  const decision = decideAdmission(real.pool, tx, { feePayerBalance: balance, priceBumpPercentage: bump });
  expectFeePayerStepAsRestated(model, real.pool, tx, balance, decision);
  if (decision.kind === 'accepted') applyChange(model, real, decision.change);
  else expectIndexMatchesModel(model, real.pool);
}

const balanceArbitrary: fc.Arbitrary<BalanceSpec> = fc.oneof(
  fc.record({ absolute: fc.oneof(fc.bigInt({ min: 0n, max: 400n }), fc.constant(10n ** 9n)) }),
  fc.record({ relative: fc.bigInt({ min: -3n, max: 3n }) }),
);
const bumpArbitrary = fc.oneof(fc.constant(0), fc.constant(10), fc.integer({ min: 0, max: 150 }));
const payerBalancesArbitrary = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), balanceArbitrary), { maxLength: 4 });
type PayerBalances = readonly (readonly [number, BalanceSpec])[];
const showBalance = (spec: BalanceSpec): string =>
  'absolute' in spec ? `${spec.absolute}` : `total${spec.relative >= 0n ? '+' : ''}${spec.relative}`;
const showBalances = (balances: PayerBalances): string =>
  balances.map(([payer, spec]) => `${payer}:${showBalance(spec)}`).join(' ');

const pick = <T>(items: readonly T[], index: number): T | undefined =>
  items.length === 0 ? undefined : items[index % items.length];
const modelOrder = (model: Model): PooledTx[] => freshSort(model.txs.values());

class AdmitFresh implements PoolCommand {
  constructor(
    readonly spec: ArbitraryTxSpec,
    readonly balance: BalanceSpec,
    readonly bump: number,
  ) {}
  check = () => true;
  run(model: Model, real: Real): void {
    const tx = makeTx({ ...this.spec, hash: model.nextHash++ });
    model.seen.push(tx);
    admit(model, real, tx, this.balance, this.bump);
  }
  toString = () =>
    `admitFresh(${JSON.stringify(this.spec, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}, ${showBalance(this.balance)}, ${this.bump})`;
}

class AdmitAgain implements PoolCommand {
  constructor(
    readonly index: number,
    readonly balance: BalanceSpec,
  ) {}
  check = (model: Readonly<Model>) => model.seen.length > 0;
  run(model: Model, real: Real): void {
    admit(model, real, pick(model.seen, this.index)!, this.balance, 10);
  }
  toString = () => `admitAgain(${this.index}, ${showBalance(this.balance)})`;
}

/** A tx sharing a nullifier with a pooled one, paying `raise` more, from `payer` (or the pooled tx's own payer). */
class Replace implements PoolCommand {
  constructor(
    readonly index: number,
    readonly raise: bigint,
    readonly payer: number | 'same',
    readonly balance: BalanceSpec,
    readonly bump: number,
  ) {}
  check = (model: Readonly<Model>) => model.txs.size > 0;
  run(model: Model, real: Real): void {
    const target = pick(modelOrder(model), this.index)!;
    const made = makeTx({ hash: model.nextHash++, priorityFee: priorityOf(target.tx) + this.raise });
    const feePayer = this.payer === 'same' ? target.tx.feePayer : feePayerOf(this.payer);
    const tx: TxValue = {
      ...made,
      feePayer,
      sideEffects: { ...made.sideEffects, nullifiers: [target.tx.sideEffects.nullifiers[0]!] },
    };
    model.seen.push(tx);
    admit(model, real, tx, this.balance, this.bump);
  }
  toString = () =>
    `replace(${this.index}, +${this.raise}, payer ${this.payer}, ${showBalance(this.balance)}, ${this.bump})`;
}

/** Blocks mining some pooled txs, with new conditions and payer balances (evictions). */
class BlocksAdded implements PoolCommand {
  constructor(
    readonly minedIndices: readonly number[],
    readonly nextSlotTimestamp: bigint,
    readonly minFeePerL2Gas: bigint,
    readonly unavailableAnchor: number | undefined,
    readonly balances: PayerBalances,
  ) {}
  check = () => true;
  run(model: Model, real: Real): void {
    const order = modelOrder(model);
    const mined = [...new Set(this.minedIndices.flatMap((index) => pick(order, index) ?? []))];
    const minedHashes = new Set(mined.map((p) => p.txHash));
    const balances = new Map(
      this.balances.map(
        ([payer, spec]) =>
          [
            feePayerOf(payer),
            resolveBalance(model, feePayerOf(payer), spec, (p) => !minedHashes.has(p.txHash)),
          ] as const,
      ),
    );
    const outcome = decideAfterBlocksAdded(real.pool, {
      nextSlotTimestamp: this.nextSlotTimestamp,
      minFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: this.minFeePerL2Gas },
      unavailableAnchorBlockHashes: new Set(
        this.unavailableAnchor === undefined ? [] : [blockHashOf(this.unavailableAnchor)],
      ),
      feePayerBalances: balances,
      minedTxHashes: [...minedHashes],
      minedNullifiers: new Set(mined.flatMap((p) => p.tx.sideEffects.nullifiers)),
    });
    expectBalanceRemovalsAsRestated(model, balances, outcome.removed);
    model.mined.push(...mined.map((p) => p.tx));
    applyChange(model, real, outcome.change);
  }
  toString = () =>
    `blocksAdded(${JSON.stringify(this.minedIndices)}, ${this.nextSlotTimestamp}, ${this.minFeePerL2Gas}, ${this.unavailableAnchor}, ${showBalances(this.balances)})`;
}

/** A prune returning the last `count` mined txs; every payer gets a balance. */
class Pruned implements PoolCommand {
  constructor(
    readonly count: number,
    readonly balances: PayerBalances,
  ) {}
  check = () => true;
  run(model: Model, real: Real): void {
    const returningTxs = model.mined.slice(Math.max(0, model.mined.length - this.count));
    model.mined = model.mined.slice(0, model.mined.length - returningTxs.length);
    const balances = new Map(PAYERS.map((payer) => [payer, 10n ** 9n] as const));
    for (const [payer, spec] of this.balances)
      balances.set(
        feePayerOf(payer),
        resolveBalance(model, feePayerOf(payer), spec, () => true),
      );
    const outcome = decideAfterChainPruned(real.pool, {
      nextSlotTimestamp: 0n,
      minFeesPerGas: { feePerDaGas: 0n, feePerL2Gas: 0n },
      unavailableAnchorBlockHashes: new Set(),
      feePayerBalances: balances,
      returningTxs,
    });
    applyChange(model, real, outcome.change);
  }
  toString = () => `pruned(${this.count}, ${showBalances(this.balances)})`;
}

/** Pooled txs taken out by a change of their own. */
class Remove implements PoolCommand {
  constructor(readonly indices: readonly number[]) {}
  check = (model: Readonly<Model>) => model.txs.size > 0;
  run(model: Model, real: Real): void {
    const order = modelOrder(model);
    const removed = [...new Set(this.indices.map((index) => pick(order, index)!.txHash))];
    const { pool } = real;
    applyChange(model, real, {
      baseRevision: pool.revision,
      removedTxHashes: removed,
      addedTxs: [],
      nextArrivalSequence: pool.nextArrivalSequence,
    });
  }
  toString = () => `remove(${JSON.stringify(this.indices)})`;
}

/** The pool replaced by a clone of itself, or by a pool restored from its txs (the loader's path). */
class Rebuild implements PoolCommand {
  constructor(readonly how: 'clone' | 'restore') {}
  check = () => true;
  run(model: Model, real: Real): void {
    const { pool } = real;
    real.pool =
      this.how === 'clone' ? pool.clone() : TxPool.restore(pool.capacity, pool.ordered(), pool.nextArrivalSequence);
    expectIndexMatchesModel(model, real.pool);
  }
  toString = () => `rebuild(${this.how})`;
}

const replaceArbitrary = fc
  .tuple(
    fc.nat(),
    fc.bigInt({ min: 0n, max: 20n }),
    fc.oneof(fc.constant('same' as const), fc.integer({ min: 0, max: 3 })),
    balanceArbitrary,
    bumpArbitrary,
  )
  .map(([index, raise, payer, balance, bump]) => new Replace(index, raise, payer, balance, bump));

const commandArbitraries = [
  fc
    .tuple(txSpecArbitrary, balanceArbitrary, bumpArbitrary)
    .map(([spec, balance, bump]) => new AdmitFresh(spec, balance, bump)),
  fc
    .tuple(txSpecArbitrary, balanceArbitrary, bumpArbitrary)
    .map(([spec, balance, bump]) => new AdmitFresh(spec, balance, bump)),
  fc.tuple(fc.nat(), balanceArbitrary).map(([index, balance]) => new AdmitAgain(index, balance)),
  replaceArbitrary,
  replaceArbitrary,
  fc
    .tuple(
      fc.array(fc.nat(), { maxLength: 3 }),
      fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 30n })),
      fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: 40n })),
      fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
      payerBalancesArbitrary,
    )
    .map(([mined, slot, minFee, anchor, balances]) => new BlocksAdded(mined, slot, minFee, anchor, balances)),
  fc
    .tuple(fc.integer({ min: 0, max: 4 }), payerBalancesArbitrary)
    .map(([count, balances]) => new Pruned(count, balances)),
  fc.array(fc.nat(), { minLength: 1, maxLength: 3 }).map((indices) => new Remove(indices)),
  fc.constantFrom('clone' as const, 'restore' as const).map((how) => new Rebuild(how)),
];

describe('the per-fee-payer index', () => {
  it('always equals a fresh sort of each payer’s pooled txs, and admission decides as the restated walk', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }),
        fc.commands(commandArbitraries, { maxCommands: 60 }),
        (capacity, commands) => {
          const setup = () => ({
            model: { txs: new Map(), nextHash: 1, seen: [], mined: [] } satisfies Model,
            real: { pool: TxPool.empty(capacity) } satisfies Real,
          });
          fc.modelRun(setup, commands);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps a payer’s txs in order however they arrive (one payer, many fees and ties)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.bigInt({ min: 0n, max: 5n }), fc.boolean()), { maxLength: 80 }), (steps) => {
        const model: Model = { txs: new Map(), nextHash: 1, seen: [], mined: [] };
        const real: Real = { pool: TxPool.empty(1_000) };
        for (const [priorityFee, removeHighest] of steps) {
          admit(model, real, makeTx({ hash: model.nextHash++, priorityFee, feePayer: 0 }), { absolute: 10n ** 9n }, 10);
          if (removeHighest && model.txs.size > 0) new Remove([0]).run(model, real);
        }
        expect(real.pool.feePayers().length).toBe(model.txs.size === 0 ? 0 : 1);
      }),
    );
  });
});
