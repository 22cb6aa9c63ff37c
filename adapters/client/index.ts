/**
 * The package's `./client` entry: the typed JSON-RPC client, its errors, and the table-derived types a caller needs
 * to name methods, params and results. Names are re-exported one by one (no `export *`).
 */
export {
  createSvcClient,
  SVC_CLIENT_GROUP,
  SVC_CLIENT_TIMEOUT_MS_DEFAULT,
  type SvcBatchOutcomes,
  type SvcCall,
  type SvcCallOutcome,
  type SvcClient,
  type SvcClientGroups,
  type SvcClientMethods,
  type SvcClientOptions,
  type SvcNamespaceMethods,
  type SvcParams,
} from './svcClient.js';
export {
  rpcErrorNameOf,
  SvcClientError,
  SvcDecodeError,
  SvcHttpError,
  SvcRpcError,
  type SvcHttpErrorReason,
} from './svcClientError.js';
export {
  RpcErrorCode,
  TX_REJECTION_CODES,
  type RpcErrorName,
  type TxRejectionCode,
} from '../../spec/rpc/errorCodes.js';
export type { RpcNamespace } from '../../spec/rpc/methodDefinition.js';
export type {
  RpcMethodName,
  RpcMethodNameIn,
  RpcParams,
  RpcResult,
  RpcWireParams,
  RpcWireResult,
} from '../../spec/rpc/methods.js';
export { buildTx, txToWire, type BuildTxInput } from '../../spec/txBuilder.js';
export { genesisTestAccounts, GENESIS_TEST_ACCOUNT_BALANCE } from '../../spec/genesis.js';
export type { TxValue } from '../../spec/wire/tx.js';
