/** JSON-RPC 2.0 envelope types, as this project sends and receives them (docs/protocol.md, Wire encoding). */

export const JSON_RPC_VERSION = '2.0';

/** A request id; `null` is what an answer carries when the request's id could not be read. */
export type JsonRpcId = string | number | null;

export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface JsonRpcSuccess {
  readonly jsonrpc: typeof JSON_RPC_VERSION;
  readonly id: JsonRpcId;
  /** Always present: `null` for a lookup that found nothing and for a `void` method. */
  readonly result: unknown;
}

export interface JsonRpcFailure {
  readonly jsonrpc: typeof JSON_RPC_VERSION;
  readonly id: JsonRpcId;
  readonly error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** What one HTTP body answers: one response, a batch of them, or nothing (only notifications were sent). */
export type JsonRpcReply = JsonRpcResponse | readonly JsonRpcResponse[] | undefined;
