import type { ChainEvent, Hex, L1RollupConstants } from '../../spec/chain.js';
import { SETUP_ALLOW_LIST_DEFAULTS } from '../../spec/config/allowList.js';
import {
  P2P_PENDING_TX_COUNT_MAX_DEFAULT,
  P2P_RPC_PRICE_BUMP_PERCENTAGE_DEFAULT,
  WORLD_STATE_HISTORIC_CHECKPOINT_COUNT_DEFAULT,
} from '../../spec/config/schema.js';
import { createBlobSourceChain, type BlobSourceChain } from '../blobs/blobSourceChain.js';
import { createArchiver, type Archiver, type ArchiverActor } from '../archiver/archiverActor.js';
import { createProposedBlockFollower } from '../archiver/proposedBlockFollower.js';
import type { Chain } from '../chain/chain.js';
import { createTimetable, type Timetable } from '../chain/timetable.js';
import { latestContractReader } from '../l2Contracts/contractStore.js';
import type { InboxStore } from '../messages/inboxStore.js';
import { createNodeService, type NodeService } from '../nodeService.js';
import type { NodePorts } from '../ports.js';
import { createProverActor, type ProverActor } from '../prover/proverActor.js';
import type { ProverConfig } from '../prover/proverDuties.js';
import type { ProofOutcome } from '../prover/proverMachine.js';
import type { PublicStateView } from '../publicVm/stateView.js';
import { createSequencerActor, type SequencerActor } from '../sequencer/sequencerActor.js';
import type { SequencerConfig } from '../sequencer/sequencerDuties.js';
import type { SlotOutcome } from '../sequencer/sequencerMachine.js';
import { openNodeTxPool, type NodeTxPool, type TxPoolSettings } from '../txPool/nodeTxPool.js';
import { latestPublicStateOf } from '../txs/txService.js';
import type { ValidatorClient, ValidatorEvent } from '../validators/validatorClient.js';
import type { ValidatorLimits } from '../validators/validatorLimits.js';
import { applyConfigUpdate, coreConfigAdmin } from './coreConfig.js';
import { createNodeAdmin, type AdminConfigView } from './nodeAdmin.js';
import type { NodeHealthThresholds } from './nodeHealth.js';
import { createNodeHealthService } from './nodeHealthService.js';
import { createNodeLifecycle, type GossipPart } from './nodeLifecycle.js';
import { createNodeOperations, type NodeOperations } from './nodeOperations.js';
import { openChain } from './openChain.js';
import { createValidatorSide, type ValidatorSide } from './validatorSide.js';
import { pruneWorldStateHistoryOnFinality } from './worldStateHistory.js';

export interface NodeConfig {
  readonly rollupAddress: Hex;
  readonly archiverPollIntervalMs: number;
  /** Finalized checkpoints whose world state stays queryable (WS_NUM_HISTORIC_CHECKPOINTS); older state is pruned. */
  readonly worldStateHistoricCheckpointCount?: number;
  /** Indexed-tree keys kept in memory before they move to storage (WS_KEY_INDEX_MEMORY_KEYS; the world state's default). */
  readonly worldStateKeyIndexMemoryKeys?: number;
  /** The pool's rules (defaults: 10% bump, 1000 txs, the built-in setup allow list). */
  readonly txPool?: TxPoolSettings;
  /** Runs a sequencer when set (the ports must then include an L1 publisher). */
  readonly sequencer?: SequencerConfig;
  /** Runs a prover when set (the ports must then include an L1 proof publisher or an L1 publisher). */
  readonly prover?: ProverConfig;
  /**
   * How the node treats the L1 validator set. `enforced` (the default): committees are drawn from it, every synced
   * checkpoint must carry its committee's quorum, and a sequencer proposes only in its keystore's slots. `ignored`:
   * none of that (no validator reads from L1); for the simulator's runs without validators, whose traces must not
   * change with reads they do not need. An empty set behaves the same under `enforced`: no committee, no quorum.
   */
  readonly validatorSet?: 'enforced' | 'ignored';
  /** Runs the node's validators from the keystore (ports.keystore) when set; requires `validatorSet` enforced. */
  readonly validator?: ValidatorConfig;
  /** When `GET /status` calls the node unhealthy (default: NODE_HEALTH_THRESHOLDS_DEFAULT of nodeHealthService.ts). */
  readonly health?: NodeHealthThresholds;
}

/** The validator subsystem's settings. */
export interface ValidatorConfig {
  /** VALIDATOR_MAX_* limits on what the node's validators attest. */
  readonly limits: ValidatorLimits;
  /** L1 publisher addresses the node started with: the only ones a keystore (and its reloads) may name. */
  readonly publishers: readonly Hex[];
}

/** The part of the configuration a running node takes without a restart. */
export interface NodeConfigUpdate {
  readonly archiverPollIntervalMs?: number;
  readonly sequencer?: Partial<SequencerConfig>;
  readonly txPool?: TxPoolSettings;
  /** Takes effect for the next proposal the node's validators check; ignored on a node without validators. */
  readonly validatorLimits?: ValidatorLimits;
  readonly health?: NodeHealthThresholds;
}

/** Where svcAdmin_getConfig / svcAdmin_setConfig are answered (the adapters own the full configuration). */
export interface ConfigAdmin {
  getConfig(): AdminConfigView;
  setConfig(patch: Readonly<Record<string, unknown>>): Promise<void>;
}

/** What happened in the node, for logs, tests and the simulator's trace. */
export type NodeActivity =
  | { readonly kind: 'chain'; readonly event: ChainEvent }
  | { readonly kind: 'slot'; readonly outcome: SlotOutcome }
  | { readonly kind: 'proof'; readonly outcome: ProofOutcome }
  | { readonly kind: 'admin'; readonly action: string }
  | {
      readonly kind: 'validator';
      readonly event:
        | ValidatorEvent
        | {
            readonly kind: 'checkpointRefused';
            readonly checkpointNumber: number;
            readonly slot: number;
            readonly reason: string;
          };
    };

export interface RollupNode {
  readonly service: NodeService;
  readonly constants: L1RollupConstants;
  readonly chain: Chain;
  /** The node's tx pool (its pending txs in priority order: `txPool.current.ordered()`). */
  readonly txPool: NodeTxPool;
  start(): void;
  stop(): Promise<void>;
  /** Applies a run-time configuration change; later timers and steps use the new values. */
  updateConfig(update: NodeConfigUpdate): void;
  /** The core's own view of its tunables (used when no adapter provides the configuration). */
  currentConfig(): NodeConfig;
  onActivity(listener: (activity: NodeActivity) => void): void;
  /** Current state names of the node's machines. */
  machineStates(): { archiver: string; sequencer: string | undefined; chainTips: string; prover?: string };
  archiverActor: ArchiverActor;
  sequencerActor: SequencerActor | undefined;
  proverActor: ProverActor | undefined;
  /** The node's operational states (Syncing, SyncPaused, a rollback or snapshot upload in progress). */
  operationsActor: NodeOperations['actor'];
  /** The validator side (attestation pool, offenses, statistics); undefined when the validator set is ignored. */
  readonly validatorClient: ValidatorClient | undefined;
  /** Where checkpoints' blobs come from, with per-source counts of blobs served, missed and failed. */
  readonly blobSources: BlobSourceChain;
}

/** What the node's host (production's wiring, the simulator, a test) gives it besides its ports and configuration. */
export interface NodeHost {
  /**
   * The node's release, answered by svc_getNodeVersion and svc_getNodeInfo. The core cannot read files: production
   * passes the package's version (adapters/node/packageVersion.ts), the simulator its own.
   */
  readonly nodeVersion: string;
  /** Where svcAdmin_getConfig / svcAdmin_setConfig go; absent: the core's own view of its tunables. */
  readonly configAdmin?: ConfigAdmin;
}

/**
 * Opens the node's chain over its ports and builds its parts (not yet started), in this order: the chain, the tx
 * pool, the world state's history pruning, the validator side, the archiver, the sequencer and the prover, the admin
 * operations, and the service the edges call. Fails with a clear NodeError when the L1 contract's genesis is not this
 * node's or the storage holds another chain.
 */
const HISTORIC_CHECKPOINTS_DEFAULT = WORLD_STATE_HISTORIC_CHECKPOINT_COUNT_DEFAULT;

export async function createNode(ports: NodePorts, initialConfig: NodeConfig, host: NodeHost): Promise<RollupNode> {
  let config = initialConfig;
  const logger = ports.logger;
  const { constants, messageBoxAddresses, store, worldState, inbox, chain } = await openChain(
    ports,
    config.rollupAddress,
    { keyIndexMemoryKeysMax: config.worldStateKeyIndexMemoryKeys },
  );
  const timetable = createTimetable(constants);
  const txPool = await openNodeTxPool(ports, {
    chain,
    constants,
    logger: logger.child({ module: 'txPool' }),
    settings: () => config.txPool ?? TX_POOL_SETTINGS_DEFAULT,
    contractClassOf: (address) => contractReader.contractClassId(address),
  });
  // Contracts as of the latest block, from the contract index (registered with the node service below).
  const contractReader = latestContractReader(chain);
  const latestPublicState = () => latestPublicStateOf(chain, contractReader);
  const { emit, listen } = activityListeners(chain);
  const historicCheckpointCount = () => config.worldStateHistoricCheckpointCount ?? HISTORIC_CHECKPOINTS_DEFAULT;
  pruneWorldStateHistoryOnFinality({ chain, store, worldState, historicCheckpointCount, logger });
  const validators = await createValidatorSide(ports, config, {
    chain,
    constants,
    timetable,
    txPool,
    emit,
    currentConfig: () => config,
  });
  const { archiver, sequencerActor, proverActor, blobSources } = createSubsystemActors(ports, () => config, {
    chain,
    inbox,
    constants,
    timetable,
    txPool,
    latestPublicState,
    validators,
    emit,
  });
  const gossip = createGossipParts(ports, { chain, inbox, constants, timetable, txPool, validators, sequencerActor });
  const updateConfig = (update: NodeConfigUpdate) => {
    config = applyConfigUpdate(config, update);
    emit({ kind: 'admin', action: 'updateConfig' });
  };
  const operations = createNodeOperations({
    ports,
    chain,
    inbox,
    txPool,
    constants,
    logger: logger.child({ module: 'operations' }),
    archiver,
  });
  const lifecycle = createNodeLifecycle({
    constants,
    chain,
    logger,
    validatorClient: validators?.client,
    gossip,
    archiverActor: archiver.actor,
    sequencerActor,
    proverActor,
  });
  const configAdmin = host.configAdmin ?? coreConfigAdmin(() => config, updateConfig);
  const admin = createNodeAdmin({ operations, sequencerActor, configAdmin, emit });
  const service: NodeService = createNodeService({
    nodeVersion: host.nodeVersion,
    chain,
    constants,
    rollupAddress: config.rollupAddress,
    messageBoxAddresses,
    health: createNodeHealthService(ports, { chain, timetable, archiver, lifecycle }, () => config.health),
    txPool,
    latestPublicState,
    inbox,
    ports,
    admin,
    validators: validators?.service,
  });
  return {
    service,
    constants,
    chain,
    txPool,
    archiverActor: archiver.actor,
    sequencerActor,
    proverActor,
    operationsActor: operations.actor,
    validatorClient: validators?.client,
    blobSources,
    start: lifecycle.start,
    stop: lifecycle.stop,
    machineStates: lifecycle.machineStates,
    updateConfig,
    currentConfig: () => config,
    onActivity: listen,
  };
}

/** What the subsystems' actors are built over: the node's opened chain and the parts built before them. */
interface SubsystemParts {
  readonly chain: Chain;
  readonly inbox: InboxStore;
  readonly constants: L1RollupConstants;
  readonly timetable: Timetable;
  readonly txPool: NodeTxPool;
  readonly latestPublicState: () => PublicStateView;
  readonly validators: ValidatorSide | undefined;
  readonly emit: (activity: NodeActivity) => void;
}

/**
 * Builds the subsystems' actors (not started), in this order: the archiver, the sequencer when configured, the prover
 * when configured. `config` is read on every use, so a configuration update applies to their next step or wait.
 */
function createSubsystemActors(
  ports: NodePorts,
  config: () => NodeConfig,
  parts: SubsystemParts,
): {
  archiver: Archiver;
  sequencerActor: SequencerActor | undefined;
  proverActor: ProverActor | undefined;
  blobSources: BlobSourceChain;
} {
  const { chain, inbox, constants, timetable, txPool, latestPublicState, validators, emit } = parts;
  const logger = ports.logger;
  const blobSources = createBlobSourceChain({
    blobs: ports.blobs,
    clock: ports.clock,
    logger: logger.child({ module: 'blobs' }),
  });
  const archiver = createArchiver({
    ports,
    blobs: blobSources,
    chain,
    inbox,
    constants,
    logger: logger.child({ module: 'archiver' }),
    quorum: validators?.quorum,
    pollIntervalMs: () => config().archiverPollIntervalMs,
  });
  const sequencerActor = config().sequencer
    ? createSequencerActor({
        ports,
        chain,
        constants,
        timetable,
        inbox,
        config: () => config().sequencer!,
        logger: logger.child({ module: 'sequencer' }),
        pendingTxs: () => txPool.current.ordered().map((pooled) => pooled.tx),
        publicState: latestPublicState,
        validator: validators?.sequencerValidator,
        onSlotOutcome: (outcome) => emit({ kind: 'slot', outcome }),
        keepPublishedBlobs: (blobs) => blobSources.keepPublished(blobs),
      })
    : undefined;
  const proverActor = config().prover
    ? createProverActor({
        ports,
        chain,
        constants,
        config: () => config().prover!,
        logger: logger.child({ module: 'prover' }),
        onProofOutcome: (outcome) => emit({ kind: 'proof', outcome }),
      })
    : undefined;
  return { archiver, sequencerActor, proverActor, blobSources };
}

/**
 * What the node does with its peers' gossip besides the validator client's part, started and stopped with the node:
 * the pool answers gossiped txs (NodeTxPool.subscribeToGossip), and the proposed block follower applies the block
 * proposals the validator client checked (core/archiver/proposedBlockFollower.ts). None without a network; no
 * follower without the validator side, which checks each proposal's signature against the slot's proposer.
 */
function createGossipParts(
  ports: NodePorts,
  parts: Omit<SubsystemParts, 'latestPublicState' | 'emit'> & { readonly sequencerActor: SequencerActor | undefined },
): GossipPart[] {
  const { network } = ports;
  if (network === undefined) return [];
  const { chain, inbox, constants, timetable, txPool, validators, sequencerActor } = parts;
  let unsubscribeTxs: (() => void) | undefined;
  const txGossip: GossipPart = {
    start: () => void (unsubscribeTxs = txPool.subscribeToGossip(network)),
    stop: () => unsubscribeTxs?.(),
  };
  if (validators === undefined) return [txGossip];
  const follower = createProposedBlockFollower({
    chain,
    inbox,
    constants,
    timetable,
    clock: ports.clock,
    network,
    txPool,
    ownSequencerBuilds: (slot) => sequencerActor?.getSnapshot().context.plan?.slot === slot,
    logger: ports.logger.child({ module: 'proposedBlockFollower' }),
  });
  validators.client.onBlockProposalKept((kept) => follower.onBlockProposal(kept));
  return [txGossip, { start: () => undefined, stop: () => follower.stop() }];
}

/** The node's activity listeners (its chain's events among the activity), called in the order they were added. */
function activityListeners(chain: Chain): {
  emit: (activity: NodeActivity) => void;
  listen: (listener: (activity: NodeActivity) => void) => void;
} {
  const listeners: ((activity: NodeActivity) => void)[] = [];
  chain.onEvent((event) => listeners.forEach((l) => l({ kind: 'chain', event })));
  return {
    emit: (activity) => listeners.forEach((l) => l(activity)),
    listen: (listener) => void listeners.push(listener),
  };
}

/** The pool's rules when the configuration gives none. */
export const TX_POOL_SETTINGS_DEFAULT: TxPoolSettings = {
  priceBumpPercentage: P2P_RPC_PRICE_BUMP_PERCENTAGE_DEFAULT,
  capacity: P2P_PENDING_TX_COUNT_MAX_DEFAULT,
  setupAllowList: SETUP_ALLOW_LIST_DEFAULTS,
};
