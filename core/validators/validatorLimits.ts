/**
 * The operator's limits on what its validators attest (VALIDATOR_MAX_*), and the check of a proposed checkpoint's
 * blocks against them. Every per-block limit is measured on each block exactly, from the block's own content as its
 * proposal is gossiped (spec/validators/blockProposalContent.ts): never an average over the checkpoint.
 */
import type { BlockProposalContent } from '../../spec/validators/blockProposalContent.js';
import { txEffectsDaGas } from '../../spec/codec/txEffect.js';

/** VALIDATOR_MAX_*; an unset limit is no limit beyond the protocol's (never the sequencer's SEQ_ value). */
export interface ValidatorLimits {
  readonly maxL2BlockGas?: number;
  readonly maxDABlockGas?: number;
  readonly maxTxsPerBlock?: number;
  readonly maxTxsPerCheckpoint?: number;
}

/** What one proposed block uses. */
export interface BlockUsage {
  readonly txCount: number;
  /** The block header's totalManaUsed. */
  readonly l2Gas: bigint;
  /** DA_GAS_PER_BYTE x the size of the block's encoded tx effects: the sequencer's own measure (txEffectsDaGas). */
  readonly daGas: number;
}

export type ValidatorLimitRefusal = 'tooManyTxsPerBlock' | 'tooManyTxsPerCheckpoint' | 'tooMuchL2Gas' | 'tooMuchDAGas';

export function blockUsageOf(content: BlockProposalContent): BlockUsage {
  return {
    txCount: content.txEffects.length,
    l2Gas: content.header.totalManaUsed,
    daGas: txEffectsDaGas(content.txEffects),
  };
}

/**
 * The first VALIDATOR_MAX_* limit the checkpoint's blocks break, or undefined: txs per block, txs in the whole
 * checkpoint, then L2 gas and DA gas per block. A block exactly at a limit is within it.
 */
export function validatorLimitRefusal(
  limits: ValidatorLimits,
  blocks: readonly BlockUsage[],
): ValidatorLimitRefusal | undefined {
  const { maxTxsPerBlock, maxTxsPerCheckpoint, maxL2BlockGas, maxDABlockGas } = limits;
  if (maxTxsPerBlock !== undefined && blocks.some((b) => b.txCount > maxTxsPerBlock)) return 'tooManyTxsPerBlock';
  const txTotal = blocks.reduce((sum, b) => sum + b.txCount, 0);
  if (maxTxsPerCheckpoint !== undefined && txTotal > maxTxsPerCheckpoint) return 'tooManyTxsPerCheckpoint';
  if (maxL2BlockGas !== undefined && blocks.some((b) => b.l2Gas > BigInt(maxL2BlockGas))) return 'tooMuchL2Gas';
  if (maxDABlockGas !== undefined && blocks.some((b) => b.daGas > maxDABlockGas)) return 'tooMuchDAGas';
  return undefined;
}
