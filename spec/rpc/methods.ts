/**
 * The method table: every JSON-RPC method the node serves, with its positional params, result codec, documented
 * errors, deprecation and a one-line description. The server's dispatcher, its handler registry, the typed client
 * and the tests all derive from this table; a method exists on the wire if and only if it is listed here.
 */
import { z } from 'zod';
import { blockData, blockIncludeOptions, blockResponse } from '../wire/block.js';
import { blockParameter } from '../wire/blockParameter.js';
import { l1ContractAddresses, l1RollupConstants, l2Tips, nodeInfo } from '../wire/chainInfo.js';
import { blockNumber, blockTagWithoutLatest, checkpointNumber, checkpointTag, safeUint } from '../wire/scalars.js';
import type {
  DecodedParamsOf,
  MethodDefinition,
  RpcNamespace,
  WireParamsOf,
} from './methodDefinition.js';
import { optionalParam, requiredParam } from './methodDefinition.js';

export const rpcMethods = {
  // Block queries
  svc_getBlockNumber: {
    namespace: 'public',
    params: [optionalParam('tip', blockTagWithoutLatest)],
    result: blockNumber,
    errors: ['INVALID_PARAMS'],
    deprecated: false,
    description: 'Number of the newest block at a chain tip; without a tip, the newest proposed block.',
  },
  svc_getCheckpointNumber: {
    namespace: 'public',
    params: [optionalParam('tip', checkpointTag)],
    result: checkpointNumber,
    errors: ['INVALID_PARAMS'],
    deprecated: false,
    description: "Number of the newest checkpoint at a tip; without a tip, the checkpointed tip ('proposed' is refused).",
  },
  svc_getChainTips: {
    namespace: 'public',
    params: [],
    result: l2Tips,
    errors: [],
    deprecated: false,
    description: 'The proposed, checkpointed, proven and finalized tips of the L2 chain (4.0.0 L2Tips shape).',
  },
  svc_getBlock: {
    namespace: 'public',
    params: [requiredParam('param', blockParameter), optionalParam('options', blockIncludeOptions)],
    result: blockResponse.nullable(),
    errors: ['INVALID_PARAMS'],
    deprecated: false,
    description:
      'One block by number, hash, archive root or tag, null if unknown; options add tx effects, L1 publish info, ' +
      'and attestations (served as an empty list until attestations are kept).',
  },
  svc_getBlockData: {
    namespace: 'public',
    params: [requiredParam('param', blockParameter)],
    result: blockData.nullable(),
    errors: ['INVALID_PARAMS'],
    deprecated: false,
    description: 'Header-level metadata of one block (no transaction bodies), null if unknown.',
  },
  svc_getL1Constants: {
    namespace: 'public',
    params: [],
    result: l1RollupConstants,
    errors: [],
    deprecated: false,
    description: 'The rollup constants the chain runs with: slot and epoch timing, L1 start block, genesis.',
  },

  // Node information
  svc_isReady: {
    namespace: 'public',
    params: [],
    result: z.boolean(),
    errors: [],
    deprecated: false,
    description: 'Whether the node is synced enough to accept transactions.',
  },
  svc_getNodeInfo: {
    namespace: 'public',
    params: [],
    result: nodeInfo,
    errors: [],
    deprecated: false,
    description: 'Node and contract-language versions, L1 chain id, rollup and protocol versions, L1 contracts.',
  },
  svc_getNodeVersion: {
    namespace: 'public',
    params: [],
    result: z.string(),
    errors: [],
    deprecated: false,
    description: 'Version of the node software package.',
  },
  svc_getVersion: {
    namespace: 'public',
    params: [],
    result: safeUint,
    errors: [],
    deprecated: false,
    description: 'Version of the rollup the node follows.',
  },
  svc_getChainId: {
    namespace: 'public',
    params: [],
    result: safeUint,
    errors: [],
    deprecated: false,
    description: 'Chain id of the base layer (L1).',
  },
  svc_getL1ContractAddresses: {
    namespace: 'public',
    params: [],
    result: l1ContractAddresses,
    errors: [],
    deprecated: false,
    description: 'Addresses of the rollup contracts on L1.',
  },
} as const satisfies Record<string, MethodDefinition>;

type RpcMethodTable = typeof rpcMethods;

export type RpcMethodName = keyof RpcMethodTable;

/** Names of the methods one listener serves. */
export type RpcMethodNameIn<Namespace extends RpcNamespace> = {
  [Name in RpcMethodName]: RpcMethodTable[Name]['namespace'] extends Namespace ? Name : never;
}[RpcMethodName];

/** Params as sent on the wire. */
export type RpcWireParams<Name extends RpcMethodName> = WireParamsOf<RpcMethodTable[Name]['params']>;
/** Result as received on the wire. */
export type RpcWireResult<Name extends RpcMethodName> = z.input<RpcMethodTable[Name]['result']>;
/** Params as decoded for the node (bigints, BlockQuery...). */
export type RpcParams<Name extends RpcMethodName> = DecodedParamsOf<RpcMethodTable[Name]['params']>;
/** Result as the node produces it, before encoding. */
export type RpcResult<Name extends RpcMethodName> = z.output<RpcMethodTable[Name]['result']>;

/** Method name to wire params tuple and wire result: the typed client's view of the API. */
export type RpcSchema = {
  readonly [Name in RpcMethodName]: { readonly params: RpcWireParams<Name>; readonly result: RpcWireResult<Name> };
};

export interface NamedMethodDefinition extends MethodDefinition {
  readonly name: RpcMethodName;
}

/** The table as a list, in table order. */
export const rpcMethodList: readonly NamedMethodDefinition[] = (Object.keys(rpcMethods) as RpcMethodName[]).map(
  (name) => ({ name, ...rpcMethods[name] }),
);
