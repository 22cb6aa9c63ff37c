import { expect, expectTypeOf, test } from 'vitest';
import type { BlockQuery } from '../../core/nodeService.js';
import { rpcMethods } from '../../spec/rpc/methods.js';
import type { BlockQueryValue } from '../../spec/wire/blockParameter.js';
import { rpcHandlers } from './handlers.js';

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
