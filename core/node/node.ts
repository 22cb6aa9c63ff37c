import { createActor, type Actor } from 'xstate';
import type { BlockTipName, ChainEvent, CheckpointTipName, Hex, L1RollupConstants, L2Tips } from '../../spec/chain.js';
import { CONTRACT_LANGUAGE_VERSION, NODE_VERSION, PROTOCOL_VERSION } from '../../spec/constants.js';
import { createArchiverMachine } from '../archiver/archiverMachine.js';
import { runSyncStep } from '../archiver/syncStep.js';
import { Chain } from '../chain/chain.js';
import { ChainStore } from '../chain/chainStore.js';
import { createTimetable } from '../chain/timetable.js';
import { genesisTips } from '../chain/tips.js';
import { NodeError } from '../errors.js';
import type { BlockQuery, BlockWithContext, NodeService } from '../nodeService.js';
import type { NodePorts } from '../ports.js';
import { createSequencerMachine, type SlotOutcome } from '../sequencer/sequencerMachine.js';
import { buildNextBlock, checkInclusion, planSlot, publishCheckpoint, type SequencerConfig } from '../sequencer/sequencerDuties.js';
import { createGenesis } from '../worldState/genesis.js';

export interface NodeConfig {
  readonly rollupAddress: Hex;
  readonly archiverPollIntervalMs: number;
  /** Runs a sequencer when set (the ports must then include an L1 publisher). */
  readonly sequencer?: SequencerConfig;
}

/** What happened in the node, for logs, tests and the simulator's trace. */
export type NodeActivity =
  | { readonly kind: 'chain'; readonly event: ChainEvent }
  | { readonly kind: 'slot'; readonly outcome: SlotOutcome };

export interface RollupNode {
  readonly service: NodeService;
  readonly constants: L1RollupConstants;
  readonly chain: Chain;
  start(): void;
  stop(): Promise<void>;
  onActivity(listener: (activity: NodeActivity) => void): void;
  /** Current state names of the node's machines. */
  machineStates(): { archiver: string; sequencer: string | undefined; chainTips: string };
  archiverActor: Actor<ReturnType<typeof createArchiverMachine>>;
  sequencerActor: Actor<ReturnType<typeof createSequencerMachine>> | undefined;
}

/**
 * Opens the node's chain over its ports and builds its machines (not yet started). Fails with a clear NodeError
 * when the L1 contract's genesis is not this node's or the storage holds another chain.
 */
export async function createNode(ports: NodePorts, config: NodeConfig): Promise<RollupNode> {
  const logger = ports.logger;
  const constants = await ports.l1.getRollupConstants();
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
  const chain = new Chain(store, ports.clock);
  const timetable = createTimetable(constants);
  const listeners: ((a: NodeActivity) => void)[] = [];
  const emit = (activity: NodeActivity) => listeners.forEach((l) => l(activity));
  chain.onEvent((event) => emit({ kind: 'chain', event }));

  const archiverLogger = logger.child({ module: 'archiver' });
  const archiverActor = createActor(
    createArchiverMachine({
      runSyncStep: () => runSyncStep({ l1: ports.l1, chain, constants, logger: archiverLogger }),
      pollIntervalMs: config.archiverPollIntervalMs,
    }),
    { clock: ports.clock },
  );

  let sequencerActor: Actor<ReturnType<typeof createSequencerMachine>> | undefined;
  if (config.sequencer) {
    if (!ports.l1Publisher) throw new NodeError('SUBSYSTEM_DISABLED', 'the sequencer needs an L1 publisher account');
    const deps = { clock: ports.clock, l1: ports.l1, publisher: ports.l1Publisher, chain, constants, timetable, config: config.sequencer, logger: logger.child({ module: 'sequencer' }) };
    sequencerActor = createActor(
      createSequencerMachine({
        now: () => ports.clock.now(),
        slotDurationMs: timetable.slotDurationMs,
        blockDurationMs: config.sequencer.blockDurationMs,
        pollIntervalMs: config.sequencer.pollIntervalMs,
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

  const service = createNodeService(chain, constants, config.rollupAddress, () => started && archiverActor.getSnapshot().context.everCaughtUp);
  let started = false;
  return {
    service,
    constants,
    chain,
    archiverActor,
    sequencerActor,
    start() {
      started = true;
      archiverActor.start();
      sequencerActor?.start();
      logger.info('node started', { rollupVersion: constants.rollupVersion, l1ChainId: constants.l1ChainId, sequencer: sequencerActor !== undefined });
    },
    async stop() {
      started = false;
      sequencerActor?.stop();
      archiverActor.stop();
      // Let a commit in flight finish before the caller closes storage.
      await chain.update(async () => undefined);
      chain.stop();
    },
    onActivity(listener) {
      listeners.push(listener);
    },
    machineStates() {
      return {
        archiver: String(archiverActor.getSnapshot().value),
        sequencer: sequencerActor ? String(sequencerActor.getSnapshot().value) : undefined,
        chainTips: chain.tipsState,
      };
    },
  };
}

function tipBlockNumber(tips: L2Tips, tip: 'latest' | BlockTipName): number {
  switch (tip) {
    case 'latest':
    case 'proposed':
      return tips.proposed.number;
    case 'checkpointed':
    case 'proven':
    case 'finalized':
      return tips[tip].block.number;
  }
}

function createNodeService(chain: Chain, constants: L1RollupConstants, rollupAddress: Hex, ready: () => boolean): NodeService {
  const store = chain.store;
  const resolveNumber = async (query: BlockQuery): Promise<number | undefined> => {
    switch (query.kind) {
      case 'number':
        return query.number;
      case 'tag':
        return tipBlockNumber(chain.tips, query.tag);
      case 'hash':
        return store.getBlockNumberByHash(query.hash);
      case 'archive':
        return store.getBlockNumberByArchive(query.archive);
      case 'hashOrArchive':
        return (await store.getBlockNumberByHash(query.value)) ?? (await store.getBlockNumberByArchive(query.value));
    }
  };
  const l1ContractAddresses = { rollupAddress };
  return {
    getBlockNumber: async (tip) => tipBlockNumber(chain.tips, tip ?? 'proposed'),
    getCheckpointNumber: async (tip: CheckpointTipName = 'checkpointed') => chain.tips[tip].checkpoint.number,
    getChainTips: async () => chain.tips,
    async getBlock(query): Promise<BlockWithContext | undefined> {
      const n = await resolveNumber(query);
      if (n === undefined) return undefined;
      const block = await store.getBlock(n);
      if (!block) return undefined;
      const checkpoint = n <= chain.tips.checkpointed.block.number && block.checkpointNumber > 0 ? await store.getCheckpoint(block.checkpointNumber) : undefined;
      return checkpoint ? { block, checkpoint } : { block };
    },
    getCheckpoint: (n) => store.getCheckpoint(n),
    getL1Constants: () => constants,
    getNodeInfo: () => ({
      nodeVersion: NODE_VERSION,
      contractLanguageVersion: CONTRACT_LANGUAGE_VERSION,
      l1ChainId: constants.l1ChainId,
      rollupVersion: constants.rollupVersion,
      protocolVersion: PROTOCOL_VERSION,
      l1ContractAddresses,
    }),
    getNodeVersion: () => NODE_VERSION,
    getVersion: () => constants.rollupVersion,
    getChainId: () => constants.l1ChainId,
    getL1ContractAddresses: () => l1ContractAddresses,
    isReady: ready,
  };
}
