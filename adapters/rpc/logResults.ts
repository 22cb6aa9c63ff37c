import type { LogResult } from '../../core/logs/logService.js';
import type { RpcResult } from '../../spec/rpc/methods.js';

type LogResultValue = RpcResult<'svc_getPrivateLogsByTags'>[number][number];

function logResultValueOf(log: LogResult): LogResultValue {
  const { noteHashes, nullifiers, fields, ...place } = log;
  return {
    ...place,
    fields: [...fields],
    ...(noteHashes !== undefined ? { noteHashes: [...noteHashes] } : {}),
    ...(nullifiers !== undefined ? { nullifiers: [...nullifiers] } : {}),
  };
}

/** The wire value of log results (the wire's lists are mutable copies). */
export function logResultsValueOf(found: readonly (readonly LogResult[])[]): RpcResult<'svc_getPrivateLogsByTags'> {
  return found.map((logs) => logs.map(logResultValueOf));
}
