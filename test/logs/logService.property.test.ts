/**
 * Property: after any sequence of blocks with random logs added and pruned, a log query answers exactly what a
 * naive filter over the blocks still on the chain gives: one list per tag in the tags' order, each in chain order,
 * effects attached when asked for, and LIMIT_EXCEEDED naming the first tag with more logs than the bound.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { LogResult } from '../../core/logs/logService.js';
import type { Block, Hex } from '../../spec/chain.js';
import { blockWithTxs, hex32, openLogStore, type TxSketch } from './logFixtures.js';

/** Tags 0..3 appear in blocks; tag 4 never does. Two contracts emit public logs. */
const TAG_COUNT = 4;
const tagOf = (index: number): Hex => hex32(0x7a90 + index);
const contractOf = (index: number): Hex => hex32(0xc0de0 + index);

/** How a query writes a tag or address: canonical, uppercase digits, or without its leading zeros. */
type Form = 'canonical' | 'upper' | 'short';
const written = (value: Hex, form: Form): Hex => {
  if (form === 'upper') return `0x${value.slice(2).toUpperCase()}`;
  if (form === 'short') return `0x${value.slice(2).replace(/^0+/, '')}`;
  return value;
};

const fieldsArb = fc.array(fc.integer({ min: 0, max: 255 }).map(hex32), { maxLength: 2 });
const privateLogArb = fc.record({ tag: fc.integer({ min: 0, max: TAG_COUNT - 1 }).map(tagOf), fields: fieldsArb });
const publicLogArb = fc.record({
  contractAddress: fc.integer({ min: 0, max: 1 }).map(contractOf),
  tag: fc.integer({ min: 0, max: TAG_COUNT - 1 }).map(tagOf),
  fields: fieldsArb,
});
const txArb = fc.record({
  privateLogs: fc.array(privateLogArb, { maxLength: 3 }),
  publicLogs: fc.array(publicLogArb, { maxLength: 3 }),
  noteHashes: fc.array(
    fc.integer({ min: 0, max: 255 }).map((n) => hex32(0x1000 + n)),
    { maxLength: 2 },
  ),
});
const formArb = fc.constantFrom<Form>('canonical', 'upper', 'short');
const queryArb = fc.record({
  tags: fc.array(fc.record({ index: fc.integer({ min: 0, max: TAG_COUNT }), form: formArb }), { maxLength: 5 }),
  contract: fc.record({ index: fc.integer({ min: 0, max: 2 }), form: formArb }),
  includeEffects: fc.boolean(),
  logsPerTagMax: fc.integer({ min: 0, max: 6 }),
});
const stepArb = fc.record({
  change: fc.oneof(
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('add' as const), txs: fc.array(txArb, { maxLength: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('prune' as const), depth: fc.integer({ min: 0, max: 3 }) }) },
  ),
  query: queryArb,
});

type Expected = { readonly logs: LogResult[][] } | { readonly refused: { readonly tag: Hex; readonly max: number } };

/** The naive answer: every log of the kept blocks, filtered per tag (and contract for public logs). */
function naiveAnswer(
  blocks: readonly Block[],
  kind: 'private' | 'public',
  contract: Hex,
  tags: readonly Hex[],
  includeEffects: boolean,
  max: number,
): Expected {
  const lists: LogResult[][] = [];
  for (const tag of tags) {
    const found: LogResult[] = [];
    for (const block of blocks) {
      block.body.txEffects.forEach((effect, txIndexInBlock) => {
        const logs: readonly { readonly tag: Hex; readonly fields: readonly Hex[]; readonly contractAddress?: Hex }[] =
          kind === 'private' ? effect.privateLogs : effect.publicLogs;
        logs.forEach((log, logIndexInTx) => {
          if (log.tag !== tag || (kind === 'public' && log.contractAddress !== contract)) return;
          const place = {
            txHash: effect.txHash,
            l2BlockNumber: block.header.globalVariables.blockNumber,
            l2BlockHash: block.hash,
            txIndexInBlock,
            logIndexInTx,
            fields: [...log.fields],
          };
          found.push(
            includeEffects
              ? { ...place, noteHashes: [...effect.noteHashes], nullifiers: [...effect.nullifiers] }
              : place,
          );
        });
      });
    }
    if (found.length > max) return { refused: { tag, max } };
    lists.push(found);
  }
  return { logs: lists };
}

/** What the runs covered, so that a generator change cannot quietly stop exercising a case. */
const seen = { refused: 0, matched: 0, pruned: 0 };

async function expectAnswer(actual: Promise<LogResult[][]>, expected: Expected): Promise<void> {
  if ('logs' in expected) {
    if (expected.logs.some((list) => list.length > 0)) seen.matched++;
    expect(await actual).toEqual(expected.logs);
    return;
  }
  seen.refused++;
  const { tag, max } = expected.refused;
  await expect(actual).rejects.toMatchObject({
    code: 'LIMIT_EXCEEDED',
    shortMessage: expect.stringContaining(tag),
    details: { limit: 'logsPerTagMax', value: max, requested: max + 1 },
  });
}

it('answers every query as a naive filter over the blocks kept, through adds and prunes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 14 }), async (steps) => {
      const fixture = await openLogStore();
      for (const [stepIndex, { change, query }] of steps.entries()) {
        if (change.kind === 'add') {
          const txs: TxSketch[] = change.txs.map((tx, i) => ({ ...tx, id: stepIndex * 100 + i }));
          await fixture.add(blockWithTxs(fixture.kept.length + 1, txs, stepIndex));
        } else {
          if (change.depth > 0 && fixture.kept.length > 0) seen.pruned++;
          await fixture.pruneTo(Math.max(0, fixture.kept.length - change.depth));
        }
        const tags = query.tags.map(({ index }) => tagOf(index));
        const writtenTags = query.tags.map(({ index, form }) => written(tagOf(index), form));
        const contract = contractOf(query.contract.index);
        const { includeEffects, logsPerTagMax: max } = query;
        await expectAnswer(
          fixture.logs.getPrivateLogsByTags(writtenTags, includeEffects, max),
          naiveAnswer(fixture.kept, 'private', contract, tags, includeEffects, max),
        );
        await expectAnswer(
          fixture.logs.getPublicLogsByTags(written(contract, query.contract.form), writtenTags, includeEffects, max),
          naiveAnswer(fixture.kept, 'public', contract, tags, includeEffects, max),
        );
      }
    }),
    { numRuns: 150 },
  );
  expect(
    Object.values(seen).every((count) => count > 0),
    JSON.stringify(seen),
  ).toBe(true);
});
