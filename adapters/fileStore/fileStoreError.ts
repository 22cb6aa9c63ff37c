import { CodedError, type CodedErrorOptions } from '../../spec/errors.js';

/** Stable codes of the file stores' expected failures (adapters/fileStore/fileStore.ts). */
export type FileStoreErrorCode =
  /** The store's URL does not parse, has a scheme this kind of store does not serve, or carries what it must not. */
  | 'FILE_STORE_BAD_URL'
  /** An object path that is absolute, empty, or would step out of the store's base (`..`, empty segments). */
  | 'FILE_STORE_BAD_PATH'
  /** The store did not answer: connection refused, name not resolved, or no progress within the idle timeout. */
  | 'FILE_STORE_UNREACHABLE'
  /** The store answered with a failure (denied, no such bucket, a broken response) or the local disk refused. */
  | 'FILE_STORE_FAILED'
  /** The object is larger than the caller (or the store) accepts; it was not read whole. */
  | 'FILE_STORE_TOO_LARGE';

export interface FileStoreErrorDetails {
  /** The store's redacted name (`FileStore.name`): never a credential. */
  readonly store: string;
  /** The object path the operation was on, when there was one. */
  readonly path?: string;
  /** The HTTP status the store answered, when it answered one. */
  readonly status?: number;
}

/** A file store operation failed; `shortMessage` names the store by its redacted name and says what failed. */
export class FileStoreError extends CodedError<FileStoreErrorCode, FileStoreErrorDetails> {
  constructor(
    code: FileStoreErrorCode,
    shortMessage: string,
    details: FileStoreErrorDetails,
    options?: CodedErrorOptions,
  ) {
    super(code, shortMessage, details, options);
    this.name = 'FileStoreError';
  }
}

/** FILE_STORE_TOO_LARGE for an object over the bound a read or download accepts. */
export function tooLargeError(store: string, path: string, maxBytes: number): FileStoreError {
  return new FileStoreError(
    'FILE_STORE_TOO_LARGE',
    `File store ${store}: ${path} is over the ${maxBytes} bytes accepted`,
    {
      store,
      path,
    },
  );
}
