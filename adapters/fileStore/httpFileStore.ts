/**
 * The read-only `http://` and `https://` store, through the global fetch: a public bucket's URL, a CDN, any static
 * file server. Userinfo in the URL becomes a Basic Authorization header and leaves the store's name; the URL's query
 * (a SAS token, say) goes with every request but, when secret, not into the name.
 */
import { collectBounded, streamToFileAtomically } from './boundedStreams.js';
import type { FileStoreOptions, ReadOnlyFileStore, ReadOptions } from './fileStore.js';
import { FileStoreError, tooLargeError } from './fileStoreError.js';
import {
  FILE_STORE_DOWNLOAD_MAX_BYTES_DEFAULT,
  FILE_STORE_IDLE_TIMEOUT_MS,
  FILE_STORE_READ_MAX_BYTES_DEFAULT,
} from './fileStoreLimits.js';
import { isUnreachable, networkErrorCode } from './networkErrors.js';
import { objectPathSegments } from './objectPath.js';
import { redactedUrlName } from './storeUrl.js';

/** Statuses meaning the object is not there. */
const MISSING_STATUSES = new Set([404, 410]);

interface HttpContext {
  readonly name: string;
  /** The base URL without userinfo or fragment: what requests go to. */
  readonly base: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly idleTimeoutMs: number;
}

/** A request's idle bound: aborts when neither the answer nor a body chunk has come for `idleTimeoutMs`. */
interface IdleTimer {
  readonly signal: AbortSignal;
  touch(): void;
  clear(): void;
}

export function createHttpFileStore(url: URL, options: FileStoreOptions): ReadOnlyFileStore {
  const name = redactedUrlName(url);
  const base = new URL(url.href);
  base.username = '';
  base.password = '';
  base.hash = '';
  const context: HttpContext = {
    name,
    base,
    headers: basicAuthorization(url),
    idleTimeoutMs: options.idleTimeoutMs ?? FILE_STORE_IDLE_TIMEOUT_MS,
  };
  return {
    name,
    read: async (path, readOptions) => readHttp(context, path, readOptions),
    exists: async (path) =>
      request(context, 'HEAD', 'look up', path, async (response) => {
        if (MISSING_STATUSES.has(response.status)) return false;
        checkOk(context, 'look up', path, response);
        return true;
      }),
    downloadToFile: async (path, localFile, readOptions) => downloadHttp(context, path, localFile, readOptions),
  };
}

/** fetch refuses URLs with credentials; an Authorization header is how they are meant to travel. */
function basicAuthorization(url: URL): Record<string, string> {
  if (url.username === '' && url.password === '') return {};
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return { authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` };
}

async function readHttp(
  context: HttpContext,
  path: string,
  options: ReadOptions | undefined,
): Promise<Uint8Array | undefined> {
  const maxBytes = options?.maxBytes ?? FILE_STORE_READ_MAX_BYTES_DEFAULT;
  return request(context, 'GET', 'read', path, async (response, idle) => {
    const body = await acceptedBody(context, 'read', path, response, maxBytes);
    if (body === undefined) return undefined;
    return collectBounded(touching(body, idle), maxBytes, () => tooLargeError(context.name, path, maxBytes));
  });
}

async function downloadHttp(
  context: HttpContext,
  path: string,
  localFile: string,
  options: ReadOptions | undefined,
): Promise<boolean> {
  const maxBytes = options?.maxBytes ?? FILE_STORE_DOWNLOAD_MAX_BYTES_DEFAULT;
  return request(context, 'GET', 'download', path, async (response, idle) => {
    const body = await acceptedBody(context, 'download', path, response, maxBytes);
    if (body === undefined) return false;
    await streamToFileAtomically(touching(body, idle), localFile, maxBytes, () =>
      tooLargeError(context.name, path, maxBytes),
    );
    return true;
  });
}

/**
 * The body of a successful answer within `maxBytes` by its Content-Length (when it has one); undefined for a
 * missing object. A body we will not read is cancelled, so its connection does not linger.
 */
async function acceptedBody(
  context: HttpContext,
  action: string,
  path: string,
  response: Response,
  maxBytes: number,
): Promise<AsyncIterable<Uint8Array> | undefined> {
  const refuse = async (): Promise<void> => response.body?.cancel();
  if (MISSING_STATUSES.has(response.status)) {
    await refuse();
    return undefined;
  }
  if (!response.ok) {
    await refuse();
    checkOk(context, action, path, response);
  }
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    await refuse();
    throw tooLargeError(context.name, path, maxBytes);
  }
  return response.body ?? emptyBody();
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}

async function* touching(chunks: AsyncIterable<Uint8Array>, idle: IdleTimer): AsyncGenerator<Uint8Array> {
  for await (const chunk of chunks) {
    idle.touch();
    yield chunk;
  }
}

function checkOk(context: HttpContext, action: string, path: string, response: Response): void {
  if (response.ok) return;
  throw new FileStoreError(
    'FILE_STORE_FAILED',
    `File store ${context.name}: could not ${action} ${path}: the server answered HTTP ${response.status}`,
    { store: context.name, path, status: response.status },
  );
}

/** One request under the idle bound; `use` reads the answer while the bound still runs. */
async function request<T>(
  context: HttpContext,
  method: 'GET' | 'HEAD',
  action: string,
  path: string,
  use: (response: Response, idle: IdleTimer) => Promise<T>,
): Promise<T> {
  const url = objectUrl(context, path);
  const idle = startIdleTimer(context.idleTimeoutMs);
  try {
    const response = await fetch(url, { method, headers: context.headers, signal: idle.signal, redirect: 'follow' });
    idle.touch();
    return await use(response, idle);
  } catch (error) {
    throw httpFailure(context, action, path, error, idle.signal.aborted);
  } finally {
    idle.clear();
  }
}

function objectUrl(context: HttpContext, path: string): URL {
  const segments = objectPathSegments(context.name, path).map(encodeURIComponent);
  const url = new URL(context.base.href);
  url.pathname = `${context.base.pathname.replace(/\/+$/, '')}/${segments.join('/')}`;
  return url;
}

function startIdleTimer(idleTimeoutMs: number): IdleTimer {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), idleTimeoutMs);
  return { signal: controller.signal, touch: () => timer.refresh(), clear: () => clearTimeout(timer) };
}

/** The failure as a FileStoreError; its message has the error's code, never the URL fetch was given. */
function httpFailure(
  context: HttpContext,
  action: string,
  path: string,
  error: unknown,
  idle: boolean,
): FileStoreError {
  if (error instanceof FileStoreError) return error;
  const { name: store } = context;
  const details = { store, path };
  const code = networkErrorCode(error);
  if (idle || isUnreachable(error)) {
    const reason = idle ? `no progress in ${context.idleTimeoutMs} ms` : code;
    return new FileStoreError(
      'FILE_STORE_UNREACHABLE',
      `File store ${store}: could not ${action} ${path}: the server did not answer (${reason})`,
      details,
      { cause: error },
    );
  }
  const reason = code ?? (error instanceof Error ? error.name : 'unknown failure');
  return new FileStoreError(
    'FILE_STORE_FAILED',
    `File store ${store}: could not ${action} ${path}: the response broke off or was not HTTP (${reason})`,
    details,
    { cause: error },
  );
}
