/** Telling "the store did not answer" from "the store answered no", for the remote stores' error mapping. */

/** Node and undici error codes of a connection that failed or stalled, as opposed to an answer that refused. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** How deep to follow `cause` and AggregateError's `errors`: fetch wraps once, the SDK and happy eyeballs once more. */
const CAUSE_DEPTH_MAX = 4;

/** The first error code found on the error or its causes (`ECONNREFUSED`, `UND_ERR_SOCKET`, `HPE_INVALID_CONSTANT`). */
export function networkErrorCode(error: unknown): string | undefined {
  return errorChain(error).find((link) => typeof link.code === 'string')?.code as string | undefined;
}

/** Whether the failure is the network's, not an answer: connection refused or reset, name unknown, timed out. */
export function isUnreachable(error: unknown): boolean {
  return errorChain(error).some(
    (link) => (typeof link.code === 'string' && UNREACHABLE_CODES.has(link.code)) || link.name === 'TimeoutError',
  );
}

interface ErrorLink {
  readonly code?: unknown;
  readonly name?: unknown;
}

function errorChain(error: unknown, depth = 0): ErrorLink[] {
  if (typeof error !== 'object' || error === null || depth > CAUSE_DEPTH_MAX) return [];
  const link = error as ErrorLink & { cause?: unknown; errors?: unknown };
  const nested = Array.isArray(link.errors) ? link.errors : [];
  return [link, ...errorChain(link.cause, depth + 1), ...nested.flatMap((inner) => errorChain(inner, depth + 1))];
}
