/**
 * Chain types shared by the core, the adapters and the simulator. Wire shapes that docs/protocol.md fixes are marked;
 * the rest is this project's layout (documented in docs/protocol.md).
 */

/** A `0x`-prefixed lowercase hex string. */
export type Hex = `0x${string}`;

/** docs/protocol.md, Block data: `{ root: Fr, nextAvailableLeafIndex: number }`, the tree as it stood after a block. */
export interface TreeSnapshot {
  readonly root: Hex;
  readonly nextAvailableLeafIndex: number;
}

/** docs/protocol.md, Block data: the four state trees held in `BlockData.header.state`. */
export interface StateReference {
  readonly l1ToL2MessageTree: TreeSnapshot;
  readonly noteHashTree: TreeSnapshot;
  readonly nullifierTree: TreeSnapshot;
  readonly publicDataTree: TreeSnapshot;
}

export interface GasFees {
  readonly feePerDaGas: bigint;
  readonly feePerL2Gas: bigint;
}

export interface GlobalVariables {
  readonly chainId: number;
  readonly version: number;
  readonly blockNumber: number;
  readonly slotNumber: number;
  /** Seconds since the Unix epoch. */
  readonly timestamp: bigint;
  /** L1 address that receives the proposer's L1 rewards (20 bytes). */
  readonly coinbase: Hex;
  /** L2 address that receives the block's fees (32 bytes). */
  readonly feeRecipient: Hex;
  readonly gasFees: GasFees;
}

export interface ContentCommitment {
  /** Commitment to the block's tx effects. */
  readonly txsEffectsHash: Hex;
  /** Commitment to the L1-to-L2 messages made available by the block. */
  readonly inHash: Hex;
  /** Commitment to the L2-to-L1 messages emitted by the block. */
  readonly outHash: Hex;
}

export interface BlockHeader {
  /** The archive tree before this block was added. */
  readonly lastArchive: TreeSnapshot;
  readonly state: StateReference;
  readonly globalVariables: GlobalVariables;
  readonly contentCommitment: ContentCommitment;
  readonly totalFees: bigint;
  readonly totalManaUsed: bigint;
}

/** How a mined tx's public execution ended: `success`, or the phase(s) that reverted (the tx still pays). */
export type ExecutionResult = 'success' | 'appLogicReverted' | 'teardownReverted' | 'bothReverted';

/** A write to the public data tree: the leaf slot (hashToField(contract || slot)) and its new value. */
export interface PublicDataWrite {
  readonly leafSlot: Hex;
  readonly value: Hex;
}

export interface PrivateLog {
  readonly tag: Hex;
  readonly fields: readonly Hex[];
}

export interface PublicLog {
  readonly contractAddress: Hex;
  readonly tag: Hex;
  readonly fields: readonly Hex[];
}

/** A contract class made public: its id and public bytecode (spec/wire/contracts.ts, ContractClassPublic). */
export interface ContractClassPublication {
  readonly id: Hex;
  readonly version: number;
  readonly artifactHash: Hex;
  readonly privateFunctionsRoot: Hex;
  readonly publicBytecodeCommitment: Hex;
  readonly packedBytecode: Hex;
}

/**
 * A contract instance made public (ContractInstanceWithAddress). A later publication for the same address with
 * another `currentContractClassId` (and the same `originalContractClassId`) is a class update.
 */
export interface ContractInstancePublication {
  readonly address: Hex;
  readonly version: number;
  readonly salt: Hex;
  readonly deployer: Hex;
  readonly currentContractClassId: Hex;
  readonly originalContractClassId: Hex;
  readonly initializationHash: Hex;
  readonly publicKeysHash: Hex;
}

/**
 * What a mined tx changed: the side effects a block applies to the world state and carries in its blobs. Every
 * list is bounded per tx (spec/constants.ts, `*_PER_TX_MAX`); a mined tx emits at least one nullifier.
 */
export interface TxEffect {
  readonly txHash: Hex;
  readonly executionResult: ExecutionResult;
  /** Fee paid, in the fee asset's smallest unit. */
  readonly transactionFee: bigint;
  readonly noteHashes: readonly Hex[];
  readonly nullifiers: readonly Hex[];
  /** Each message's hash (the leaf the L1 outbox checks). */
  readonly l2ToL1Messages: readonly Hex[];
  readonly publicDataWrites: readonly PublicDataWrite[];
  readonly privateLogs: readonly PrivateLog[];
  readonly publicLogs: readonly PublicLog[];
  readonly contractClassPublications: readonly ContractClassPublication[];
  readonly contractInstancePublications: readonly ContractInstancePublication[];
}

export interface Block {
  readonly header: BlockHeader;
  /** hashToField(encodeBlockHeader(header)); also the block's leaf in the archive tree. */
  readonly hash: Hex;
  /** The archive tree after this block was added. */
  readonly archive: TreeSnapshot;
  readonly body: { readonly txEffects: readonly TxEffect[] };
  /** Checkpoint this block belongs to (the one being built, for a proposed block). */
  readonly checkpointNumber: number;
  readonly indexWithinCheckpoint: number;
}

export interface BlockRef {
  readonly number: number;
  readonly hash: Hex;
}

export interface CheckpointRef {
  readonly number: number;
  readonly hash: Hex;
}

/** The header a proposer publishes to L1 with a checkpoint. */
export interface CheckpointHeader {
  readonly lastArchiveRoot: Hex;
  readonly slotNumber: number;
  readonly timestamp: bigint;
  readonly coinbase: Hex;
  readonly feeRecipient: Hex;
  readonly gasFees: GasFees;
  readonly blockCount: number;
  /** hashToField of the concatenated blob versioned hashes. */
  readonly blobsHash: Hex;
  readonly totalManaUsed: bigint;
  /** The running hash of the L1-to-L2 messages this checkpoint consumes (spec/messages/inbox.ts). */
  readonly inHash: Hex;
  /** Root of the checkpoint's L2-to-L1 messages over its blocks (spec/messages/outbox.ts). */
  readonly outHash: Hex;
}

/** Where on L1 a checkpoint was published. */
export interface L1PublishInfo {
  readonly blockNumber: bigint;
  readonly blockHash: Hex;
  readonly timestamp: bigint;
  readonly txHash: Hex;
}

export interface Checkpoint {
  readonly number: number;
  readonly header: CheckpointHeader;
  /** Archive root after the checkpoint's last block (the value recorded on L1). */
  readonly archiveRoot: Hex;
  /** hashToField(encodeCheckpointHeader(header) || archiveRoot). */
  readonly hash: Hex;
  readonly firstBlockNumber: number;
  readonly blockCount: number;
  readonly blobVersionedHashes: readonly Hex[];
  readonly l1: L1PublishInfo;
  /**
   * The committee's attestations published on L1 with the checkpoint, in committee order, each with its attester
   * resolved from the seat it named (the quorum check resolved and verified them when the node synced it). Empty
   * when the checkpoint's epoch had no committee, and on a node that ignores the validator set: without the
   * committee it cannot tell who signed.
   */
  readonly attestations: readonly CommitteeSignature[];
}

/** One committee member's signature of a checkpoint's proposal payload hash, in the attester role. */
export interface CommitteeSignature {
  /** The member's L1 address. */
  readonly attester: Hex;
  /** Its compressed BLS signature, 96 bytes. */
  readonly signature: Hex;
}

/** L2Tips, 4.0.0 shape (spec: Resources, Chain tips). */
export interface L2Tips {
  readonly proposed: BlockRef;
  readonly checkpointed: { readonly block: BlockRef; readonly checkpoint: CheckpointRef };
  readonly proven: { readonly block: BlockRef; readonly checkpoint: CheckpointRef };
  readonly finalized: { readonly block: BlockRef; readonly checkpoint: CheckpointRef };
}

export type BlockTipName = 'proposed' | 'checkpointed' | 'proven' | 'finalized';
export type CheckpointTipName = 'checkpointed' | 'proven' | 'finalized';

/** Rollup constants read from the L1 rollup contract (docs/protocol.md, Time). */
export interface L1RollupConstants {
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  readonly l1StartBlock: bigint;
  /** Unix seconds of L2 slot 0's start. */
  readonly l1GenesisTime: bigint;
  readonly slotDuration: number;
  readonly epochDuration: number;
  readonly ethereumSlotDuration: number;
  readonly proofSubmissionEpochs: number;
  /** Archive root of the genesis state (leaf 0 = genesis block hash). */
  readonly genesisArchiveRoot: Hex;
  /**
   * Base currency per unit of fee asset, scaled by ETH_PER_FEE_ASSET_PRECISION (10^12), fixed when the rollup
   * contract was deployed (`--initialEthPerFeeAsset`): the rate the fee floors are converted with.
   */
  readonly ethPerFeeAsset: bigint;
}

export interface L1ContractAddresses {
  readonly rollupAddress: Hex;
  /** Where L1-to-L2 messages are sent (deployed by the rollup: contracts/Inbox.sol). */
  readonly inboxAddress: Hex;
  /** Where L2-to-L1 messages are consumed (deployed by the rollup: contracts/Outbox.sol). */
  readonly outboxAddress: Hex;
}

export interface NodeInfo {
  readonly nodeVersion: string;
  readonly contractLanguageVersion: string;
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  readonly protocolVersion: number;
  readonly l1ContractAddresses: L1ContractAddresses;
}

/**
 * Where an added block came from: `proposed`, a block of the slot being built, ahead of L1 (by this node's own
 * sequencer from its pool, or followed from a peer's gossiped block proposal: then the blocksAdded event names the
 * peer), or `l1`, a block of a checkpoint synced from L1 (whoever built it; possibly this node before a restart or a
 * prune).
 */
export type BlockOrigin = 'proposed' | 'l1';

/** Chain changes, as one union; every consumer switches over it exhaustively. */
export type ChainEvent =
  | {
      readonly type: 'blocksAdded';
      readonly blocks: readonly Block[];
      readonly origin: BlockOrigin;
      /** A proposed block followed from gossip: the peer that sent its proposal (absent: this node built it). */
      readonly peer?: string;
    }
  | { readonly type: 'chainCheckpointed'; readonly checkpoint: Checkpoint; readonly block: BlockRef }
  | { readonly type: 'chainProven'; readonly checkpoint: CheckpointRef; readonly block: BlockRef }
  | { readonly type: 'chainFinalized'; readonly checkpoint: CheckpointRef; readonly block: BlockRef }
  | {
      readonly type: 'chainPruned';
      readonly toBlock: BlockRef;
      /** The checkpointed tip after the prune (unchanged unless the prune reached below it). */
      readonly checkpointed: { readonly block: BlockRef; readonly checkpoint: CheckpointRef };
      readonly reason: ChainPruneReason;
    };

export type ChainPruneReason =
  'slotPassedWithoutCheckpoint' | 'checkpointMismatch' | 'l1Reorg' | 'epochNotProven' | 'rollback';
