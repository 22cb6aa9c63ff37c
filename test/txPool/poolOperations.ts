/**
 * Random histories for the pool's property suites: RPC admissions (some of them repeats), blocks added (mining
 * pooled txs, with new minimum fees, expiry times, pruned anchors and payer balances) and prunes returning mined txs.
 * `runOperations` applies each decision, checks the pool's own invariants after every step, and reports every step
 * to an observer so a property can check what it states.
 */
import fc from 'fast-check';
import { decideAdmission, type AdmissionDecision } from '../../core/txPool/admitTx.js';
import {
  decideAfterBlocksAdded,
  type BlocksAddedInput,
  type MaintenanceOutcome,
} from '../../core/txPool/poolMaintenance.js';
import {
  decideAfterChainPruned,
  type ChainPrunedInput,
  type PruneReturnOutcome,
} from '../../core/txPool/pruneReturn.js';
import type { TxPool, TxPoolChange } from '../../core/txPool/txPool.js';
import type { PooledTx } from '../../core/txPool/txPriority.js';
import type { Hex } from '../../spec/chain.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { blockHashOf, feePayerOf, makeTx, nullifierOf, txSpecArbitrary, type ArbitraryTxSpec } from './txFixtures.js';

const conditionsArbitrary = fc.record({
  nextSlotTimestamp: fc.oneof(
    { weight: 3, arbitrary: fc.constant(0n) },
    { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 30n }) },
  ),
  minFeesPerGas: fc.oneof(
    { weight: 3, arbitrary: fc.constant({ feePerDaGas: 0n, feePerL2Gas: 0n }) },
    {
      weight: 1,
      arbitrary: fc.record({
        feePerDaGas: fc.bigInt({ min: 0n, max: 5n }),
        feePerL2Gas: fc.bigInt({ min: 0n, max: 40n }),
      }),
    },
  ),
  unavailableAnchors: fc.uniqueArray(fc.integer({ min: 0, max: 4 }), { maxLength: 1 }),
  balances: fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.bigInt({ min: 0n, max: 200n })), { maxLength: 3 }),
});
type ConditionsSpec = typeof conditionsArbitrary extends fc.Arbitrary<infer T> ? T : never;

export type PoolOperation =
  | { readonly kind: 'admit'; readonly spec: ArbitraryTxSpec; readonly balance: bigint; readonly bump: number }
  | { readonly kind: 'admitAgain'; readonly pick: number; readonly balance: bigint; readonly bump: number }
  | {
      readonly kind: 'blocks';
      readonly minedPicks: readonly number[];
      readonly extraNullifiers: readonly number[];
      readonly conditions: ConditionsSpec;
    }
  | {
      readonly kind: 'prune';
      readonly returnCount: number;
      readonly fresh: readonly ArbitraryTxSpec[];
      readonly conditions: ConditionsSpec;
    };

const balance = fc.bigInt({ min: 0n, max: 400n });
const bump = fc.oneof(fc.constant(0), fc.constant(10), fc.integer({ min: 0, max: 150 }));

export const poolOperationArbitrary: fc.Arbitrary<PoolOperation> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('admit' as const), spec: txSpecArbitrary, balance, bump }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('admitAgain' as const), pick: fc.nat(), balance, bump }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('blocks' as const),
      minedPicks: fc.array(fc.nat(), { maxLength: 3 }),
      extraNullifiers: fc.array(fc.integer({ min: 0, max: 11 }), { maxLength: 2 }),
      conditions: conditionsArbitrary,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('prune' as const),
      returnCount: fc.integer({ min: 0, max: 4 }),
      fresh: fc.array(txSpecArbitrary, { maxLength: 2 }),
      conditions: conditionsArbitrary,
    }),
  },
);

export const poolHistoryArbitrary = fc.record({
  capacity: fc.integer({ min: 1, max: 8 }),
  operations: fc.array(poolOperationArbitrary, { minLength: 1, maxLength: 40 }),
});

export type PoolStep =
  | {
      readonly kind: 'admit';
      readonly tx: TxValue;
      readonly balance: bigint;
      readonly bump: number;
      readonly before: readonly Hex[];
      readonly decision: AdmissionDecision;
    }
  | { readonly kind: 'blocks'; readonly input: BlocksAddedInput; readonly outcome: MaintenanceOutcome }
  | { readonly kind: 'prune'; readonly input: ChainPrunedInput; readonly outcome: PruneReturnOutcome };

export interface RunOptions {
  /** Called with every change before it is applied (e.g. to write its storage ops). */
  readonly onChange?: (change: TxPoolChange) => Promise<void>;
  /** Called after every step, the change applied and the pool verified. */
  readonly onStep?: (step: PoolStep, pool: TxPool) => void;
}

/** Applies `operations` to `pool` in order. Tx hashes are numbered from `firstHash`. */
export async function runOperations(
  pool: TxPool,
  operations: readonly PoolOperation[],
  options: RunOptions = {},
  firstHash = 1,
): Promise<void> {
  const history = { nextHash: firstHash, seen: [] as TxValue[], mined: [] as TxValue[] };
  for (const operation of operations) {
    const before = { revision: pool.revision, ordered: pool.ordered() };
    const step = decide(pool, operation, history);
    expectUnchanged(pool, before);
    const change =
      step.kind === 'admit'
        ? step.decision.kind === 'accepted'
          ? step.decision.change
          : undefined
        : step.outcome.change;
    if (step.kind === 'blocks') history.mined.push(...step.input.minedTxHashes.map((txHash) => pool.get(txHash)!.tx));
    if (change !== undefined) {
      await options.onChange?.(change);
      pool.apply(change);
    }
    pool.verify();
    options.onStep?.(step, pool);
  }
}

/** Deciding is pure: the pool is as it was until the change is applied. */
function expectUnchanged(
  pool: TxPool,
  before: { readonly revision: number; readonly ordered: readonly PooledTx[] },
): void {
  const after = pool.ordered();
  const same =
    pool.revision === before.revision &&
    after.length === before.ordered.length &&
    after.every((p, i) => p === before.ordered[i]);
  if (!same) throw new Error('a decision changed the pool');
}

interface History {
  nextHash: number;
  readonly seen: TxValue[];
  readonly mined: TxValue[];
}

function freshTx(history: History, spec: ArbitraryTxSpec): TxValue {
  const tx = makeTx({ ...spec, hash: history.nextHash++ });
  history.seen.push(tx);
  return tx;
}

function decide(pool: TxPool, operation: PoolOperation, history: History): PoolStep {
  switch (operation.kind) {
    case 'admit':
    case 'admitAgain': {
      const again =
        operation.kind === 'admitAgain' ? history.seen[operation.pick % Math.max(1, history.seen.length)] : undefined;
      const chosen = again ?? freshTx(history, operation.kind === 'admit' ? operation.spec : {});
      const before = pool.ordered().map((p) => p.txHash);
      const decision = decideAdmission(pool, chosen, {
        feePayerBalance: operation.balance,
        priceBumpPercentage: operation.bump,
      });
      return { kind: 'admit', tx: chosen, balance: operation.balance, bump: operation.bump, before, decision };
    }
    case 'blocks': {
      const ordered = pool.ordered();
      const mined =
        ordered.length === 0 ? [] : [...new Set(operation.minedPicks.map((pick) => ordered[pick % ordered.length]!))];
      const minedNullifiers = new Set([
        ...mined.flatMap((p) => p.tx.sideEffects.nullifiers),
        ...operation.extraNullifiers.map(nullifierOf),
      ]);
      const input: BlocksAddedInput = {
        ...conditionsOf(operation.conditions),
        minedTxHashes: mined.map((p) => p.txHash),
        minedNullifiers,
      };
      return { kind: 'blocks', input, outcome: decideAfterBlocksAdded(pool, input) };
    }
    case 'prune': {
      const returning = history.mined.splice(Math.max(0, history.mined.length - operation.returnCount));
      const returningTxs = [...returning, ...operation.fresh.map((spec) => freshTx(history, spec))];
      const conditions = conditionsOf(operation.conditions);
      const balances = new Map(conditions.feePayerBalances);
      for (const tx of returningTxs) if (!balances.has(tx.feePayer)) balances.set(tx.feePayer, 10n ** 6n);
      const input: ChainPrunedInput = { ...conditions, feePayerBalances: balances, returningTxs };
      return { kind: 'prune', input, outcome: decideAfterChainPruned(pool, input) };
    }
  }
}

function conditionsOf(spec: ConditionsSpec) {
  return {
    nextSlotTimestamp: spec.nextSlotTimestamp,
    minFeesPerGas: spec.minFeesPerGas,
    unavailableAnchorBlockHashes: new Set(spec.unavailableAnchors.map(blockHashOf)),
    feePayerBalances: new Map(spec.balances.map(([payer, amount]) => [feePayerOf(payer), amount] as const)),
  };
}
