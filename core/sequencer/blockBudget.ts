/**
 * How much one proposed block may use (spec: Limits, block and checkpoint limits): per block, (checkpoint limit /
 * blocks in the checkpoint) x multiplier for L2 gas (mana) and DA gas, unless explicitly set; either way never more
 * than the checkpoint limit, nor more than what the checkpoint's earlier blocks left. Txs per block are capped by
 * TXS_PER_BLOCK_MAX, and per checkpoint by `maxTxsPerCheckpoint` when set.
 */
import {
  BLOCKS_PER_CHECKPOINT_MAX,
  CHECKPOINT_DA_GAS_LIMIT,
  CHECKPOINT_MANA_LIMIT,
  DA_GAS_PER_BYTE,
  TXS_PER_BLOCK_MAX,
} from '../../spec/constants.js';
import { BLOCK_HEADER_BYTES } from '../../spec/codec/blockHeader.js';

/** Blob bytes a checkpoint spends on framing and block headers, whatever its txs: kept out of the DA budget. */
const CHECKPOINT_BLOB_OVERHEAD_BYTES = 4 + 1 + 2 + BLOCKS_PER_CHECKPOINT_MAX * (BLOCK_HEADER_BYTES + 4);
/** DA gas the txs of one checkpoint may use in all. */
export const CHECKPOINT_TX_DA_GAS_LIMIT = CHECKPOINT_DA_GAS_LIMIT - DA_GAS_PER_BYTE * CHECKPOINT_BLOB_OVERHEAD_BYTES;

export interface BlockBudgetSettings {
  readonly maxL2BlockGas?: number;
  readonly maxDABlockGas?: number;
  readonly perBlockAllocationMultiplier: number;
  readonly maxTxsPerCheckpoint?: number;
}

export interface CheckpointUsage {
  readonly manaUsed: number;
  readonly daGasUsed: number;
  readonly txCount: number;
}

export interface BlockBudget {
  readonly l2Gas: number;
  readonly daGas: number;
  readonly txCount: number;
}

const perBlock = (checkpointLimit: number, blocksInCheckpoint: number, multiplier: number): number =>
  Math.floor((checkpointLimit / blocksInCheckpoint) * multiplier);

export function blockBudget(
  settings: BlockBudgetSettings,
  blocksInCheckpoint: number,
  used: CheckpointUsage,
): BlockBudget {
  const blocks = Math.max(1, blocksInCheckpoint);
  const l2Cap = Math.min(
    settings.maxL2BlockGas ?? perBlock(CHECKPOINT_MANA_LIMIT, blocks, settings.perBlockAllocationMultiplier),
    CHECKPOINT_MANA_LIMIT,
  );
  const daCap = Math.min(
    settings.maxDABlockGas ?? perBlock(CHECKPOINT_TX_DA_GAS_LIMIT, blocks, settings.perBlockAllocationMultiplier),
    CHECKPOINT_TX_DA_GAS_LIMIT,
  );
  const checkpointTxCap =
    settings.maxTxsPerCheckpoint === undefined ? Number.MAX_SAFE_INTEGER : settings.maxTxsPerCheckpoint - used.txCount;
  const txCap = Math.min(checkpointTxCap, TXS_PER_BLOCK_MAX);
  return {
    l2Gas: Math.max(0, Math.min(l2Cap, CHECKPOINT_MANA_LIMIT - used.manaUsed)),
    daGas: Math.max(0, Math.min(daCap, CHECKPOINT_TX_DA_GAS_LIMIT - used.daGasUsed)),
    txCount: Math.max(0, txCap),
  };
}
