/**
 * Pure helpers of the read-load benchmark: percentiles, the slope of a series, a seeded generator and the mixed read
 * requests it draws (methods, blocks, hashes and keys the synthetic chain of bench/snapshot/chainMaker.ts holds).
 */
import type { Hex } from '../../spec/chain.js';
import {
  publicLogTag,
  syntheticContractAddress,
  syntheticNullifier,
  syntheticPublicDataSlot,
  syntheticTxHash,
  type ChainShape,
} from '../snapshot/chainMaker.js';

/** The methods of the mixed load, each drawn with the same probability. */
export const READ_METHODS = [
  'svc_getBlock',
  'svc_getTxReceipt',
  'svc_getNullifierMembershipWitness',
  'svc_getPublicDataWitness',
  'svc_getPublicLogsByTags',
] as const;
export type ReadMethod = (typeof READ_METHODS)[number];

/** Recent reads pick one of the newest RECENT_BLOCKS blocks; historical ones a block below those. */
export const RECENT_BLOCKS = 16;
/** Tags per svc_getPublicLogsByTags query. */
export const TAGS_PER_QUERY = 4;

/** The `p`th percentile (nearest rank) of ascending `sorted`; NaN when empty. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

/** The least-squares slope of `points` (y per unit of x); 0 with fewer than two distinct x. */
export function slope(points: readonly { readonly x: number; readonly y: number }[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / n;
  const meanY = points.reduce((sum, p) => sum + p.y, 0) / n;
  let covariance = 0;
  let variance = 0;
  for (const p of points) {
    covariance += (p.x - meanX) * (p.y - meanY);
    variance += (p.x - meanX) ** 2;
  }
  return variance === 0 ? 0 : covariance / variance;
}

/** mulberry32: a small seeded generator of floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = (random: () => number, count: number): number => Math.floor(random() * count);

/**
 * A block at most `tip`: half the draws among the RECENT_BLOCKS newest, half among the `historyDepthMax` below them
 * (never below block 1).
 */
export function drawBlock(random: () => number, tip: number, historyDepthMax: number): number {
  const recent = random() < 0.5;
  const depth = recent ? pick(random, RECENT_BLOCKS) : RECENT_BLOCKS + pick(random, historyDepthMax);
  return Math.max(1, tip - depth);
}

export interface ReadRequest {
  readonly method: ReadMethod;
  readonly params: unknown[];
}

/** One request of the mixed load against a chain whose newest block is `tip` (at least 1). */
export function drawReadRequest(
  random: () => number,
  tip: number,
  shape: ChainShape,
  historyDepthMax: number,
): ReadRequest {
  const method = READ_METHODS[pick(random, READ_METHODS.length)]!;
  const block = drawBlock(random, tip, historyDepthMax);
  const index = pick(random, shape.txsPerBlock);
  switch (method) {
    case 'svc_getBlock':
      return { method, params: [block, { includeTransactions: true }] };
    case 'svc_getTxReceipt':
      return { method, params: [syntheticTxHash(block, index)] };
    case 'svc_getNullifierMembershipWitness': {
      // A nullifier of a block at or below the reference block: a member there.
      const inserted = 1 + pick(random, block);
      return { method, params: [block, syntheticNullifier(inserted, pick(random, shape.txsPerBlock), 0)] };
    }
    case 'svc_getPublicDataWitness':
      return { method, params: [block, syntheticPublicDataSlot(pick(random, shape.publicDataSlots))] };
    case 'svc_getPublicLogsByTags': {
      const unique = shape.uniquePublicLogTags === true;
      const tags: Hex[] = Array.from({ length: TAGS_PER_QUERY }, () =>
        publicLogTag(drawBlock(random, tip, historyDepthMax), pick(random, shape.txsPerBlock), unique),
      );
      return { method, params: [{ contractAddress: syntheticContractAddress(), tags }] };
    }
  }
}
