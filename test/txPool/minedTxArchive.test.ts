import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { archivedAbove, archiveOps, minedAboveRange } from '../../core/txPool/minedTxArchive.js';
import { makeTx } from './txFixtures.js';

it("property: clearing the archive above a block (a forced rollback's reset) keeps exactly the txs of the blocks at or below it", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 30 }),
      fc.integer({ min: 0, max: 41 }),
      async (blocks, kept) => {
        const storage = createMemoryStorage();
        await storage.open();
        const mined = blocks.map((block, i) => ({ block, tx: makeTx({ hash: i + 1 }) }));
        await storage.batch(mined.flatMap(({ block, tx }) => archiveOps(block, [tx])));
        await storage.clear(minedAboveRange(kept));
        const left = await archivedAbove(storage, 0);
        const expected = mined
          .filter(({ block }) => block <= kept)
          .sort((a, b) => a.block - b.block || a.tx.txHash.localeCompare(b.tx.txHash));
        expect(left.txs.map((tx) => tx.txHash)).toEqual(expected.map(({ tx }) => tx.txHash));
        await storage.close();
      },
    ),
    { seed: 3, numRuns: 60 },
  );
});
