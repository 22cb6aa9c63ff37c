/**
 * Property: over random chains (blocks with random class registrations, instance publications and class updates,
 * random prunes and rebuilds), every lookup at every kept block equals a naive model that replays the kept blocks
 * from genesis under the publication rules (core/l2Contracts/contractIndexer.ts).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { canonicalField } from '../../core/l2Contracts/contractKeys.js';
import { contractReaderAt, findContractClass, findContractInstance } from '../../core/l2Contracts/contractStore.js';
import type { ContractClassPublication, ContractInstancePublication, Hex } from '../../spec/chain.js';
import { classOf, field, instanceOf, openTestChain, type TxPublications } from './contractStoreFixtures.js';

const CLASS_IDS = [field(0xc1), field(0xc2), field(0xc3)];
const ADDRESSES = [field(0xa1), field(0xa2), field(0xa3)];

/** Upper-cases the hex digits now and then: the index compares canonical forms. */
const anyCase = (hex: Hex, upper: boolean): Hex => (upper ? (`0x${hex.slice(2).toUpperCase()}` as Hex) : hex);

const classArbitrary = fc
  .record({
    id: fc.constantFrom(...CLASS_IDS),
    bytecode: fc.uint8Array({ minLength: 1, maxLength: 4 }),
    upper: fc.boolean(),
  })
  .map(({ id, bytecode, upper }) => classOf(anyCase(id, upper), `0x${Buffer.from(bytecode).toString('hex')}`));

const instanceArbitrary = fc
  .record({
    address: fc.constantFrom(...ADDRESSES),
    original: fc.constantFrom(...CLASS_IDS),
    current: fc.constantFrom(...CLASS_IDS),
    salt: fc.nat(3),
    upper: fc.boolean(),
  })
  .map(({ address, original, current, salt, upper }) =>
    instanceOf(anyCase(address, upper), original, anyCase(current, upper), field(salt)),
  );

const txArbitrary: fc.Arbitrary<TxPublications> = fc.record({
  classes: fc.array(classArbitrary, { maxLength: 1 }),
  instances: fc.array(instanceArbitrary, { maxLength: 3 }),
});

type Operation =
  | { readonly kind: 'add'; readonly txs: readonly TxPublications[] }
  | { readonly kind: 'prune'; readonly depth: number };

const operationArbitrary: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: fc.array(txArbitrary, { maxLength: 3 }).map((txs) => ({ kind: 'add' as const, txs })) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 4 }).map((depth) => ({ kind: 'prune' as const, depth })) },
);

const canonical = (hex: Hex): Hex => canonicalField(hex)!;
const lowered = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).map(([key, v]) => [key, typeof v === 'string' ? v.toLowerCase() : v])) as T;

/** The kept blocks' publications, block 0 (genesis) first; replayed in order to answer a lookup. */
class Model {
  readonly blocks: (readonly TxPublications[])[] = [[]];

  classAt(id: Hex, blockNumber: number): ContractClassPublication | undefined {
    for (const tx of this.blocks.slice(0, blockNumber + 1).flat()) {
      const found = tx.classes?.find((publication) => canonical(publication.id) === id);
      if (found) return lowered(found);
    }
    return undefined;
  }

  instanceAt(address: Hex, blockNumber: number): ContractInstancePublication | undefined {
    let first: ContractInstancePublication | undefined;
    let current: Hex | undefined;
    for (const publication of this.blocks
      .slice(0, blockNumber + 1)
      .flatMap((txs) => txs.flatMap((tx) => tx.instances ?? []))) {
      if (canonical(publication.address) !== address) continue;
      first ??= lowered(publication);
      if (canonical(publication.originalContractClassId) === first.originalContractClassId)
        current = canonical(publication.currentContractClassId);
    }
    return first && { ...first, currentContractClassId: current! };
  }
}

test('lookups at every kept block equal a replay of the kept blocks', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operationArbitrary, { minLength: 1, maxLength: 14 }), async (operations) => {
      const chain = await openTestChain({ registerIndexer: true });
      const model = new Model();
      try {
        for (const operation of operations) {
          if (operation.kind === 'add') {
            await chain.add(operation.txs);
            model.blocks.push(operation.txs);
          } else {
            const target = Math.max(0, chain.tip - operation.depth);
            await chain.pruneTo(target);
            model.blocks.splice(target + 1);
          }
          expect(chain.tip).toBe(model.blocks.length - 1);
          await checkEveryBlock(chain.store, model, chain.tip);
        }
      } finally {
        await chain.close();
      }
    }),
    { numRuns: 60 },
  );
});

async function checkEveryBlock(
  store: Parameters<typeof findContractClass>[0],
  model: Model,
  tip: number,
): Promise<void> {
  for (let blockNumber = 0; blockNumber <= tip; blockNumber++) {
    const reader = contractReaderAt({ store }, blockNumber);
    for (const address of ADDRESSES) {
      const expected = model.instanceAt(address, blockNumber);
      expect(await findContractInstance(store, address, blockNumber)).toEqual(expected);
      expect(await reader.contractClassId(address)).toBe(expected?.currentContractClassId);
    }
    for (const id of CLASS_IDS) {
      const expected = model.classAt(id, blockNumber);
      expect(await findContractClass(store, id, blockNumber)).toEqual(expected);
      const bytecode = await reader.contractClassBytecode(id);
      expect(bytecode === undefined ? undefined : `0x${Buffer.from(bytecode).toString('hex')}`).toBe(
        expected?.packedBytecode,
      );
    }
  }
  for (const id of CLASS_IDS) expect(await findContractClass(store, id)).toEqual(model.classAt(id, tip));
}
