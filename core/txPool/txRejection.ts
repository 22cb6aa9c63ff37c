/**
 * Why the pool refused a tx submitted over RPC (spec, Errors: the rejection codes of a -32003 answer), with the
 * figures that decided it. Admission returns a rejection as a value; `txRejectedError` turns it into the error a
 * caller throws, whose `details` (plus `code`) become `error.data`.
 */
import type { Hex } from '../../spec/chain.js';
import { CodedError } from '../../spec/errors.js';
import type { TxRejectionCode } from '../../spec/rpc/errorCodes.js';

export interface NullifierConflictDetails {
  readonly txHash: Hex;
  readonly priorityFee: bigint;
  /** The shared nullifier and the pooled tx that demands the most to be replaced. */
  readonly nullifier: Hex;
  readonly conflictingTxHash: Hex;
  readonly conflictingPriorityFee: bigint;
  /** How many pooled txs share a nullifier with this one; all must be outbid. */
  readonly conflictingTxCount: number;
  /** The least priority fee that replaces every conflicting tx. */
  readonly minimumPriorityFee: bigint;
  readonly priceBumpPercentage: number;
}

export interface LowPriorityFeeDetails {
  readonly txHash: Hex;
  readonly priorityFee: bigint;
  /** The pool's lowest-ranked tx, which a newcomer must outbid to enter a full pool. */
  readonly lowestTxHash: Hex;
  readonly lowestPriorityFee: bigint;
  readonly minimumPriorityFee: bigint;
  readonly priceBumpPercentage: number;
  readonly capacity: number;
}

export interface InsufficientFeePayerBalanceDetails {
  readonly txHash: Hex;
  readonly feePayer: Hex;
  readonly balance: bigint;
  /** The tx's max cost plus what the payer's higher-ranked pooled txs may cost. */
  readonly needed: bigint;
  readonly txMaxCost: bigint;
}

export type TxRejection =
  | { readonly code: 'NULLIFIER_CONFLICT'; readonly details: NullifierConflictDetails }
  | { readonly code: 'LOW_PRIORITY_FEE'; readonly details: LowPriorityFeeDetails }
  | { readonly code: 'INSUFFICIENT_FEE_PAYER_BALANCE'; readonly details: InsufficientFeePayerBalanceDetails };

// A new rejection must use a code the spec lists.
type AssertSpecCodes<Code extends TxRejectionCode> = Code;
export type PoolRejectionCode = AssertSpecCodes<TxRejection['code']>;

export class TxRejectedError extends CodedError<TxRejectionCode, TxRejection['details']> {
  constructor(rejection: TxRejection, shortMessage: string) {
    super(rejection.code, shortMessage, rejection.details);
    this.name = 'TxRejectedError';
  }
}

export function txRejectedError(rejection: TxRejection): TxRejectedError {
  return new TxRejectedError(rejection, describeRejection(rejection));
}

export function describeRejection(rejection: TxRejection): string {
  switch (rejection.code) {
    case 'NULLIFIER_CONFLICT': {
      const d = rejection.details;
      return `tx ${d.txHash} shares nullifier ${d.nullifier} with pooled tx ${d.conflictingTxHash}: replacing it needs a priority fee of at least ${d.minimumPriorityFee} (offered ${d.priorityFee}, bump ${d.priceBumpPercentage}%)`;
    }
    case 'LOW_PRIORITY_FEE': {
      const d = rejection.details;
      return `the pool is full (${d.capacity} txs): entering needs a priority fee of at least ${d.minimumPriorityFee} to outbid tx ${d.lowestTxHash} (offered ${d.priorityFee}, bump ${d.priceBumpPercentage}%)`;
    }
    case 'INSUFFICIENT_FEE_PAYER_BALANCE': {
      const d = rejection.details;
      return `fee payer ${d.feePayer} has a balance of ${d.balance}, but its pending txs up to tx ${d.txHash} may cost ${d.needed}`;
    }
  }
}
