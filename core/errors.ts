/**
 * Expected failures of the core, each with a stable string code and a typed payload. Only adapters/rpc maps codes to
 * JSON-RPC numbers.
 */
export type NodeErrorCode =
  | 'STATE_NOT_AVAILABLE'
  | 'SUBSYSTEM_DISABLED'
  | 'OPERATION_REFUSED'
  | 'LIMIT_EXCEEDED'
  | 'INVALID_PARAMS'
  | 'DATA_DIRECTORY_CHAIN_MISMATCH'
  | 'GENESIS_MISMATCH'
  | 'CHECKPOINT_INVALID'
  | 'SYNC_FAILED';

export class NodeError<Details extends Record<string, unknown> = Record<string, unknown>> extends Error {
  constructor(
    readonly code: NodeErrorCode,
    /** One sentence a user can act on. */
    readonly shortMessage: string,
    readonly details: Details = {} as Details,
    options?: { cause?: unknown },
  ) {
    super(shortMessage, options);
    this.name = 'NodeError';
  }
}
