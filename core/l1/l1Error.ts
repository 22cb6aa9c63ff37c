/** The expected failures of the L1 ports (L1ReaderPort, L1PublisherPort in core/ports.ts) and of the L1 sender. */
import { CodedError, type CodedErrorOptions, type NoDetails } from '../../spec/errors.js';

/** Stable codes of the L1 port's expected failures. */
export type L1ErrorCode =
  | 'L1_UNREACHABLE'
  | 'L1_BLOCK_NOT_FOUND'
  | 'L1_BLOBS_UNAVAILABLE'
  | 'L1_NO_ROLLUP_CONTRACT'
  | 'L1_TX_REJECTED'
  /** The L1 node refused a replacement at a nonce: its fees do not beat the pending transaction's by the bump. */
  | 'L1_TX_UNDERPRICED'
  /** The L1 node refused a replacement at a nonce: the pending transaction is of the other kind (blob or not). */
  | 'L1_TX_KIND_CONFLICT'
  /** The publisher did not send: the fees a replacement needs exceed its cap (core/l1/l1TxFees.ts). */
  | 'L1_FEE_CAP_EXCEEDED';

export class L1Error extends CodedError<L1ErrorCode, NoDetails> {
  constructor(code: L1ErrorCode, message: string, options?: CodedErrorOptions) {
    super(code, message, {}, options);
    this.name = 'L1Error';
  }
}
