/**
 * Shared plumbing of the viem-based L1 adapters: one way to build clients, one way to send methods viem does not
 * type, and one mapping from viem's failures to L1Error codes.
 */
import {
  BaseError,
  createPublicClient,
  createTransport,
  decodeErrorResult,
  http,
  HttpRequestError,
  SocketClosedError,
  TimeoutError,
  WebSocketRequestError,
  type Abi,
  type EIP1193RequestFn,
  type PublicClient,
  type Transport,
} from 'viem';
import { L1Error } from '../../core/l1/l1Error.js';
import { redactUrl } from '../config/redactConfig.js';

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
  /** With several URLs: called when requests move to another URL, with the failure that moved them. */
  readonly onFailover?: (from: string, to: string, error: unknown) => void;
}

/**
 * A public client that never serves a cached block number (reorg-sensitive code reads fresh values). With several
 * URLs it sends through failoverHttp.
 */
export function createL1PublicClient(urls: string | readonly string[], options: L1ClientOptions = {}): PublicClient {
  const timeout = options.requestTimeoutMs ?? L1_REQUEST_TIMEOUT_MS_DEFAULT;
  const list = typeof urls === 'string' ? [urls] : urls;
  if (list.length === 0) throw new Error('an L1 client needs at least one URL');
  return createPublicClient({
    transport:
      list.length === 1
        ? http(list[0], { timeout, retryCount: L1_TRANSPORT_RETRY_COUNT })
        : failoverHttp(list, { timeout, ...(options.onFailover ? { onFailover: options.onFailover } : {}) }),
    cacheTime: 0,
    pollingInterval: L1_POLL_INTERVAL_MS,
  });
}

/**
 * HTTP to several URLs of one L1, sticky: every request goes to the URL that answered last; a transport failure
 * (isTransportFailure: unreachable, timed out, an HTTP error status) sends the same request to the next URL, each at
 * most once, and the first that answers serves from then on. Any other error (a revert, a refused transaction) is
 * the L1's answer and is thrown at once: sending it elsewhere would only repeat it. Unlike viem's `fallback`, which
 * starts every request at the first URL, a hanging first URL costs one timeout, not one per request. No retries, as
 * L1_TRANSPORT_RETRY_COUNT says. URLs are named redacted to `onFailover`.
 */
export function failoverHttp(
  urls: readonly string[],
  options: { readonly timeout: number; readonly onFailover?: L1ClientOptions['onFailover'] },
): Transport {
  const transports = urls.map((url) => http(url, { timeout: options.timeout, retryCount: L1_TRANSPORT_RETRY_COUNT }));
  let current = 0;
  return (config) => {
    const built = transports.map((transport) => transport({ ...config, retryCount: L1_TRANSPORT_RETRY_COUNT }));
    const request = async (args: unknown, requestOptions?: unknown): Promise<unknown> => {
      let lastFailure: unknown;
      for (let attempt = 0; attempt < built.length; attempt++) {
        const index = (current + attempt) % built.length;
        try {
          const answer: unknown = await (built[index]!.request as (a: unknown, o?: unknown) => Promise<unknown>)(
            args,
            requestOptions,
          );
          if (index !== current) {
            options.onFailover?.(redactUrl(urls[current]!), redactUrl(urls[index]!), lastFailure);
            current = index;
          }
          return answer;
        } catch (error) {
          if (!isTransportFailure(error)) throw error;
          lastFailure = error;
        }
      }
      throw lastFailure;
    };
    return createTransport({
      key: 'failover',
      name: 'Failover HTTP',
      type: 'failover',
      request: request as EIP1193RequestFn,
      retryCount: L1_TRANSPORT_RETRY_COUNT,
      timeout: options.timeout,
    });
  };
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
 * Runs one L1 operation; a transport failure becomes L1Error('L1_UNREACHABLE') naming the URL, or the URLs of a client
 * that fails over (redacted: a URL may carry an API key). L1Errors and other errors pass through unchanged.
 */
export async function callL1<T>(
  url: string | readonly string[],
  what: string,
  operation: () => Promise<T>,
): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (error instanceof L1Error) throw error;
    if (isTransportFailure(error)) {
      throw new L1Error('L1_UNREACHABLE', `L1 node at ${shownUrls(url)} unreachable (${what}): ${detailsOf(error)}`, {
        cause: error,
      });
    }
    throw error;
  }
}

/** URLs as messages may show them: redacted, comma-separated. */
export function shownUrls(urls: string | readonly string[]): string {
  return (typeof urls === 'string' ? [urls] : urls).map(redactUrl).join(', ');
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
