/** Reading object bodies under a size bound, and replacing local files so no reader sees a half-written one. */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** Passes the chunks through, throwing `tooLarge()` as soon as they add up to more than `maxBytes`. */
export async function* boundedChunks(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
): AsyncGenerator<Uint8Array> {
  let totalBytes = 0;
  for await (const chunk of chunks) {
    totalBytes += chunk.byteLength;
    if (totalBytes > maxBytes) throw tooLarge();
    yield chunk;
  }
}

/** The chunks in one array; a body over `maxBytes` is refused at the chunk that crosses it, never held whole. */
export async function collectBounded(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let totalBytes = 0;
  for await (const chunk of boundedChunks(chunks, maxBytes, tooLarge)) {
    parts.push(chunk);
    totalBytes += chunk.byteLength;
  }
  const whole = new Uint8Array(totalBytes);
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.byteLength;
  }
  return whole;
}

/** The temporary file an atomic write of `name` goes through, beside it: hidden, unique, ending in `.tmp`. */
export function temporaryNameOf(name: string): string {
  return `.${name}.${randomUUID()}.tmp`;
}

/** Whether a file name is one temporaryNameOf made. */
export function isTemporaryName(name: string): boolean {
  return /^\..+\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/.test(name);
}

/**
 * Writes `localFile` through a temporary file beside it, synced and then renamed over it: a crash or a failure leaves
 * the old file or none, never a torn one. The rename is atomic only within one file system, hence "beside it".
 */
export async function replaceFileAtomically(
  localFile: string,
  writeTemp: (temp: string) => Promise<void>,
): Promise<void> {
  await mkdir(dirname(localFile), { recursive: true });
  const temp = join(dirname(localFile), temporaryNameOf(basename(localFile)));
  try {
    await writeTemp(temp);
    await syncFile(temp);
    await rename(temp, localFile);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Streams the chunks into `localFile` (atomically, as replaceFileAtomically), refusing more than `maxBytes`. */
export async function streamToFileAtomically(
  chunks: AsyncIterable<Uint8Array>,
  localFile: string,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<void> {
  await replaceFileAtomically(localFile, async (temp) => {
    // Opened before the stream starts: a stream that opens its own file may create it after a failed pipeline has
    // already removed the name, leaving a stray temporary file behind.
    const handle = await open(temp, 'w');
    await pipeline(boundedChunks(chunks, maxBytes, tooLarge), handle.createWriteStream());
  });
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
