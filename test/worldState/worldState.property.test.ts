/**
 * Property: after any sequence of blocks (some with duplicate nullifiers, which must be refused), unwinds, prunes,
 * reopenings and clears, the engine answers like the naive reference model at every kept block, every witness it
 * gives verifies against its block's root, and blocks outside the kept range are refused with the right code. The
 * indexed trees' keys are in memory, in storage from genesis, or move there mid-run (a block passing the bound, or a
 * reopening with a lower one): the answers do not depend on where they are.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import type { StoragePort } from '../../core/ports.js';
import { PROTOCOL_TREE_HEIGHTS } from '../../core/worldState/worldStateConfig.js';
import { isWorldStateError } from '../../core/worldState/worldStateError.js';
import { WorldState } from '../../core/worldState/worldState.js';
import { engineEffects, expectBlockMatchesModel, hexOf } from './modelCheck.js';
import type { ModelHeights, ModelTxEffects } from './referenceModel.js';
import { DuplicateNullifier, ReferenceWorldState } from './referenceModel.js';

type Command =
  | {
      readonly kind: 'block';
      readonly txs: readonly ModelTxEffects[];
      readonly messages: readonly bigint[];
      readonly ownBatch: boolean;
    }
  | { readonly kind: 'unwind'; readonly back: number }
  | { readonly kind: 'prune'; readonly ahead: number }
  | { readonly kind: 'reopen'; readonly keysToStorage: boolean }
  | { readonly kind: 'clear' };

interface Shape {
  readonly heights: ModelHeights;
  readonly txSubtreeHeight: number;
  readonly txsPerBlockMax: number;
  readonly commandsMax: number;
}

const GENESIS_HASH = 0xc0ffeen;
/** Small keys collide with each other and with the genesis nullifiers: duplicates and public slot updates happen. */
const smallKey = fc.bigInt({ min: 0n, max: 40n });
const wideKey = fc.bigInt({ min: 1n, max: 2n ** 253n });
const keyArbitrary = fc.oneof({ weight: 1, arbitrary: smallKey }, { weight: 4, arbitrary: wideKey });

function commandArbitrary(shape: Shape): fc.Arbitrary<Command> {
  const perTx = 2 ** shape.txSubtreeHeight;
  const tx = fc.record({
    noteHashes: fc.array(fc.oneof(fc.constant(0n), keyArbitrary), { maxLength: perTx }),
    nullifiers: fc.uniqueArray(
      fc.oneof({ weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 200n }) }, { weight: 6, arbitrary: wideKey }),
      { maxLength: perTx },
    ),
    publicDataWrites: fc.array(fc.record({ slot: smallKey, value: fc.bigInt({ min: 0n, max: 1000n }) }), {
      maxLength: perTx,
    }),
  });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('block' as const),
        txs: fc.array(tx, { maxLength: shape.txsPerBlockMax }),
        messages: fc.array(keyArbitrary, { maxLength: 3 }),
        ownBatch: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('unwind' as const), back: fc.integer({ min: 0, max: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('prune' as const), ahead: fc.integer({ min: 0, max: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reopen' as const), keysToStorage: fc.boolean() }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
  );
}

interface Run {
  engine: WorldState;
  readonly model: ReferenceWorldState;
  readonly storage: StoragePort;
  readonly open: (keyIndexMemoryKeysMax?: number) => Promise<WorldState>;
}

async function applyCommand(run: Run, command: Command): Promise<'checkLatest' | 'checkAll'> {
  const { model } = run;
  switch (command.kind) {
    case 'block':
      await applyBlock(run, command);
      return 'checkLatest';
    case 'unwind': {
      const target = Math.max(model.oldest, model.latest - command.back);
      await run.engine.unwindTo(target);
      model.unwindTo(target);
      return 'checkAll';
    }
    case 'prune': {
      const target = Math.min(model.latest, model.oldest + command.ahead);
      await run.engine.pruneHistoryBefore(target);
      model.pruneBefore(target);
      return 'checkAll';
    }
    case 'reopen':
      run.engine = await run.open(command.keysToStorage ? 0 : undefined);
      return 'checkAll';
    case 'clear':
      await run.engine.clear();
      model.unwindTo(0);
      model.oldest = 0;
      return 'checkAll';
  }
}

async function applyBlock(run: Run, command: Extract<Command, { kind: 'block' }>): Promise<void> {
  const { engine, model } = run;
  const blockNumber = model.latest + 1;
  const blockHash = BigInt(blockNumber) * 1_000_003n + 7n;
  let refused = false;
  try {
    model.applyBlock(command.txs, command.messages, blockHash);
  } catch (error) {
    if (!(error instanceof DuplicateNullifier)) throw error;
    refused = true;
  }
  const preparing = engine.prepareBlock(blockNumber, engineEffects(command.txs, command.messages));
  if (refused) {
    await expect(preparing).rejects.toSatisfy((error: unknown) =>
      isWorldStateError(error, 'WORLD_STATE_DUPLICATE_NULLIFIER'),
    );
    return;
  }
  const prepared = (await preparing).finish(hexOf(blockHash));
  if (command.ownBatch) {
    await run.storage.batch([...prepared.ops] as { type: 'put'; key: string; value: string }[]);
    prepared.markCommitted();
  } else {
    await prepared.commit();
  }
}

async function expectKeptRange(engine: WorldState, model: ReferenceWorldState): Promise<void> {
  expect([engine.oldestBlockNumber, engine.latestBlockNumber]).toEqual([model.oldest, model.latest]);
  expect(() => engine.getStateReference(model.latest + 1)).toThrow(
    expect.objectContaining({ code: 'WORLD_STATE_BLOCK_UNKNOWN' }),
  );
  if (model.oldest > 0) {
    await expect(engine.getSiblingPath(1, model.oldest - 1, 0n)).rejects.toMatchObject({
      code: 'WORLD_STATE_BLOCK_PRUNED',
    });
  }
}

function probesOf(commands: readonly Command[]): bigint[] {
  const all = commands.flatMap((c) =>
    c.kind === 'block' ? c.txs.flatMap((tx) => [...tx.nullifiers, ...tx.noteHashes]) : [],
  );
  return [...new Set([0n, 3n, 77n, ...all.slice(0, 4)])];
}

async function runCommands(
  shape: Shape,
  pageHeight: number,
  commands: readonly Command[],
  historicalPageCacheBytesMax?: number,
  keyIndexMemoryKeysMax?: number,
): Promise<void> {
  const storage = createMemoryStorage();
  const options = {
    genesisBlockHash: hexOf(GENESIS_HASH),
    treeHeights: shape.heights,
    txSubtreeHeight: shape.txSubtreeHeight,
    pageHeight,
    pageCachePagesMax: 16,
    historicalPageCacheBytesMax,
  };
  const open = (bound = keyIndexMemoryKeysMax) =>
    WorldState.open(storage, { ...options, keyIndexMemoryKeysMax: bound });
  const run: Run = {
    engine: await open(),
    model: new ReferenceWorldState(shape.heights, 2 ** shape.txSubtreeHeight, GENESIS_HASH),
    storage,
    open,
  };
  const probes = probesOf(commands);
  await expectBlockMatchesModel(run.engine, run.model, 0, probes);
  for (const command of commands) {
    const check = await applyCommand(run, command);
    await expectKeptRange(run.engine, run.model);
    // After a block, the block before it too: its pages come from storage or the cache of past blocks' pages.
    const blocks =
      check === 'checkAll'
        ? run.model.blocks.map((_, b) => b).filter((b) => b >= run.model.oldest)
        : [run.model.latest - 1, run.model.latest].filter((b) => b >= run.model.oldest);
    for (const block of blocks) await expectBlockMatchesModel(run.engine, run.model, block, probes);
  }
  await storage.close();
}

const SMALL: Shape = {
  heights: { nullifier: 9, noteHash: 8, publicData: 7, l1ToL2Message: 6, archive: 6 },
  txSubtreeHeight: 2,
  txsPerBlockMax: 3,
  commandsMax: 10,
};

const REAL: Shape = { heights: PROTOCOL_TREE_HEIGHTS, txSubtreeHeight: 6, txsPerBlockMax: 2, commandsMax: 4 };

describe('world state against the reference model', () => {
  it('small trees: random blocks, unwinds, prunes, reopens and clears, at every page height', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(commandArbitrary(SMALL), { minLength: 1, maxLength: SMALL.commandsMax }),
        // No past pages kept, a few (evicted as reads go), or all of them.
        fc.constantFrom(0, 4_096, undefined),
        // Keys in storage from genesis (9 genesis keys), moving there after a few blocks, or in memory.
        fc.constantFrom(0, 16, undefined),
        (pageHeight, commands, historicalPageCacheBytesMax, keyIndexMemoryKeysMax) =>
          runCommands(SMALL, pageHeight, commands, historicalPageCacheBytesMax, keyIndexMemoryKeysMax),
      ),
      { numRuns: 60 },
    );
  });

  it('the protocol heights: a few runs', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(commandArbitrary(REAL), { minLength: 1, maxLength: REAL.commandsMax }),
        fc.constantFrom(0, undefined),
        (commands, keyIndexMemoryKeysMax) => runCommands(REAL, 3, commands, undefined, keyIndexMemoryKeysMax),
      ),
      { numRuns: 4 },
    );
  });
});
