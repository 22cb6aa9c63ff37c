import { CodedError, type CodedErrorOptions } from '../../spec/errors.js';

/** Stable codes of the storage adapters' expected failures. */
export type StorageErrorCode = 'STORAGE_LOCKED' | 'STORAGE_OPEN_FAILED';

export interface StorageErrorDetails {
  /** The node's data directory, as the operator configured it. */
  readonly dataDirectory: string;
  /** The database directory inside it. */
  readonly location: string;
}

/** Opening the node's database failed; `shortMessage` says what the operator can do about it. */
export class StorageError extends CodedError<StorageErrorCode, StorageErrorDetails> {
  constructor(code: StorageErrorCode, shortMessage: string, details: StorageErrorDetails, options?: CodedErrorOptions) {
    super(code, shortMessage, details, options);
    this.name = 'StorageError';
  }
}
