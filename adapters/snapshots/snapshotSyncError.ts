import { CodedError, type CodedErrorOptions } from '../../spec/errors.js';

/** Why a node refused the snapshot it picked (adapters/snapshots/snapshotSync.ts); it then syncs from L1. */
export type SnapshotRefusalCode =
  /** The data file could not be downloaded: the store failed or no longer has it. */
  | 'SNAPSHOT_DOWNLOAD_FAILED'
  /** The data file is shorter than its index entry says. */
  | 'SNAPSHOT_TRUNCATED'
  /** The data file's size or SHA-256 differs from its index entry. */
  | 'SNAPSHOT_BAD_CHECKSUM'
  /** The data file is not gzip of the snapshot lines its index entry describes. */
  | 'SNAPSHOT_MALFORMED'
  /** The snapshot is of another L1 chain, rollup, rollup version or database schema. */
  | 'SNAPSHOT_OTHER_CHAIN'
  /** The snapshot is not newer than the data the node already has (force-snapshot). */
  | 'SNAPSHOT_OLDER_THAN_LOCAL'
  /** The node's own database could not be read or replaced. */
  | 'SNAPSHOT_LOCAL_DATABASE'
  /** Anything else failed while installing it (the local disk, say). */
  | 'SNAPSHOT_INSTALL_FAILED';

export interface SnapshotRefusalDetails {
  /** The store's redacted name. */
  readonly store?: string;
  readonly dataFile?: string;
}

export class SnapshotRefusedError extends CodedError<SnapshotRefusalCode, SnapshotRefusalDetails> {
  constructor(
    code: SnapshotRefusalCode,
    shortMessage: string,
    details: SnapshotRefusalDetails = {},
    options?: CodedErrorOptions,
  ) {
    super(code, shortMessage, details, options);
    this.name = 'SnapshotRefusedError';
  }
}
