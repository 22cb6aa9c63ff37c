import { describe, expect, expectTypeOf, test } from 'vitest';
import type { BlockTipName, Hex } from '../chain.js';
import type { BlockQueryValue } from '../wire/blockParameter.js';
import { RpcErrorCode } from './errorCodes.js';
import { NAMESPACE_PREFIX } from './methodDefinition.js';
import {
  rpcMethodList,
  rpcMethods,
  type RpcMethodNameIn,
  type RpcParams,
  type RpcResult,
  type RpcWireParams,
  type RpcWireResult,
} from './methods.js';

describe('the method table', () => {
  test('lists every method once, in table order', () => {
    expect(rpcMethodList.map((method) => method.name)).toEqual(Object.keys(rpcMethods));
  });

  test.each(rpcMethodList)('$name is well formed', (method) => {
    expect(method.name.startsWith(NAMESPACE_PREFIX[method.namespace])).toBe(true);
    expect(method.name).toMatch(/^(svc|svcAdmin)_[a-zA-Z0-9]+$/);
    const firstOptional = method.params.findIndex((param) => param.optional);
    if (firstOptional >= 0) expect(method.params.slice(firstOptional).every((param) => param.optional)).toBe(true);
    expect(new Set(method.params.map((param) => param.name)).size).toBe(method.params.length);
    expect(method.description.length).toBeGreaterThan(10);
    expect(method.description).not.toMatch(/\n/);
    for (const error of method.errors) expect(Object.keys(RpcErrorCode)).toContain(error);
    if (method.params.length > 0) expect(method.errors).toContain('INVALID_PARAMS');
  });

  test('the typed client view derives from the table', () => {
    expectTypeOf<RpcWireParams<'svc_getBlockNumber'>>().toEqualTypeOf<[(BlockTipName | null)?]>();
    expectTypeOf<RpcParams<'svc_getBlockNumber'>>().toEqualTypeOf<[BlockTipName?]>();
    expectTypeOf<RpcParams<'svc_getBlock'>[0]>().toEqualTypeOf<BlockQueryValue>();
    expectTypeOf<RpcWireParams<'svc_getChainTips'>>().toEqualTypeOf<[]>();
    expectTypeOf<RpcWireResult<'svc_getL1Constants'>['l1StartBlock']>().toEqualTypeOf<string | number>();
    expectTypeOf<RpcResult<'svc_getL1Constants'>['l1StartBlock']>().toEqualTypeOf<bigint>();
    expectTypeOf<null>().toExtend<RpcResult<'svc_getBlockData'>>();
    expectTypeOf<null>().not.toExtend<RpcResult<'svc_getChainTips'>>();
    expectTypeOf<RpcResult<'svc_getChainTips'>['proposed']['hash']>().toEqualTypeOf<Hex>();
    expectTypeOf<RpcMethodNameIn<'admin'>>().toEqualTypeOf<never>();
  });
});
