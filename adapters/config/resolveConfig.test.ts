import { describe, expect, it } from 'vitest';
import { SETUP_ALLOW_LIST_DEFAULTS, printAllowList } from '../../spec/config/allowList.js';
import { ConfigError } from '../../spec/config/configError.js';
import { RETIRED_CONFIG_NAMES } from '../../spec/config/retiredNames.js';
import { redactConfig, REDACTED } from './redactConfig.js';
import { overrideConfig, resolveConfig, type ConfigInputs } from './resolveConfig.js';

const KEY = `0x${'11'.repeat(32)}`;
const CLASS_ID = `0x${'0c'.repeat(32)}`;

const problemsOf = (inputs: ConfigInputs): string[] => {
  try {
    resolveConfig(inputs);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).code).toBe('CONFIG_INVALID');
    return (error as ConfigError).problems.map((p) => p.message);
  }
  throw new Error('the configuration was accepted');
};

describe('precedence: flag, then environment variable, then network configuration, then default', () => {
  it('takes each option from its highest source and records which', () => {
    const r = resolveConfig({
      flags: { '--p2p.rpcPriceBumpPercentage': '30' },
      env: { P2P_RPC_PRICE_BUMP_PERCENTAGE: '20', SEQ_PER_BLOCK_ALLOCATION_MULTIPLIER: '1.5', L1_CHAIN_ID: '11155111' },
      networkConfig: {
        p2pRpcPriceBumpPercentage: 15,
        perBlockAllocationMultiplier: 3,
        l1ChainId: 1,
        maxTxsPerCheckpoint: 64,
      },
    });
    expect([r.values.p2pRpcPriceBumpPercentage, r.sources.p2pRpcPriceBumpPercentage]).toEqual([30, 'flag']);
    expect([r.values.perBlockAllocationMultiplier, r.sources.perBlockAllocationMultiplier]).toEqual([1.5, 'env']);
    expect([r.values.l1ChainId, r.sources.l1ChainId]).toEqual([11155111, 'env']);
    expect([r.values.maxTxsPerCheckpoint, r.sources.maxTxsPerCheckpoint]).toEqual([64, 'network']);
    expect([r.values.port, r.sources.port]).toEqual([8080, 'default']);
    expect([r.values.maxL2BlockGas, r.sources.maxL2BlockGas]).toEqual([undefined, 'unset']);
  });

  it('reads an empty value as not given', () => {
    const r = resolveConfig({ flags: { '--port': '' }, env: { SVC_PORT: '  ', SEQ_MAX_TX_PER_BLOCK: '' } });
    expect(r.sources.port).toBe('default');
  });

  it('reads presence flags and boolean variables', () => {
    expect(resolveConfig({ flags: { '--disable-admin-api-key': true }, env: {} }).values.disableAdminApiKey).toBe(true);
    expect(resolveConfig({ env: { SVC_DISABLE_ADMIN_API_KEY: 'YES' } }).values.disableAdminApiKey).toBe(true);
    expect(resolveConfig({ env: { SVC_DISABLE_ADMIN_API_KEY: '0' } }).values.disableAdminApiKey).toBe(false);
  });
});

describe('network configuration', () => {
  it('ignores fields this node does not know, with a warning', () => {
    const r = resolveConfig({
      env: {},
      networkConfig: { bootnodes: [] },
      networkConfigName: 'network configuration net.json',
    });
    expect(r.warnings).toEqual([
      'network configuration net.json field "bootnodes" is not an option of this node; it is ignored',
    ]);
  });

  it('refuses local settings and secrets', () => {
    expect(problemsOf({ env: {}, networkConfig: { port: 1, sequencerPublisherPrivateKey: KEY } })).toEqual([
      'network configuration field "port" is a local setting: set --port or SVC_PORT on this node instead',
      'network configuration field "sequencerPublisherPrivateKey" is a local setting: set --sequencer.publisherPrivateKey or SEQ_PUBLISHER_PRIVATE_KEY on this node instead',
    ]);
    expect(problemsOf({ env: {}, networkConfig: [1] })).toEqual([
      'network configuration must be a JSON object whose fields are option keys',
    ]);
  });

  it('takes values in their JSON types, and names the field of a bad one', () => {
    expect(problemsOf({ env: {}, networkConfig: { l1ChainId: '1' } })).toEqual([
      'network configuration field "l1ChainId"="1": expected a chain id from 1 to 9007199254740991',
    ]);
  });
});

describe('errors', () => {
  it('name the flag or variable and the bad value, all problems at once', () => {
    expect(
      problemsOf({ flags: { '--port': '70000' }, env: { SEQ_POLLING_INTERVAL_MS: 'soon', LOG_LEVEL: 'loud' } }),
    ).toEqual([
      '--port="70000": expected a TCP port from 0 to 65535',
      'LOG_LEVEL="loud": expected one of debug, info, warn, error, silent',
      'SEQ_POLLING_INTERVAL_MS="soon": expected an integer from 1 to 60000',
    ]);
  });

  it('never repeat a secret', () => {
    const [message] = problemsOf({
      env: { SEQ_PUBLISHER_PRIVATE_KEY: 'hunter2', VALIDATOR_HA_DATABASE_URL: 'postgres://u:hunter2@db/x' },
    });
    expect(message).toBe(
      'SEQ_PUBLISHER_PRIVATE_KEY=<secret, not shown>: expected a 32-byte private key (0x and 64 hex digits)',
    );
    expect(problemsOf({ env: { VALIDATOR_HA_DATABASE_URL: 'postgres://u:hunter2@db/x' } }).join()).not.toContain(
      'hunter2',
    );
  });

  it('refuse unknown flags', () => {
    expect(problemsOf({ flags: { '--prot': '1' }, env: {} })).toEqual(['unknown flag --prot']);
  });

  it('check the rules between options', () => {
    expect(problemsOf({ env: { VALIDATOR_HA_SIGNING_ENABLED: 'true', VALIDATOR_HA_NODE_ID: 'a' } })).toEqual([
      '--validator.haSigningEnabled / VALIDATOR_HA_SIGNING_ENABLED needs --validator.haDatabaseUrl / VALIDATOR_HA_DATABASE_URL',
    ]);
    expect(
      problemsOf({ flags: { '--disable-admin-api-key': true, '--admin-api-key-hash': 'ab'.repeat(32) }, env: {} })[0],
    ).toContain('contradicts --disable-admin-api-key');
  });

  it('validate the high-availability database URL part by part', () => {
    const ok = resolveConfig({
      env: {
        VALIDATOR_HA_DATABASE_URL: 'postgresql://signer:s3cret@db.internal:5432/ha',
        VALIDATOR_HA_SIGNING_ENABLED: 'true',
        VALIDATOR_HA_NODE_ID: 'node-1',
      },
    });
    expect(ok.values.validatorHaDatabaseUrl).toBe('postgresql://signer:s3cret@db.internal:5432/ha');
    for (const [url, part] of [
      ['postgresql://signer@db:5432/ha', 'password'],
      ['postgresql://signer:pw@db/ha', 'port'],
      ['postgresql://signer:pw@db:5432/', 'database'],
      ['postgresql://:pw@db:5432/ha', 'user'],
      ['db:5432/ha', '<scheme>'],
    ] as const) {
      expect(problemsOf({ env: { VALIDATOR_HA_DATABASE_URL: url } })[0], url).toContain(part);
    }
  });

  it('accept only a PostgreSQL database for HA signing, naming the variable and never the password', () => {
    expect(
      resolveConfig({ env: { VALIDATOR_HA_DATABASE_URL: 'POSTGRES://signer:s3cret@db:5432/ha' } }).values
        .validatorHaDatabaseUrl,
    ).toBe('POSTGRES://signer:s3cret@db:5432/ha');
    for (const scheme of ['mysql', 'sqlite', 'http']) {
      const problems = problemsOf({ env: { VALIDATOR_HA_DATABASE_URL: `${scheme}://signer:s3cret@db:5432/ha` } });
      expect(problems).toEqual([
        expect.stringMatching(
          /^VALIDATOR_HA_DATABASE_URL=<secret, not shown>: .*the scheme must be postgres or postgresql$/,
        ),
      ]);
      expect(problems.join()).not.toContain('s3cret');
    }
  });

  it('refuse HA signing without its node id or its database, naming what is missing', () => {
    expect(
      problemsOf({
        env: { VALIDATOR_HA_SIGNING_ENABLED: 'true', VALIDATOR_HA_DATABASE_URL: 'postgres://signer:pw@db:5432/ha' },
      }),
    ).toEqual([
      '--validator.haSigningEnabled / VALIDATOR_HA_SIGNING_ENABLED needs --validator.haNodeId / VALIDATOR_HA_NODE_ID',
    ]);
    expect(problemsOf({ env: { VALIDATOR_HA_SIGNING_ENABLED: 'true' } })).toHaveLength(2);
  });
});

describe('3.x names refuse startup', () => {
  it.each(RETIRED_CONFIG_NAMES.map((r) => [r.name, r] as const))('%s', (name, retired) => {
    const inputs: ConfigInputs =
      retired.kind === 'flag' ? { flags: { [name]: '1' }, env: {} } : { env: { [name]: '1' } };
    const [message] = problemsOf(inputs);
    expect(message).toContain(name);
    expect(message).toContain(retired.replacement ?? 'was removed in 4.x');
  });
});

describe('setup allow list', () => {
  const entry = (selector: string, flags = '') => `C:${CLASS_ID}:${selector}${flags}`;

  it('is the defaults, then the network entries, then the local ones, the local flags winning', () => {
    const r = resolveConfig({
      env: { TX_PUBLIC_SETUP_ALLOWLIST: `${entry('0x00000002')},${entry('0x00000001', ':rn')}` },
      networkConfig: { txPublicSetupAllowListExtend: `${entry('0x00000001', ':os')},${entry('0x00000003')}` },
    });
    expect(r.sources.txPublicSetupAllowListExtend).toBe('network+env');
    expect(printAllowList(r.values.txPublicSetupAllowListExtend)).toBe(
      `${entry('0x00000001', ':rn')},${entry('0x00000003')},${entry('0x00000002')}`,
    );
    expect(r.setupAllowList).toEqual([...SETUP_ALLOW_LIST_DEFAULTS, ...r.values.txPublicSetupAllowListExtend]);
  });

  it('takes the flag over the variable as the local layer', () => {
    const r = resolveConfig({
      flags: { '--txPublicSetupAllowListExtend': entry('0x00000004') },
      env: { TX_PUBLIC_SETUP_ALLOWLIST: entry('0x00000005') },
    });
    expect([printAllowList(r.values.txPublicSetupAllowListExtend), r.sources.txPublicSetupAllowListExtend]).toEqual([
      entry('0x00000004'),
      'flag',
    ]);
  });

  it('names a bad entry and its source', () => {
    const [message] = problemsOf({ env: { TX_PUBLIC_SETUP_ALLOWLIST: `${entry('0x00000001')},C:${CLASS_ID}` } });
    expect(message).toMatch(/^TX_PUBLIC_SETUP_ALLOWLIST="C:0x0c/);
    expect(message).toContain(`: entry 2 "C:${CLASS_ID}": it has no selector; 4.x requires one in every entry`);
  });

  it('cannot change a built-in entry', () => {
    const weakened = printAllowList([{ ...SETUP_ALLOW_LIST_DEFAULTS[1]!, onlySelf: false }]);
    expect(problemsOf({ env: { TX_PUBLIC_SETUP_ALLOWLIST: weakened } })[0]).toContain(
      'built-in entries cannot be changed',
    );
  });
});

describe('redaction and overrides', () => {
  it('shows secrets as [redacted] and unset options as null', () => {
    const r = resolveConfig({ env: { SEQ_PUBLISHER_PRIVATE_KEY: KEY, SVC_ADMIN_API_KEY_HASH: 'ab'.repeat(32) } });
    const shown = redactConfig(r.values);
    expect([shown.sequencerPublisherPrivateKey, shown.adminApiKeyHash, shown.validatorHaDatabaseUrl]).toEqual([
      REDACTED,
      REDACTED,
      null,
    ]);
    expect(JSON.stringify(shown)).not.toContain('1111');
    expect(shown.initialEthPerFeeAsset).toBe('10000000');
  });

  it('replaces values with a named source, checking them', () => {
    const base = resolveConfig({ env: {} });
    const r = overrideConfig(base, { port: 1234, sequencerCoinbase: `0x${'AA'.repeat(20)}` }, 'programmatic');
    expect([r.values.port, r.sources.port, r.values.sequencerCoinbase]).toEqual([
      1234,
      'programmatic',
      `0x${'aa'.repeat(20)}`,
    ]);
    expect(() => overrideConfig(base, { port: -1 }, 'programmatic')).toThrow('port="-1": expected a TCP port');
  });
});
