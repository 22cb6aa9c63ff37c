import { describe, expect, it } from 'vitest';
import { RETIRED_CONFIG_NAMES, retiredNameMessage } from './retiredNames.js';
import { configOptions, configSchema, defaultConfigValues, defaultText } from './schema.js';

/** The flags the spec names, spelled as the spec spells them. */
const SPEC_FLAGS = [
  '--port',
  '--admin-port',
  '--data-directory',
  '--l1-rpc-urls',
  '--l1-chain-id',
  '--rollup-address',
  '--admin-api-key-hash',
  '--disable-admin-api-key',
  '--reset-admin-api-key',
  '--maxL2BlockGas',
  '--maxDABlockGas',
  '--perBlockAllocationMultiplier',
  '--maxTxsPerCheckpoint',
  '--validateMaxL2BlockGas',
  '--validateMaxDABlockGas',
  '--validateMaxTxsPerBlock',
  '--validateMaxTxsPerCheckpoint',
  '--txPublicSetupAllowListExtend',
  '--initialEthPerFeeAsset',
  '--bot.minFeePadding',
  '--prover-node',
];

/** The environment variables the spec (and the project brief) name. */
const SPEC_ENV = [
  'SVC_ADMIN_API_KEY_HASH',
  'SVC_DISABLE_ADMIN_API_KEY',
  'SVC_RESET_ADMIN_API_KEY',
  'P2P_RPC_PRICE_BUMP_PERCENTAGE',
  'SEQ_MAX_L2_BLOCK_GAS',
  'SEQ_MAX_DA_BLOCK_GAS',
  'SEQ_PER_BLOCK_ALLOCATION_MULTIPLIER',
  'SEQ_MAX_TX_PER_CHECKPOINT',
  'VALIDATOR_MAX_L2_BLOCK_GAS',
  'VALIDATOR_MAX_DA_BLOCK_GAS',
  'VALIDATOR_MAX_TX_PER_BLOCK',
  'VALIDATOR_MAX_TX_PER_CHECKPOINT',
  'TX_PUBLIC_SETUP_ALLOWLIST',
  'SVC_INITIAL_ETH_PER_FEE_ASSET',
  'BOT_MIN_FEE_PADDING',
  'VALIDATOR_HA_SIGNING_ENABLED',
  'VALIDATOR_HA_DATABASE_URL',
  'VALIDATOR_HA_NODE_ID',
  'BLOB_FILE_STORE_URLS',
  'BLOB_FILE_STORE_UPLOAD_URL',
  'BLOB_ARCHIVE_API_URL',
  'SEQ_POLLING_INTERVAL_MS',
  'SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT',
  'DATA_DIRECTORY',
  'ETHEREUM_HOSTS',
  'WS_NUM_HISTORIC_CHECKPOINTS',
];

describe('configuration schema', () => {
  it('has every flag and variable the spec names', () => {
    const flags = configOptions.map((o) => o.flag);
    const envs = configOptions.map((o) => o.env);
    expect(flags).toEqual(expect.arrayContaining(SPEC_FLAGS));
    expect(envs).toEqual(expect.arrayContaining(SPEC_ENV));
  });

  it('gives each option its own flag and variable, none of them a 3.x name', () => {
    const names = configOptions.flatMap((o) => [o.flag, o.env]);
    expect(new Set(names).size).toBe(names.length);
    for (const retired of RETIRED_CONFIG_NAMES) expect(names).not.toContain(retired.name);
    for (const option of configOptions) {
      expect(option.flag).toMatch(/^--[a-z][A-Za-z0-9.-]*$/);
      expect(option.env).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(option.description.length).toBeGreaterThan(10);
    }
  });

  it('keeps the defaults the spec fixes', () => {
    const d = defaultConfigValues();
    expect([d.port, d.adminPort, d.p2pRpcPriceBumpPercentage, d.perBlockAllocationMultiplier]).toEqual([
      8080, 8880, 10, 2,
    ]);
    expect([d.initialEthPerFeeAsset, d.p2pPendingTxCountMax, d.worldStateHistoricCheckpointCount]).toEqual([
      10_000_000n,
      1000,
      64,
    ]);
    expect([d.maxL2BlockGas, d.validateMaxTxsPerBlock, d.disableAdminApiKey]).toEqual([undefined, undefined, false]);
  });

  it('keeps metrics off unless asked, and on loopback when asked without a host', () => {
    const d = defaultConfigValues();
    expect([d.metricsPort, d.otelExporterOtlpMetricsEndpoint]).toEqual([undefined, undefined]);
    expect(d.metricsHost).toBe('127.0.0.1');
    // OpenTelemetry's own variable names, so a collector's usual environment configures the push.
    expect([configSchema.otelExporterOtlpMetricsEndpoint.env, configSchema.otelMetricExportIntervalMs.env]).toEqual([
      'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT',
      'OTEL_METRIC_EXPORT_INTERVAL',
    ]);
  });

  it('holds defaults its own kinds accept, and prints them back to the same value', () => {
    for (const option of configOptions) {
      if (option.default === undefined) continue;
      const text = option.kind.print(option.default);
      if (text === '') continue;
      expect(option.kind.text.parse(text), option.key).toEqual(option.default);
      expect(defaultText(option)).toBe(text);
    }
  });

  it('keeps secrets local, without defaults, and read only at startup', () => {
    const secrets = configOptions.filter((o) => o.secret).map((o) => o.key);
    expect(secrets).toEqual([
      'l1ConsensusHostApiKeys',
      'adminApiKeyHash',
      'sequencerPublisherPrivateKey',
      'sequencerPublisherPrivateKeys',
      'validatorHaDatabaseUrl',
      'p2pPrivateKey',
      'proverPublisherPrivateKey',
    ]);
    for (const key of secrets) {
      const option = configSchema[key];
      expect([option.scope, option.default, option.mutability]).toEqual(['local', undefined, 'restart']);
    }
  });

  it('never repeats a bad secret value, whole or as a list item, in the error that refuses it', () => {
    const marker = 'LEAKED0SECRET';
    for (const option of configOptions.filter((o) => o.secret)) {
      for (const text of [`${marker} x`, `${marker},${marker} x`, `0x${'11'.repeat(32)},${marker} x`]) {
        const parsed = option.kind.text.safeParse(text);
        if (parsed.success) continue;
        expect(JSON.stringify(parsed.error.issues), `${option.key} refusing ${text}`).not.toContain(marker);
      }
    }
  });

  it('defaults every presence flag to false, since a flag can only say true', () => {
    for (const option of configOptions.filter((o) => o.kind.presence === true))
      expect(option.default, option.key).toBe(false);
  });
});

describe('3.x names', () => {
  it('say what replaced them, or that they were removed', () => {
    const messages = Object.fromEntries(RETIRED_CONFIG_NAMES.map((r) => [r.name, retiredNameMessage(r)]));
    expect(messages['SEQ_TX_POLLING_INTERVAL_MS']).toBe(
      'the environment variable SEQ_TX_POLLING_INTERVAL_MS was renamed in 4.x: use SEQ_POLLING_INTERVAL_MS',
    );
    expect(messages['--maxBlockSizeInBytes']).toMatch(
      /^the flag --maxBlockSizeInBytes was removed in 4\.x: .*gas budgets/,
    );
    expect(messages['--txPublicSetupAllowList']).toContain(
      'use --txPublicSetupAllowListExtend (it now extends the built-in defaults',
    );
    for (const retired of RETIRED_CONFIG_NAMES.filter((r) => r.replacement !== undefined)) {
      const replacement = configOptions.find((o) => o.flag === retired.replacement || o.env === retired.replacement);
      expect(replacement, retired.name).toBeDefined();
    }
  });
});
