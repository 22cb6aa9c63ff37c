/**
 * The HTTP plumbing of the blob sources: one bounded GET (a timeout covering the whole exchange, the body read up to a
 * cap and never buffered past it, redirects not followed so a key in a header never reaches another host), JSON
 * parsing that fails as a coded error, and strict blob hex decoding. Errors name the source by its redacted name and
 * the request by its path, never by the full URL, which may carry a key.
 */
import type { LoggerPort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { BLOB_SIZE_BYTES } from '../../spec/constants.js';
import { BlobSourceError } from './blobSourceError.js';
import { isSecretParamName, redactUrl } from './redactUrl.js';

/** Characters of one blob as 0x-prefixed hex. */
export const BLOB_HEX_CHARS = 2 + 2 * BLOB_SIZE_BYTES;
/** Characters of a 48-byte KZG commitment or proof as 0x-prefixed hex. */
export const KZG_POINT_HEX_CHARS = 2 + 2 * 48;
/** Room for the JSON around answers: field names, brackets, metadata the APIs add. */
export const JSON_ENVELOPE_BYTES_MAX = 64 * 1024;
/** How much of an error answer is read (for its message); the rest is dropped. */
export const ERROR_BODY_BYTES_MAX = 4 * 1024;
/** How much of an error answer an error message quotes. */
const ERROR_BODY_QUOTE_CHARS_MAX = 200;

const HEX_PATTERN = /^0x[0-9a-fA-F]*$/;
/** Shorter strings are not scrubbed from error answers: they would match ordinary words and numbers. */
const SECRET_CHARS_MIN = 4;
/** What a credential is replaced with in a quoted error answer. */
const SCRUBBED = '[redacted]';

/** The logger of a source built without one. */
export const SILENT_LOGGER: LoggerPort = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => SILENT_LOGGER,
};

/** A source's base URL taken apart: its redacted name, its request URLs, and the headers its userinfo becomes. */
export interface HttpBase {
  readonly name: string;
  /** `accept: application/json`, and basic authorization when the URL carries userinfo (fetch refuses it there). */
  readonly headers: Readonly<Record<string, string>>;
  /** The base URL's path plus `path`, with the base's query parameters and then `queries` (raw `name=value`s). */
  urlOf(path: string, queries: readonly string[]): URL;
  /** The credentials in the URL (userinfo, values of secret-looking query parameters): scrubbed from error answers. */
  readonly secrets: readonly string[];
}

export function httpBaseOf(url: string, what: string): HttpBase {
  const name = redactUrl(url);
  let base: URL;
  try {
    base = new URL(url);
  } catch (cause) {
    throw new BlobSourceError('BLOB_SOURCE_UNUSABLE', `${what} URL ${name} is not a URL`, { source: name }, { cause });
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (base.username !== '' || base.password !== '') {
    const userinfo = `${decodeURIComponent(base.username)}:${decodeURIComponent(base.password)}`;
    headers.authorization = `Basic ${Buffer.from(userinfo).toString('base64')}`;
  }
  const prefix = `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
  const baseQuery = base.search.slice(1);
  const queryKeys = [...base.searchParams].flatMap(([key, value]) => (isSecretParamName(key) ? [value] : []));
  const secrets = [decodeURIComponent(base.username), decodeURIComponent(base.password), ...queryKeys];
  return {
    name,
    headers,
    secrets: secrets.filter((secret) => secret.length >= SECRET_CHARS_MIN),
    urlOf(path, queries) {
      const search = [baseQuery, ...queries].filter((part) => part !== '').join('&');
      return new URL(`${prefix}${path}${search === '' ? '' : `?${search}`}`);
    },
  };
}

export interface BoundedGetRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  /** Largest successful answer accepted; a larger one is cut off and fails as BLOB_SOURCE_BAD_RESPONSE. */
  readonly bodyBytesMax: number;
  /** The source's redacted name, for errors. */
  readonly source: string;
  /** The request as errors name it, e.g. `GET /eth/v1/beacon/genesis` (a path, never a query that may hold a key). */
  readonly what: string;
  /**
   * Credentials the request carries (a key, userinfo), removed from error answers: a server may echo the request
   * URL in its error message (fastify's "Route GET:/...?key=... not found").
   */
  readonly secrets: readonly string[];
}

export interface HttpAnswer {
  readonly status: number;
  /** The body; for an error status, at most ERROR_BODY_BYTES_MAX of it. */
  readonly body: string;
}

/** One GET, bounded in time and size. Throws BlobSourceError: UNREACHABLE without an answer, BAD_RESPONSE past the cap. */
export async function boundedGet(request: BoundedGetRequest): Promise<HttpAnswer> {
  const { source, what, timeoutMs } = request;
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(request.url, { headers: request.headers, signal, redirect: 'manual' });
  } catch (cause) {
    throw unreachable(source, what, timeoutMs, cause);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel().catch(() => undefined);
    throw new BlobSourceError(
      'BLOB_SOURCE_HTTP_ERROR',
      `${source} answered ${what} with a redirect (HTTP ${response.status}), which is not followed: configure the final URL`,
      { source, status: response.status },
    );
  }
  const ok = response.status >= 200 && response.status < 300;
  try {
    const body = await readBody(response, ok ? request.bodyBytesMax : ERROR_BODY_BYTES_MAX, ok);
    return { status: response.status, body: ok ? body : scrub(body, request.secrets) };
  } catch (cause) {
    if (cause instanceof BodyTooLargeError) {
      throw new BlobSourceError(
        'BLOB_SOURCE_BAD_RESPONSE',
        `${source} answered ${what} with more than ${request.bodyBytesMax} bytes`,
        { source, status: response.status },
      );
    }
    throw unreachable(source, what, timeoutMs, cause);
  }
}

class BodyTooLargeError extends Error {}

function scrub(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret.length < SECRET_CHARS_MIN) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) scrubbed = scrubbed.split(form).join(SCRUBBED);
  }
  return scrubbed;
}

/** Reads at most `bytesMax`; past it, fails when `strict`, else keeps what it read. Cancels what it does not read. */
async function readBody(response: Response, bytesMax: number, strict: boolean): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (strict && declared > bytesMax) {
    await response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError();
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > bytesMax) {
      await reader.cancel().catch(() => undefined);
      if (strict) throw new BodyTooLargeError();
      chunks.push(value.subarray(0, value.byteLength - (total - bytesMax)));
      break;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function unreachable(source: string, what: string, timeoutMs: number, cause: unknown): BlobSourceError {
  const timedOut = cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
  const why = timedOut ? `no answer within ${timeoutMs} ms` : describeFailure(cause);
  return new BlobSourceError(
    'BLOB_SOURCE_UNREACHABLE',
    `${source} unreachable (${what}): ${why}`,
    { source },
    { cause },
  );
}

/** undici says "fetch failed" and puts the reason (ECONNREFUSED, ENOTFOUND, "bad port") in its cause. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (!(cause instanceof Error)) return error.message;
  const code = (cause as { code?: unknown }).code;
  return `${error.message} (${typeof code === 'string' ? code : cause.message})`;
}

/** An error status as a coded error, quoting the start of the answer. */
export function statusError(source: string, what: string, answer: HttpAnswer): BlobSourceError {
  const quoted = answer.body.trim().slice(0, ERROR_BODY_QUOTE_CHARS_MAX).replace(/\s+/g, ' ');
  return new BlobSourceError(
    'BLOB_SOURCE_HTTP_ERROR',
    `${source} answered ${what} with HTTP ${answer.status}${quoted === '' ? '' : `: ${quoted}`}`,
    { source, status: answer.status },
  );
}

/** The body as JSON; anything else is BLOB_SOURCE_BAD_RESPONSE. */
export function parseJson(source: string, what: string, answer: HttpAnswer): unknown {
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    throw badResponse(source, what, 'an answer that is not JSON', answer.status);
  }
}

export function badResponse(source: string, what: string, problem: string, status?: number): BlobSourceError {
  return new BlobSourceError('BLOB_SOURCE_BAD_RESPONSE', `${source} answered ${what} with ${problem}`, {
    source,
    ...(status === undefined ? {} : { status }),
  });
}

/** A blob from 0x-prefixed hex of exactly BLOB_SIZE_BYTES; undefined for anything else. */
export function decodeBlobHex(value: unknown): Uint8Array | undefined {
  return decodeHexOfLength(value, BLOB_HEX_CHARS);
}

/** A 48-byte KZG commitment or proof as lowercase 0x-prefixed hex; undefined for anything else. */
export function decodeKzgPointHex(value: unknown): Hex | undefined {
  return isHexOfLength(value, KZG_POINT_HEX_CHARS) ? (value.toLowerCase() as Hex) : undefined;
}

function decodeHexOfLength(value: unknown, hexChars: number): Uint8Array | undefined {
  return isHexOfLength(value, hexChars) ? new Uint8Array(Buffer.from(value.slice(2), 'hex')) : undefined;
}

function isHexOfLength(value: unknown, hexChars: number): value is string {
  return typeof value === 'string' && value.length === hexChars && HEX_PATTERN.test(value);
}

/** A decimal string of a non-negative integer (how beacon APIs write numbers) as a bigint; undefined otherwise. */
export function decimalBigint(value: unknown): bigint | undefined {
  return typeof value === 'string' && /^\d{1,20}$/.test(value) ? BigInt(value) : undefined;
}
