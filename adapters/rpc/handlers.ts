/**
 * The handler registry: one entry per method of spec/rpc/methods.ts, each from its own file under methods/. The
 * mapped type makes a missing or misnamed handler a type error; handlers.test.ts checks the same at run time.
 */
import type { RpcMethodName } from '../../spec/rpc/methods.js';
import type { MethodHandler } from './methodHandler.js';
import { svc_getBlock } from './methods/svc_getBlock.js';
import { svc_getBlockData } from './methods/svc_getBlockData.js';
import { svc_getBlockNumber } from './methods/svc_getBlockNumber.js';
import { svc_getChainId } from './methods/svc_getChainId.js';
import { svc_getChainTips } from './methods/svc_getChainTips.js';
import { svc_getCheckpointNumber } from './methods/svc_getCheckpointNumber.js';
import { svc_getL1Constants } from './methods/svc_getL1Constants.js';
import { svc_getL1ContractAddresses } from './methods/svc_getL1ContractAddresses.js';
import { svc_getNodeInfo } from './methods/svc_getNodeInfo.js';
import { svc_getNodeVersion } from './methods/svc_getNodeVersion.js';
import { svc_getVersion } from './methods/svc_getVersion.js';
import { svc_isReady } from './methods/svc_isReady.js';

export type RpcHandlers = { readonly [Name in RpcMethodName]: MethodHandler<Name> };

export const rpcHandlers: RpcHandlers = {
  svc_getBlockNumber,
  svc_getCheckpointNumber,
  svc_getChainTips,
  svc_getBlock,
  svc_getBlockData,
  svc_getL1Constants,
  svc_isReady,
  svc_getNodeInfo,
  svc_getNodeVersion,
  svc_getVersion,
  svc_getChainId,
  svc_getL1ContractAddresses,
};
