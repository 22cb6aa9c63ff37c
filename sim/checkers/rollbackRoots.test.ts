/**
 * The refused-rollback rule on a stand-in node (only the fields the checker reads): nothing may change, except that
 * sync may have moved the node forward while the rollback waited for an in-flight step.
 */
import { expect, it } from 'vitest';
import type { RollupNode } from '../../core/node/node.js';
import type { BlockRef, Hex, L2Tips } from '../../spec/chain.js';
import { checkRollbackRefused, expectRollback } from './rollbackRoots.js';

interface StandIn {
  blocks: Map<number, Hex>;
  tips: L2Tips;
  latest: number;
  roots: Map<number, string>;
  pool: Hex[];
}

const hashOf = (n: number, fork = 0): Hex => `0x${(n * 16 + fork).toString(16).padStart(64, '0')}`;
const ref = (state: StandIn, n: number): BlockRef => ({ number: n, hash: state.blocks.get(n)! });

function tipsAt(state: StandIn, proposed: number, checkpointed: number, finalized: number): L2Tips {
  const checkpoint = (n: number) => ({ block: ref(state, n), checkpoint: { number: n, hash: hashOf(n, 9) } });
  return {
    proposed: ref(state, proposed),
    checkpointed: checkpoint(checkpointed),
    proven: checkpoint(finalized),
    finalized: checkpoint(finalized),
  };
}

function standIn(blocks: number): StandIn {
  const state: StandIn = {
    blocks: new Map(),
    tips: undefined as never,
    latest: blocks,
    roots: new Map(),
    pool: ['0xaa'],
  };
  for (let n = 0; n <= 20; n++) {
    state.blocks.set(n, hashOf(n));
    state.roots.set(n, `roots ${n}`);
  }
  state.tips = tipsAt(state, blocks, blocks, 2);
  return state;
}

function nodeOf(state: StandIn): RollupNode {
  const worldState = {
    get latestBlockNumber() {
      return state.latest;
    },
    oldestBlockNumber: 0,
    getStateReference: (n: number) => state.roots.get(n),
    getTreeSnapshot: (_tree: number, n: number) => `archive ${n}`,
  };
  return {
    chain: {
      get tips() {
        return state.tips;
      },
      store: {
        getBlock: async (n: number) =>
          state.blocks.has(n) && n <= state.tips.proposed.number ? { hash: state.blocks.get(n) } : undefined,
      },
      worldState,
    },
    txPool: {
      current: {
        get count() {
          return state.pool.length;
        },
        ordered: () => state.pool.map((txHash) => ({ txHash })),
      },
    },
  } as unknown as RollupNode;
}

async function refusedAfter(change: (state: StandIn) => void) {
  const state = standIn(6);
  const node = nodeOf(state);
  const expected = await expectRollback('follower-1', node, 6);
  change(state);
  return checkRollbackRefused(node, expected, 'refused OPERATION_REFUSED');
}

it('passes a refusal that changed nothing', async () => {
  expect(await refusedAfter(() => {})).toEqual([]);
});

it('passes a refusal while sync moved the node forward on the same blocks', async () => {
  const failures = await refusedAfter((state) => {
    state.tips = tipsAt(state, 12, 12, 9);
    state.latest = 12;
    state.pool = [];
  });
  expect(failures).toEqual([]);
});

it('fails a refusal after which a tip is behind where it was', async () => {
  const [failure] = await refusedAfter((state) => {
    state.tips = tipsAt(state, 4, 4, 2);
    state.latest = 4;
  });
  expect(failure?.kind).toBe('rollbackRootsChanged');
  expect(failure?.detail).toMatch(/the proposed tip went back from block 6 to 4/);
});

it('fails a refusal after which the block a tip pointed at was replaced', async () => {
  const [failure] = await refusedAfter((state) => {
    state.blocks.set(6, hashOf(6, 1));
    state.tips = tipsAt(state, 8, 8, 2);
    state.latest = 8;
  });
  expect(failure?.detail).toMatch(/block 6, the proposed tip before, was replaced/);
});

it('fails a refusal after which the state roots of the old latest block differ', async () => {
  const [failure] = await refusedAfter((state) => {
    state.roots.set(6, 'other roots');
  });
  expect(failure?.detail).toMatch(/the state roots of block 6 changed/);
});

it('fails a refusal that changed only the pool', async () => {
  const [failure] = await refusedAfter((state) => {
    state.pool = [];
  });
  expect(failure?.detail).toMatch(/changed the node's pool \(pool 1 txs -> 0 txs\)/);
});
