/**
 * Shared plumbing of the viem-based L1 adapters: one way to build clients, one way to send methods viem does not
 * type, and one mapping from viem's failures to L1Error codes.
 */
import {
  BaseError,
  createPublicClient,
  decodeErrorResult,
  http,
  HttpRequestError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
  type Abi,
  type PublicClient,
} from 'viem';
import { L1Error } from '../../core/l1/l1Error.js';

/** Per-request timeout for L1 JSON-RPC calls. */
export const L1_REQUEST_TIMEOUT_MS_DEFAULT = 10_000;
/**
 * Transport-level retries are off: callers (the archiver, the sequencer) own retry and backoff, and an unreachable
 * L1 must surface at once as L1_UNREACHABLE.
 */
export const L1_TRANSPORT_RETRY_COUNT = 0;
/** Polling interval of viem helpers that wait (receipts). */
export const L1_POLL_INTERVAL_MS = 100;

export interface L1ClientOptions {
  readonly requestTimeoutMs?: number;
}

/** A public client that never serves a cached block number (reorg-sensitive code reads fresh values). */
export function createL1PublicClient(url: string, options: L1ClientOptions = {}): PublicClient {
  return createPublicClient({
    transport: http(url, {
      timeout: options.requestTimeoutMs ?? L1_REQUEST_TIMEOUT_MS_DEFAULT,
      retryCount: L1_TRANSPORT_RETRY_COUNT,
    }),
    cacheTime: 0,
    pollingInterval: L1_POLL_INTERVAL_MS,
  });
}

/**
 * Sends a JSON-RPC method viem's schema does not describe (anvil_*, or eth_call with blob hashes, which viem's
 * `call` drops). The result is untrusted: callers check its shape.
 */
export async function rawRequest(client: PublicClient, method: string, params: readonly unknown[]): Promise<unknown> {
  const request = client.request as (args: { method: string; params: readonly unknown[] }) => Promise<unknown>;
  return request({ method, params });
}

/** True when `error` (or one of its causes) says the L1 node could not be reached or did not answer in time. */
export function isTransportFailure(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const found = error.walk(
    (e) =>
      e instanceof HttpRequestError ||
      e instanceof TimeoutError ||
      e instanceof SocketClosedError ||
      e instanceof WebSocketRequestError,
  );
  return found !== null && found !== undefined;
}

/** True when the node says the requested block is past its head or unknown. */
export function isBlockNotFound(error: unknown): boolean {
  return /BlockOutOfRange|block height is|header not found|unknown block|block not found/i.test(detailsOf(error));
}

/** viem's short message plus the node's own words, for error messages. */
export function detailsOf(error: unknown): string {
  if (error instanceof BaseError) {
    const details = error.details && error.details !== error.shortMessage ? `: ${error.details}` : '';
    return `${error.shortMessage}${details}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs one L1 operation; a transport failure becomes L1Error('L1_UNREACHABLE') naming the URL. L1Errors and other
 * errors pass through unchanged.
 */
export async function callL1<T>(url: string, what: string, operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof L1Error) throw error;
    if (isTransportFailure(error)) {
      throw new L1Error('L1_UNREACHABLE', `L1 node at ${url} unreachable (${what}): ${detailsOf(error)}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** The revert data carried by a failed call, if any (viem puts it on the innermost error that has it). */
function revertDataOf(error: unknown): `0x${string}` | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const withData = error.walk((e) => {
    const data = (e as { data?: unknown }).data;
    return typeof data === 'string' && /^0x[0-9a-fA-F]{8}/.test(data);
  }) as { data?: `0x${string}` } | null;
  return withData?.data;
}

/**
 * Names the contract error behind a revert, with its arguments: `WrongSlot(currentSlot: 3, given: 2)`. Undefined when
 * the error is not a revert the ABI (or the built-in Error/Panic) explains.
 */
export function describeRevert(abi: Abi, error: unknown): string | undefined {
  const data = revertDataOf(error);
  if (data === undefined) return undefined;
  try {
    const decoded = decodeErrorResult({ abi, data });
    const inputs = 'inputs' in decoded.abiItem ? decoded.abiItem.inputs : [];
    const args = (decoded.args ?? []).map((value, i) => `${inputs[i]?.name || `arg${i}`}: ${String(value)}`);
    return `${decoded.errorName}(${args.join(', ')})`;
  } catch {
    return `unknown contract error ${data.slice(0, 10)}`;
  }
}

/** True when the node reports the call or transaction as reverted (JSON-RPC code 3 or "revert" in its words). */
export function isRevert(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  const coded = error.walk((e) => (e as { code?: unknown }).code === 3);
  return (coded !== null && coded !== undefined) || /revert/i.test(detailsOf(error));
}
