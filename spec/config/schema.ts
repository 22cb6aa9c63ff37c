/**
 * Every configuration option of the node, in one table: the CLI's flags and help, the environment variables, the
 * network configuration JSON, the admin API's getConfig/setConfig and the tests all derive from it.
 *
 * Naming:
 * - `key` is the option's name in code, in the network configuration JSON and in svcAdmin_getConfig/setConfig.
 * - The flag is the spec's spelling wherever the spec names one (`--admin-port`, `--maxL2BlockGas`,
 *   `--bot.minFeePadding`). Flags the spec does not name follow one rule: settings of the node process are
 *   kebab-case (`--admin-host`, `--log-level`), settings of a subsystem are `--<subsystem>.<camelCaseName>`
 *   (`--sequencer.pollingIntervalMs`, `--rpc.requestTimeoutMs`).
 * - Environment variables are the spec's where it names them; the rest are upper snake case with the subsystem's
 *   prefix (`SEQ_`, `VALIDATOR_`, `P2P_`, `ARCHIVER_`, `BLOB_`, `BOT_`) or the neutral `SVC_`.
 *
 * Per option: `secret` values are never shown (admin view, logs, error messages); `mutability` says whether
 * svcAdmin_setConfig may change it on a running node (`runtime`) or it is read once at startup (`restart`);
 * `scope` says whether the network configuration JSON may set it (`network`) or only the local operator (`local`).
 */
import type { z } from 'zod';
import {
  ADMIN_BODY_BYTES_MAX,
  ADMIN_PORT_DEFAULT,
  ARCHIVER_POLL_INTERVAL_MS_DEFAULT,
  BATCH_CALLS_MAX,
  BLOCKS_PER_CHECKPOINT_MAX,
  L1_SLOT_DURATION_SECONDS,
  L2_SLOT_DURATION_SECONDS_DEFAULT,
  PUBLIC_BODY_BYTES_MAX,
  PROVER_POLL_INTERVAL_MS_DEFAULT,
  PUBLIC_PORT_DEFAULT,
  RPC_REQUEST_TIMEOUT_MS_DEFAULT,
  SEQ_BLOCK_DURATION_SECONDS_DEFAULT,
  SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT_SECONDS_DEFAULT,
  SEQUENCER_POLL_INTERVAL_MS_DEFAULT,
  WORLD_STATE_KEY_INDEX_MEMORY_KEYS_MAX,
} from '../constants.js';
import {
  RPC_BLOCKS_PER_CALL_MAX,
  RPC_CHECKPOINT_DATA_ENTRIES_PER_CALL_MAX,
  RPC_CHECKPOINTS_PER_CALL_MAX,
  RPC_LEAVES_PER_QUERY_MAX,
  RPC_LOGS_PER_TAG_MAX,
  RPC_TAGS_PER_QUERY_MAX,
  RPC_TX_HASHES_PER_CALL_MAX,
  RPC_TXS_PER_CALL_MAX,
} from '../rpc/limits.js';
import { P2P_MAX_PEERS_DEFAULT } from '../p2p/constants.js';
import type { AllowListEntry } from './allowList.js';
import {
  allowListKind,
  peerAddressListKind,
  bigintKind,
  booleanKind,
  databaseUrlKind,
  decimalKind,
  enumKind,
  hexKind,
  integerKind,
  originListKind,
  patternKind,
  tokenListKind,
  privateKeyListKind,
  sha256HexKind,
  urlKind,
  urlListKind,
  type ValueKind,
} from './valueKinds.js';

/** Longest API key of a consensus endpoint, in characters. */
export const CONSENSUS_HOST_API_KEY_LENGTH_MAX = 512;
/** Longest HTTP header name a consensus endpoint's API key may go in, in characters. */
export const HTTP_HEADER_NAME_LENGTH_MAX = 128;

/** URL schemes of the HA signing database: PostgreSQL is the one database it runs on (adapters/signing/). */
export const HA_DATABASE_URL_SCHEMES = ['postgres', 'postgresql'] as const;

/** Operator-tunable defaults that no other spec file holds (STYLE: Names, limits). */
/** Spec, Limits: the replacement price bump. */
export const P2P_RPC_PRICE_BUMP_PERCENTAGE_DEFAULT = 10;
/** Transactions the pending pool holds before it must evict. */
export const P2P_PENDING_TX_COUNT_MAX_DEFAULT = 1_000;
/** Node processes a local network runs at most (each needs one of anvil's funded development accounts). */
export const LOCAL_NETWORK_NODES_MAX = 6;
/** The p2p listeners bind every interface unless told otherwise. */
export const P2P_LISTEN_ADDRESS_DEFAULT = '0.0.0.0';
/** TCP (libp2p) and UDP (discv5) port of the p2p listeners. */
export const P2P_PORT_DEFAULT = 40_400;
/** docs/protocol.md, Witness history: witnesses are answered for the last 64 checkpoints. */
export const WORLD_STATE_HISTORIC_CHECKPOINT_COUNT_DEFAULT = 64;
/** Spec, Limits: per-block gas budget = (checkpoint limit / blocks per checkpoint) * multiplier. */
export const SEQ_PER_BLOCK_ALLOCATION_MULTIPLIER_DEFAULT = 2;
/** Spec, Limits: 10000000 with 12 decimals, i.e. 0.00001 base currency per unit of fee asset. */
export const INITIAL_ETH_PER_FEE_ASSET_DEFAULT = 10_000_000n;
/** Decimals of the fee-asset rate. */
export const ETH_PER_FEE_ASSET_DECIMALS = 12;
/** Fee padding of the transaction bot: it offers min fee * (1 + padding). */
export const BOT_MIN_FEE_PADDING_DEFAULT = 3;
/** Time between two OTLP pushes of the metrics: OpenTelemetry's own default. */
export const OTEL_METRIC_EXPORT_INTERVAL_MS_DEFAULT = 60_000;
/** Slots L1 sync may trail the L1 head it saw before `GET /status` calls the node unhealthy. */
export const STATUS_SYNC_LAG_SLOTS_MAX_DEFAULT = 4;
/** Seconds a node with P2P may go without a connected peer before `GET /status` calls it unhealthy. */
export const STATUS_PEERLESS_SECONDS_MAX_DEFAULT = 300;
/** Anvil's usual port for the local network's L1. */
export const LOCAL_NETWORK_L1_PORT_DEFAULT = 8545;

const MS_PER_SECOND = 1_000;
const HOUR_MS = 3_600_000;
const MIB = 1024 * 1024;
const COUNT_MAX = 100_000;
/** Upper end of the world state's in-memory key bound an operator may set (about 19 GB of keys). */
const KEY_INDEX_MEMORY_KEYS_CAP = 100_000_000;
/** Upper end of every RPC list bound an operator may set. */
const LIST_BOUND_MAX = 10_000;

export type ConfigGroup =
  | 'node'
  | 'l1'
  | 'adminApi'
  | 'rpc'
  | 'archiver'
  | 'worldState'
  | 'sequencer'
  | 'validator'
  | 'p2p'
  | 'fees'
  | 'blobs'
  | 'bot'
  | 'prover'
  | 'metrics'
  | 'localNetwork';

export type ConfigMutability = 'runtime' | 'restart';
export type ConfigScope = 'local' | 'network';

export interface ConfigOption<T = unknown, HasDefault extends boolean = boolean> {
  /** Long flag as typed on the command line. */
  readonly flag: `--${string}`;
  /** Placeholder of the flag's value in help (`<port>`); undefined for presence flags. */
  readonly valueName: string | undefined;
  readonly env: string;
  readonly kind: ValueKind<T>;
  /** The zod type of a value (as JSON gives it: network configuration, svcAdmin_setConfig). */
  readonly type: z.ZodType<T>;
  readonly hasDefault: HasDefault;
  readonly default: HasDefault extends true ? T : undefined;
  readonly secret: boolean;
  readonly mutability: ConfigMutability;
  readonly scope: ConfigScope;
  readonly group: ConfigGroup;
  /** One line for help. */
  readonly description: string;
}

interface OptionSpec<T> {
  readonly flag: `--${string}`;
  readonly valueName?: string;
  readonly env: string;
  readonly kind: ValueKind<T>;
  readonly secret?: boolean;
  readonly mutability: ConfigMutability;
  readonly scope: ConfigScope;
  readonly group: ConfigGroup;
  readonly description: string;
}

function base<T>(spec: OptionSpec<T>) {
  return {
    flag: spec.flag,
    valueName: spec.kind.presence === true ? undefined : (spec.valueName ?? 'value'),
    env: spec.env,
    kind: spec.kind,
    type: spec.kind.type,
    secret: spec.secret ?? false,
    mutability: spec.mutability,
    scope: spec.scope,
    group: spec.group,
    description: spec.description,
  };
}

function defaulted<T>(spec: OptionSpec<T>, value: T): ConfigOption<T, true> {
  return { ...base(spec), hasDefault: true, default: value };
}

function optional<T>(spec: OptionSpec<T>): ConfigOption<T, false> {
  return { ...base(spec), hasDefault: false, default: undefined };
}

const port = integerKind(0, 65_535, 'a TCP port');
const positiveCount = integerKind(1, COUNT_MAX);
const listBound = integerKind(1, LIST_BOUND_MAX);
const gas = integerKind(1, Number.MAX_SAFE_INTEGER, 'an amount of gas');
const ethAddress = hexKind(20, 'a 20-byte L1 address');
const rollupAddressKind = hexKind(32, 'a rollup address', true);
const privateKey = hexKind(32, 'a 32-byte private key');
const httpUrls = ['http', 'https', 'ws', 'wss'] as const;
const storeUrls = ['http', 'https', 'gs', 's3', 'file'] as const;
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
/** JSON lines, readable lines, or readable lines exactly when standard output is a terminal. */
export const LOG_FORMATS = ['json', 'pretty', 'auto'] as const;
const snapshotStoreUrls = ['http', 'https', 's3', 'file'] as const;
/** How a node starts with snapshot stores configured (adapters/snapshots/snapshotSync.ts). */
export const SYNC_MODES = ['full', 'snapshot', 'force-snapshot'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

export const configSchema = {
  // The node process
  port: defaulted(
    {
      flag: '--port',
      valueName: 'port',
      env: 'SVC_PORT',
      kind: port,
      mutability: 'restart',
      scope: 'local',
      group: 'node',
      description: 'TCP port of the public JSON-RPC listener (svc_ methods); 0 picks a free one',
    },
    PUBLIC_PORT_DEFAULT,
  ),
  adminPort: defaulted(
    {
      flag: '--admin-port',
      valueName: 'port',
      env: 'SVC_ADMIN_PORT',
      kind: port,
      mutability: 'restart',
      scope: 'local',
      group: 'node',
      description: 'TCP port of the admin JSON-RPC listener (svcAdmin_ methods); never expose it outside the host',
    },
    ADMIN_PORT_DEFAULT,
  ),
  adminHost: defaulted(
    {
      flag: '--admin-host',
      valueName: 'host',
      env: 'SVC_ADMIN_HOST',
      kind: patternKind('a host name or IP address', /^[A-Za-z0-9.:_[\]-]+$/, 253),
      mutability: 'restart',
      scope: 'local',
      group: 'node',
      description: 'address the admin listener binds to',
    },
    '127.0.0.1',
  ),
  dataDirectory: optional({
    flag: '--data-directory',
    valueName: 'dir',
    env: 'DATA_DIRECTORY',
    kind: patternKind('a directory path', /^[^\0]+$/, 4096),
    mutability: 'restart',
    scope: 'local',
    group: 'node',
    description:
      'where the node keeps its database and admin key hash; without one the chain lives in memory (--local-network: .data/local-network)',
  }),
  networkConfigFile: optional({
    flag: '--network-config',
    valueName: 'file',
    env: 'NETWORK_CONFIG_FILE',
    kind: patternKind('a file path', /^[^\0]+$/, 4096),
    mutability: 'restart',
    scope: 'local',
    group: 'node',
    description: 'JSON file of network-wide settings, by option key; flags and environment variables override it',
  }),
  logLevel: defaulted(
    {
      flag: '--log-level',
      valueName: 'level',
      env: 'LOG_LEVEL',
      kind: enumKind(LOG_LEVELS),
      mutability: 'runtime',
      scope: 'local',
      group: 'node',
      description: 'lowest level of log lines written; svcAdmin_setConfig changes it on a running node',
    },
    'info',
  ),
  logFormat: defaulted(
    {
      flag: '--log-format',
      valueName: 'format',
      env: 'LOG_FORMAT',
      kind: enumKind(LOG_FORMATS),
      mutability: 'restart',
      scope: 'local',
      group: 'node',
      description: 'json: one JSON object per line; pretty: readable lines; auto: pretty on a terminal, else json',
    },
    'auto',
  ),
  statusMaxSyncLagSlots: defaulted(
    {
      flag: '--status.maxSyncLagSlots',
      valueName: 'slots',
      env: 'SVC_STATUS_MAX_SYNC_LAG_SLOTS',
      kind: integerKind(0, COUNT_MAX),
      mutability: 'runtime',
      scope: 'local',
      group: 'node',
      description: 'GET /status answers 503 when L1 sync trails the L1 head by more slots than this',
    },
    STATUS_SYNC_LAG_SLOTS_MAX_DEFAULT,
  ),
  statusMaxPeerlessSeconds: defaulted(
    {
      flag: '--status.maxPeerlessSeconds',
      valueName: 'seconds',
      env: 'SVC_STATUS_MAX_PEERLESS_SECONDS',
      kind: integerKind(0, HOUR_MS / MS_PER_SECOND),
      mutability: 'runtime',
      scope: 'local',
      group: 'node',
      description: 'with P2P on, GET /status answers 503 after this long without a connected peer',
    },
    STATUS_PEERLESS_SECONDS_MAX_DEFAULT,
  ),

  // L1
  l1RpcUrls: optional({
    flag: '--l1-rpc-urls',
    valueName: 'urls',
    env: 'ETHEREUM_HOSTS',
    kind: urlListKind(httpUrls),
    mutability: 'restart',
    scope: 'local',
    group: 'l1',
    description:
      'L1 JSON-RPC endpoints of one chain, comma-separated; the node reads and publishes through all of them, failing over when one is down, slow or behind',
  }),
  l1ConsensusHostUrls: defaulted(
    {
      flag: '--l1-consensus-host-urls',
      valueName: 'urls',
      env: 'L1_CONSENSUS_HOST_URLS',
      kind: urlListKind(['http', 'https']),
      mutability: 'restart',
      scope: 'local',
      group: 'l1',
      description:
        'L1 consensus (beacon) API endpoints the node reads checkpoint blobs from, comma-separated, asked in order',
    },
    [] as readonly string[],
  ),
  l1ConsensusHostApiKeys: optional({
    flag: '--l1-consensus-host-api-keys',
    valueName: 'keys',
    env: 'L1_CONSENSUS_HOST_API_KEYS',
    kind: tokenListKind(
      'an API key (no commas or spaces; empty for none)',
      /^[^,\s]*$/,
      CONSENSUS_HOST_API_KEY_LENGTH_MAX,
      true,
    ),
    secret: true,
    mutability: 'restart',
    scope: 'local',
    group: 'l1',
    description:
      'API keys of the consensus endpoints, in the same order (an empty item for one that needs none); each goes in the header of the same position in --l1-consensus-host-api-key-headers, else in the `key` query parameter',
  }),
  l1ConsensusHostApiKeyHeaders: defaulted(
    {
      flag: '--l1-consensus-host-api-key-headers',
      valueName: 'headers',
      env: 'L1_CONSENSUS_HOST_API_KEY_HEADERS',
      kind: tokenListKind('an HTTP header name', /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, HTTP_HEADER_NAME_LENGTH_MAX),
      mutability: 'restart',
      scope: 'local',
      group: 'l1',
      description: 'the header each consensus endpoint takes its API key in, in the same order',
    },
    [] as readonly string[],
  ),
  l1ChainId: optional({
    flag: '--l1-chain-id',
    valueName: 'id',
    env: 'L1_CHAIN_ID',
    kind: integerKind(1, Number.MAX_SAFE_INTEGER, 'a chain id'),
    mutability: 'restart',
    scope: 'network',
    group: 'l1',
    description: 'chain id the L1 must report; startup fails when it differs',
  }),
  rollupAddress: optional({
    flag: '--rollup-address',
    valueName: 'address',
    env: 'ROLLUP_CONTRACT_ADDRESS',
    kind: ethAddress,
    mutability: 'restart',
    scope: 'network',
    group: 'l1',
    description: 'L1 address of the rollup contract the node follows',
  }),

  // Admin API key (spec: Authentication)
  adminApiKeyHash: optional({
    flag: '--admin-api-key-hash',
    valueName: 'hex',
    env: 'SVC_ADMIN_API_KEY_HASH',
    kind: sha256HexKind,
    secret: true,
    mutability: 'restart',
    scope: 'local',
    group: 'adminApi',
    description: 'SHA-256 of an admin API key generated elsewhere; used instead of generating one',
  }),
  disableAdminApiKey: defaulted(
    {
      flag: '--disable-admin-api-key',
      env: 'SVC_DISABLE_ADMIN_API_KEY',
      kind: booleanKind,
      mutability: 'restart',
      scope: 'local',
      group: 'adminApi',
      description: 'serve the admin listener without authentication',
    },
    false,
  ),
  resetAdminApiKey: defaulted(
    {
      flag: '--reset-admin-api-key',
      env: 'SVC_RESET_ADMIN_API_KEY',
      kind: booleanKind,
      mutability: 'restart',
      scope: 'local',
      group: 'adminApi',
      description: 'generate a new admin API key even if one is stored',
    },
    false,
  ),

  // JSON-RPC listeners (docs/protocol.md, Wire encoding)
  rpcCorsAllowedOrigins: defaulted(
    {
      flag: '--rpc.corsAllowedOrigins',
      valueName: 'origins',
      env: 'SVC_RPC_CORS_ALLOWED_ORIGINS',
      kind: originListKind,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'origins browsers may call the public listener from (* for any); none sends no CORS headers',
    },
    [],
  ),
  rpcRequestTimeoutMs: defaulted(
    {
      flag: '--rpc.requestTimeoutMs',
      valueName: 'ms',
      env: 'SVC_RPC_REQUEST_TIMEOUT_MS',
      kind: integerKind(1, 10 * 60 * MS_PER_SECOND),
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'time one call may take before it is answered with a timeout error',
    },
    RPC_REQUEST_TIMEOUT_MS_DEFAULT,
  ),
  rpcBatchCallsMax: defaulted(
    {
      flag: '--rpc.batchCallsMax',
      valueName: 'n',
      env: 'SVC_RPC_BATCH_CALLS_MAX',
      kind: listBound,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'JSON-RPC calls one batch may hold',
    },
    BATCH_CALLS_MAX,
  ),
  rpcPublicBodyBytesMax: defaulted(
    {
      flag: '--rpc.publicBodyBytesMax',
      valueName: 'bytes',
      env: 'SVC_RPC_PUBLIC_BODY_BYTES_MAX',
      kind: integerKind(1024, 256 * MIB),
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'largest request body the public listener reads',
    },
    PUBLIC_BODY_BYTES_MAX,
  ),
  rpcAdminBodyBytesMax: defaulted(
    {
      flag: '--rpc.adminBodyBytesMax',
      valueName: 'bytes',
      env: 'SVC_RPC_ADMIN_BODY_BYTES_MAX',
      kind: integerKind(1024, 256 * MIB),
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'largest request body the admin listener reads',
    },
    ADMIN_BODY_BYTES_MAX,
  ),
  rpcBlocksPerCallMax: defaulted(
    {
      flag: '--rpc.blocksPerCallMax',
      valueName: 'n',
      env: 'SVC_RPC_BLOCKS_PER_CALL_MAX',
      kind: listBound,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'blocks one call may ask for (svc_getBlocks)',
    },
    RPC_BLOCKS_PER_CALL_MAX,
  ),
  rpcCheckpointsPerCallMax: defaulted(
    {
      flag: '--rpc.checkpointsPerCallMax',
      valueName: 'n',
      env: 'SVC_RPC_CHECKPOINTS_PER_CALL_MAX',
      kind: listBound,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'checkpoints one call may ask for (svc_getCheckpoints)',
    },
    RPC_CHECKPOINTS_PER_CALL_MAX,
  ),
  rpcCheckpointDataEntriesPerCallMax: defaulted(
    {
      flag: '--rpc.checkpointDataEntriesPerCallMax',
      valueName: 'n',
      env: 'SVC_RPC_CHECKPOINT_DATA_ENTRIES_PER_CALL_MAX',
      kind: listBound,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'checkpoint metadata entries one call may answer (svc_getCheckpointsData)',
    },
    RPC_CHECKPOINT_DATA_ENTRIES_PER_CALL_MAX,
  ),
  rpcTxsPerCallMax: defaulted(
    {
      flag: '--rpc.txsPerCallMax',
      valueName: 'n',
      env: 'SVC_RPC_TXS_PER_CALL_MAX',
      kind: listBound,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'pending transactions one call may ask for (svc_getPendingTxs)',
    },
    RPC_TXS_PER_CALL_MAX,
  ),
  rpcTxHashesPerCallMax: defaulted(
    {
      flag: '--rpc.txHashesPerCallMax',
      valueName: 'n',
      env: 'SVC_RPC_TX_HASHES_PER_CALL_MAX',
      kind: listBound,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'transaction hashes one call may carry (svc_getTxsByHash)',
    },
    RPC_TX_HASHES_PER_CALL_MAX,
  ),
  rpcLeavesPerQueryMax: defaulted(
    {
      flag: '--rpc.leavesPerQueryMax',
      valueName: 'n',
      env: 'SVC_RPC_LEAVES_PER_QUERY_MAX',
      kind: listBound,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'leaf values one svc_findLeavesIndexes call may look up',
    },
    RPC_LEAVES_PER_QUERY_MAX,
  ),
  rpcTagsPerQueryMax: defaulted(
    {
      flag: '--rpc.tagsPerQueryMax',
      valueName: 'n',
      env: 'SVC_RPC_TAGS_PER_QUERY_MAX',
      kind: listBound,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'tags one log query may carry',
    },
    RPC_TAGS_PER_QUERY_MAX,
  ),
  rpcLogsPerTagMax: defaulted(
    {
      flag: '--rpc.logsPerTagMax',
      valueName: 'n',
      env: 'SVC_RPC_LOGS_PER_TAG_MAX',
      kind: listBound,
      mutability: 'restart',
      scope: 'local',
      group: 'rpc',
      description: 'logs one tag of a log query may match; a tag matching more is refused, never cut',
    },
    RPC_LOGS_PER_TAG_MAX,
  ),

  // Archiver and world state
  archiverPollingIntervalMs: defaulted(
    {
      flag: '--archiver.pollingIntervalMs',
      valueName: 'ms',
      env: 'ARCHIVER_POLLING_INTERVAL_MS',
      kind: integerKind(1, HOUR_MS),
      mutability: 'runtime',
      scope: 'local',
      group: 'archiver',
      description: 'time between two reads of L1 by the archiver',
    },
    ARCHIVER_POLL_INTERVAL_MS_DEFAULT,
  ),
  syncMode: defaulted(
    {
      flag: '--sync-mode',
      valueName: 'mode',
      env: 'SYNC_MODE',
      kind: enumKind(SYNC_MODES),
      mutability: 'restart',
      scope: 'local',
      group: 'archiver',
      description:
        'how a node with --snapshots-urls starts: full (always from L1), snapshot (from a snapshot when it has no data), force-snapshot (from a newer snapshot even over its data)',
    },
    'snapshot' as SyncMode,
  ),
  snapshotsUrls: defaulted(
    {
      flag: '--snapshots-urls',
      valueName: 'urls',
      env: 'SYNC_SNAPSHOTS_URLS',
      kind: urlListKind(snapshotStoreUrls),
      mutability: 'restart',
      scope: 'network',
      group: 'archiver',
      description: 'file stores whose snapshots a new node may start from (newest usable one wins), comma-separated',
    },
    [] as readonly string[],
  ),
  worldStateHistoricCheckpointCount: defaulted(
    {
      flag: '--worldState.historicCheckpointCount',
      valueName: 'n',
      env: 'WS_NUM_HISTORIC_CHECKPOINTS',
      kind: positiveCount,
      mutability: 'restart',
      scope: 'local',
      group: 'worldState',
      description: 'finalized checkpoints whose state stays queryable for witnesses',
    },
    WORLD_STATE_HISTORIC_CHECKPOINT_COUNT_DEFAULT,
  ),
  worldStateKeyIndexMemoryKeys: defaulted(
    {
      flag: '--worldState.keyIndexMemoryKeys',
      valueName: 'n',
      env: 'WS_KEY_INDEX_MEMORY_KEYS',
      kind: integerKind(0, KEY_INDEX_MEMORY_KEYS_CAP, 'a count of keys'),
      mutability: 'restart',
      scope: 'local',
      group: 'worldState',
      description:
        'nullifiers and public data slots kept sorted in memory (about 190 bytes each); past it they move to the ' +
        'database for good, and lookups seek it (0: from the start)',
    },
    WORLD_STATE_KEY_INDEX_MEMORY_KEYS_MAX,
  ),

  // Sequencer (block proposer)
  sequencerEnabled: defaulted(
    {
      flag: '--sequencer',
      env: 'SEQ_ENABLED',
      kind: booleanKind,
      mutability: 'restart',
      scope: 'local',
      group: 'sequencer',
      description: 'run a sequencer on this node (needs a publisher key)',
    },
    false,
  ),
  sequencerPublisherPrivateKey: optional({
    flag: '--sequencer.publisherPrivateKey',
    valueName: 'key',
    env: 'SEQ_PUBLISHER_PRIVATE_KEY',
    kind: privateKey,
    secret: true,
    mutability: 'restart',
    scope: 'local',
    group: 'sequencer',
    description: 'key of the funded L1 account the sequencer publishes checkpoints from',
  }),
  sequencerPublisherPrivateKeys: optional({
    flag: '--sequencer.publisherPrivateKeys',
    valueName: 'keys',
    env: 'SEQ_PUBLISHER_PRIVATE_KEYS',
    kind: privateKeyListKind,
    secret: true,
    mutability: 'restart',
    scope: 'local',
    group: 'sequencer',
    description:
      "keys of further funded L1 accounts, comma-separated, that the keystore's validators may name as publisher; each sends its validators' checkpoints with its own nonces and fees",
  }),
  sequencerCoinbase: optional({
    flag: '--sequencer.coinbase',
    valueName: 'address',
    env: 'SEQ_COINBASE',
    kind: ethAddress,
    mutability: 'runtime',
    scope: 'local',
    group: 'sequencer',
    description: "L1 address credited as proposer of this node's blocks (unset: the publisher's address)",
  }),
  sequencerFeeRecipient: optional({
    flag: '--sequencer.feeRecipient',
    valueName: 'address',
    env: 'SEQ_FEE_RECIPIENT',
    kind: rollupAddressKind,
    mutability: 'runtime',
    scope: 'local',
    group: 'sequencer',
    description: "rollup address paid the fees of this node's blocks (unset: the zero address)",
  }),
  sequencerPollingIntervalMs: defaulted(
    {
      flag: '--sequencer.pollingIntervalMs',
      valueName: 'ms',
      env: 'SEQ_POLLING_INTERVAL_MS',
      kind: integerKind(1, 60 * MS_PER_SECOND),
      mutability: 'runtime',
      scope: 'local',
      group: 'sequencer',
      description: 'time between two checks by the sequencer of whether it has work',
    },
    SEQUENCER_POLL_INTERVAL_MS_DEFAULT,
  ),
  sequencerL1PublishingTimeAllowanceInSlotSeconds: defaulted(
    {
      flag: '--sequencer.l1PublishingTimeAllowanceInSlot',
      valueName: 'seconds',
      env: 'SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT',
      kind: integerKind(0, 3_600),
      mutability: 'runtime',
      scope: 'local',
      group: 'sequencer',
      description: 'seconds at the end of a slot kept for getting the checkpoint into L1; no block starts inside them',
    },
    SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT_SECONDS_DEFAULT,
  ),
  sequencerBlockDurationMs: defaulted(
    {
      flag: '--sequencer.blockDurationMs',
      valueName: 'ms',
      env: 'SEQ_BLOCK_DURATION_MS',
      kind: integerKind(100, HOUR_MS),
      mutability: 'runtime',
      scope: 'local',
      group: 'sequencer',
      description: 'target time between two blocks inside a slot',
    },
    SEQ_BLOCK_DURATION_SECONDS_DEFAULT * MS_PER_SECOND,
  ),
  maxL2BlockGas: optional({
    flag: '--maxL2BlockGas',
    valueName: 'gas',
    env: 'SEQ_MAX_L2_BLOCK_GAS',
    kind: gas,
    mutability: 'runtime',
    scope: 'network',
    group: 'sequencer',
    description:
      'L2 gas one proposed block may use (unset: derived from the L1 rollup limits); capped at the checkpoint limit',
  }),
  maxDABlockGas: optional({
    flag: '--maxDABlockGas',
    valueName: 'gas',
    env: 'SEQ_MAX_DA_BLOCK_GAS',
    kind: gas,
    mutability: 'runtime',
    scope: 'network',
    group: 'sequencer',
    description:
      'DA gas one proposed block may use (unset: derived from the L1 rollup limits); capped at the checkpoint limit',
  }),
  perBlockAllocationMultiplier: defaulted(
    {
      flag: '--perBlockAllocationMultiplier',
      valueName: 'factor',
      env: 'SEQ_PER_BLOCK_ALLOCATION_MULTIPLIER',
      kind: decimalKind(BLOCKS_PER_CHECKPOINT_MAX, false),
      mutability: 'runtime',
      scope: 'network',
      group: 'sequencer',
      description: 'derived per-block gas budget = checkpoint limit / blocks per checkpoint * this factor',
    },
    SEQ_PER_BLOCK_ALLOCATION_MULTIPLIER_DEFAULT,
  ),
  maxTxsPerCheckpoint: optional({
    flag: '--maxTxsPerCheckpoint',
    valueName: 'n',
    env: 'SEQ_MAX_TX_PER_CHECKPOINT',
    kind: positiveCount,
    mutability: 'runtime',
    scope: 'network',
    group: 'sequencer',
    description: 'transactions one proposed checkpoint may hold (unset: only the protocol limit)',
  }),

  // Validator
  validateMaxL2BlockGas: optional({
    flag: '--validateMaxL2BlockGas',
    valueName: 'gas',
    env: 'VALIDATOR_MAX_L2_BLOCK_GAS',
    kind: gas,
    mutability: 'runtime',
    scope: 'network',
    group: 'validator',
    description: 'L2 gas above which a proposed block is rejected (unset: no per-block limit)',
  }),
  validateMaxDABlockGas: optional({
    flag: '--validateMaxDABlockGas',
    valueName: 'gas',
    env: 'VALIDATOR_MAX_DA_BLOCK_GAS',
    kind: gas,
    mutability: 'runtime',
    scope: 'network',
    group: 'validator',
    description: 'DA gas above which a proposed block is rejected (unset: no per-block limit)',
  }),
  validateMaxTxsPerBlock: optional({
    flag: '--validateMaxTxsPerBlock',
    valueName: 'n',
    env: 'VALIDATOR_MAX_TX_PER_BLOCK',
    kind: positiveCount,
    mutability: 'runtime',
    scope: 'network',
    group: 'validator',
    description: 'transactions above which a proposed block is rejected (unset: no per-block limit)',
  }),
  validateMaxTxsPerCheckpoint: optional({
    flag: '--validateMaxTxsPerCheckpoint',
    valueName: 'n',
    env: 'VALIDATOR_MAX_TX_PER_CHECKPOINT',
    kind: positiveCount,
    mutability: 'runtime',
    scope: 'network',
    group: 'validator',
    description: 'transactions above which a proposed checkpoint is rejected (unset: only the protocol limit)',
  }),
  validatorKeystorePath: optional({
    flag: '--validator.keystorePath',
    valueName: 'file',
    env: 'VALIDATOR_KEYSTORE_PATH',
    kind: patternKind('a file path', /^[^\0]+$/, 4096),
    mutability: 'restart',
    scope: 'local',
    group: 'validator',
    description:
      'keystore file of the validators this node runs (attester BLS keys, coinbases, fee recipients, publishers); svcAdmin_reloadKeystore rereads it',
  }),
  validatorHaSigningEnabled: defaulted(
    {
      flag: '--validator.haSigningEnabled',
      env: 'VALIDATOR_HA_SIGNING_ENABLED',
      kind: booleanKind,
      mutability: 'restart',
      scope: 'local',
      group: 'validator',
      description:
        'coordinate signing through a shared database so redundant nodes never sign twice (needs the two below)',
    },
    false,
  ),
  validatorHaDatabaseUrl: optional({
    flag: '--validator.haDatabaseUrl',
    valueName: 'url',
    env: 'VALIDATOR_HA_DATABASE_URL',
    kind: databaseUrlKind(HA_DATABASE_URL_SCHEMES),
    secret: true,
    mutability: 'restart',
    scope: 'local',
    group: 'validator',
    description: 'database of high-availability signing, <scheme>://<user>:<password>@<host>:<port>/<database>',
  }),
  validatorHaNodeId: optional({
    flag: '--validator.haNodeId',
    valueName: 'id',
    env: 'VALIDATOR_HA_NODE_ID',
    kind: patternKind('an id of letters, digits, ".", "_" or "-"', /^[A-Za-z0-9._-]+$/, 128),
    mutability: 'restart',
    scope: 'local',
    group: 'validator',
    description: 'name of this node among the redundant nodes sharing the signing database (unique per node)',
  }),

  // Transaction pool and p2p
  p2pRpcPriceBumpPercentage: defaulted(
    {
      flag: '--p2p.rpcPriceBumpPercentage',
      valueName: 'percent',
      env: 'P2P_RPC_PRICE_BUMP_PERCENTAGE',
      kind: integerKind(0, 1_000),
      mutability: 'runtime',
      scope: 'network',
      group: 'p2p',
      description:
        'extra priority fee, in percent, a tx sent over RPC must offer to replace a pooled one (0: any increase)',
    },
    P2P_RPC_PRICE_BUMP_PERCENTAGE_DEFAULT,
  ),
  p2pPendingTxCountMax: defaulted(
    {
      flag: '--p2p.pendingTxCountMax',
      valueName: 'n',
      env: 'P2P_MAX_PENDING_TX_COUNT',
      kind: integerKind(1, 1_000_000),
      mutability: 'restart',
      scope: 'local',
      group: 'p2p',
      description: 'pending transactions the pool holds; when full, a newcomer must outbid the lowest',
    },
    P2P_PENDING_TX_COUNT_MAX_DEFAULT,
  ),
  p2pEnabled: defaulted(
    {
      flag: '--p2p-enabled',
      env: 'P2P_ENABLED',
      kind: booleanKind,
      mutability: 'restart',
      scope: 'local',
      group: 'p2p',
      description:
        'join the peer-to-peer network (libp2p): gossip txs, proposals and attestations with peers; off: the node is alone',
    },
    false,
  ),
  p2pListenAddress: defaulted(
    {
      flag: '--p2p.listenAddress',
      valueName: 'host',
      env: 'P2P_LISTEN_ADDR',
      kind: patternKind('a host name or IP address', /^[A-Za-z0-9.:_[\]-]+$/, 253),
      mutability: 'restart',
      scope: 'local',
      group: 'p2p',
      description: 'address the p2p TCP (libp2p) and UDP (discovery) listeners bind to',
    },
    P2P_LISTEN_ADDRESS_DEFAULT,
  ),
  p2pPort: defaulted(
    {
      flag: '--p2p.port',
      valueName: 'port',
      env: 'P2P_PORT',
      kind: port,
      mutability: 'restart',
      scope: 'local',
      group: 'p2p',
      description:
        'port of the p2p listeners: TCP for libp2p and UDP for discovery, the same number; 0 picks a free one',
    },
    P2P_PORT_DEFAULT,
  ),
  p2pAnnounceAddress: optional({
    flag: '--p2p.announceAddress',
    valueName: 'host[:port]',
    env: 'P2P_ANNOUNCE_ADDR',
    kind: patternKind('a host or IP address with an optional :port', /^[A-Za-z0-9._-]+(:[0-9]{1,5})?$/, 260),
    mutability: 'restart',
    scope: 'local',
    group: 'p2p',
    description:
      'address peers should dial, put in the ENR (behind NAT or in a container); the listen address otherwise',
  }),
  p2pBootstrapNodes: defaulted(
    {
      flag: '--p2p.bootstrapNodes',
      valueName: 'peers',
      env: 'BOOTSTRAP_NODES',
      kind: peerAddressListKind,
      mutability: 'restart',
      scope: 'network',
      group: 'p2p',
      description:
        'peers to join the network through: ENRs (enr:...) or multiaddrs with /p2p/<peer id>, comma-separated',
    },
    [] as readonly string[],
  ),
  p2pMaxPeers: defaulted(
    {
      flag: '--p2p.maxPeers',
      valueName: 'n',
      env: 'P2P_MAX_PEERS',
      kind: integerKind(1, 10_000),
      mutability: 'restart',
      scope: 'local',
      group: 'p2p',
      description: 'connections to peers the node keeps at most; beyond, new ones are refused',
    },
    P2P_MAX_PEERS_DEFAULT,
  ),
  p2pDiscoveryDisabled: defaulted(
    {
      flag: '--p2p.disableDiscovery',
      env: 'P2P_DISABLE_DISCOVERY',
      kind: booleanKind,
      mutability: 'restart',
      scope: 'local',
      group: 'p2p',
      description: 'do not run discv5 (UDP) nor publish an ENR: only bootstrap peers and peers that dial in',
    },
    false,
  ),
  p2pPrivateKey: optional({
    flag: '--p2p.privateKey',
    valueName: 'hex',
    env: 'P2P_PRIVATE_KEY',
    kind: privateKey,
    secret: true,
    mutability: 'restart',
    scope: 'local',
    group: 'p2p',
    description:
      "the node's secp256k1 peer key (its peer id and ENR); default: <data directory>/p2p-private-key, created on first start",
  }),
  txPublicSetupAllowListExtend: defaulted(
    {
      flag: '--txPublicSetupAllowListExtend',
      valueName: 'entries',
      env: 'TX_PUBLIC_SETUP_ALLOWLIST',
      kind: allowListKind,
      mutability: 'restart',
      scope: 'network',
      group: 'p2p',
      description:
        'setup-phase functions allowed besides the built-in ones: I:<address>:<selector>[:<flags>] or C:<classId>:<selector>[:<flags>], comma-separated',
    },
    [] as readonly AllowListEntry[],
  ),

  // Fees
  initialEthPerFeeAsset: defaulted(
    {
      flag: '--initialEthPerFeeAsset',
      valueName: 'rate',
      env: 'SVC_INITIAL_ETH_PER_FEE_ASSET',
      kind: bigintKind(1n, 'a fee-asset rate with 12 decimals'),
      mutability: 'restart',
      scope: 'network',
      group: 'fees',
      description: `base currency per unit of fee asset set when the rollup contract is deployed, with ${ETH_PER_FEE_ASSET_DECIMALS} decimals`,
    },
    INITIAL_ETH_PER_FEE_ASSET_DEFAULT,
  ),

  // Blob redundancy (spec: Versioning, 4.0.0 change 7)
  blobFileStoreUrls: defaulted(
    {
      flag: '--blob.fileStoreUrls',
      valueName: 'urls',
      env: 'BLOB_FILE_STORE_URLS',
      kind: urlListKind(storeUrls),
      mutability: 'restart',
      scope: 'network',
      group: 'blobs',
      description: 'file stores blobs are read from when the consensus client lacks them, comma-separated',
    },
    [] as readonly string[],
  ),
  blobFileStoreUploadUrl: optional({
    flag: '--blob.fileStoreUploadUrl',
    valueName: 'url',
    env: 'BLOB_FILE_STORE_UPLOAD_URL',
    kind: urlKind(storeUrls),
    mutability: 'restart',
    scope: 'local',
    group: 'blobs',
    description: 'file store this node uploads the blobs it sees to',
  }),
  blobArchiveApiUrl: optional({
    flag: '--blob.archiveApiUrl',
    valueName: 'url',
    env: 'BLOB_ARCHIVE_API_URL',
    kind: urlKind(['http', 'https']),
    mutability: 'restart',
    scope: 'network',
    group: 'blobs',
    description: 'blob archive API asked for blobs older than the consensus client keeps',
  }),

  blobAllowEmptySources: defaulted(
    {
      flag: '--blob.allowEmptySources',
      env: 'BLOB_ALLOW_EMPTY_SOURCES',
      kind: booleanKind,
      mutability: 'restart',
      scope: 'local',
      group: 'blobs',
      description: 'start even when no blob source answers at startup (sync waits until one does)',
    },
    false,
  ),

  // Transaction bot
  botMinFeePadding: defaulted(
    {
      flag: '--bot.minFeePadding',
      valueName: 'padding',
      env: 'BOT_MIN_FEE_PADDING',
      kind: decimalKind(100, true),
      mutability: 'runtime',
      scope: 'local',
      group: 'bot',
      description: 'the bot offers min fee * (1 + padding) so its txs survive fee increases',
    },
    BOT_MIN_FEE_PADDING_DEFAULT,
  ),

  // Prover
  proverNode: defaulted(
    {
      flag: '--prover-node',
      env: 'SVC_PROVER_NODE',
      kind: booleanKind,
      mutability: 'restart',
      scope: 'local',
      group: 'prover',
      description:
        'run the prover as a subsystem of this node: it proves each complete epoch and submits the proof to L1',
    },
    false,
  ),
  proverPublisherPrivateKey: optional({
    flag: '--prover.publisherPrivateKey',
    valueName: 'key',
    env: 'PROVER_PUBLISHER_PRIVATE_KEY',
    kind: privateKey,
    secret: true,
    mutability: 'restart',
    scope: 'local',
    group: 'prover',
    description:
      'key of the funded L1 account the prover submits epoch proofs from (default: the sequencer publisher key)',
  }),
  proverPollingIntervalMs: defaulted(
    {
      flag: '--prover.pollingIntervalMs',
      valueName: 'ms',
      env: 'PROVER_POLLING_INTERVAL_MS',
      kind: integerKind(1, 60 * MS_PER_SECOND),
      mutability: 'restart',
      scope: 'local',
      group: 'prover',
      description: 'time between two checks by the prover for an epoch to prove or for its proof on L1',
    },
    PROVER_POLL_INTERVAL_MS_DEFAULT,
  ),

  // Metrics (adapters/metrics/)
  metricsPort: optional({
    flag: '--metrics-port',
    valueName: 'port',
    env: 'METRICS_PORT',
    kind: port,
    mutability: 'restart',
    scope: 'local',
    group: 'metrics',
    description:
      'TCP port of the Prometheus listener (GET /metrics); without one the node serves no metrics; 0 picks a free one',
  }),
  metricsHost: defaulted(
    {
      flag: '--metrics-host',
      valueName: 'host',
      env: 'METRICS_HOST',
      kind: patternKind('a host name or IP address', /^[A-Za-z0-9.:_[\]-]+$/, 253),
      mutability: 'restart',
      scope: 'local',
      group: 'metrics',
      description: 'address the metrics listener binds to; 0.0.0.0 lets a Prometheus server on another host scrape it',
    },
    '127.0.0.1',
  ),
  otelExporterOtlpMetricsEndpoint: optional({
    flag: '--otel-exporter-otlp-metrics-endpoint',
    valueName: 'url',
    env: 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
    kind: urlKind(['http', 'https']),
    mutability: 'restart',
    scope: 'local',
    group: 'metrics',
    description:
      'OTLP/HTTP metrics URL of an OpenTelemetry collector (http://collector:4318/v1/metrics) the node pushes its metrics to',
  }),
  otelMetricExportIntervalMs: defaulted(
    {
      flag: '--otel-metric-export-interval',
      valueName: 'ms',
      env: 'OTEL_METRIC_EXPORT_INTERVAL',
      kind: integerKind(100, HOUR_MS),
      mutability: 'restart',
      scope: 'local',
      group: 'metrics',
      description: 'time between two OTLP pushes of the metrics',
    },
    OTEL_METRIC_EXPORT_INTERVAL_MS_DEFAULT,
  ),

  // Local network (svc start --local-network)
  localNetworkL1Port: defaulted(
    {
      flag: '--l1-port',
      valueName: 'port',
      env: 'LOCAL_NETWORK_L1_PORT',
      kind: port,
      mutability: 'restart',
      scope: 'local',
      group: 'localNetwork',
      description: 'port of the local L1 (anvil)',
    },
    LOCAL_NETWORK_L1_PORT_DEFAULT,
  ),
  localNetworkNodes: defaulted(
    {
      flag: '--nodes',
      valueName: 'n',
      env: 'LOCAL_NETWORK_NODES',
      kind: integerKind(1, LOCAL_NETWORK_NODES_MAX),
      mutability: 'restart',
      scope: 'local',
      group: 'localNetwork',
      description:
        'node processes of the local network; above 1 each runs its own share of the validators and they talk over libp2p on 127.0.0.1',
    },
    1,
  ),
  localNetworkSlotDurationSeconds: defaulted(
    {
      flag: '--slot-duration',
      valueName: 'seconds',
      env: 'LOCAL_NETWORK_SLOT_DURATION_SECONDS',
      kind: integerKind(1, 3_600),
      mutability: 'restart',
      scope: 'local',
      group: 'localNetwork',
      description: 'L2 slot duration of the rollup the local network deploys',
    },
    L2_SLOT_DURATION_SECONDS_DEFAULT,
  ),
  localNetworkL1BlockTimeSeconds: defaulted(
    {
      flag: '--l1-block-time',
      valueName: 'seconds',
      env: 'LOCAL_NETWORK_L1_BLOCK_TIME_SECONDS',
      kind: integerKind(1, 60),
      mutability: 'restart',
      scope: 'local',
      group: 'localNetwork',
      description: 'seconds between blocks of the local L1',
    },
    L1_SLOT_DURATION_SECONDS,
  ),
} as const;

export type ConfigSchema = typeof configSchema;
export type ConfigKey = keyof ConfigSchema;

type ValueOfOption<O> =
  O extends ConfigOption<infer T, infer HasDefault> ? (HasDefault extends true ? T : T | undefined) : never;

/** The effective value of every option (optional options without a value are undefined). */
export type ConfigValues = { readonly [K in ConfigKey]: ValueOfOption<ConfigSchema[K]> };

export type RuntimeConfigKey = {
  [K in ConfigKey]: ConfigSchema[K]['mutability'] extends 'runtime' ? K : never;
}[ConfigKey];

/** A change made by svcAdmin_setConfig: runtime options only; a present key with undefined clears to the default. */
export type ConfigPatch = { readonly [K in RuntimeConfigKey]?: ConfigValues[K] };

/** Every option with its key, in table order. */
export const configOptions: readonly (ConfigOption & { readonly key: ConfigKey })[] = (
  Object.keys(configSchema) as ConfigKey[]
).map((key) => ({ key, ...(configSchema[key] as ConfigOption) }));

export function isConfigKey(name: string): name is ConfigKey {
  return Object.hasOwn(configSchema, name);
}

export function configOption(key: ConfigKey): ConfigOption & { readonly key: ConfigKey } {
  return { key, ...(configSchema[key] as ConfigOption) };
}

/** The default values (undefined for options without one). */
export function defaultConfigValues(): ConfigValues {
  return Object.fromEntries(configOptions.map((o) => [o.key, o.default])) as ConfigValues;
}

/** How help shows the default: the printed value, or `none`. */
export function defaultText(option: ConfigOption): string {
  if (option.default === undefined) return 'none';
  const text = option.kind.print(option.default);
  return text === '' ? 'none' : text;
}

/** Flag and environment variable together, as errors name an option: `--port / SVC_PORT`. */
export function optionNames(option: ConfigOption): string {
  return `${option.flag} / ${option.env}`;
}

/**
 * Rules between options that hold whatever the mode: one sentence per broken rule. (What a mode needs, such as the
 * L1 URL of `--node`, is checked where the mode starts.)
 */
export function configConsistencyProblems(
  values: ConfigValues,
): { readonly names: string; readonly message: string }[] {
  const problems: { names: string; message: string }[] = [];
  const names = (key: ConfigKey) => optionNames(configSchema[key]);
  if (values.validatorHaSigningEnabled) {
    for (const key of ['validatorHaDatabaseUrl', 'validatorHaNodeId'] as const) {
      if (values[key] === undefined)
        problems.push({ names: names(key), message: `${names('validatorHaSigningEnabled')} needs ${names(key)}` });
    }
  }
  if (values.adminApiKeyHash !== undefined) {
    for (const key of ['disableAdminApiKey', 'resetAdminApiKey'] as const) {
      if (values[key])
        problems.push({
          names: names(key),
          message: `${names('adminApiKeyHash')} contradicts ${names(key)}: give one of them`,
        });
    }
  }
  return problems;
}
