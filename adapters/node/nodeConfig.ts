/**
 * The effective configuration (adapters/config) mapped onto what the core and the RPC listeners take: the core's
 * NodeConfig at startup, a NodeConfigUpdate for each svcAdmin_setConfig, the listeners' limits. Also the settings
 * form of runNode (a flat object, for tests and embedding), turned into a configuration like any other source.
 */
import type { NodeConfig, NodeConfigUpdate } from '../../core/node/node.js';
import type { NodeHealthThresholds } from '../../core/node/nodeHealth.js';
import { NodeError } from '../../core/errors.js';
import type { SequencerConfig } from '../../core/sequencer/sequencerDuties.js';
import type { Hex } from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { ConfigError, type ConfigProblem } from '../../spec/config/configError.js';
import {
  configSchema,
  optionNames,
  type ConfigKey,
  type ConfigPatch,
  type ConfigValues,
} from '../../spec/config/schema.js';
import type { RpcLimits } from '../../spec/rpc/limits.js';
import {
  effectiveSetupAllowList,
  overrideConfig,
  resolveConfig,
  type ResolvedConfig,
} from '../config/resolveConfig.js';
import type { TxPoolSettings } from '../../core/txPool/nodeTxPool.js';
import type { ValidatorLimits } from '../../core/validators/validatorLimits.js';

/** What a node needs from its configuration to start, once checked. */
export interface NodeStartValues {
  /** The first of `l1RpcUrls`, for messages. */
  readonly l1RpcUrl: string;
  /** Every L1 endpoint, in the configured order: the node reads and publishes through all of them with failover. */
  readonly l1RpcUrls: readonly string[];
  readonly rollupAddress: Hex;
  /** Set when this node runs a sequencer. */
  readonly sequencerPrivateKey?: Hex;
  /**
   * With a sequencer, the further publisher keys the keystore's validators may name (SEQ_PUBLISHER_PRIVATE_KEYS), in
   * the configured order, without repeats and without the sequencer's own key; absent when there are none.
   */
  readonly validatorPublisherPrivateKeys?: readonly Hex[];
  /** Set when this node runs a prover: the key it submits epoch proofs from. */
  readonly proverPrivateKey?: Hex;
  /** Set when HA signing is enabled: the shared database and this node's id among the redundant nodes. */
  readonly haSigning?: { readonly databaseUrl: string; readonly nodeId: string };
}

const missing = (key: ConfigKey, what: string): ConfigProblem => ({
  kind: 'missing',
  name: configSchema[key].flag,
  message: `${what}: set ${optionNames(configSchema[key])}`,
});

/** Checks what starting a node needs; every missing value is named in one CONFIG_INVALID error. */
export function nodeStartValues(values: ConfigValues): NodeStartValues {
  const problems: ConfigProblem[] = [];
  const l1RpcUrls = values.l1RpcUrls ?? [];
  const l1RpcUrl = l1RpcUrls[0];
  if (l1RpcUrl === undefined) problems.push(missing('l1RpcUrls', 'the node needs the URL of an L1 JSON-RPC endpoint'));
  if (values.rollupAddress === undefined)
    problems.push(missing('rollupAddress', 'the node needs the L1 address of the rollup contract'));
  if (values.sequencerEnabled && values.sequencerPublisherPrivateKey === undefined) {
    problems.push(
      missing(
        'sequencerPublisherPrivateKey',
        `${configSchema.sequencerEnabled.flag} needs the key of the L1 account it publishes from`,
      ),
    );
  }
  const proverPrivateKey = values.proverNode
    ? (values.proverPublisherPrivateKey ?? values.sequencerPublisherPrivateKey)
    : undefined;
  if (values.proverNode && proverPrivateKey === undefined) {
    problems.push(
      missing(
        'proverPublisherPrivateKey',
        `${configSchema.proverNode.flag} needs the key of the L1 account it submits proofs from`,
      ),
    );
  }
  if (values.validatorHaSigningEnabled) {
    const needs = `${configSchema.validatorHaSigningEnabled.flag} needs`;
    if (values.validatorHaDatabaseUrl === undefined)
      problems.push(missing('validatorHaDatabaseUrl', `${needs} the database the redundant nodes share`));
    if (values.validatorHaNodeId === undefined)
      problems.push(missing('validatorHaNodeId', `${needs} an id unique to this node`));
  }
  if (problems.length > 0 || l1RpcUrl === undefined || values.rollupAddress === undefined)
    throw new ConfigError('CONFIG_INVALID', problems);
  return {
    l1RpcUrl,
    l1RpcUrls,
    rollupAddress: values.rollupAddress,
    ...(values.sequencerEnabled && values.sequencerPublisherPrivateKey !== undefined
      ? {
          sequencerPrivateKey: values.sequencerPublisherPrivateKey,
          ...furtherPublisherKeys(values.sequencerPublisherPrivateKey, values.sequencerPublisherPrivateKeys ?? []),
        }
      : {}),
    ...(proverPrivateKey !== undefined ? { proverPrivateKey } : {}),
    ...(values.validatorHaSigningEnabled &&
    values.validatorHaDatabaseUrl !== undefined &&
    values.validatorHaNodeId !== undefined
      ? { haSigning: { databaseUrl: values.validatorHaDatabaseUrl, nodeId: values.validatorHaNodeId } }
      : {}),
  };
}

/** The further publisher keys, lowercase, without repeats and without the sequencer's own; nothing when none. */
function furtherPublisherKeys(
  sequencerKey: Hex,
  keys: readonly string[],
): { validatorPublisherPrivateKeys?: readonly Hex[] } {
  const further = [...new Set(keys.map((key) => key.toLowerCase() as Hex))].filter(
    (key) => key !== sequencerKey.toLowerCase(),
  );
  return further.length > 0 ? { validatorPublisherPrivateKeys: further } : {};
}

/** The sequencer's settings; the coinbase defaults to the publisher's address, the fee recipient to zero. */
export function sequencerConfigOf(values: ConfigValues, publisherAddress: Hex): SequencerConfig {
  return {
    blockDurationMs: values.sequencerBlockDurationMs,
    l1PublishingTimeAllowanceInSlotSeconds: values.sequencerL1PublishingTimeAllowanceInSlotSeconds,
    pollIntervalMs: values.sequencerPollingIntervalMs,
    coinbase: values.sequencerCoinbase ?? publisherAddress,
    feeRecipient: values.sequencerFeeRecipient ?? zeroHex(32),
    perBlockAllocationMultiplier: values.perBlockAllocationMultiplier,
    ...(values.maxL2BlockGas !== undefined ? { maxL2BlockGas: values.maxL2BlockGas } : {}),
    ...(values.maxDABlockGas !== undefined ? { maxDABlockGas: values.maxDABlockGas } : {}),
    ...(values.maxTxsPerCheckpoint !== undefined ? { maxTxsPerCheckpoint: values.maxTxsPerCheckpoint } : {}),
  };
}

/** The pool's rules from the configuration (the allow list with its network and local extensions). */
export function txPoolSettingsOf(values: ConfigValues): TxPoolSettings {
  return {
    priceBumpPercentage: values.p2pRpcPriceBumpPercentage,
    capacity: values.p2pPendingTxCountMax,
    setupAllowList: effectiveSetupAllowList(values).entries,
  };
}

/**
 * The core's configuration; `publisherAddress` is set exactly when the node runs a sequencer, and
 * `validatorPublisherAddresses` are the addresses of its further publisher keys (the keystore may name any of them).
 */
export function coreNodeConfigOf(
  values: ConfigValues,
  rollupAddress: Hex,
  publisherAddress: Hex | undefined,
  validatorPublisherAddresses: readonly Hex[] = [],
): NodeConfig {
  return {
    rollupAddress,
    archiverPollIntervalMs: values.archiverPollingIntervalMs,
    worldStateHistoricCheckpointCount: values.worldStateHistoricCheckpointCount,
    worldStateKeyIndexMemoryKeys: values.worldStateKeyIndexMemoryKeys,
    txPool: txPoolSettingsOf(values),
    health: healthThresholdsOf(values),
    ...(publisherAddress !== undefined ? { sequencer: sequencerConfigOf(values, publisherAddress) } : {}),
    ...(values.proverNode ? { prover: { pollIntervalMs: values.proverPollingIntervalMs } } : {}),
    ...(values.validatorKeystorePath !== undefined
      ? {
          validator: {
            limits: validatorLimitsOf(values),
            publishers: publisherAddress !== undefined ? [publisherAddress, ...validatorPublisherAddresses] : [],
          },
        }
      : {}),
  };
}

/**
 * When GET /status calls the node unhealthy. Peers are required only with P2P on: the single-process local network's
 * in-process bus has none.
 */
export function healthThresholdsOf(values: ConfigValues): NodeHealthThresholds {
  return {
    syncLagSlotsMax: values.statusMaxSyncLagSlots,
    peerlessMsMax: values.p2pEnabled ? values.statusMaxPeerlessSeconds * MS_PER_SECOND : undefined,
  };
}

const MS_PER_SECOND = 1_000;

/** VALIDATOR_MAX_*: independent of the sequencer's SEQ_ limits, and unset means no limit (no fallback to SEQ_). */
export function validatorLimitsOf(values: ConfigValues): ValidatorLimits {
  return {
    ...(values.validateMaxL2BlockGas !== undefined ? { maxL2BlockGas: values.validateMaxL2BlockGas } : {}),
    ...(values.validateMaxDABlockGas !== undefined ? { maxDABlockGas: values.validateMaxDABlockGas } : {}),
    ...(values.validateMaxTxsPerBlock !== undefined ? { maxTxsPerBlock: values.validateMaxTxsPerBlock } : {}),
    ...(values.validateMaxTxsPerCheckpoint !== undefined
      ? { maxTxsPerCheckpoint: values.validateMaxTxsPerCheckpoint }
      : {}),
  };
}

const VALIDATOR_LIMIT_KEYS = [
  'validateMaxL2BlockGas',
  'validateMaxDABlockGas',
  'validateMaxTxsPerBlock',
  'validateMaxTxsPerCheckpoint',
] as const;

const HEALTH_KEYS = ['statusMaxSyncLagSlots', 'statusMaxPeerlessSeconds'] as const;

/** Runtime options the core's SequencerConfig holds, by the field they set. */
const SEQUENCER_FIELDS = {
  sequencerBlockDurationMs: 'blockDurationMs',
  sequencerL1PublishingTimeAllowanceInSlotSeconds: 'l1PublishingTimeAllowanceInSlotSeconds',
  sequencerPollingIntervalMs: 'pollIntervalMs',
  sequencerCoinbase: 'coinbase',
  sequencerFeeRecipient: 'feeRecipient',
  maxL2BlockGas: 'maxL2BlockGas',
  maxDABlockGas: 'maxDABlockGas',
  perBlockAllocationMultiplier: 'perBlockAllocationMultiplier',
  maxTxsPerCheckpoint: 'maxTxsPerCheckpoint',
} as const satisfies Partial<Record<ConfigKey, keyof SequencerConfig>>;

/**
 * The core's share of a setConfig change. Options the core has no use for yet (p2p, bot) change
 * only the shown configuration. Sequencer options on a node without a sequencer are refused (OPERATION_REFUSED).
 */
export function coreConfigUpdateOf(
  change: ConfigPatch,
  next: ConfigValues,
  publisherAddress: Hex | undefined,
): NodeConfigUpdate {
  const sequencerKeys = (Object.keys(SEQUENCER_FIELDS) as (keyof typeof SEQUENCER_FIELDS)[]).filter((key) =>
    Object.hasOwn(change, key),
  );
  if (sequencerKeys.length > 0 && publisherAddress === undefined) {
    throw new NodeError(
      'OPERATION_REFUSED',
      `no sequencer runs on this node, so ${sequencerKeys.join(', ')} cannot be changed`,
      { keys: sequencerKeys },
    );
  }
  const sequencer = publisherAddress === undefined ? undefined : sequencerConfigOf(next, publisherAddress);
  const sequencerUpdate = Object.fromEntries(
    sequencerKeys.map((key) => [SEQUENCER_FIELDS[key], sequencer?.[SEQUENCER_FIELDS[key]]]),
  ) as Partial<SequencerConfig>;
  return {
    ...(Object.hasOwn(change, 'archiverPollingIntervalMs')
      ? { archiverPollIntervalMs: next.archiverPollingIntervalMs }
      : {}),
    ...(sequencerKeys.length > 0 ? { sequencer: sequencerUpdate } : {}),
    ...(Object.hasOwn(change, 'p2pRpcPriceBumpPercentage') ? { txPool: txPoolSettingsOf(next) } : {}),
    ...(VALIDATOR_LIMIT_KEYS.some((key) => Object.hasOwn(change, key))
      ? { validatorLimits: validatorLimitsOf(next) }
      : {}),
    ...(HEALTH_KEYS.some((key) => Object.hasOwn(change, key)) ? { health: healthThresholdsOf(next) } : {}),
  };
}

/** The limits of one listener. */
export function rpcLimitsOf(values: ConfigValues, listener: 'public' | 'admin'): RpcLimits {
  return {
    bodyBytesMax: listener === 'public' ? values.rpcPublicBodyBytesMax : values.rpcAdminBodyBytesMax,
    batchCallsMax: values.rpcBatchCallsMax,
    requestTimeoutMs: values.rpcRequestTimeoutMs,
    blocksPerCallMax: values.rpcBlocksPerCallMax,
    checkpointsPerCallMax: values.rpcCheckpointsPerCallMax,
    checkpointDataEntriesPerCallMax: values.rpcCheckpointDataEntriesPerCallMax,
    txsPerCallMax: values.rpcTxsPerCallMax,
    txHashesPerCallMax: values.rpcTxHashesPerCallMax,
    leavesPerQueryMax: values.rpcLeavesPerQueryMax,
    tagsPerQueryMax: values.rpcTagsPerQueryMax,
    logsPerTagMax: values.rpcLogsPerTagMax,
  };
}

/** The flat settings form of runNode: what tests and embedding programs give instead of a resolved configuration. */
export interface NodeSettings {
  readonly l1RpcUrl: string;
  /** The consensus (beacon) API checkpoint blobs are read from (on the local network: anvil's own URL). */
  readonly l1ConsensusHostUrl?: string;
  readonly l1ChainId?: number;
  readonly rollupAddress: Hex;
  /** Without one, the chain lives in memory and the admin key is new each start. */
  readonly dataDirectory?: string;
  readonly port: number;
  readonly adminPort: number;
  readonly adminHost: string;
  readonly adminApiKey: { readonly disabled: boolean; readonly reset: boolean; readonly presetKeyHash?: string };
  /** Runs a sequencer publishing from this key. */
  readonly sequencerPrivateKey?: Hex;
  /** Sequencer timing (defaults: 6 s blocks, 24 s kept for L1 inclusion). */
  readonly sequencerTiming?: {
    readonly blockDurationMs: number;
    readonly l1PublishingTimeAllowanceInSlotSeconds: number;
  };
  /** Runs a prover submitting proofs from this key. */
  readonly proverPrivateKey?: Hex;
}

/** Values that are set, without the undefined ones (which overrideConfig would read as "back to the default"). */
export function definedValues(values: {
  readonly [K in ConfigKey]?: ConfigValues[K] | undefined;
}): Partial<ConfigValues> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<ConfigValues>;
}

/** The settings over the defaults (no flags, no environment), each recorded with source 'programmatic'. */
export function configFromSettings(
  settings: Omit<NodeSettings, 'l1RpcUrl' | 'rollupAddress'> &
    Partial<Pick<NodeSettings, 'l1RpcUrl' | 'rollupAddress'>>,
  extra: Partial<ConfigValues> = {},
): ResolvedConfig {
  const values = definedValues({
    l1RpcUrls: settings.l1RpcUrl === undefined ? undefined : [settings.l1RpcUrl],
    l1ConsensusHostUrls: settings.l1ConsensusHostUrl === undefined ? undefined : [settings.l1ConsensusHostUrl],
    l1ChainId: settings.l1ChainId,
    rollupAddress: settings.rollupAddress,
    dataDirectory: settings.dataDirectory,
    port: settings.port,
    adminPort: settings.adminPort,
    adminHost: settings.adminHost,
    disableAdminApiKey: settings.adminApiKey.disabled,
    resetAdminApiKey: settings.adminApiKey.reset,
    adminApiKeyHash: settings.adminApiKey.presetKeyHash,
    sequencerEnabled: settings.sequencerPrivateKey !== undefined ? true : undefined,
    sequencerPublisherPrivateKey: settings.sequencerPrivateKey,
    sequencerBlockDurationMs: settings.sequencerTiming?.blockDurationMs,
    sequencerL1PublishingTimeAllowanceInSlotSeconds: settings.sequencerTiming?.l1PublishingTimeAllowanceInSlotSeconds,
    proverNode: settings.proverPrivateKey !== undefined ? true : undefined,
    proverPublisherPrivateKey: settings.proverPrivateKey,
  });
  return overrideConfig(resolveConfig({ env: {} }), { ...values, ...extra }, 'programmatic');
}
