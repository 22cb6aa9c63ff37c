/** The expected failures of the HTTP blob sources (BlobSourcePort in core/ports.ts). */
import { CodedError, type CodedErrorOptions } from '../../spec/errors.js';

export type BlobSourceErrorCode =
  /** No answer: the connection failed, or the answer did not come in time. */
  | 'BLOB_SOURCE_UNREACHABLE'
  /** The source answered an error status (5xx, 429, 401, ...). */
  | 'BLOB_SOURCE_HTTP_ERROR'
  /** The answer is not what the API serves: too large, not JSON, the wrong shape. */
  | 'BLOB_SOURCE_BAD_RESPONSE'
  /** The source answers but cannot serve this node: another chain, or no way to find a block's slot. */
  | 'BLOB_SOURCE_UNUSABLE';

export interface BlobSourceErrorDetails {
  /** The source's redacted name (BlobSourcePort.name), never its URL. */
  readonly source: string;
  /** The HTTP status, when the source answered one. */
  readonly status?: number;
}

export class BlobSourceError extends CodedError<BlobSourceErrorCode, BlobSourceErrorDetails> {
  constructor(
    code: BlobSourceErrorCode,
    message: string,
    details: BlobSourceErrorDetails,
    options?: CodedErrorOptions,
  ) {
    super(code, message, details, options);
    this.name = 'BlobSourceError';
  }
}
