/**
 * What the node offers to its edges (the JSON-RPC adapter, the CLI, the simulator's checkers). The RPC adapter
 * decodes wire params into these types and encodes the results; nothing here knows about JSON-RPC.
 */
import type {
  Block,
  BlockTipName,
  Checkpoint,
  CheckpointTipName,
  Hex,
  L1ContractAddresses,
  L1RollupConstants,
  L2Tips,
  NodeInfo,
} from '../spec/chain.js';

/** A block as named by a client: number, hash, archive root, or tip (`latest` is the proposed tip). */
export type BlockQuery =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'hash'; readonly hash: Hex }
  | { readonly kind: 'archive'; readonly archive: Hex }
  /** A bare 32-byte hex: a block hash, else an archive root. */
  | { readonly kind: 'hashOrArchive'; readonly value: Hex }
  | { readonly kind: 'tag'; readonly tag: 'latest' | BlockTipName };

/** A block with what the node knows of its checkpoint's publication on L1. */
export interface BlockWithContext {
  readonly block: Block;
  /** Present once the block is in a checkpoint on L1. */
  readonly checkpoint?: Checkpoint;
}

export interface NodeService {
  getBlockNumber(tip?: BlockTipName): Promise<number>;
  getCheckpointNumber(tip?: CheckpointTipName): Promise<number>;
  getChainTips(): Promise<L2Tips>;
  /** undefined when the node has no such block. */
  getBlock(query: BlockQuery): Promise<BlockWithContext | undefined>;
  getCheckpoint(checkpointNumber: number): Promise<Checkpoint | undefined>;
  getL1Constants(): L1RollupConstants;
  getNodeInfo(): NodeInfo;
  getNodeVersion(): string;
  /** The rollup version. */
  getVersion(): number;
  /** The L1 chain id. */
  getChainId(): number;
  getL1ContractAddresses(): L1ContractAddresses;
  /** Ready to accept transactions: started, and synced to the L1 head seen at the last sync step. */
  isReady(): boolean;
}
