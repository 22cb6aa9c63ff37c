/**
 * Builds a node's validator side from its ports and configuration: the duties (validator set, committees), the quorum
 * check the archiver runs on sync, the validator client (gossip, attestation pool, offenses, statistics, attesting),
 * the sequencer's proposer hooks, and the validator queries. Nothing is built when the node ignores the validator set.
 */
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import type { Chain } from '../chain/chain.js';
import type { Timetable } from '../chain/timetable.js';
import { NodeError } from '../errors.js';
import type { CheckpointProposedLog, LoggerPort, NodePorts } from '../ports.js';
import type { SequencerValidator } from '../sequencer/sequencerDuties.js';
import type { CheckpointAttestationValue, ProposalsForSlotValue } from '../validators/attestationPool.js';
import { keystoreReloadRefused, loadKeystore, reloadKeystore, type KeystoreState } from '../validators/keystore.js';
import type { OffenseValue, SlashRoundQuery } from '../validators/offenses.js';
import type { NodeTxPool } from '../txPool/nodeTxPool.js';
import type { SingleValidatorStatsValue, ValidatorsStatsValue } from '../validators/stats.js';
import { createSyncQuorumCheck, RefusedCheckpoints, type SyncQuorumCheck } from '../validators/syncQuorum.js';
import { ValidatorClient } from '../validators/validatorClient.js';
import { ValidatorDuties } from '../validators/validatorDuties.js';
import { ValidatorStore } from '../validators/validatorStore.js';
import type { NodeActivity, NodeConfig } from './node.js';
import { nodeRequestHandlers } from './nodeRequestHandlers.js';

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

export interface ValidatorSide {
  readonly duties: ValidatorDuties;
  readonly client: ValidatorClient;
  readonly quorum: {
    readonly check: SyncQuorumCheck;
    readonly refused: RefusedCheckpoints;
    readonly onRefused: (log: CheckpointProposedLog, reason: string) => void;
  };
  readonly sequencerValidator: SequencerValidator;
  readonly service: ValidatorService;
}

interface ValidatorSideContext {
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly timetable: Timetable;
  /** The node's tx pool, whose txs the node serves to peers that ask for them by hash. */
  readonly txPool: NodeTxPool;
  readonly emit: (activity: NodeActivity) => void;
  /** The node's configuration as it stands (validator limits change at run time). */
  readonly currentConfig: () => NodeConfig;
}

const EMPTY_KEYSTORE: KeystoreState = { validators: [] };

/**
 * Validators whose publisher (their attester address) has no key on this node attest, but the sequencer skips their
 * slots; said only on a node that runs a sequencer (without one, no validator of the node publishes).
 */
function warnPublishersWithoutSigner(publishers: readonly Hex[], config: NodeConfig, logger: LoggerPort): void {
  if (publishers.length === 0 || config.sequencer === undefined) return;
  logger.warn('some validators fall back to a publisher this node holds no key for: their slots will be skipped', {
    publishersWithoutSigner: publishers,
  });
}

/** Reads and checks the keystore at startup; a node whose keystore is unusable does not start. */
async function initialKeystore(ports: NodePorts, config: NodeConfig, logger: LoggerPort): Promise<KeystoreState> {
  if (config.validator === undefined) return EMPTY_KEYSTORE;
  if (ports.keystore === undefined)
    throw new NodeError('SUBSYSTEM_DISABLED', 'validators are configured but no keystore file is given', {
      subsystem: 'keystore',
    });
  const loaded = loadKeystore(await ports.keystore.read(), config.validator.publishers);
  if (loaded.kind === 'rejected') {
    throw new NodeError(
      'OPERATION_REFUSED',
      `the keystore ${ports.keystore.location} cannot be used: ${loaded.rejection.message}`,
      { reason: loaded.rejection.reason },
    );
  }
  warnPublishersWithoutSigner(loaded.publishersWithoutSigner, config, logger);
  return loaded.state;
}

export async function createValidatorSide(
  ports: NodePorts,
  config: NodeConfig,
  context: ValidatorSideContext,
): Promise<ValidatorSide | undefined> {
  if (config.validatorSet === 'ignored') {
    if (config.validator !== undefined)
      throw new NodeError('INVALID_PARAMS', 'validators need the L1 validator set enforced', { key: 'validatorSet' });
    return undefined;
  }
  const { chain, constants, timetable, emit } = context;
  const logger = ports.logger.child({ module: 'validator' });
  let keystore = await initialKeystore(ports, config, logger);
  const duties = new ValidatorDuties({ l1: ports.l1, chain, constants, logger });
  const client = new ValidatorClient({
    chain,
    constants,
    clock: ports.clock,
    logger,
    duties,
    network: ports.network,
    keystore: () => keystore,
    limits: () => context.currentConfig().validator?.limits ?? {},
    slotAt: (nowMs) => timetable.slotAt(BigInt(Math.floor(nowMs / 1000))),
    ...(ports.signingGuard !== undefined ? { signingGuard: ports.signingGuard } : {}),
    store: await ValidatorStore.open(ports.storage, logger),
    requestHandlers: nodeRequestHandlers({ chain, constants, txPool: context.txPool }),
    ...(ports.metrics !== undefined ? { metrics: ports.metrics } : {}),
  });
  client.onEvent((event) => emit({ kind: 'validator', event }));
  const quorum = {
    check: createSyncQuorumCheck(duties, constants),
    refused: new RefusedCheckpoints(),
    onRefused: (log: CheckpointProposedLog, reason: string) =>
      emit({
        kind: 'validator',
        event: { kind: 'checkpointRefused', checkpointNumber: log.checkpointNumber, slot: log.slotNumber, reason },
      }),
  };
  const sequencerValidator: SequencerValidator = {
    async proposerRefusal(slot) {
      await duties.refreshAtHead(slot);
      const slotDuties = await duties.dutiesOf(slot);
      if (slotDuties.proposer === undefined || client.ourProposer(slotDuties) !== undefined) return undefined;
      return 'notProposer';
    },
    proposerSettings(slot) {
      const slotDuties = duties.cachedDuties(slot);
      const ours = slotDuties === undefined ? undefined : client.ourProposer(slotDuties);
      return ours === undefined
        ? undefined
        : { coinbase: ours.coinbase, feeRecipient: ours.feeRecipient, publisher: ours.publisher };
    },
    collectAttestations: (checkpoint, deadlineMs) => client.collectAttestations(checkpoint, deadlineMs),
  };
  const service: ValidatorService = {
    async getValidatorsStats() {
      await client.refreshStats();
      return client.stats.validatorsStats();
    },
    async getValidatorStats(address, fromSlot, toSlot) {
      await client.refreshStats();
      return client.stats.validatorStats(address, fromSlot, toSlot);
    },
    getCheckpointAttestationsForSlot: (slot, hash) => client.pool.checkpointAttestationsForSlot(slot, hash),
    getProposalsForSlot: (slot) => client.pool.proposalsForSlot(slot),
    getSlashOffenses: (query) => client.slashOffenses(query),
    async reloadKeystore() {
      if (config.validator === undefined || ports.keystore === undefined)
        throw new NodeError('SUBSYSTEM_DISABLED', 'this node runs no validators', { subsystem: 'keystore' });
      const result = reloadKeystore(keystore, await ports.keystore.read(), config.validator.publishers);
      if (result.kind === 'rejected') throw keystoreReloadRefused(result.rejection);
      keystore = result.next;
      logger.info('keystore reloaded', { ...result.changes, publishersWithoutSigner: result.publishersWithoutSigner });
      warnPublishersWithoutSigner(result.publishersWithoutSigner, config, logger);
    },
  };
  return { duties, client, quorum, sequencerValidator, service };
}

/** The attester addresses of a keystore (tests and the local network's deployment). */
export function keystoreAttesters(state: KeystoreState): Hex[] {
  return state.validators.map((v) => v.attester);
}
