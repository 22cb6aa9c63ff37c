import { createActor, type Actor } from 'xstate';
import type { ChainEvent, Hex, L1RollupConstants } from '../../spec/chain.js';
import { createArchiverMachine } from '../archiver/archiverMachine.js';
import { runSyncStep } from '../archiver/syncStep.js';
import { InboxStore } from '../messages/inboxStore.js';
import { createMessageQueries } from '../messages/messageQueries.js';
import { Chain } from '../chain/chain.js';
import { ChainStore } from '../chain/chainStore.js';
import { txIndexer } from '../chain/txIndex.js';
import { createTimetable } from '../chain/timetable.js';
import { genesisTips } from '../chain/tips.js';
import { NodeError } from '../errors.js';
import type { AdminConfigView, NodeAdmin, NodeService } from '../nodeService.js';
import { createNodeService } from './nodeQueries.js';
import { createNodeOperations, type NodeOperations } from './nodeOperations.js';
import { NodeTxPool, type TxPoolSettings } from '../txPool/nodeTxPool.js';
import { createTxQueries, latestPublicStateOf } from '../txs/txQueries.js';
import { commitmentVerifier } from '../verifier/commitmentVerifier.js';
import { latestContractReader } from '../l2Contracts/contractStore.js';
import { P2P_PENDING_TX_COUNT_MAX_DEFAULT, P2P_RPC_PRICE_BUMP_PERCENTAGE_DEFAULT } from '../../spec/config/schema.js';
import { SETUP_ALLOW_LIST_DEFAULTS } from '../../spec/config/allowList.js';
import type { NodePorts } from '../ports.js';
import { createSequencerMachine, type SlotOutcome } from '../sequencer/sequencerMachine.js';
import { createProverActor, type ProverActor } from '../prover/proverActor.js';
import type { ProverConfig } from '../prover/proverDuties.js';
import type { ProofOutcome } from '../prover/proverMachine.js';
import { buildNextBlock, checkInclusion, planSlot, publishCheckpoint, type SequencerConfig } from '../sequencer/sequencerDuties.js';
import { createGenesis } from '../worldState/genesis.js';
import { WorldState } from '../worldState/worldState.js';
import { reconcileWorldState } from './reconcileWorldState.js';
import { historyPruneTarget } from './worldStateHistory.js';
import { WORLD_STATE_HISTORIC_CHECKPOINT_COUNT_DEFAULT } from '../../spec/config/schema.js';
import type { ValidatorClient, ValidatorEvent } from '../validators/validatorClient.js';
import type { ValidatorLimits } from '../validators/validatorLimits.js';
import { createValidatorSide } from './validatorSide.js';

export interface NodeConfig {
  readonly rollupAddress: Hex;
  readonly archiverPollIntervalMs: number;
  /** Finalized checkpoints whose world state stays queryable (WS_NUM_HISTORIC_CHECKPOINTS); older state is pruned. */
  readonly worldStateHistoricCheckpointCount?: number;
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
  | { readonly kind: 'validator'; readonly event: ValidatorEvent | { readonly kind: 'checkpointRefused'; readonly checkpointNumber: number; readonly slot: number; readonly reason: string } };

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
  archiverActor: Actor<ReturnType<typeof createArchiverMachine>>;
  sequencerActor: Actor<ReturnType<typeof createSequencerMachine>> | undefined;
  proverActor: ProverActor | undefined;
  /** The node's operational states (Syncing, SyncPaused, a rollback or snapshot upload in progress). */
  operationsActor: NodeOperations['actor'];
  /** The validator side (attestation pool, offenses, statistics); undefined when the validator set is ignored. */
  readonly validatorClient: ValidatorClient | undefined;
}

/**
 * Opens the node's chain over its ports and builds its machines (not yet started). Fails with a clear NodeError
 * when the L1 contract's genesis is not this node's or the storage holds another chain.
 */
export async function createNode(ports: NodePorts, initialConfig: NodeConfig, options: { configAdmin?: ConfigAdmin } = {}): Promise<RollupNode> {
  let config = initialConfig;
  const logger = ports.logger;
  const constants = await ports.l1.getRollupConstants();
  const messageBoxAddresses = await ports.l1.getMessageBoxAddresses();
  const genesis = createGenesis(constants.l1ChainId, constants.rollupVersion);
  if (genesis.block.archive.root !== constants.genesisArchiveRoot) {
    throw new NodeError('GENESIS_MISMATCH', `the rollup contract's genesis archive ${constants.genesisArchiveRoot} is not this node's genesis ${genesis.block.archive.root}`);
  }
  const genesisRef = { number: 0, hash: genesis.block.hash };
  const store = await ChainStore.open(
    ports.storage,
    { l1ChainId: constants.l1ChainId, rollupAddress: config.rollupAddress.toLowerCase() as Hex, rollupVersion: constants.rollupVersion, genesisArchiveRoot: constants.genesisArchiveRoot },
    genesis,
    genesisTips(genesisRef, genesisRef),
  );
  store.registerIndexer(txIndexer);
  const worldState = await WorldState.open(ports.storage, { genesisBlockHash: genesis.block.hash });
  const inbox = new InboxStore(ports.storage);
  await reconcileWorldState(store, worldState, inbox, logger.child({ module: 'worldState' }));
  const chain = new Chain(store, worldState, ports.clock);
  const timetable = createTimetable(constants);
  const txPool = await NodeTxPool.open({
    chain,
    storage: ports.storage,
    constants,
    clock: ports.clock,
    verifier: ports.verifier ?? commitmentVerifier,
    logger: logger.child({ module: 'txPool' }),
    settings: () => config.txPool ?? TX_POOL_SETTINGS_DEFAULT,
    contractClassOf: (address) => contractReader.contractClassId(address),
  });
  // Contracts as of the latest block, from the contract index (registered with the node service below).
  const contractReader = latestContractReader(chain);
  const latestPublicState = () => latestPublicStateOf(chain, contractReader);
  const listeners: ((a: NodeActivity) => void)[] = [];
  const emit = (activity: NodeActivity) => listeners.forEach((l) => l(activity));
  chain.onEvent((event) => emit({ kind: 'chain', event }));
  chain.onEvent((event) => {
    if (event.type !== 'chainFinalized') return;
    const count = config.worldStateHistoricCheckpointCount ?? WORLD_STATE_HISTORIC_CHECKPOINT_COUNT_DEFAULT;
    void historyPruneTarget(store, event.checkpoint.number, count)
      .then((target) => (target !== undefined && target > worldState.oldestBlockNumber ? worldState.pruneHistoryBefore(target) : undefined))
      .catch((error: unknown) => logger.error('world-state history prune failed', { error: error instanceof Error ? error.message : String(error) }));
  });

  const validators = await createValidatorSide(ports, config, { chain, constants, timetable, emit, currentConfig: () => config });

  const archiverLogger = logger.child({ module: 'archiver' });
  // The sync step in flight, if any: a pause waits for it, so that nothing it read before the pause lands after.
  let syncInFlight: Promise<unknown> = Promise.resolve();
  const archiverActor = createActor(
    createArchiverMachine({
      runSyncStep: () => {
        const step = runSyncStep({ l1: ports.l1, chain, inbox, constants, logger: archiverLogger, ...(validators ? { quorum: validators.quorum } : {}) });
        syncInFlight = step.catch(() => undefined);
        return step;
      },
      get pollIntervalMs() {
        return config.archiverPollIntervalMs;
      },
      clock: ports.clock,
    }),
    { clock: ports.clock },
  );

  let sequencerActor: Actor<ReturnType<typeof createSequencerMachine>> | undefined;
  if (config.sequencer) {
    if (!ports.l1Publisher) throw new NodeError('SUBSYSTEM_DISABLED', 'the sequencer needs an L1 publisher account');
    const sequencerConfig = () => config.sequencer!;
    const deps = {
      clock: ports.clock,
      l1: ports.l1,
      publisher: ports.l1Publisher,
      chain,
      constants,
      timetable,
      get config() {
        return sequencerConfig();
      },
      logger: logger.child({ module: 'sequencer' }),
      pendingTxs: () => txPool.current.ordered().map((pooled) => pooled.tx),
      publicState: latestPublicState,
      ...(validators ? { validator: validators.sequencerValidator } : {}),
      inbox,
    };
    sequencerActor = createActor(
      createSequencerMachine({
        now: () => ports.clock.now(),
        slotDurationMs: timetable.slotDurationMs,
        get blockDurationMs() {
          return sequencerConfig().blockDurationMs;
        },
        get pollIntervalMs() {
          return sequencerConfig().pollIntervalMs;
        },
        planSlot: () => planSlot(deps),
        buildBlock: (plan) => buildNextBlock(deps, plan),
        publishCheckpoint: (plan) => publishCheckpoint(deps, plan),
        checkInclusion: (txHash) => checkInclusion(deps, txHash),
        slotStartMs: (slot) => timetable.slotStartMs(slot),
        onSlotOutcome: (outcome) => {
          deps.logger.info('slot outcome', { ...outcome });
          emit({ kind: 'slot', outcome });
        },
      }),
      { clock: ports.clock },
    );
  }

  const proverActor = config.prover
    ? createProverActor({
        ports,
        chain,
        constants,
        config: () => config.prover!,
        logger: logger.child({ module: 'prover' }),
        onProofOutcome: (outcome) => emit({ kind: 'proof', outcome }),
      })
    : undefined;

  let started = false;
  const updateConfig = (update: NodeConfigUpdate) => {
    if (update.sequencer && !config.sequencer) {
      throw new NodeError('OPERATION_REFUSED', 'sequencer settings given, but no sequencer runs on this node', { keys: Object.keys(update.sequencer) });
    }
    config = {
      ...config,
      ...(update.archiverPollIntervalMs !== undefined ? { archiverPollIntervalMs: update.archiverPollIntervalMs } : {}),
      ...(update.sequencer && config.sequencer ? { sequencer: { ...config.sequencer, ...update.sequencer } } : {}),
      ...(update.txPool ? { txPool: update.txPool } : {}),
      ...(update.validatorLimits && config.validator ? { validator: { ...config.validator, limits: update.validatorLimits } } : {}),
    };
    emit({ kind: 'admin', action: 'updateConfig' });
  };
  const requireSequencer = () => {
    if (!sequencerActor) throw new NodeError('OPERATION_REFUSED', 'no sequencer runs on this node', { operation: 'sequencer control' });
    return sequencerActor;
  };
  const operations = createNodeOperations({
    chain,
    inbox,
    txPool,
    l1: ports.l1,
    constants,
    storage: ports.storage,
    snapshots: ports.snapshots,
    clock: ports.clock,
    logger: logger.child({ module: 'operations' }),
    pauseArchiver: async () => {
      archiverActor.send({ type: 'admin.pauseSync' });
      await syncInFlight;
    },
    resumeArchiver: () => archiverActor.send({ type: 'admin.resumeSync' }),
  });
  const admin: NodeAdmin = {
    async pauseSync() {
      await operations.pauseSync();
      emit({ kind: 'admin', action: 'pauseSync' });
    },
    async resumeSync() {
      await operations.resumeSync();
      emit({ kind: 'admin', action: 'resumeSync' });
    },
    async rollbackTo(targetBlockNumber, force, resumeSync) {
      await operations.rollbackTo(targetBlockNumber, force, resumeSync);
      emit({ kind: 'admin', action: `rollbackTo ${targetBlockNumber}${force ? ' (forced)' : ''}` });
    },
    async startSnapshotUpload(location) {
      await operations.startSnapshotUpload(location);
      emit({ kind: 'admin', action: 'startSnapshotUpload' });
    },
    operationalState: () => operations.state(),
    async pauseSequencer() {
      requireSequencer().send({ type: 'admin.pauseSequencer' });
      emit({ kind: 'admin', action: 'pauseSequencer' });
    },
    async resumeSequencer() {
      requireSequencer().send({ type: 'admin.resumeSequencer' });
      emit({ kind: 'admin', action: 'resumeSequencer' });
    },
    getConfig: () => (options.configAdmin ? options.configAdmin.getConfig() : coreConfigView(config)),
    setConfig: async (patch) => (options.configAdmin ? options.configAdmin.setConfig(patch) : updateConfig(coreConfigUpdate(patch))),
  };
  const service: NodeService = createNodeService({
    chain,
    constants,
    rollupAddress: config.rollupAddress,
    messageBoxAddresses,
    ready: () => started && archiverActor.getSnapshot().context.everCaughtUp,
    admin,
    txService: createTxQueries({ chain, pool: txPool, latestPublicState }),
    ...(validators ? { validatorService: validators.service } : {}),
    messageService: createMessageQueries({ chain, inbox, l1: ports.l1, constants, logger: logger.child({ module: 'messages' }) }),
  });
  return {
    service,
    constants,
    chain,
    txPool,
    archiverActor,
    sequencerActor,
    proverActor,
    operationsActor: operations.actor,
    validatorClient: validators?.client,
    start() {
      started = true;
      validators?.client.start();
      archiverActor.start();
      sequencerActor?.start();
      proverActor?.start();
      logger.info('node started', { rollupVersion: constants.rollupVersion, l1ChainId: constants.l1ChainId, sequencer: sequencerActor !== undefined, prover: proverActor !== undefined });
    },
    async stop() {
      started = false;
      validators?.client.stop();
      sequencerActor?.stop();
      proverActor?.stop();
      archiverActor.stop();
      // Let a commit in flight finish before the caller closes storage.
      await chain.update(async () => undefined);
      chain.stop();
    },
    updateConfig,
    currentConfig: () => config,
    onActivity(listener) {
      listeners.push(listener);
    },
    machineStates() {
      return {
        archiver: String(archiverActor.getSnapshot().value),
        sequencer: sequencerActor ? String(sequencerActor.getSnapshot().value) : undefined,
        ...(proverActor ? { prover: String(proverActor.getSnapshot().value) } : {}),
        chainTips: chain.tipsState,
      };
    },
  };
}

/** The pool's rules when the configuration gives none. */
export const TX_POOL_SETTINGS_DEFAULT: TxPoolSettings = {
  priceBumpPercentage: P2P_RPC_PRICE_BUMP_PERCENTAGE_DEFAULT,
  capacity: P2P_PENDING_TX_COUNT_MAX_DEFAULT,
  setupAllowList: SETUP_ALLOW_LIST_DEFAULTS,
};

/** The configuration view when no adapter supplies one: the core's tunables. */
function coreConfigView(config: NodeConfig): AdminConfigView {
  return {
    rollupAddress: config.rollupAddress,
    archiverPollIntervalMs: config.archiverPollIntervalMs,
    ...(config.sequencer ? { sequencer: { ...config.sequencer } } : {}),
  };
}

/** Validates a patch against the core's tunables: only known keys with positive integer values (or hex addresses). */
function coreConfigUpdate(patch: Readonly<Record<string, unknown>>): NodeConfigUpdate {
  const known = new Set(['archiverPollIntervalMs', 'sequencer']);
  const unknown = Object.keys(patch).filter((k) => !known.has(k));
  if (unknown.length > 0) throw new NodeError('INVALID_PARAMS', `unknown configuration keys: ${unknown.join(', ')}`, { keys: unknown });
  const interval = patch.archiverPollIntervalMs;
  if (interval !== undefined && !(Number.isSafeInteger(interval) && (interval as number) > 0)) {
    throw new NodeError('INVALID_PARAMS', 'archiverPollIntervalMs must be a positive integer', { key: 'archiverPollIntervalMs' });
  }
  const sequencer = patch.sequencer as Readonly<Record<string, unknown>> | undefined;
  if (sequencer !== undefined) {
    const numeric = ['blockDurationMs', 'pollIntervalMs', 'l1PublishingTimeAllowanceInSlotSeconds'];
    const wrong = Object.entries(sequencer).filter(([k, v]) => !numeric.includes(k) || !(Number.isSafeInteger(v) && (v as number) > 0));
    if (wrong.length > 0) {
      throw new NodeError('INVALID_PARAMS', `sequencer settings must be known positive integers: ${wrong.map(([k]) => k).join(', ')}`, { keys: wrong.map(([k]) => k) });
    }
  }
  return {
    ...(interval !== undefined ? { archiverPollIntervalMs: interval as number } : {}),
    ...(sequencer ? { sequencer: sequencer as Partial<SequencerConfig> } : {}),
  };
}
