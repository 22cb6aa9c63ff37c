/**
 * The keystore file on disk as the node's KeystoreSourcePort: each read opens the file again (svcAdmin_reloadKeystore
 * sees the operator's edits) and takes at most KEYSTORE_FILE_BYTES_MAX + 1 bytes, so that an oversized file is
 * refused by the core's size check without being read whole.
 */
import { open, writeFile, chmod } from 'node:fs/promises';
import type { KeystoreSourcePort } from '../../core/ports.js';
import { KEYSTORE_FILE_BYTES_MAX } from '../../spec/validators/constants.js';

export function createFileKeystore(path: string): KeystoreSourcePort {
  return {
    location: path,
    async read() {
      const handle = await open(path, 'r');
      try {
        const buffer = new Uint8Array(KEYSTORE_FILE_BYTES_MAX + 1);
        let length = 0;
        while (length < buffer.length) {
          const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
          if (bytesRead === 0) break;
          length += bytesRead;
        }
        return buffer.slice(0, length);
      } finally {
        await handle.close();
      }
    },
  };
}

/** Writes a keystore file readable by its owner only (it holds secret keys). */
export async function writeKeystoreFile(path: string, contents: Uint8Array): Promise<void> {
  await writeFile(path, contents, { mode: 0o600 });
  await chmod(path, 0o600);
}
