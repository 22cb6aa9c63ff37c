/**
 * svc_sendTx admissions validated concurrently and written in groups (core/txPool/nodeTxPool.ts) decide what the
 * pure pool decides one tx at a time: for any sequence of calls, made at once or spread out, each call gets the
 * outcome `decideAdmission` gives the same txs in the same order, the pool ends the same, and storage holds it. A
 * chain event between a tx's validation and its turn is seen; a failed write leaves no trace; calls beyond the
 * limit are refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decideAdmission } from '../../core/txPool/admitTx.js';
import { NodeTxPool, SEND_TX_ADMISSIONS_IN_FLIGHT_MAX } from '../../core/txPool/nodeTxPool.js';
import { TxPool } from '../../core/txPool/txPool.js';
import { loadTxPool } from '../../core/txPool/txPoolStore.js';
import { commitmentVerifier } from '../../core/verifier/commitmentVerifier.js';
import type { StoragePort } from '../../core/ports.js';
import type { GasFees, Hex } from '../../spec/chain.js';
import { SETUP_ALLOW_LIST_DEFAULTS } from '../../spec/config/allowList.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import { CodedError } from '../../spec/errors.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx } from '../../spec/txBuilder.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { MEMORY_CHAIN_CONSTANTS, memoryGenesis, openMemoryChain, proposeBlock } from '../helpers/memoryChain.js';
import { silentLogger } from '../helpers/testLogger.js';

const PRICE_BUMP_PERCENTAGE = 10;
const EXPIRATION = 2n ** 40n;
const hex32 = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
/** A payer the genesis state does not fund: every tx it pays for is short of balance. */
const UNFUNDED_PAYER = hex32(0xfee);
const payers = (): Hex[] => [genesisTestAccounts()[0]!, genesisTestAccounts()[1]!, UNFUNDED_PAYER];

interface Harness {
  readonly pool: NodeTxPool;
  readonly storage: StoragePort;
  readonly chain: Awaited<ReturnType<typeof openMemoryChain>>;
  readonly minFees: GasFees;
  /** Storage writes of pool keys wait for this gate while it is closed. */
  readonly gate: { close(): void; open(): void; failNext(): void };
}

/** A memory chain with its pool; the pool's writes (keys `txPool:`) pass through a gate the test controls. */
async function openHarness(capacity: number): Promise<Harness> {
  const chain = await openMemoryChain();
  let waiting: Promise<void> = Promise.resolve();
  let release = (): void => undefined;
  let failNext = false;
  const storage = chain.storage;
  const batch = storage.batch.bind(storage) as (...args: unknown[]) => Promise<void>;
  const gatedBatch = async (...args: unknown[]): Promise<void> => {
    const ops = args[0] as { key: string }[] | undefined;
    if (Array.isArray(ops) && ops.some((op) => op.key.startsWith('txPool:'))) {
      await waiting;
      if (failNext) {
        failNext = false;
        throw new Error('disk full');
      }
    }
    return batch(...args);
  };
  // The same store (the chain writes to it too), its batch() wrapped: a Proxy would hide abstract-level's private fields.
  Object.assign(storage, { batch: gatedBatch });
  const pool = await NodeTxPool.open({
    chain: chain.chain,
    storage,
    constants: MEMORY_CHAIN_CONSTANTS,
    clock: chain.clock,
    verifier: commitmentVerifier,
    logger: silentLogger,
    settings: () => ({
      priceBumpPercentage: PRICE_BUMP_PERCENTAGE,
      capacity,
      setupAllowList: SETUP_ALLOW_LIST_DEFAULTS,
    }),
    contractClassOf: async () => undefined,
  });
  const gate = {
    close: () => (waiting = new Promise((resolve) => (release = resolve))),
    open: () => release(),
    failNext: () => void (failNext = true),
  };
  return { pool, storage, chain, minFees: await pool.currentMinFees(), gate };
}

interface TxSpec {
  readonly payer: number;
  readonly nullifier: number;
  readonly priorityFee: bigint;
  readonly invalid: boolean;
  /** Send again the tx of this earlier spec instead (an already-pooled tx, or a rejected one). */
  readonly repeat: number | undefined;
  /** Microtask turns to wait before the call: 0 sends it with the ones before. */
  readonly delay: number;
}

const txSpecArbitrary: fc.Arbitrary<TxSpec> = fc.record({
  payer: fc.integer({ min: 0, max: 2 }),
  nullifier: fc.integer({ min: 0, max: 5 }),
  // Small fees for replacements and a full pool; huge ones so that a few txs exceed a funded payer's balance.
  priorityFee: fc.oneof(
    { weight: 4, arbitrary: fc.bigInt({ min: 0n, max: 40n }) },
    { weight: 1, arbitrary: fc.constantFrom(10n ** 24n, 2n * 10n ** 24n) },
  ),
  invalid: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  repeat: fc.option(fc.nat(), { nil: undefined }),
  delay: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }) }),
});

function txsOf(specs: readonly TxSpec[], minFees: GasFees): TxValue[] {
  const txs: TxValue[] = [];
  specs.forEach((spec, i) => {
    if (spec.repeat !== undefined && i > 0) return void txs.push(txs[spec.repeat % i]!);
    txs.push(
      buildTx({
        chainId: spec.invalid ? 1 : MEMORY_CHAIN_CONSTANTS.l1ChainId,
        version: MEMORY_CHAIN_CONSTANTS.rollupVersion,
        anchorBlockHash: memoryGenesis.block.hash,
        feePayer: payers()[spec.payer]!,
        nullifier: hex32(0x4a000 + spec.nullifier),
        minFees,
        // Distinct txs with the same nullifier and fee differ by their expiry.
        expirationTimestamp: EXPIRATION + BigInt(i),
        priorityFeePerGas: spec.priorityFee,
      }),
    );
  });
  return txs;
}

/** What one call ends with: the pool's decision or the error's code. */
type Outcome = string;

/** The pure pool's outcomes for the same calls, one at a time; invalid txs (another chain) fail validation. */
async function expectedOutcomes(h: Harness, txs: readonly TxValue[], capacity: number) {
  const pure = TxPool.empty(capacity);
  const outcomes: Outcome[] = [];
  for (const tx of txs) {
    if (tx.chainId !== MEMORY_CHAIN_CONSTANTS.l1ChainId) {
      outcomes.push('INVALID_PARAMS');
      continue;
    }
    const balance = await h.pool.feePayerBalance(tx.feePayer);
    const decision = decideAdmission(pure, tx, {
      feePayerBalance: balance,
      priceBumpPercentage: PRICE_BUMP_PERCENTAGE,
    });
    if (decision.kind === 'accepted') pure.apply(decision.change);
    outcomes.push(decision.kind === 'rejected' ? decision.rejection.code : decision.kind);
  }
  return { outcomes, pure };
}

const settle = async (turns: number) => {
  for (let i = 0; i < turns; i++) await Promise.resolve();
};

/** A call's outcome: `answered`, or its error's code. */
const outcomeOf = (call: Promise<void>): Promise<string> =>
  call.then(
    () => 'answered',
    (error: unknown) => (error instanceof CodedError ? error.code : String(error)),
  );

/** Sends every tx (each after its delay, without awaiting the earlier calls); resolves with each call's outcome. */
async function sendAll(pool: NodeTxPool, txs: readonly TxValue[], delays: readonly number[]): Promise<string[]> {
  const calls: Promise<string>[] = [];
  for (const [i, tx] of txs.entries()) {
    await settle(delays[i]!);
    calls.push(outcomeOf(pool.sendTx(tx)));
  }
  return Promise.all(calls);
}

describe('sendTx in groups', () => {
  it('decides each call as the pure pool does one at a time, and storage holds the pool it ends with', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(txSpecArbitrary, { minLength: 1, maxLength: 24 }),
        fc.integer({ min: 2, max: 8 }),
        async (specs, capacity) => {
          const h = await openHarness(capacity);
          const txs = txsOf(specs, h.minFees);
          const { outcomes, pure } = await expectedOutcomes(h, txs, capacity);
          const accepted: Hex[] = [];
          h.pool.onActivity((activity) => {
            if (activity.kind === 'accepted') accepted.push(activity.txHash);
          });
          const delays = specs.map((spec) => spec.delay);
          const answered = (outcome: string) =>
            outcome === 'accepted' || outcome === 'alreadyPooled' ? 'answered' : outcome;
          expect(await sendAll(h.pool, txs, delays)).toEqual(outcomes.map(answered));
          // Which answered calls were acceptances: the pool's activity, in order.
          expect(accepted).toEqual(txs.filter((_, i) => outcomes[i] === 'accepted').map((tx) => tx.txHash));
          expect(h.pool.current.ordered()).toEqual(pure.ordered());
          const loaded = await loadTxPool(h.storage, capacity);
          expect(loaded.pool.ordered()).toEqual(pure.ordered());
          expect(loaded.pool.nextArrivalSequence).toBe(pure.nextArrivalSequence);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('validates again a tx whose validation a block overtook: a nullifier the block spends is refused', async () => {
    const h = await openHarness(10);
    const first = txsOf(
      [{ payer: 0, nullifier: 1, priorityFee: 1n, invalid: false, repeat: undefined, delay: 0 }],
      h.minFees,
    )[0]!;
    const overtaken = txsOf(
      [{ payer: 1, nullifier: 2, priorityFee: 1n, invalid: false, repeat: undefined, delay: 0 }],
      h.minFees,
    )[0]!;
    h.gate.close();
    const firstCall = h.pool.sendTx(first);
    await settle(50);
    // The first group's write waits at the gate; the second tx is validated meanwhile, then the block spends it.
    const overtakenCall = outcomeOf(h.pool.sendTx(overtaken));
    await settle(200);
    await proposeBlock(h.chain, 1, [minimalTxEffect(hex32(0x77), overtaken.sideEffects.nullifiers[0]!)]);
    h.gate.open();
    await firstCall;
    expect(await overtakenCall).toBe('INVALID_PARAMS');
    expect(h.pool.current.ordered().map((p) => p.txHash)).toEqual([first.txHash]);
  });

  it('fails every call of a group whose write fails, and keeps the pool storage holds', async () => {
    const h = await openHarness(10);
    const specs = [0, 1, 2].map((n) => ({
      payer: 0,
      nullifier: n,
      priorityFee: 1n,
      invalid: false,
      repeat: undefined,
      delay: 0,
    }));
    const [kept, ...lost] = txsOf(specs, h.minFees);
    await h.pool.sendTx(kept!);
    h.gate.failNext();
    const calls = lost.map((tx) => outcomeOf(h.pool.sendTx(tx)));
    expect(await Promise.all(calls)).toEqual(['Error: disk full', 'Error: disk full']);
    expect(h.pool.current.ordered().map((p) => p.txHash)).toEqual([kept!.txHash]);
    await h.pool.sendTx(lost[0]!);
    expect(
      (await loadTxPool(h.storage, 10)).pool
        .ordered()
        .map((p) => p.txHash)
        .sort(),
    ).toEqual([kept!.txHash, lost[0]!.txHash].sort());
  });

  it(`refuses calls beyond ${SEND_TX_ADMISSIONS_IN_FLIGHT_MAX} in flight with LIMIT_EXCEEDED, and takes them later`, async () => {
    const extra = 3;
    const h = await openHarness(SEND_TX_ADMISSIONS_IN_FLIGHT_MAX + extra);
    const specs = Array.from({ length: SEND_TX_ADMISSIONS_IN_FLIGHT_MAX + extra }, (_, n) => ({
      payer: n % 2,
      nullifier: 100 + n,
      priorityFee: 1n,
      invalid: false,
      repeat: undefined,
      delay: 0,
    }));
    const txs = txsOf(specs, h.minFees);
    const outcomes = await Promise.all(txs.map((tx) => outcomeOf(h.pool.sendTx(tx))));
    expect(outcomes.slice(0, SEND_TX_ADMISSIONS_IN_FLIGHT_MAX)).toEqual(
      Array(SEND_TX_ADMISSIONS_IN_FLIGHT_MAX).fill('answered'),
    );
    expect(outcomes.slice(SEND_TX_ADMISSIONS_IN_FLIGHT_MAX)).toEqual(Array(extra).fill('LIMIT_EXCEEDED'));
    for (const tx of txs.slice(SEND_TX_ADMISSIONS_IN_FLIGHT_MAX)) await h.pool.sendTx(tx);
    expect(h.pool.current.count).toBe(txs.length);
  });
});
