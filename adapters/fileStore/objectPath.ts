import { FILE_STORE_PATH_BYTES_MAX } from './fileStoreLimits.js';
import { FileStoreError } from './fileStoreError.js';

/** Control characters and backslashes: never part of a name we write, and a backslash is a separator on Windows. */
const FORBIDDEN_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/**
 * The segments of an object path relative to a store's base, or FILE_STORE_BAD_PATH. Refusing `.`, `..`, empty
 * segments and absolute paths here means no adapter can be steered outside its base directory, bucket prefix or URL.
 */
export function objectPathSegments(store: string, path: string): readonly string[] {
  const reason = badPathReason(path);
  if (reason !== undefined) {
    throw new FileStoreError(
      'FILE_STORE_BAD_PATH',
      `File store ${store}: bad object path ${JSON.stringify(path)}: ${reason}`,
      {
        store,
        path,
      },
    );
  }
  return path.split('/');
}

function badPathReason(path: string): string | undefined {
  if (path.length === 0) return 'it is empty';
  if (path.startsWith('/')) return 'it is absolute; paths are relative to the store';
  if (FORBIDDEN_CHARACTERS.test(path)) return 'it holds a control character or a backslash';
  if (Buffer.byteLength(path, 'utf8') > FILE_STORE_PATH_BYTES_MAX)
    return `it is over ${FILE_STORE_PATH_BYTES_MAX} bytes`;
  const segments = path.split('/');
  if (segments.some((segment) => segment === '')) return 'it has an empty segment';
  if (segments.some((segment) => segment === '.' || segment === '..')) return 'it has a "." or ".." segment';
  return undefined;
}
