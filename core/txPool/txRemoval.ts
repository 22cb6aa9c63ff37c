/**
 * Why the pool let a tx go, with the figures that decided it. Every decision that removes txs (admission,
 * maintenance after blocks, the return of pruned txs, loading into a smaller pool) reports one entry per tx.
 */
import type { GasFees, Hex } from '../../spec/chain.js';

export type TxRemoval =
  /** Replaced over RPC by a tx sharing a nullifier and paying at least the bump more. */
  | {
      readonly txHash: Hex;
      readonly reason: 'replaced';
      readonly byTxHash: Hex;
      readonly priorityFee: bigint;
      readonly replacementPriorityFee: bigint;
    }
  /** The lowest-priority tx of a full pool, outbid by a newcomer. */
  | {
      readonly txHash: Hex;
      readonly reason: 'poolFull';
      readonly byTxHash: Hex;
      readonly priorityFee: bigint;
      readonly newcomerPriorityFee: bigint;
    }
  /**
   * Walking the payer's txs highest priority first, this one did not fit: `needed` is what the payer's higher-ranked
   * kept txs and this one cost together, above `balance`.
   */
  | {
      readonly txHash: Hex;
      readonly reason: 'feePayerBalance';
      readonly feePayer: Hex;
      readonly balance: bigint;
      readonly needed: bigint;
    }
  /** Included in an added block. */
  | { readonly txHash: Hex; readonly reason: 'mined' }
  /** Another tx put one of its nullifiers in the tree. */
  | { readonly txHash: Hex; readonly reason: 'nullifierMined'; readonly nullifier: Hex }
  /** Its max fee per gas fell below the minimum fee per gas in one dimension. */
  | {
      readonly txHash: Hex;
      readonly reason: 'feeBelowMinimum';
      readonly maxFeesPerGas: GasFees;
      readonly minFeesPerGas: GasFees;
    }
  /** Its anchor block is no longer kept (pruned from history, or removed from the chain). */
  | { readonly txHash: Hex; readonly reason: 'anchorPruned'; readonly anchorBlockHash: Hex }
  /** It expires before the next slot. */
  | {
      readonly txHash: Hex;
      readonly reason: 'expired';
      readonly expirationTimestamp: bigint;
      readonly nextSlotTimestamp: bigint;
    }
  /** A tx returning after a prune and a pooled tx shared a nullifier: the one ranked lower goes. */
  | { readonly txHash: Hex; readonly reason: 'nullifierConflict'; readonly keptTxHash: Hex; readonly nullifier: Hex }
  /** The pool was loaded with a smaller capacity than the txs stored: the lowest-ranked ones go. */
  | { readonly txHash: Hex; readonly reason: 'overCapacity'; readonly capacity: number };

export type TxRemovalReason = TxRemoval['reason'];
