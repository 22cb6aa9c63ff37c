import { describe, expect, test } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { L1_MAX_FEE_PER_GAS_CAP_WEI, L1_TRACKED_TXS_MAX, WEI_PER_GWEI } from '../../spec/constants.js';
import type { LoggerPort, MetricsEvent } from '../ports.js';
import { createSimMetrics } from '../../sim/simMetrics.js';
import { L1Error } from './l1Error.js';
import {
  coversBaseFees,
  firstAttemptFees,
  minimumReplacementFees,
  satisfiesReplacementRule,
  type L1FeeMarket,
  type L1TxFees,
  type L1TxKind,
} from './l1TxFees.js';
import { feesForLog, L1TxTracker, planL1Tx, type L1AccountNonces, type TrackedL1Tx } from './l1TxSender.js';

const gwei = (n: number) => BigInt(n) * WEI_PER_GWEI;
const MARKET: L1FeeMarket = { baseFeePerGas: gwei(10), blobBaseFeePerGas: gwei(3), priorityFeePerGas: gwei(1) };
const hash = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const tracked = (nonce: number, kind: L1TxKind): TrackedL1Tx => ({
  nonce,
  kind,
  fees: firstAttemptFees(MARKET, kind),
  txHash: hash(nonce + 1),
});

describe('L1 transaction planning, at its edges', () => {
  test('refuses nonces that are not non-negative integers, and more tracked transactions than the bound', () => {
    const plan =
      (nonces: L1AccountNonces, txs: readonly TrackedL1Tx[] = []) =>
      () =>
        planL1Tx(txs, nonces, MARKET, 'blob');
    expect(plan({ minedNonce: -1, pendingNonce: 0 })).toThrow(/mined nonce -1/);
    expect(plan({ minedNonce: 0.5, pendingNonce: 1 })).toThrow(/mined nonce 0.5/);
    expect(plan({ minedNonce: 0, pendingNonce: -1 })).toThrow(/pending nonce -1/);
    expect(plan({ minedNonce: 0, pendingNonce: 1.5 })).toThrow(/pending nonce 1.5/);
    const many = Array.from({ length: L1_TRACKED_TXS_MAX + 1 }, (_, nonce) => tracked(nonce, 'plain'));
    expect(plan({ minedNonce: 0, pendingNonce: 0 }, many)).toThrow(/L1_TRACKED_TXS_MAX/);
    const all = Array.from({ length: L1_TRACKED_TXS_MAX }, (_, nonce) => tracked(nonce, 'plain'));
    const pending = { minedNonce: 0, pendingNonce: L1_TRACKED_TXS_MAX };
    expect(planL1Tx(all, pending, MARKET, 'blob')).toMatchObject({ action: 'send', nonce: L1_TRACKED_TXS_MAX });
  });

  test('a pending nonce we hold no record of is replaced from today’s prices, past those of the other kind', () => {
    const txs = [tracked(4, 'plain')];
    expect(planL1Tx(txs, { minedNonce: 4, pendingNonce: 6 }, MARKET, 'blob')).toEqual({
      action: 'send',
      nonce: 5,
      fees: firstAttemptFees(MARKET, 'blob'),
      replaces: 'unknown',
    });
  });
});

describe('L1 transaction tracker', () => {
  test('keeps the highest L1_TRACKED_TXS_MAX nonces, in nonce order', () => {
    const tracker = new L1TxTracker();
    const fees = firstAttemptFees(MARKET, 'plain');
    for (let nonce = L1_TRACKED_TXS_MAX + 1; nonce >= 0; nonce--) tracker.recordSent(nonce, 'plain', fees, hash(nonce));
    expect(tracker.inFlight().map((tx) => tx.nonce)).toEqual(
      Array.from({ length: L1_TRACKED_TXS_MAX }, (_, i) => i + 2),
    );
    tracker.recordSent(5, 'plain', fees, hash(100));
    expect(tracker.inFlight().filter((tx) => tx.nonce === 5)).toEqual([
      { nonce: 5, kind: 'plain', fees, txHash: hash(100) },
    ]);
  });

  test('a refusal for the other kind leaves a floor of that kind; an underpriced one keeps the pending hash', () => {
    const tracker = new L1TxTracker();
    const plain = firstAttemptFees(MARKET, 'plain');
    const blob = firstAttemptFees(MARKET, 'blob');
    tracker.recordRefused(0, 'plain', plain, 'kindMismatch');
    tracker.recordRefused(1, 'blob', blob, 'kindMismatch');
    tracker.recordSent(2, 'blob', blob, hash(9));
    tracker.recordRefused(2, 'blob', { ...blob, maxFeePerGas: blob.maxFeePerGas + 1n }, 'underpriced');
    expect(tracker.inFlight()).toEqual([
      { nonce: 0, kind: 'blob', fees: { ...plain, maxFeePerBlobGas: 0n }, txHash: undefined },
      { nonce: 1, kind: 'plain', fees: plain, txHash: undefined },
      { nonce: 2, kind: 'blob', fees: { ...blob, maxFeePerGas: blob.maxFeePerGas + 1n }, txHash: hash(9) },
    ]);
  });

  test('sends one at a time, a failed send not stopping the next; metrics tell the blob price', async () => {
    const metrics = createSimMetrics();
    const tracker = new L1TxTracker(undefined, metrics.port);
    const sent: Array<{ nonce: number; fees: L1TxFees }> = [];
    let pending = 0;
    const operations = (kind: L1TxKind, fail = false) => ({
      kind,
      what: kind,
      readNonces: async () => ({ minedNonce: 0, pendingNonce: pending }),
      readFeeMarket: async () => MARKET,
      send: async (nonce: number, fees: L1TxFees) => {
        if (fail) throw new L1Error('L1_UNREACHABLE', 'down');
        sent.push({ nonce, fees });
        pending = Math.max(pending, nonce + 1);
        return hash(sent.length);
      },
    });
    const results = await Promise.allSettled([
      tracker.send(operations('blob')),
      tracker.send(operations('plain', true)),
      tracker.send(operations('plain')),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(sent.map((send) => send.nonce)).toEqual([0, 1]);
    expect(metrics.reading()).toMatchObject({ l1TxsSent: { blob: 1, plain: 1 } });
    expect(metrics.reading().l1TxsReplaced).toEqual({});
  });

  test('logs fees as decimal strings, the blob price only for blob transactions', () => {
    expect(feesForLog({ maxFeePerGas: 21n, maxPriorityFeePerGas: 1n })).toEqual({
      maxFeePerGas: '21',
      maxPriorityFeePerGas: '1',
    });
    expect(feesForLog({ maxFeePerGas: 21n, maxPriorityFeePerGas: 1n, maxFeePerBlobGas: 6n })).toEqual({
      maxFeePerGas: '21',
      maxPriorityFeePerGas: '1',
      maxFeePerBlobGas: '6',
    });
  });
});

describe('L1 transaction tracker, what operators see', () => {
  type Logged = { level: string; message: string; fields: unknown };
  function capture() {
    const logged: Logged[] = [];
    const events: MetricsEvent[] = [];
    const log =
      (level: string) =>
      (message: string, fields?: unknown): void => {
        logged.push({ level, message, fields });
      };
    const logger: LoggerPort = {
      debug: log('debug'),
      info: log('info'),
      warn: log('warn'),
      error: log('error'),
      child: () => logger,
    };
    return { logged, events, logger, metrics: { report: (event: MetricsEvent) => events.push(event) } };
  }
  const operations = (kind: L1TxKind, pendingNonce: number, send: (nonce: number) => Promise<Hex>) => ({
    kind,
    what: 'propose',
    readNonces: async () => ({ minedNonce: 0, pendingNonce }),
    readFeeMarket: async () => MARKET,
    send: async (nonce: number) => send(nonce),
  });

  test('a replacement is logged with what it replaced; metrics carry the blob price of blob sends only', async () => {
    const { logged, events, logger, metrics } = capture();
    const tracker = new L1TxTracker(logger, metrics);
    await tracker.send(operations('blob', 0, async () => hash(1)));
    await tracker.send(operations('blob', 1, async () => hash(2)));
    await tracker.send(operations('plain', 1, async () => hash(3)));
    expect(logged).toEqual([
      {
        level: 'info',
        message: 'propose replaced the transaction pending at its nonce',
        fields: {
          nonce: 0,
          txHash: hash(2),
          replaced: hash(1),
          fees: expect.objectContaining({ maxFeePerBlobGas: expect.any(String) }),
        },
      },
    ]);
    expect(
      events.map((event) => event.kind === 'l1TxSent' && [event.replaced, 'maxFeePerBlobGasWei' in event]),
    ).toEqual([
      [false, true],
      [true, true],
      [false, false],
    ]);
  });

  test('a send over the fee cap is refused with the nonce, the pending tx and the fees it would need', async () => {
    const { logged, logger } = capture();
    const tracker = new L1TxTracker(logger);
    const atCap = { maxFeePerGas: L1_MAX_FEE_PER_GAS_CAP_WEI, maxPriorityFeePerGas: 1n };
    tracker.recordSent(0, 'plain', atCap, hash(1));
    await expect(tracker.send(operations('plain', 1, async () => hash(2)))).rejects.toThrow(
      /propose not sent: replacing the transaction pending at nonce 0 needs fees above the L1 fee cap/,
    );
    expect(logged).toEqual([
      {
        level: 'warn',
        message: 'propose not sent: replacing the pending transaction would exceed the L1 fee cap',
        fields: {
          nonce: 0,
          pendingTx: hash(1),
          required: expect.any(Object),
          baseFeePerGas: MARKET.baseFeePerGas.toString(),
        },
      },
    ]);
  });

  test('a refused first attempt leaves no floor; what L1 mined is forgotten', async () => {
    const tracker = new L1TxTracker();
    for (const code of ['L1_TX_UNDERPRICED', 'L1_TX_KIND_CONFLICT'] as const) {
      await expect(
        tracker.send(operations('blob', 0, async () => Promise.reject(new L1Error(code, 'refused')))),
      ).rejects.toMatchObject({ code });
    }
    expect(tracker.inFlight()).toEqual([]);
    tracker.recordSent(0, 'blob', firstAttemptFees(MARKET, 'blob'), hash(1));
    tracker.plan({ minedNonce: 1, pendingNonce: 1 }, MARKET, 'blob');
    expect(tracker.inFlight()).toEqual([]);
    expect(new L1Error('L1_UNREACHABLE', 'down').name).toBe('L1Error');
    // A replacement that fails for another reason (L1 unreachable) leaves the record as it was.
    const record = tracker.inFlight();
    tracker.recordSent(1, 'blob', firstAttemptFees(MARKET, 'blob'), hash(2));
    const before = [...tracker.inFlight()];
    await expect(
      tracker.send(operations('blob', 2, async () => Promise.reject(new L1Error('L1_UNREACHABLE', 'down')))),
    ).rejects.toMatchObject({ code: 'L1_UNREACHABLE' });
    expect(tracker.inFlight()).toEqual(before);
    expect(record).toEqual([]);
  });
});

describe('L1 fees, at their edges', () => {
  test('a market with a negative price is refused', () => {
    for (const market of [
      { ...MARKET, baseFeePerGas: -1n },
      { ...MARKET, blobBaseFeePerGas: -1n },
      { ...MARKET, priorityFeePerGas: -1n },
    ]) {
      expect(() => firstAttemptFees(market, 'plain')).toThrow(/no negative price/);
    }
  });

  test('a replacement must reach the bump rounded up', () => {
    const old = { maxFeePerGas: 105n, maxPriorityFeePerGas: 105n };
    expect(minimumReplacementFees(old)).toEqual({ maxFeePerGas: 116n, maxPriorityFeePerGas: 116n });
    expect(satisfiesReplacementRule(old, { maxFeePerGas: 115n, maxPriorityFeePerGas: 116n })).toBe(false);
    expect(minimumReplacementFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 0n })).toEqual({
      maxFeePerGas: 110n,
      maxPriorityFeePerGas: 1n,
    });
  });

  test('fees cover a market whose base fees they reach exactly, and not one a wei above', () => {
    const market = { baseFeePerGas: 100n, blobBaseFeePerGas: 50n };
    expect(coversBaseFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 1n, maxFeePerBlobGas: 50n }, market)).toBe(true);
    expect(coversBaseFees({ maxFeePerGas: 99n, maxPriorityFeePerGas: 1n, maxFeePerBlobGas: 50n }, market)).toBe(false);
    expect(coversBaseFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 1n, maxFeePerBlobGas: 49n }, market)).toBe(false);
    expect(coversBaseFees({ maxFeePerGas: 99n, maxPriorityFeePerGas: 1n }, market)).toBe(false);
    expect(coversBaseFees({ maxFeePerGas: 100n, maxPriorityFeePerGas: 1n }, market)).toBe(true);
  });
});
