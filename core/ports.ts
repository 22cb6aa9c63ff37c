/**
 * Every way the core reaches the world. A port is a record of functions passed in explicitly; the core never reads
 * the clock, randomness, storage, the network or L1 any other way. Production binds these in `adapters/`, the
 * simulator in `sim/`.
 */
import type { AbstractBatchOptions, AbstractLevel } from 'abstract-level';
import type { Hex, L1RollupConstants } from '../spec/chain.js';
import type { BlockProposalPayload, CheckpointProposalPayload } from '../spec/validators/signingPayloads.js';
import type { TxValue } from '../spec/wire/tx.js';
import type { SnapshotChain, SnapshotIndexEntry, SnapshotPoint } from '../spec/snapshots/snapshotFormat.js';

// ---------------------------------------------------------------------------------------------------------------
// Clock

/** Opaque timer handle. */
export type TimerId = unknown;

/**
 * Time and timers. `now()` is Unix milliseconds. `setTimeout`/`clearTimeout` have the shape xstate's actor `clock`
 * option expects, so machines' delayed transitions run on this clock too.
 */
export interface ClockPort {
  now(): number;
  setTimeout(callback: () => void, delayMs: number): TimerId;
  clearTimeout(id: TimerId): void;
}

// ---------------------------------------------------------------------------------------------------------------
// Randomness

export interface RandomnessPort {
  /** Uniform 32-bit unsigned integer. */
  nextUint32(): number;
  /** `length` uniform random bytes. */
  bytes(length: number): Uint8Array;
}

// ---------------------------------------------------------------------------------------------------------------
// Logger

export type LogFields = Readonly<Record<string, unknown>>;

export interface LoggerPort {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(bindings: LogFields): LoggerPort;
}

// ---------------------------------------------------------------------------------------------------------------
// Storage

/**
 * The abstract-level interface with string keys and string values, so `memory-level` (simulator, tests) and
 * `classic-level` (production) both fit. Atomic multi-key writes go through `batch()`.
 */
export type StoragePort = AbstractLevel<string | Uint8Array, string, string>;

export type StorageOp =
  | { readonly type: 'put'; readonly key: string; readonly value: string }
  | { readonly type: 'del'; readonly key: string };

/**
 * Writes a batch atomically but without waiting for the disk flush (the production adapter flushes every other
 * write: adapters/storage/classicLevelStorage.ts). For data a machine crash may lose at no harm to the chain, such
 * as the tx pool's admissions, which would otherwise cost a flush each; never for blocks or world state.
 */
export function batchWithoutFlush(storage: StoragePort, ops: readonly StorageOp[]): Promise<void> {
  // `sync` is classic-level's write option, which abstract-level's option type does not declare; other stores ignore it.
  const options = { sync: false } as AbstractBatchOptions<string | Uint8Array, string>;
  return storage.batch([...ops], options);
}

// ---------------------------------------------------------------------------------------------------------------
// L1

export type L1BlockTag = bigint | 'latest' | 'finalized';

export interface L1BlockRef {
  readonly number: bigint;
  readonly hash: Hex;
  readonly parentHash: Hex;
  /** Unix seconds. */
  readonly timestamp: bigint;
}

/** One `CheckpointProposed` event of the rollup contract, with where it landed. */
export interface CheckpointProposedLog {
  readonly checkpointNumber: number;
  /** Archive root after the checkpoint's last block. */
  readonly archive: Hex;
  readonly slotNumber: number;
  /** Encoded CheckpointHeader (spec/codec/checkpointHeader.ts). */
  readonly header: Hex;
  readonly blobVersionedHashes: readonly Hex[];
  /** The committee's attestations published with it (spec/validators/checkpointAttestations.ts), as emitted. */
  readonly attestations: Hex;
  readonly l1: {
    readonly blockNumber: bigint;
    readonly blockHash: Hex;
    readonly txHash: Hex;
    readonly logIndex: number;
  };
}

/** Where on L1 a rollup contract event was emitted. */
export interface L1LogPosition {
  readonly blockNumber: bigint;
  readonly blockHash: Hex;
  readonly txHash: Hex;
  readonly logIndex: number;
}

/** One `EpochProven` event: L1 accepted the proof of an epoch's checkpoints `fromCheckpoint..toCheckpoint`. */
export interface EpochProvenLog {
  readonly epoch: number;
  readonly fromCheckpoint: number;
  readonly toCheckpoint: number;
  /** Archive root after `toCheckpoint`. */
  readonly endArchive: Hex;
  /** Root of the epoch's L2-to-L1 messages, handed to the outbox (zero when the epoch has none). */
  readonly outHash: Hex;
  readonly l1: L1LogPosition;
}

/** One `ChainPruned` event: L1 rolled its pending chain back from `pendingCheckpointCount` to the proven checkpoint. */
export interface ChainPrunedLog {
  readonly provenCheckpointNumber: number;
  readonly pendingCheckpointCount: number;
  readonly l1: L1LogPosition;
}

/** One `MessageSent` event of the rollup's inbox: an L1-to-L2 message (spec/messages/inbox.ts). */
export interface InboxMessageLog {
  /** The inbox tree the message went into: the checkpoint that consumes it. */
  readonly checkpointNumber: number;
  /** Global index: the message's leaf position in the L1-to-L2 message tree. */
  readonly index: bigint;
  /** The message's leaf. */
  readonly leaf: Hex;
  /** The tree's running hash after the message. */
  readonly treeHash: Hex;
  readonly l1: L1LogPosition;
}

/** An outbox root: the L2-to-L1 messages of an epoch's first `checkpointsCovered` checkpoints. */
export interface OutboxRoot {
  readonly checkpointsCovered: number;
  readonly root: Hex;
}

/** The rollup contract's proven checkpoint as of some L1 block. */
export interface ProvenCheckpoint {
  /** 0 before any epoch is proven. */
  readonly checkpointNumber: number;
  /** L1 block holding the proof that proved it (0 before any). */
  readonly l1BlockNumber: bigint;
}

/** One entry of the rollup contract's validator set, in registration order. */
export interface L1Validator {
  readonly address: Hex;
  /** Compressed BLS public key (48 bytes). */
  readonly blsPublicKey: Hex;
  /** BLS signature proving possession of the key (checked by the node, not the contract). */
  readonly proofOfPossession: Hex;
  /** First epoch whose committee may include it. */
  readonly activeFromEpoch: number;
}

/** Reads the base layer and the rollup contract. Every read that can be pinned takes the L1 block it is pinned to. */
export interface L1ReaderPort {
  getChainId(): Promise<number>;
  /** Throws L1Error('L1_BLOCK_NOT_FOUND') when the block does not exist. */
  getBlock(tag: L1BlockTag): Promise<L1BlockRef>;
  /** Throws L1Error('L1_NO_ROLLUP_CONTRACT') when the configured address holds no rollup contract. */
  getRollupConstants(): Promise<L1RollupConstants>;
  /** Number of checkpoints recorded by the rollup contract as of `atBlock`. */
  getCheckpointCount(atBlock: bigint): Promise<number>;
  /** Archive root recorded for checkpoint `checkpointNumber` (0 = genesis) as of `atBlock`. */
  getArchiveAt(checkpointNumber: number, atBlock: bigint): Promise<Hex>;
  /** `CheckpointProposed` logs in `[fromBlock, toBlock]`, in L1 order. */
  getCheckpointProposedLogs(fromBlock: bigint, toBlock: bigint): Promise<CheckpointProposedLog[]>;
  /** The proven checkpoint as of `atBlock`. */
  getProvenCheckpoint(atBlock: bigint): Promise<ProvenCheckpoint>;
  /** `EpochProven` logs in `[fromBlock, toBlock]`, in L1 order. */
  getEpochProvenLogs(fromBlock: bigint, toBlock: bigint): Promise<EpochProvenLog[]>;
  /** `ChainPruned` logs in `[fromBlock, toBlock]`, in L1 order. */
  getChainPrunedLogs(fromBlock: bigint, toBlock: bigint): Promise<ChainPrunedLog[]>;
  /** The validator set as of `atBlock`, in registration order (the contract caps it at VALIDATOR_SET_SIZE_MAX). */
  getValidators(atBlock: bigint): Promise<L1Validator[]>;
  /** The inbox's `MessageSent` logs in `[fromBlock, toBlock]`, in L1 order. */
  getInboxMessageLogs(fromBlock: bigint, toBlock: bigint): Promise<InboxMessageLog[]>;
  /**
   * The outbox root of `epoch` covering the fewest checkpoints, at least `checkpointsNeeded`, as of `atBlock`;
   * undefined when there is none.
   */
  getOutboxRoot(epoch: number, checkpointsNeeded: number, atBlock: bigint): Promise<OutboxRoot | undefined>;
  /** The inbox and outbox the rollup contract deployed (fixed for the contract's life). */
  getMessageBoxAddresses(): Promise<{ readonly inboxAddress: Hex; readonly outboxAddress: Hex }>;
}

export interface ProposeCheckpointRequest {
  readonly checkpointNumber: number;
  readonly archive: Hex;
  readonly lastArchive: Hex;
  readonly slotNumber: number;
  /** Encoded CheckpointHeader. */
  readonly header: Hex;
  /** Raw blobs (BLOB_SIZE_BYTES each). */
  readonly blobs: readonly Uint8Array[];
  /** Encoded attestation list (spec/validators/checkpointAttestations.ts); `0x0000` (none) without a committee. */
  readonly attestations: Hex;
}

/** The arguments of the rollup contract's `submitEpochProof` (see core/prover/epochProof.ts for the public inputs). */
export interface SubmitEpochProofRequest {
  readonly epoch: number;
  readonly fromCheckpoint: number;
  readonly toCheckpoint: number;
  readonly endArchive: Hex;
  readonly outHash: Hex;
  readonly proof: Hex;
}

export type L1TxStatus =
  | { readonly status: 'pending' }
  | { readonly status: 'included'; readonly success: boolean; readonly blockNumber: bigint; readonly blockHash: Hex }
  | { readonly status: 'unknown' };

/** Sends the proposer's transactions to L1 from its funded publisher account. */
export interface L1PublisherPort {
  readonly publisherAddress: Hex;
  /** Versioned hashes the blobs will have on L1, in order. */
  blobVersionedHashes(blobs: readonly Uint8Array[]): Promise<Hex[]>;
  /** Sends `propose` as a blob transaction; resolves with its hash once the L1 node accepted it. */
  proposeCheckpoint(request: ProposeCheckpointRequest): Promise<{ readonly txHash: Hex }>;
  getTxStatus(txHash: Hex): Promise<L1TxStatus>;
  /** Sends `submitEpochProof`; resolves with its hash once the L1 node accepted it. */
  submitEpochProof(request: SubmitEpochProofRequest): Promise<{ readonly txHash: Hex }>;
}

// ---------------------------------------------------------------------------------------------------------------
// Blobs

/**
 * The kinds of places a checkpoint's blobs are read from, asked in this order (core/blobs/blobSourceChain.ts): the L1
 * consensus clients, then file stores (a team's own blob archive), then, as a last resort, a blob archive API.
 */
export type BlobSourceKind = 'consensus' | 'fileStore' | 'archive';

/** What a checkpoint's blobs are asked for by: their versioned hashes and where on L1 the proposal landed. */
export interface BlobRequest {
  readonly versionedHashes: readonly Hex[];
  readonly l1: {
    readonly blockNumber: bigint;
    readonly blockHash: Hex;
    /** Unix seconds: a consensus client finds the block's beacon slot from it. */
    readonly timestamp: bigint;
    readonly txHash: Hex;
  };
}

/** A blob as a source served it: untrusted until checked against a versioned hash (BlobCheckerPort). */
export interface BlobCandidate {
  /** BLOB_SIZE_BYTES when well formed; a source may serve anything. */
  readonly blob: Uint8Array;
  /** The KZG commitment and proof the source served with the blob, when it did: checking them is cheaper. */
  readonly kzgCommitment?: Hex;
  readonly kzgProof?: Hex;
}

/**
 * One place blobs are read from. `getBlobs` answers the blobs of the request it holds, in any order: all, some, none
 * (an empty answer is a miss, not a failure), or wrong ones (the chain checks every one). It throws when the source
 * failed: unreachable, an error status, an answer that does not parse or is too large. Names never hold a credential.
 */
export interface BlobSourcePort {
  readonly kind: BlobSourceKind;
  /** Names the source in logs and errors (a URL with its credentials removed). */
  readonly name: string;
  getBlobs(request: BlobRequest): Promise<readonly BlobCandidate[]>;
  /** Asks the source whether it answers (at startup); throws saying why not. */
  check(): Promise<void>;
}

/** A blob checked against its versioned hash. */
export interface VerifiedBlob {
  readonly versionedHash: Hex;
  readonly blob: Uint8Array;
}

/** The file store the node copies every blob it fetched or published to (BLOB_FILE_STORE_UPLOAD_URL). */
export interface BlobUploadPort {
  readonly name: string;
  putBlobs(blobs: readonly VerifiedBlob[]): Promise<void>;
  /** Writes and reads back a health file (at startup); throws saying why it cannot. */
  check(): Promise<void>;
}

/** Binds blobs to versioned hashes: KZG in production, the simulator's stand-in hash in the simulator. */
export interface BlobCheckerPort {
  /**
   * The versioned hash of a candidate's KZG commitment: the served commitment when its proof holds for the blob,
   * else the commitment computed from the blob. Undefined when the bytes are not a valid blob or a served
   * commitment and proof do not hold for them.
   */
  versionedHashOf(candidate: BlobCandidate): Promise<Hex | undefined>;
}

/** Everything the node reads and keeps blobs with. */
export interface BlobsPort {
  /** Asked by kind (consensus, file stores, archive) and, within a kind, in this order. */
  readonly sources: readonly BlobSourcePort[];
  readonly upload?: BlobUploadPort;
  readonly checker: BlobCheckerPort;
}

// ---------------------------------------------------------------------------------------------------------------
// Network (gossip and request/response with peers)

/** A checkpoint proposal as gossiped: the signed payload, and the header it commits to for the committee to check. */
export interface CheckpointProposalMessage {
  readonly kind: 'checkpointProposal';
  readonly payload: CheckpointProposalPayload;
  /** Encoded CheckpointHeader (spec/codec/checkpointHeader.ts); payload.checkpointHeaderHash commits to it. */
  readonly header: Hex;
  readonly proposer: Hex;
  readonly signature: Hex;
}

export interface CheckpointAttestationMessage {
  readonly kind: 'checkpointAttestation';
  readonly payload: CheckpointProposalPayload;
  readonly attester: Hex;
  readonly signature: Hex;
}

/**
 * A block proposal as gossiped: the signed payload, and the block's header and body (spec/validators/
 * blockProposalContent.ts) for the committee to measure against its limits. Header and body are not signed; a
 * receiver checks that they are bound to the payload (core/validators/blockContent.ts).
 */
export interface BlockProposalMessage {
  readonly kind: 'blockProposal';
  readonly payload: BlockProposalPayload;
  /** Encoded BlockHeader; its hash is the archive leaf that payload.archiveRoot commits to. */
  readonly header: Hex;
  /** The block's encoded tx effects, in order; their tx hashes hash to the payload's txHashesHash. */
  readonly body: Hex;
  readonly proposer: Hex;
  readonly signature: Hex;
}

/** A tx as gossiped: what svc_sendTx admitted on some node, for every pool (and the next proposer) to hold. */
export interface TxMessage {
  readonly kind: 'tx';
  readonly tx: TxValue;
}

export type GossipMessage = TxMessage | CheckpointProposalMessage | CheckpointAttestationMessage | BlockProposalMessage;

export type GossipKind = GossipMessage['kind'];

/**
 * What a receiver made of one gossip message (gossipsub's validation result): `accept` keeps and forwards it,
 * `ignore` drops it without blame (a duplicate, too late, not for us), `reject` drops it and counts against the peer
 * that sent it (a bad signature, a malformed or invalid message). A message is forwarded only once accepted.
 */
export type GossipVerdict = 'accept' | 'ignore' | 'reject';

/**
 * One subscriber's view of a message from peer `from`. A port with several subscribers combines their verdicts:
 * reject when any rejects, else accept when any accepts, else ignore.
 */
export type GossipHandler = (message: GossipMessage, from: string) => GossipVerdict | Promise<GossipVerdict>;

/** What a node tells a peer about itself on connect; a peer of another chain or rollup version is refused. */
export interface NetworkStatus {
  readonly l1ChainId: number;
  readonly rollupVersion: number;
  readonly proposedBlock: { readonly number: number; readonly hash: Hex };
  readonly checkpointedBlock: { readonly number: number; readonly hash: Hex };
}

/** How this node answers its peers' requests; each answers what it holds (nothing is a valid answer). */
export interface NetworkRequestHandlers {
  status(): NetworkStatus;
  /** The pooled (or otherwise held) txs among `hashes`, at most one per hash, in any order. */
  txsByHash(hashes: readonly Hex[]): Promise<readonly TxValue[]>;
  /** The block proposal the attestation pool holds for the slot's block at `indexWithinCheckpoint`, with its content. */
  blockProposal(slot: number, indexWithinCheckpoint: number): Promise<BlockProposalMessage | undefined>;
}

/** Something a request brought back, and the peer that answered it (to blame when it turns out invalid). */
export interface NetworkAnswer<T> {
  readonly value: T;
  readonly from: string;
}

/** How badly a peer misbehaved in a way only the core can tell (an answer that failed its checks). */
export type PeerOffenseSeverity = 'low' | 'mid' | 'high';

/** One peer as the network knows it (svc_getPeers). */
export interface NetworkPeer {
  readonly id: string;
  readonly status: 'connected' | 'dialing' | 'cached' | 'pending';
  readonly addresses: readonly string[];
  /** The application score: falls with invalid messages and failed requests, recovers over time. */
  readonly score: number;
}

/**
 * The peer-to-peer network: gossip (what one node publishes reaches the others' subscribers, not its own, maybe late,
 * maybe never) and request/response with peers. Messages and answers are untrusted: receivers check every signature,
 * and a handler's verdict feeds the sender's score. Three implementations hold the same contract
 * (test/portSuites/networkPort.suite.ts): libp2p (adapters/network/libp2p/), the in-process bus and the simulated network.
 */
export interface NetworkPort {
  publish(message: GossipMessage): void;
  /** Returns the unsubscribe function. */
  subscribe(handler: GossipHandler): () => void;
  /** Answers peers' requests with these handlers (the last served wins); returns the function that stops serving. */
  serve(handlers: NetworkRequestHandlers): () => void;
  /**
   * Asks peers (`preferredPeer` first, then the best-scored others) for the txs with these hashes, until all are
   * found or every peer was asked; resolves with those found (whose hashes the port checked), never rejects.
   */
  requestTxs(hashes: readonly Hex[], preferredPeer?: string): Promise<readonly NetworkAnswer<TxValue>[]>;
  /** Asks peers in the same order for a block proposal; undefined when none answered it in time. */
  requestBlockProposal(
    slot: number,
    indexWithinCheckpoint: number,
    preferredPeer?: string,
  ): Promise<NetworkAnswer<BlockProposalMessage> | undefined>;
  /** Lowers a peer's score for an answer or message the core found invalid after the port delivered it. */
  penalize(peer: string, severity: PeerOffenseSeverity, reason: string): void;
  /** Connected, dialing and cached peers; pending ones (handshake not done) too when asked. */
  peers(includePending: boolean): readonly NetworkPeer[];
  /** This node's Ethereum Node Record (`enr:...`) when its network has discovery, else undefined. */
  localEnr(): string | undefined;
}

/** Reads the validator keystore file (svcAdmin_reloadKeystore); at most KEYSTORE_FILE_BYTES_MAX + 1 bytes. */
export interface KeystoreSourcePort {
  /** Where the file is, for messages. */
  readonly location: string;
  read(): Promise<Uint8Array>;
}

// ---------------------------------------------------------------------------------------------------------------
// Signing guard (high-availability signing)

/** What a validator signs: one kind of duty per role (spec/validators/signingPayloads.ts). */
export type SigningDutyKind = 'blockProposal' | 'checkpointProposal' | 'checkpointAttestation';

/**
 * One signing duty of one validator: the unit at most one payload may be signed for. Two different payloads signed
 * for one duty are a slashable offense (core/validators/offenses.ts), keyed the same way as the attestation pool keys
 * its duties: a proposer signs one block proposal per block position, so the block's index is part of the duty.
 */
export interface SigningDuty {
  /** The validator's attester address, lowercase. */
  readonly validatorAddress: Hex;
  readonly slot: number;
  readonly kind: SigningDutyKind;
  /** The block's index within its checkpoint for a block proposal; 0 for the other kinds. */
  readonly blockIndex: number;
}

/** The answer to a claim: granted (sign), or refused because the duty is held with another payload or by another node. */
export type SigningClaim =
  | { readonly kind: 'granted' }
  | { readonly kind: 'refused'; readonly holderNodeId: string; readonly holderPayloadHash: Hex };

/**
 * High-availability signing: redundant nodes running the same validator keys claim each duty in one shared store
 * before signing it, so that at most one payload is ever signed per duty. The first claim of a duty wins, atomically
 * across every node of the store; a later claim of the same duty by the same node with the same payload hash is
 * granted again (a retry), any other is refused. A node signs only after a granted claim; when the store cannot be
 * reached `claim` throws SigningGuardError('SIGNING_GUARD_UNAVAILABLE') and the node does not sign (fail closed).
 * Without HA signing configured the guard grants every claim.
 */
export interface SigningGuardPort {
  claim(duty: SigningDuty, payloadHash: Hex): Promise<SigningClaim>;
  /** Forgets the claims of slots below `slot` (they can no longer be signed); resolves with how many were dropped. */
  pruneBelow(slot: number): Promise<number>;
}

// ---------------------------------------------------------------------------------------------------------------
// Snapshots

/** One snapshot to upload: what chain and where in it, and the database entries, in key order. */
export interface SnapshotUpload {
  readonly chain: SnapshotChain;
  readonly point: SnapshotPoint;
  /** A consistent view of the database at `point`, already without the keys snapshots leave out (isSnapshotKey). */
  readonly entries: AsyncIterable<readonly [string, string]>;
}

/** How far an upload has come, reported as it goes (for the logs). */
export type SnapshotUploadProgress =
  | { readonly stage: 'writing'; readonly entries: number; readonly bytes: number }
  | { readonly stage: 'written'; readonly entries: number; readonly bytes: number; readonly dataFile: string }
  | { readonly stage: 'uploaded'; readonly store: string; readonly dataFile: string }
  | { readonly stage: 'indexed'; readonly store: string; readonly indexFile: string };

/** Where svcAdmin_startSnapshotUpload sends a backup of the node's database (spec/snapshots/snapshotFormat.ts). */
export interface SnapshotPort {
  /** Why a location cannot be used (checked before the upload starts), or undefined. Never shows a credential. */
  locationProblem(location: string): string | undefined;
  /**
   * Writes the snapshot's data file to the location, then adds it to the location's index; answers the index entry.
   * A failure at any step leaves the index as it was.
   */
  upload(
    location: string,
    snapshot: SnapshotUpload,
    onProgress?: (progress: SnapshotUploadProgress) => void,
  ): Promise<SnapshotIndexEntry>;
}

// ---------------------------------------------------------------------------------------------------------------
// Proof verification

/**
 * Checks proofs (tx proofs, epoch proofs). There are no circuits in this project: the default verifier
 * (core/verifier/commitmentVerifier.ts) accepts exactly keccak256 of the public inputs (docs/protocol.md, Proofs), but
 * the node only relies on this interface.
 */
export interface VerifierPort {
  verify(publicInputs: Uint8Array, proof: Uint8Array): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------------------------
// Metrics

/**
 * What the core measures that only the core can see, one event per occurrence (docs/running.md, Metrics). Counts and
 * gauges the edges can read from the node's service or its activity feed (tips, pool size, chain events, blob source
 * stats) are not here. Durations are milliseconds of the node's clock.
 */
export type MetricsEvent =
  /** A chain update that added blocks was applied to the world state and committed. */
  | { readonly kind: 'worldStateApplied'; readonly blocks: number; readonly durationMs: number }
  /** The pool refused a tx: a rejection code (core/txPool/txRejection.ts), or INVALID_TX when it failed validation. */
  | { readonly kind: 'txRejected'; readonly code: string }
  /** The sequencer built (and committed) one block. */
  | { readonly kind: 'blockBuilt'; readonly durationMs: number; readonly manaUsed: number; readonly txCount: number }
  /** A proposer's wait for its committee's attestations ended: with a quorum, or at the deadline without one. */
  | {
      readonly kind: 'attestationsCollected';
      readonly collected: number;
      readonly required: number;
      readonly quorumReached: boolean;
    }
  /** The L1 node accepted one of the publisher's transactions; `replaced` when it took the nonce of a pending one. */
  | {
      readonly kind: 'l1TxSent';
      /** What the transaction does: 'propose', 'submitEpochProof'. */
      readonly what: string;
      readonly replaced: boolean;
      readonly maxFeePerGasWei: bigint;
      readonly maxPriorityFeePerGasWei: bigint;
      /** Blob transactions only. */
      readonly maxFeePerBlobGasWei?: bigint;
    }
  /** A snapshot upload moved on (SnapshotUploadProgress). */
  | { readonly kind: 'snapshotUploadProgress'; readonly progress: SnapshotUploadProgress }
  /** A snapshot upload ended. */
  | {
      readonly kind: 'snapshotUploadFinished';
      readonly outcome: 'succeeded' | 'failed';
      readonly durationMs: number;
      /** The data file's size, when it succeeded. */
      readonly sizeBytes?: number;
    };

/**
 * Where the core reports its measurements. `report` returns at once and never throws; it must not schedule work, so a
 * node with metrics runs exactly as one without (the simulator's traces do not change). Production: OpenTelemetry
 * instruments exported to Prometheus and OTLP (adapters/metrics/); simulator: an in-memory tally (sim/simMetrics.ts).
 */
export interface MetricsPort {
  report(event: MetricsEvent): void;
}

// ---------------------------------------------------------------------------------------------------------------
// All ports of one node

export interface NodePorts {
  readonly clock: ClockPort;
  readonly randomness: RandomnessPort;
  readonly logger: LoggerPort;
  readonly storage: StoragePort;
  readonly l1: L1ReaderPort;
  /** Where checkpoints' blobs are read from and copied to (core/blobs/blobSourceChain.ts). */
  readonly blobs: BlobsPort;
  /** The commitment verifier unless given. */
  readonly verifier?: VerifierPort;
  /** Absent: svcAdmin_startSnapshotUpload answers that snapshots are not enabled. */
  readonly snapshots?: SnapshotPort;
  /**
   * Present only on nodes that run a sequencer: its own account, which publishes the slots no keystore proposer
   * names a publisher for.
   */
  readonly l1Publisher?: L1PublisherPort;
  /**
   * The further publisher accounts the node started with (each its own port: its own nonces and fees), which the
   * keystore's validators may name; a slot's checkpoint goes out from the one its proposer names
   * (core/sequencer/slotPublisher.ts). Absent: `l1Publisher` is the only one.
   */
  readonly l1ValidatorPublishers?: readonly L1PublisherPort[];
  /** The account a prover submits epoch proofs from; `l1Publisher` when absent. */
  readonly l1ProofPublisher?: L1PublisherPort;
  /** Validator gossip; absent: the node neither attests nor collects attestations (and cannot propose with a committee). */
  readonly network?: NetworkPort;
  /** The keystore file, when the node runs validators (NodeConfig.validator). */
  readonly keystore?: KeystoreSourcePort;
  /** Claims each signing duty before a validator signs it (HA signing); absent: every claim is granted. */
  readonly signingGuard?: SigningGuardPort;
  /** Where the core reports what it measures; absent: nothing is measured. */
  readonly metrics?: MetricsPort;
}
