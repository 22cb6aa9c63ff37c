/**
 * An L1 reorg on the simulated chain: the top blocks go, their transactions with them (not back to the mempool), and
 * the rollup contract is as it stood after the new head. Mining goes on from the new head at the usual cadence.
 */
import { assert } from '../../core/assert.js';
import type { Trace } from '../trace.js';
import type { L1Chain } from './chain.js';
import type { SimRollupContract } from './contract.js';
import type { L1Mempool } from './mempool.js';

/** The parts of the simulated L1 a reorg changes. */
export interface ReorgTarget {
  readonly chain: L1Chain;
  readonly mempool: L1Mempool;
  readonly contract: SimRollupContract;
  /** The rollup contract's deployment block, which no reorg may remove. */
  readonly l1StartBlock: bigint;
  readonly trace: Trace | undefined;
}

/** Drops the last `depth` blocks of the chain; see SimL1.reorg. */
export function reorg(target: ReorgTarget, depth: number): void {
  const { chain, mempool, contract, trace } = target;
  assert(Number.isSafeInteger(depth) && depth >= 1, `reorg depth ${depth} must be a positive integer`);
  const newHeadIndex = chain.length - 1 - depth;
  assert(
    newHeadIndex >= Number(target.l1StartBlock),
    `a reorg of ${depth} would remove the rollup contract's deployment`,
  );
  for (const dropped of chain.dropAbove(newHeadIndex)) mempool.reorgedOut(dropped.txHashes);
  contract.state = chain.block(BigInt(newHeadIndex))!.contract!;
  trace?.record('l1.reorg', { depth, head: chain.head().number, headHash: chain.head().hash });
}
