import { expect, expectTypeOf, test } from 'vitest';
import type { BlockQuery, CheckpointQuery } from '../../core/nodeService.js';
import { rpcMethods } from '../../spec/rpc/methods.js';
import type { BlockQueryValue } from '../../spec/wire/blockParameter.js';
import type { CheckpointQueryValue } from '../../spec/wire/checkpoint.js';
import { NodeError } from '../../core/errors.js';
import { RPC_LIST_LIMITS_DEFAULT } from '../../spec/rpc/limits.js';
import { rpcHandlers } from './handlers.js';
import { assertWithinLimit } from './methodHandler.js';

test('every method in the table has a handler, and every handler is in the table', () => {
  const tableNames = Object.keys(rpcMethods).sort();
  const handlerNames = Object.keys(rpcHandlers).sort();
  expect(handlerNames.filter((name) => !tableNames.includes(name))).toEqual([]);
  expect(tableNames.filter((name) => !handlerNames.includes(name))).toEqual([]);
  for (const name of handlerNames) expect(typeof rpcHandlers[name as keyof typeof rpcHandlers]).toBe('function');
});

test('each handler lives in methods/<wire method name>.ts and is exported under that name', async () => {
  for (const name of Object.keys(rpcMethods)) {
    const module = (await import(`./methods/${name}.ts`)) as Record<string, unknown>;
    expect(module[name]).toBe(rpcHandlers[name as keyof typeof rpcHandlers]);
  }
});

test("the decoded block parameter is the core's BlockQuery, both ways", () => {
  expectTypeOf<BlockQueryValue>().toExtend<BlockQuery>();
  expectTypeOf<BlockQuery>().toExtend<BlockQueryValue>();
});

test("the decoded checkpoint parameter is the core's CheckpointQuery, both ways", () => {
  expectTypeOf<CheckpointQueryValue>().toExtend<CheckpointQuery>();
  expectTypeOf<CheckpointQuery>().toExtend<CheckpointQueryValue>();
});

test('assertWithinLimit passes at the bound and refuses above it with the LIMIT_EXCEEDED payload', () => {
  const limits = RPC_LIST_LIMITS_DEFAULT;
  expect(() => assertWithinLimit(limits, 'logsPerTagMax', 20)).not.toThrow();
  expect(() => assertWithinLimit(limits, 'logsPerTagMax', 0)).not.toThrow();
  let thrown: unknown;
  try {
    assertWithinLimit(limits, 'logsPerTagMax', 21);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(NodeError);
  expect(thrown).toMatchObject({
    code: 'LIMIT_EXCEEDED',
    details: { limit: 'logsPerTagMax', value: 20, requested: 21 },
  });
});
