import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectFileStoreError } from '../../test/helpers/expectFileStoreError.js';
import { closedPort, startRawTcpServer, type RawTcpServer } from '../../test/helpers/rawTcpServer.js';
import { startStaticFileServer, type StaticFileServer } from '../../test/helpers/staticFileServer.js';
import { createFileStore, createReadOnlyFileStore } from './fileStore.js';
import { FileStoreError } from './fileStoreError.js';

/** A failure the store must report well before the idle timeout of these tests' stores would fire twice. */
const IDLE_TIMEOUT_MS = 300;
const SECRET = 'hunter2-correct-horse';

let directory: string;
let server: StaticFileServer;
let raw: RawTcpServer | undefined;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'http-file-store-'));
  server = await startStaticFileServer(directory);
});
afterEach(async () => {
  await raw?.stop();
  raw = undefined;
  await server.stop();
  await rm(directory, { recursive: true, force: true });
});

/** A raw server answering each connection with `answer`, and a store on it. */
async function storeOnRaw(answer: (socket: Socket) => void) {
  raw = await startRawTcpServer(answer);
  return createReadOnlyFileStore(raw.url, { idleTimeoutMs: IDLE_TIMEOUT_MS });
}

/** Writes HTTP headers, then body chunks as long as the socket takes them. */
function endlessBody(socket: Socket): void {
  socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\nconnection: close\r\n\r\n');
  const chunk = Buffer.alloc(64 * 1024, 1);
  const pump = (): void => {
    while (!socket.destroyed && socket.write(chunk));
    if (!socket.destroyed) socket.once('drain', pump);
  };
  pump();
}

describe('credentials in an http(s) URL', () => {
  it('go to the server as Basic authorization and the query as given, and never into the name', async () => {
    await writeFile(join(directory, 'a.data'), 'a');
    const url = `${server.url.replace('//', `//reader:${SECRET}@`)}/?sig=${SECRET}&sv=2024`;
    const store = createReadOnlyFileStore(url);
    expect(store.name).toBe(`${server.url}/?sv=2024`);
    expect(await store.read('a.data')).toEqual(new TextEncoder().encode('a'));
    const [request] = server.requests;
    expect(request?.headers.authorization).toBe(`Basic ${Buffer.from(`reader:${SECRET}`).toString('base64')}`);
    expect(request?.url).toBe(`/a.data?sig=${SECRET}&sv=2024`);
  });

  it('stay out of error messages and details', async () => {
    const port = await closedPort();
    const store = createReadOnlyFileStore(`http://reader:${SECRET}@127.0.0.1:${port}/base?token=${SECRET}`);
    for (const failing of [() => store.read('a.data'), () => store.exists('a.data'), () => store.read('../a')]) {
      const error: unknown = await failing().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FileStoreError);
      expect(String(error)).not.toContain(SECRET);
      expect(JSON.stringify((error as { details?: unknown }).details)).not.toContain(SECRET);
    }
  });
});

describe('answers that are not an object', () => {
  it('fails on a status other than 2xx, 404 and 410, with the status in the details', async () => {
    const store = await storeOnRaw((socket) =>
      socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n'),
    );
    const error = await expectFileStoreError(store.read('a.data'), 'FILE_STORE_FAILED');
    expect(error.details.status).toBe(503);
    await expectFileStoreError(store.exists('a.data'), 'FILE_STORE_FAILED');
  });

  it('answers 410 Gone as a missing object', async () => {
    const store = await storeOnRaw((socket) => socket.end('HTTP/1.1 410 Gone\r\ncontent-length: 4\r\n\r\ngone'));
    expect(await store.read('a.data')).toBeUndefined();
    expect(await store.exists('a.data')).toBe(false);
  });

  it('fails on garbage instead of HTTP', async () => {
    const store = await storeOnRaw((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    await expectFileStoreError(store.read('a.data'), 'FILE_STORE_FAILED');
  });

  it('fails on a body cut short of its Content-Length, and leaves no local file from it', async () => {
    const store = await storeOnRaw((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 1000\r\n\r\n0123456789'));
    await expectFileStoreError(store.read('a.data'), 'FILE_STORE_FAILED');
    const target = join(directory, 'downloads', 'a.data');
    await expectFileStoreError(store.downloadToFile('a.data', target), 'FILE_STORE_FAILED');
    expect(await readdir(join(directory, 'downloads'))).toEqual([]);
  });
});

describe('bodies over maxBytes', () => {
  it('refuses a declared Content-Length over maxBytes without waiting for the body', async () => {
    const store = await storeOnRaw((socket) =>
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 1000000000000\r\n\r\n'),
    );
    await expectFileStoreError(store.read('a.data', { maxBytes: 1024 }), 'FILE_STORE_TOO_LARGE');
  });

  it('stops reading an endless body without Content-Length at maxBytes', async () => {
    const store = await storeOnRaw(endlessBody);
    await expectFileStoreError(store.read('a.data', { maxBytes: 1024 * 1024 }), 'FILE_STORE_TOO_LARGE');
    const target = join(directory, 'endless.bin');
    await expectFileStoreError(
      store.downloadToFile('a.data', target, { maxBytes: 1024 * 1024 }),
      'FILE_STORE_TOO_LARGE',
    );
    expect(await readdir(directory)).toEqual([]);
  });
});

describe('an unreachable server', () => {
  it('fails as FILE_STORE_UNREACHABLE at once when nothing listens', async () => {
    const store = createReadOnlyFileStore(`http://127.0.0.1:${await closedPort()}`, { idleTimeoutMs: 60_000 });
    const started = performance.now();
    const error = await expectFileStoreError(store.read('a.data'), 'FILE_STORE_UNREACHABLE');
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('fails as FILE_STORE_UNREACHABLE when the server never answers, or stops sending mid-body', async () => {
    const silent = await storeOnRaw(() => undefined);
    await expectFileStoreError(silent.exists('a.data'), 'FILE_STORE_UNREACHABLE');
    await raw?.stop();
    const stalled = await storeOnRaw((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nfirst'));
    const error = await expectFileStoreError(stalled.read('a.data'), 'FILE_STORE_UNREACHABLE');
    expect(error.message).toContain(`no progress in ${IDLE_TIMEOUT_MS} ms`);
  });

  it('keeps a slow body alive as long as bytes keep coming within the idle timeout', async () => {
    const store = await storeOnRaw((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\n');
      let sent = 0;
      const timer = setInterval(() => {
        socket.write('x');
        sent += 1;
        if (sent === 4) clearInterval(timer);
      }, IDLE_TIMEOUT_MS / 2);
    });
    expect(await store.read('a.data')).toEqual(new TextEncoder().encode('xxxx'));
  });
});

describe('the http(s) scheme', () => {
  it('is read-only: createFileStore refuses it', async () => {
    await expectFileStoreError(
      Promise.resolve().then(() => createFileStore(server.url)),
      'FILE_STORE_BAD_URL',
    );
  });

  it('is the only read-only scheme: others are refused by both factories, naming only the scheme', async () => {
    for (const create of [createFileStore, createReadOnlyFileStore]) {
      const error = await expectFileStoreError(
        Promise.resolve().then(() => create(`ftp://user:${SECRET}@host/blobs`)),
        'FILE_STORE_BAD_URL',
      );
      expect(error.message).not.toContain(SECRET);
    }
  });
});
