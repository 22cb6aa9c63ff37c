import { SETUP_ALLOW_LIST_DEFAULTS } from '../../spec/config/allowList.js';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../spec/config/configError.js';
import { resolveConfig } from '../config/resolveConfig.js';
import {
  configFromSettings,
  coreConfigUpdateOf,
  coreNodeConfigOf,
  nodeStartValues,
  rpcLimitsOf,
} from './nodeConfig.js';

const PUBLISHER = `0x${'99'.repeat(20)}` as const;
const ROLLUP = `0x${'01'.repeat(20)}` as const;
const KEY = `0x${'11'.repeat(32)}`;

describe('mapping the configuration onto the core', () => {
  it('gives the core its archiver interval and sequencer settings, the coinbase defaulting to the publisher', () => {
    const { values } = resolveConfig({
      env: {
        ARCHIVER_POLLING_INTERVAL_MS: '750',
        SEQ_POLLING_INTERVAL_MS: '100',
        SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT: '12',
        WS_NUM_HISTORIC_CHECKPOINTS: '8',
        WS_KEY_INDEX_MEMORY_KEYS: '1000',
        SVC_STATUS_MAX_SYNC_LAG_SLOTS: '6',
        SVC_STATUS_MAX_PEERLESS_SECONDS: '90',
        P2P_ENABLED: 'true',
      },
    });
    const txPool = { priceBumpPercentage: 10, capacity: 1000, setupAllowList: SETUP_ALLOW_LIST_DEFAULTS };
    const health = { syncLagSlotsMax: 6, peerlessMsMax: 90_000 };
    expect(coreNodeConfigOf(values, ROLLUP, PUBLISHER)).toEqual({
      rollupAddress: ROLLUP,
      archiverPollIntervalMs: 750,
      worldStateHistoricCheckpointCount: 8,
      worldStateKeyIndexMemoryKeys: 1000,
      txPool,
      health,
      sequencer: {
        blockDurationMs: 6000,
        l1PublishingTimeAllowanceInSlotSeconds: 12,
        pollIntervalMs: 100,
        coinbase: PUBLISHER,
        feeRecipient: `0x${'00'.repeat(32)}`,
        perBlockAllocationMultiplier: 2,
      },
    });
    expect(coreNodeConfigOf(values, ROLLUP, undefined)).toEqual({
      rollupAddress: ROLLUP,
      archiverPollIntervalMs: 750,
      worldStateHistoricCheckpointCount: 8,
      worldStateKeyIndexMemoryKeys: 1000,
      txPool,
      health,
    });
  });

  it('gives validators their own VALIDATOR_MAX_* limits, never the SEQ_ ones, and changes them at run time', () => {
    const seqOnly = resolveConfig({
      env: { SEQ_MAX_L2_BLOCK_GAS: '1000', SEQ_MAX_TX_PER_CHECKPOINT: '5', VALIDATOR_KEYSTORE_PATH: '/tmp/keys.json' },
    }).values;
    expect(coreNodeConfigOf(seqOnly, ROLLUP, PUBLISHER).validator).toEqual({ limits: {}, publishers: [PUBLISHER] });
    const own = resolveConfig({
      env: {
        VALIDATOR_MAX_TX_PER_BLOCK: '3',
        VALIDATOR_MAX_L2_BLOCK_GAS: '2000',
        VALIDATOR_KEYSTORE_PATH: '/tmp/keys.json',
      },
    }).values;
    expect(coreNodeConfigOf(own, ROLLUP, undefined).validator).toEqual({
      limits: { maxTxsPerBlock: 3, maxL2BlockGas: 2000 },
      publishers: [],
    });
    expect(coreNodeConfigOf(resolveConfig({ env: {} }).values, ROLLUP, PUBLISHER).validator).toBeUndefined();
    expect(coreConfigUpdateOf({ validateMaxTxsPerBlock: 3 }, own, undefined)).toEqual({
      validatorLimits: { maxTxsPerBlock: 3, maxL2BlockGas: 2000 },
    });
  });

  it('turns a setConfig change into the core update of the fields it touches', () => {
    const { values } = resolveConfig({ env: { SEQ_COINBASE: `0x${'cc'.repeat(20)}` } });
    const next = {
      ...values,
      sequencerPollingIntervalMs: 50,
      archiverPollingIntervalMs: 2000,
      sequencerCoinbase: undefined,
    };
    expect(
      coreConfigUpdateOf(
        {
          sequencerPollingIntervalMs: 50,
          archiverPollingIntervalMs: 2000,
          sequencerCoinbase: undefined,
          p2pRpcPriceBumpPercentage: 5,
        },
        next,
        PUBLISHER,
      ),
    ).toEqual({
      archiverPollIntervalMs: 2000,
      sequencer: { pollIntervalMs: 50, coinbase: PUBLISHER },
      txPool: {
        priceBumpPercentage: next.p2pRpcPriceBumpPercentage,
        capacity: 1000,
        setupAllowList: SETUP_ALLOW_LIST_DEFAULTS,
      },
    });
    expect(coreConfigUpdateOf({ botMinFeePadding: 1 }, values, undefined)).toEqual({});
    expect(
      coreConfigUpdateOf({ statusMaxSyncLagSlots: 9 }, { ...values, statusMaxSyncLagSlots: 9 }, undefined),
    ).toEqual({ health: { syncLagSlotsMax: 9, peerlessMsMax: undefined } });
    expect(() => coreConfigUpdateOf({ sequencerBlockDurationMs: 1000 }, values, undefined)).toThrow(
      'no sequencer runs on this node, so sequencerBlockDurationMs cannot be changed',
    );
  });

  it('gives each listener its limits', () => {
    const { values } = resolveConfig({
      env: { SVC_RPC_BLOCKS_PER_CALL_MAX: '7', SVC_RPC_ADMIN_BODY_BYTES_MAX: '2048' },
    });
    expect(rpcLimitsOf(values, 'public')).toMatchObject({ blocksPerCallMax: 7, bodyBytesMax: 1024 * 1024 });
    expect(rpcLimitsOf(values, 'admin')).toMatchObject({ blocksPerCallMax: 7, bodyBytesMax: 2048 });
  });
});

describe('what a node needs to start', () => {
  it('names every missing value with its flag and variable', () => {
    const { values } = resolveConfig({ env: { SEQ_ENABLED: 'true', SVC_PROVER_NODE: 'true' } });
    let error: unknown;
    try {
      nodeStartValues(values);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.message)).toEqual([
      'the node needs the URL of an L1 JSON-RPC endpoint: set --l1-rpc-urls / ETHEREUM_HOSTS',
      'the node needs the L1 address of the rollup contract: set --rollup-address / ROLLUP_CONTRACT_ADDRESS',
      '--sequencer needs the key of the L1 account it publishes from: set --sequencer.publisherPrivateKey / SEQ_PUBLISHER_PRIVATE_KEY',
      '--prover-node needs the key of the L1 account it submits proofs from: set --prover.publisherPrivateKey / PROVER_PUBLISHER_PRIVATE_KEY',
    ]);
  });

  it('takes every L1 URL (the first for messages), and the publisher key only with --sequencer', () => {
    const base = {
      ETHEREUM_HOSTS: 'http://a:8545, http://b:8545',
      ROLLUP_CONTRACT_ADDRESS: ROLLUP,
      SEQ_PUBLISHER_PRIVATE_KEY: KEY,
    };
    expect(nodeStartValues(resolveConfig({ env: base }).values)).toEqual({
      l1RpcUrl: 'http://a:8545',
      l1RpcUrls: ['http://a:8545', 'http://b:8545'],
      rollupAddress: ROLLUP,
    });
    expect(nodeStartValues(resolveConfig({ env: { ...base, SEQ_ENABLED: '1' } }).values).sequencerPrivateKey).toBe(KEY);
  });

  it('takes further publisher keys with a sequencer: without repeats or its own key, and none shown in an error', () => {
    const other = `0x${'33'.repeat(32)}`;
    const base = {
      ETHEREUM_HOSTS: 'http://a:8545',
      ROLLUP_CONTRACT_ADDRESS: ROLLUP,
      SEQ_PUBLISHER_PRIVATE_KEY: KEY,
      SEQ_PUBLISHER_PRIVATE_KEYS: `${other.toUpperCase().replace('0X', '0x')}, ${KEY}, ${other}`,
    };
    expect(
      nodeStartValues(resolveConfig({ env: { ...base, SEQ_ENABLED: '1' } }).values).validatorPublisherPrivateKeys,
    ).toEqual([other]);
    expect(nodeStartValues(resolveConfig({ env: base }).values).validatorPublisherPrivateKeys).toBeUndefined();
    const secret = `0x${'44'.repeat(31)}`;
    expect(() => resolveConfig({ env: { SEQ_PUBLISHER_PRIVATE_KEYS: `${other},${secret}` } })).toThrow(/item 2 is not/);
    expect(() => resolveConfig({ env: { SEQ_PUBLISHER_PRIVATE_KEYS: `${other},${secret}` } })).not.toThrow(
      new RegExp(secret.slice(2)),
    );
    // The keystore may name every publisher the node holds: the sequencer's and the further ones.
    const values = resolveConfig({ env: { VALIDATOR_KEYSTORE_PATH: '/tmp/keys.json' } }).values;
    const further = `0x${'98'.repeat(20)}` as const;
    expect(coreNodeConfigOf(values, ROLLUP, PUBLISHER, [further]).validator?.publishers).toEqual([PUBLISHER, further]);
  });

  it('runs a prover with --prover-node, from its own key or else the sequencer publisher key', () => {
    const base = { ETHEREUM_HOSTS: 'http://a:8545', ROLLUP_CONTRACT_ADDRESS: ROLLUP, SVC_PROVER_NODE: 'true' };
    const proverKey = `0x${'22'.repeat(32)}`;
    expect(nodeStartValues(resolveConfig({ env: { ...base, SEQ_PUBLISHER_PRIVATE_KEY: KEY } }).values)).toEqual({
      l1RpcUrl: 'http://a:8545',
      l1RpcUrls: ['http://a:8545'],
      rollupAddress: ROLLUP,
      proverPrivateKey: KEY,
    });
    expect(
      nodeStartValues(
        resolveConfig({ env: { ...base, SEQ_PUBLISHER_PRIVATE_KEY: KEY, PROVER_PUBLISHER_PRIVATE_KEY: proverKey } })
          .values,
      ).proverPrivateKey,
    ).toBe(proverKey);
    const { values } = resolveConfig({ env: { ...base, PROVER_POLLING_INTERVAL_MS: '250' } });
    expect(coreNodeConfigOf(values, ROLLUP, undefined).prover).toEqual({ pollIntervalMs: 250 });
    expect(coreNodeConfigOf(resolveConfig({ env: {} }).values, ROLLUP, undefined).prover).toBeUndefined();
  });

  it('takes the HA signing database and node id only when HA signing is enabled, and names whichever is missing', () => {
    const base = {
      ETHEREUM_HOSTS: 'http://a:8545',
      ROLLUP_CONTRACT_ADDRESS: ROLLUP,
      VALIDATOR_HA_DATABASE_URL: 'postgres://signer:pw@db:5432/ha',
      VALIDATOR_HA_NODE_ID: 'node-2',
    };
    expect(nodeStartValues(resolveConfig({ env: base }).values).haSigning).toBeUndefined();
    expect(
      nodeStartValues(resolveConfig({ env: { ...base, VALIDATOR_HA_SIGNING_ENABLED: 'true' } }).values).haSigning,
    ).toEqual({ databaseUrl: 'postgres://signer:pw@db:5432/ha', nodeId: 'node-2' });
    // resolveConfig refuses these already; a programmatic configuration is checked again at the start.
    const enabled = {
      ...resolveConfig({ env: { ETHEREUM_HOSTS: 'http://a:8545', ROLLUP_CONTRACT_ADDRESS: ROLLUP } }).values,
      validatorHaSigningEnabled: true,
    };
    expect(() => nodeStartValues(enabled)).toThrow(ConfigError);
    try {
      nodeStartValues(enabled);
    } catch (error) {
      expect((error as ConfigError).problems.map((p) => p.message)).toEqual([
        '--validator.haSigningEnabled needs the database the redundant nodes share: set --validator.haDatabaseUrl / VALIDATOR_HA_DATABASE_URL',
        '--validator.haSigningEnabled needs an id unique to this node: set --validator.haNodeId / VALIDATOR_HA_NODE_ID',
      ]);
    }
  });
});

describe('the settings form', () => {
  it('becomes a configuration over the defaults, recorded as programmatic', () => {
    const config = configFromSettings({
      l1RpcUrl: 'http://127.0.0.1:8545',
      rollupAddress: ROLLUP,
      port: 0,
      adminPort: 0,
      adminHost: '127.0.0.1',
      adminApiKey: { disabled: true, reset: false },
      sequencerPrivateKey: KEY as `0x${string}`,
      sequencerTiming: { blockDurationMs: 1000, l1PublishingTimeAllowanceInSlotSeconds: 2 },
    });
    expect(config.values).toMatchObject({
      l1RpcUrls: ['http://127.0.0.1:8545'],
      port: 0,
      disableAdminApiKey: true,
      sequencerEnabled: true,
      sequencerBlockDurationMs: 1000,
    });
    expect(config.sources).toMatchObject({ port: 'programmatic', dataDirectory: 'unset', logLevel: 'default' });
  });
});
