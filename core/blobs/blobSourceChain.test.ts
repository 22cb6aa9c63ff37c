import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  BlobCheckerPort,
  BlobRequest,
  BlobSourceKind,
  BlobSourcePort,
  BlobUploadPort,
  ClockPort,
  VerifiedBlob,
} from '../ports.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { capturingLogger, silentLogger, type LogLine } from '../../test/helpers/testLogger.js';
import {
  BLOB_NEAR_TIP_L1_BLOCKS,
  BLOB_SOURCE_FAILURE_COOLDOWN_MS,
  BLOB_RETRY_DELAYS_HISTORICAL_MS,
  BLOB_RETRY_DELAYS_NEAR_TIP_MS,
  blobUrgency,
  createBlobSourceChain,
  type BlobUrgency,
} from './blobSourceChain.js';

/** A clock whose timers fire at once, after moving time forward by their delay. */
class InstantClock implements ClockPort {
  current = 0;
  now(): number {
    return this.current;
  }
  setTimeout(callback: () => void, delayMs: number): number {
    this.current += delayMs;
    queueMicrotask(callback);
    return 0;
  }
  clearTimeout(): void {}
}

/** The test's stand-in binding: a blob's "versioned hash" is its bytes in hex (a changed byte changes it). */
const checker: BlobCheckerPort = {
  versionedHashOf: async ({ blob }) => (blob.length === 4 ? bytesToHex(blob) : undefined),
};

const blobOf = (i: number) => new Uint8Array([0x01, i, i, i]);
const hashOf = (i: number): Hex => bytesToHex(blobOf(i));
const corrupted = (blob: Uint8Array) => new Uint8Array([blob[0]!, blob[1]!, blob[2]!, blob[3]! ^ 0xff]);

function requestFor(count: number): BlobRequest {
  return {
    versionedHashes: Array.from({ length: count }, (_, i) => hashOf(i)),
    l1: { blockNumber: 100n, blockHash: `0x${'ab'.repeat(32)}`, timestamp: 1_200n, txHash: `0x${'cd'.repeat(32)}` },
  };
}

/** How a source answers for one blob: it holds it, lacks it, serves a wrong one, or holds it from a time on. */
type BlobHolding = 'hold' | 'miss' | 'corrupt' | { readonly afterMs: number };

interface SourceModel {
  readonly kind: BlobSourceKind;
  readonly fails: boolean;
  readonly holdings: readonly BlobHolding[];
}

function sourceFrom(model: SourceModel, index: number, clock: ClockPort, calls: string[]): BlobSourcePort {
  const name = `${model.kind}-${index}`;
  return {
    kind: model.kind,
    name,
    async getBlobs(request) {
      calls.push(name);
      if (model.fails) throw new Error(`${name} is down`);
      return request.versionedHashes.flatMap((hash) => {
        const i = Number.parseInt(hash.slice(4, 6), 16);
        const holding = model.holdings[i] ?? 'miss';
        if (holding === 'miss') return [];
        if (holding === 'corrupt') return [{ blob: corrupted(blobOf(i)) }];
        if (holding !== 'hold' && clock.now() < holding.afterMs) return [];
        return [{ blob: blobOf(i) }];
      });
    },
    check: async () => {
      if (model.fails) throw new Error(`${name} is down`);
    },
  };
}

function setup(
  models: readonly SourceModel[],
  options: { upload?: BlobUploadPort; onLine?: (l: LogLine) => void } = {},
) {
  const clock = new InstantClock();
  const calls: string[] = [];
  const sources = models.map((model, i) => sourceFrom(model, i, clock, calls));
  const chain = createBlobSourceChain({
    blobs: { sources, checker, ...(options.upload ? { upload: options.upload } : {}) },
    clock,
    logger: options.onLine ? capturingLogger(options.onLine) : silentLogger,
  });
  return { chain, clock, calls };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const delaysOf = (urgency: BlobUrgency) =>
  urgency === 'nearTip' ? BLOB_RETRY_DELAYS_NEAR_TIP_MS : BLOB_RETRY_DELAYS_HISTORICAL_MS;

const holdingArb: fc.Arbitrary<BlobHolding> = fc.oneof(
  fc.constantFrom<BlobHolding>('hold', 'miss', 'corrupt'),
  fc.record({ afterMs: fc.integer({ min: 1, max: 10_000 }) }),
);
const sourceArb = (blobCount: number): fc.Arbitrary<SourceModel> =>
  fc.record({
    kind: fc.constantFrom<BlobSourceKind>('consensus', 'fileStore', 'archive'),
    fails: fc.boolean(),
    holdings: fc.array(holdingArb, { minLength: blobCount, maxLength: blobCount }),
  });

describe('blob source chain', () => {
  it('property: a blob is returned exactly when some source holds the right one while it is asked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc
          .integer({ min: 1, max: 3 })
          .chain((count) =>
            fc.tuple(
              fc.constant(count),
              fc.array(sourceArb(count), { maxLength: 5 }),
              fc.constantFrom<BlobUrgency>('nearTip', 'historical'),
            ),
          ),
        async ([count, models, urgency]) => {
          const { chain } = setup(models);
          // Every source is asked last at the end of the final wait (the archive after it; at once without rounds).
          const lastAskMs = models.some((m) => m.kind !== 'archive') ? sum(delaysOf(urgency)) : 0;
          const findable = (i: number) =>
            models.some((m) => {
              const holding = m.holdings[i]!;
              return !m.fails && (holding === 'hold' || (typeof holding === 'object' && holding.afterMs <= lastAskMs));
            });
          const everyBlobFindable = Array.from({ length: count }, (_, i) => findable(i)).every(Boolean);
          const answer = chain.getBlobs(requestFor(count), urgency);
          if (everyBlobFindable) {
            const blobs = await answer;
            expect(blobs.map((b) => bytesToHex(b))).toEqual(requestFor(count).versionedHashes);
          } else {
            await expect(answer).rejects.toMatchObject({ code: 'L1_BLOBS_UNAVAILABLE' });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('asks consensus clients, then file stores, then the archive, whatever the configured order', async () => {
    const { chain, calls } = setup([
      { kind: 'archive', fails: false, holdings: ['hold'] },
      { kind: 'fileStore', fails: false, holdings: ['miss'] },
      { kind: 'consensus', fails: false, holdings: ['miss'] },
    ]);
    await chain.getBlobs(requestFor(1), 'nearTip');
    const rounds = BLOB_RETRY_DELAYS_NEAR_TIP_MS.length + 1;
    expect(calls).toEqual([
      ...Array.from({ length: rounds }, () => ['consensus-2', 'fileStore-1']).flat(),
      'archive-0',
    ]);
  });

  it('in historical sync asks the archive right after the first round, before any wait', async () => {
    const { chain, calls, clock } = setup([
      { kind: 'consensus', fails: false, holdings: ['miss'] },
      { kind: 'archive', fails: false, holdings: ['hold'] },
    ]);
    await chain.getBlobs(requestFor(1), 'historical');
    expect(calls).toEqual(['consensus-0', 'archive-1']);
    expect(clock.now()).toBe(0);
  });

  it('retries longer near the L1 tip than in historical sync', async () => {
    for (const urgency of ['nearTip', 'historical'] as const) {
      const { chain, calls, clock } = setup([{ kind: 'consensus', fails: false, holdings: ['miss'] }]);
      await expect(chain.getBlobs(requestFor(1), urgency)).rejects.toMatchObject({ code: 'L1_BLOBS_UNAVAILABLE' });
      expect(calls).toHaveLength(delaysOf(urgency).length + 1);
      expect(clock.now()).toBe(sum(delaysOf(urgency)));
    }
    expect(sum(BLOB_RETRY_DELAYS_NEAR_TIP_MS)).toBeGreaterThan(sum(BLOB_RETRY_DELAYS_HISTORICAL_MS));
  });

  it('skips a source that failed in the rounds before the last for a while, so a hanging one costs little', async () => {
    const { chain, calls, clock } = setup([
      { kind: 'consensus', fails: true, holdings: ['hold'] },
      { kind: 'fileStore', fails: false, holdings: [{ afterMs: 1_500 }] },
    ]);
    await chain.getBlobs(requestFor(1), 'nearTip');
    // Round 0 at 0 ms asks both; rounds at 1 s and 2 s skip the failed client; the store has it at 2 s.
    expect(calls).toEqual(['consensus-0', 'fileStore-1', 'fileStore-1', 'fileStore-1']);
    calls.length = 0;
    clock.current += BLOB_SOURCE_FAILURE_COOLDOWN_MS - 2_000 - 1;
    await chain.getBlobs(requestFor(1), 'nearTip');
    expect(calls).toEqual(['fileStore-1']);
    clock.current += 1;
    calls.length = 0;
    await chain.getBlobs(requestFor(1), 'nearTip');
    expect(calls).toEqual(['consensus-0', 'fileStore-1']);
  });

  it('asks a failed source again in the last round', async () => {
    const { chain, calls } = setup([{ kind: 'consensus', fails: true, holdings: ['hold'] }]);
    await expect(chain.getBlobs(requestFor(1), 'historical')).rejects.toMatchObject({ code: 'L1_BLOBS_UNAVAILABLE' });
    expect(calls).toEqual(['consensus-0', 'consensus-0']);
  });

  it('near the tip means at most BLOB_NEAR_TIP_L1_BLOCKS below the L1 head', () => {
    expect(blobUrgency(100n, 100n + BLOB_NEAR_TIP_L1_BLOCKS)).toBe('nearTip');
    expect(blobUrgency(100n, 101n + BLOB_NEAR_TIP_L1_BLOCKS)).toBe('historical');
  });

  it('stops asking once every blob is found, and asks later sources only for the blobs still missing', async () => {
    const asked: Hex[][] = [];
    const clock = new InstantClock();
    const first = sourceFrom({ kind: 'consensus', fails: false, holdings: ['hold', 'miss'] }, 0, clock, []);
    const second = sourceFrom({ kind: 'fileStore', fails: false, holdings: ['hold', 'hold'] }, 1, clock, []);
    const recording: BlobSourcePort = {
      ...second,
      getBlobs: (request) => {
        asked.push([...request.versionedHashes]);
        return second.getBlobs(request);
      },
    };
    const chain = createBlobSourceChain({
      blobs: { sources: [first, recording], checker },
      clock,
      logger: silentLogger,
    });
    await chain.getBlobs(requestFor(2), 'nearTip');
    expect(asked).toEqual([[hashOf(1)]]);
    expect(clock.now()).toBe(0);
  });

  it('skips and logs a source that serves a wrong blob, and counts served, missed and failed per source', async () => {
    const lines: LogLine[] = [];
    const { chain } = setup(
      [
        { kind: 'consensus', fails: true, holdings: ['hold', 'hold'] },
        { kind: 'fileStore', fails: false, holdings: ['corrupt', 'miss'] },
        { kind: 'archive', fails: false, holdings: ['hold', 'hold'] },
      ],
      { onLine: (line) => lines.push(line) },
    );
    const blobs = await chain.getBlobs(requestFor(2), 'historical');
    expect(blobs.map((b) => bytesToHex(b))).toEqual([hashOf(0), hashOf(1)]);
    // The archive has them after the first round: one round, no wait.
    expect(chain.stats()).toEqual([
      { kind: 'consensus', name: 'consensus-0', served: 0, missed: 0, failed: 2 },
      { kind: 'fileStore', name: 'fileStore-1', served: 0, missed: 1, failed: 1 },
      { kind: 'archive', name: 'archive-2', served: 2, missed: 0, failed: 0 },
    ]);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.fields?.source)).toContain('fileStore-1');
  });

  it('says which sources answered what when no source has a blob', async () => {
    const { chain } = setup([
      { kind: 'consensus', fails: true, holdings: ['hold'] },
      { kind: 'fileStore', fails: false, holdings: ['miss'] },
    ]);
    await expect(chain.getBlobs(requestFor(1), 'historical')).rejects.toThrow(
      /no blob source has blob\(s\) 0x01000000 .*consensus consensus-0: failed: consensus-0 is down; fileStore fileStore-1: served 0 of 1/,
    );
    const none = setup([]).chain;
    await expect(none.getBlobs(requestFor(1), 'nearTip')).rejects.toThrow(/no blob source is configured/);
  });

  it('copies fetched and published blobs to the upload store, except those read from it', async () => {
    const uploaded: VerifiedBlob[][] = [];
    const upload: BlobUploadPort = {
      name: 'fileStore-1',
      putBlobs: async (blobs) => {
        uploaded.push([...blobs]);
      },
      check: async () => undefined,
    };
    const { chain } = setup(
      [
        { kind: 'consensus', fails: false, holdings: ['hold', 'miss'] },
        { kind: 'fileStore', fails: false, holdings: ['hold', 'hold'] },
      ],
      { upload },
    );
    await chain.getBlobs(requestFor(2), 'nearTip');
    chain.keepPublished([{ versionedHash: hashOf(7), blob: blobOf(7) }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(uploaded.map((batch) => batch.map((b) => b.versionedHash))).toEqual([[hashOf(0)], [hashOf(7)]]);
  });

  it('logs, and does not fail the fetch, when the upload store fails', async () => {
    const lines: LogLine[] = [];
    const upload: BlobUploadPort = {
      name: 'broken',
      putBlobs: async () => {
        throw new Error('disk full');
      },
      check: async () => undefined,
    };
    const { chain } = setup([{ kind: 'consensus', fails: false, holdings: ['hold'] }], {
      upload,
      onLine: (line) => lines.push(line),
    });
    expect(await chain.getBlobs(requestFor(1), 'nearTip')).toHaveLength(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', fields: { store: 'broken', error: 'disk full' } }),
    );
  });

  it('checks every source and the upload store, saying why one does not answer', async () => {
    const upload: BlobUploadPort = {
      name: 'store',
      putBlobs: async () => undefined,
      check: async () => {
        throw new Error('access denied');
      },
    };
    const { chain } = setup(
      [
        { kind: 'consensus', fails: true, holdings: [] },
        { kind: 'archive', fails: false, holdings: [] },
      ],
      { upload },
    );
    expect(await chain.checkSources()).toEqual([
      { kind: 'consensus', name: 'consensus-0', ok: false, reason: 'consensus-0 is down' },
      { kind: 'archive', name: 'archive-1', ok: true },
      { kind: 'upload', name: 'store', ok: false, reason: 'access denied' },
    ]);
  });
});
