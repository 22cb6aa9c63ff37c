/**
 * What the node offers to its edges (the JSON-RPC adapter, the CLI, the simulator's checkers). The RPC adapter
 * decodes wire params into these types and encodes the results; nothing here knows about JSON-RPC.
 */
import type {
  Block,
  BlockTipName,
  Checkpoint,
  CheckpointTipName,
  GasFees,
  Hex,
  L1ContractAddresses,
  L1RollupConstants,
  L2Tips,
  NodeInfo,
} from '../spec/chain.js';
import type { MerkleTreeId } from '../spec/constants.js';
import type { ContractClassPublication, ContractInstancePublication, TxEffect } from '../spec/chain.js';
import type { TxReceiptValue, TxValue } from '../spec/wire/tx.js';
import type { TxValidationResult } from './validation/txValidator.js';
import type { AllowListEntry } from '../spec/config/allowList.js';
import type { CheckpointAttestationValue, ProposalsForSlotValue } from './validators/attestationPool.js';
import type { OffenseValue, SlashRoundQuery } from './validators/offenses.js';
import type { SingleValidatorStatsValue, ValidatorsStatsValue } from './validators/stats.js';
import type { DataInBlock, MembershipWitness, NullifierMembershipWitness, PublicDataWitness } from './worldState/witnesses.js';
import type { MessageService } from './messages/messageQueries.js';

/** A block as named by a client: number, hash, archive root, or tip (`latest` is the proposed tip). */
export type BlockQuery =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'hash'; readonly hash: Hex }
  | { readonly kind: 'archive'; readonly archive: Hex }
  /** A bare 32-byte hex: a block hash, else an archive root. */
  | { readonly kind: 'hashOrArchive'; readonly value: Hex }
  | { readonly kind: 'tag'; readonly tag: 'latest' | BlockTipName };

/** A checkpoint as named by a client: number, hash or checkpoint tip. */
export type CheckpointQuery =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'hash'; readonly hash: Hex }
  | { readonly kind: 'tag'; readonly tag: CheckpointTipName };

/** The node's configuration as the admin API sees it: effective values, secrets redacted. */
export type AdminConfigView = Readonly<Record<string, unknown>>;

/** Operator controls (served on the admin port only). */
export interface NodeAdmin {
  /** Pauses the archiver (and world-state sync with it); a no-op when already paused. */
  pauseSync(): Promise<void>;
  resumeSync(): Promise<void>;
  /** OPERATION_REFUSED when this node runs no sequencer. Pending txs stay in the pool; no new blocks are built. */
  pauseSequencer(): Promise<void>;
  /** OPERATION_REFUSED when this node runs no sequencer. */
  resumeSequencer(): Promise<void>;
  getConfig(): AdminConfigView;
  /** Merges a validated partial configuration into the running node; refuses unknown keys (INVALID_PARAMS). */
  setConfig(patch: Readonly<Record<string, unknown>>): Promise<void>;
  /**
   * Rolls the chain, its indexes and the world state back to the target block, then resumes sync unless told not
   * to (spec: States). OPERATION_REFUSED above the proposed tip, below the finalized block without `force`, or while
   * another admin operation runs.
   */
  rollbackTo(targetBlockNumber: number, force: boolean, resumeSync: boolean): Promise<void>;
  /** Pauses sync and starts writing a backup of the database to `location`; returns at once. */
  startSnapshotUpload(location: string): Promise<void>;
  /** The node's operational state (Syncing, SyncPaused, RollingBack, UploadingSnapshot...). */
  operationalState(): string;
}

/** A block with what the node knows of its checkpoint's publication on L1. */
export interface BlockWithContext {
  readonly block: Block;
  /** Present once the block is in a checkpoint on L1. */
  readonly checkpoint?: Checkpoint;
}

/** How far the world state has followed the chain (svc_getWorldStateSyncStatus). */
export interface WorldStateSyncStatus {
  readonly latestBlockNumber: number;
  readonly latestBlockHash: Hex;
  readonly finalizedBlockNumber: number;
  /** The oldest block whose state queries still answer; older ones are STATE_NOT_AVAILABLE. */
  readonly oldestHistoricBlockNumber: number;
  readonly treesAreSynced: boolean;
}

/**
 * World-state queries, each as of the block `reference` names. STATE_NOT_AVAILABLE when the node does not have that
 * block or no longer keeps its state; undefined when the leaf asked about does not exist.
 */
export interface WorldStateService {
  /** A contract's public storage slot (a contract-language slot); 0 when never written. */
  getPublicStorageAt(reference: BlockQuery, contract: Hex, slot: Hex): Promise<Hex>;
  getWorldStateSyncStatus(): Promise<WorldStateSyncStatus>;
  /** One entry per value, in order: its leaf index and the block that inserted it, or undefined. */
  findLeavesIndexes(reference: BlockQuery, treeId: MerkleTreeId, leafValues: readonly Hex[]): Promise<(DataInBlock<bigint> | undefined)[]>;
  getNullifierMembershipWitness(reference: BlockQuery, nullifier: Hex): Promise<NullifierMembershipWitness | undefined>;
  /** The low leaf proving the nullifier's absence; undefined when the nullifier exists. */
  getLowNullifierMembershipWitness(reference: BlockQuery, nullifier: Hex): Promise<NullifierMembershipWitness | undefined>;
  /** The leaf holding the slot, or the low leaf bracketing it when the slot was never written. */
  getPublicDataWitness(reference: BlockQuery, leafSlot: Hex): Promise<PublicDataWitness | undefined>;
  getBlockHashMembershipWitness(reference: BlockQuery, blockHash: Hex): Promise<MembershipWitness | undefined>;
  getNoteHashMembershipWitness(reference: BlockQuery, noteHash: Hex): Promise<MembershipWitness | undefined>;
  getL1ToL2MessageMembershipWitness(reference: BlockQuery, message: Hex): Promise<readonly [bigint, MembershipWitness] | undefined>;
}

/** One log found by tag (svc_get*LogsByTags): where it is, its fields, and its tx's effects when asked for. */
export interface LogResult {
  readonly txHash: Hex;
  readonly l2BlockNumber: number;
  readonly l2BlockHash: Hex;
  readonly txIndexInBlock: number;
  readonly logIndexInTx: number;
  readonly fields: readonly Hex[];
  readonly noteHashes?: readonly Hex[];
  readonly nullifiers?: readonly Hex[];
}

/** Logs by tag: one list per tag, in the tags' order; LIMIT_EXCEEDED when a tag has more logs than the bound. */
export interface LogService {
  getPrivateLogsByTags(tags: readonly Hex[], includeEffects: boolean, logsPerTagMax: number): Promise<LogResult[][]>;
  getPublicLogsByTags(contractAddress: Hex, tags: readonly Hex[], includeEffects: boolean, logsPerTagMax: number): Promise<LogResult[][]>;
}

/** Addresses of the protocol's own contracts. */
export interface ProtocolContractAddresses {
  readonly classRegistry: Hex;
  readonly instanceRegistry: Hex;
  readonly feeAsset: Hex;
}

/** Published contract classes and instances. */
export interface ContractService {
  /** A registered contract class, or undefined. */
  getContractClass(id: Hex): Promise<ContractClassPublication | undefined>;
  /**
   * A published instance with its current class as of the reference block; undefined when never published (as of
   * that block). STATE_NOT_AVAILABLE when the node does not have the reference block.
   */
  getContract(address: Hex, reference: BlockQuery): Promise<ContractInstancePublication | undefined>;
  getProtocolContractAddresses(): ProtocolContractAddresses;
}

/** A mined tx's effect with where it is. */
export interface IndexedTxEffect {
  readonly data: TxEffect;
  readonly l2BlockNumber: number;
  readonly l2BlockHash: Hex;
  readonly txIndexInBlock: number;
}

export interface TxReceiptOptions {
  readonly includeTxEffect?: boolean;
  readonly includePendingTx?: boolean;
  readonly includeProof?: boolean;
}

/** What public simulation reports (svc_simulatePublicCalls). */
export interface PublicSimulationResult {
  readonly executionResult: TxEffect['executionResult'];
  readonly gasUsed: { readonly totalGas: { readonly daGas: number; readonly l2Gas: number }; readonly publicGas: { readonly daGas: number; readonly l2Gas: number } };
  readonly publicReturnValues: readonly (readonly Hex[])[];
}

export interface SimulationOverridesInput {
  readonly publicStorage?: readonly { readonly contractAddress: Hex; readonly slot: Hex; readonly value: Hex }[];
  readonly contractInstances?: readonly ContractInstancePublication[];
}

/** Transactions: submission, the pool, receipts, validation and simulation. */
export interface TxService {
  /** Validates and pools a tx; INVALID_PARAMS naming every reason, or a pool rejection (TxRejectedError). */
  sendTx(tx: TxValue): Promise<void>;
  getTxReceipt(txHash: Hex, options: TxReceiptOptions): Promise<TxReceiptValue>;
  getTxEffect(txHash: Hex): Promise<IndexedTxEffect | undefined>;
  /** A pending tx, its proof stripped unless asked for. */
  getTxByHash(txHash: Hex, includeProof: boolean): Promise<TxValue | undefined>;
  getTxsByHash(txHashes: readonly Hex[], includeProof: boolean): Promise<TxValue[]>;
  /** Pending txs in priority order after the `after` cursor (from the start when absent). */
  getPendingTxs(limit: number, after: Hex | undefined, includeProof: boolean): Promise<TxValue[]>;
  getPendingTxCount(): Promise<number>;
  getMaxPriorityFees(): Promise<GasFees>;
  isValidTx(tx: TxValue, options: { readonly isSimulation?: boolean; readonly skipFeeEnforcement?: boolean }): Promise<TxValidationResult>;
  simulatePublicCalls(tx: TxValue, skipFeeEnforcement: boolean, overrides: SimulationOverridesInput): Promise<PublicSimulationResult>;
  /** The setup-phase allow list in force: the built-in entries, then the network's and the operator's extensions. */
  getAllowedPublicSetup(): readonly AllowListEntry[];
}

/** The validator subsystem's queries (svc_getValidatorsStats ... svcAdmin_reloadKeystore). */
export interface ValidatorService {
  getValidatorsStats(): Promise<ValidatorsStatsValue>;
  /** undefined when the validator had no duty in the kept history; INVALID_PARAMS when fromSlot > toSlot. */
  getValidatorStats(address: Hex, fromSlot?: number, toSlot?: number): Promise<SingleValidatorStatsValue | undefined>;
  getCheckpointAttestationsForSlot(slot: number, proposalPayloadHash?: Hex): CheckpointAttestationValue[];
  getProposalsForSlot(slot: number): ProposalsForSlotValue;
  getSlashOffenses(query: SlashRoundQuery): OffenseValue[];
  /** Rereads the keystore; OPERATION_REFUSED (nothing changes) when it is invalid or names an unknown publisher. */
  reloadKeystore(): Promise<void>;
}

export interface NodeService extends WorldStateService, LogService, ContractService, TxService, MessageService {
  /** Absent when the node ignores the L1 validator set. */
  readonly validators?: ValidatorService;
  getBlockNumber(tip?: BlockTipName): Promise<number>;
  getCheckpointNumber(tip?: CheckpointTipName): Promise<number>;
  getChainTips(): Promise<L2Tips>;
  /** undefined when the node has no such block. */
  getBlock(query: BlockQuery): Promise<BlockWithContext | undefined>;
  getCheckpoint(checkpointNumber: number): Promise<Checkpoint | undefined>;
  /** Up to `limit` blocks from `from` (fewer at the proposed tip); the RPC layer bounds `limit`. */
  getBlocks(from: number, limit: number): Promise<BlockWithContext[]>;
  findCheckpoint(query: CheckpointQuery): Promise<Checkpoint | undefined>;
  /** Up to `limit` checkpoints from `from` (fewer at the checkpointed tip). */
  getCheckpoints(from: number, limit: number): Promise<Checkpoint[]>;
  /** The checkpoints whose slots fall in `epoch`, in order (empty when none is known). */
  getCheckpointsInEpoch(epoch: number): Promise<Checkpoint[]>;
  /** Last L2 slot for which the node has all L1 data needed to build the next checkpoint; undefined before sync. */
  getSyncedL2SlotNumber(): number | undefined;
  /** Last epoch all of whose slots the node has synced from L1; undefined before the first. */
  getSyncedL2EpochNumber(): number | undefined;
  /** Timestamp of the last L1 block the archiver processed; undefined before sync. */
  getSyncedL1Timestamp(): bigint | undefined;
  readonly admin: NodeAdmin;
  /** The minimum fees per gas a tx must offer to enter the next checkpoint. */
  getCurrentMinFees(): Promise<GasFees>;
  /** The current minimum fees, then a forecast per coming slot under the given mana usage. */
  getPredictedMinFees(manaUsage: 'none' | 'target' | 'limit'): Promise<GasFees[]>;
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
