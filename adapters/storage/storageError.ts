/** Stable codes of the storage adapters' expected failures. */
export type StorageErrorCode = 'STORAGE_LOCKED' | 'STORAGE_OPEN_FAILED';

export interface StorageErrorDetails {
  /** The node's data directory, as the operator configured it. */
  readonly dataDirectory: string;
  /** The database directory inside it. */
  readonly location: string;
}

/** Opening the node's database failed; `shortMessage` says what the operator can do about it. */
export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly shortMessage: string,
    readonly details: StorageErrorDetails,
    options?: { cause?: unknown },
  ) {
    super(shortMessage, options);
    this.name = 'StorageError';
  }
}
