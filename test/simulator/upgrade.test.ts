import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NodeConfig } from '../../core/node/node.js';
import { resolveConfig, type ConfigInputs } from '../../adapters/config/resolveConfig.js';
import { RETIRED_CONFIG_NAMES } from '../../spec/config/retiredNames.js';
import { configOptions } from '../../spec/config/schema.js';
import { upgradeConfiguration } from '../../sim/upgrade.js';

const hex = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString('hex')}` as const);
/** A rollup address is a field element: below the BN254 modulus (0x3064...), so its first byte is at most 0x2f. */
const fieldHex = fc
  .tuple(fc.integer({ min: 0, max: 0x2f }), fc.uint8Array({ minLength: 31, maxLength: 31 }))
  .map(([first, rest]) => `0x${first.toString(16).padStart(2, '0')}${Buffer.from(rest).toString('hex')}` as const);

const nodeConfig: fc.Arbitrary<NodeConfig> = fc.record(
  {
    rollupAddress: hex(20),
    archiverPollIntervalMs: fc.integer({ min: 1, max: 3_600_000 }),
    sequencer: fc.record(
      {
        blockDurationMs: fc.integer({ min: 100, max: 60_000 }),
        l1PublishingTimeAllowanceInSlotSeconds: fc.integer({ min: 0, max: 3_600 }),
        pollIntervalMs: fc.integer({ min: 1, max: 60_000 }),
        coinbase: hex(20),
        feeRecipient: fieldHex,
        maxTxsPerCheckpoint: fc.integer({ min: 1, max: 10_000 }),
      },
      {
        requiredKeys: [
          'blockDurationMs',
          'l1PublishingTimeAllowanceInSlotSeconds',
          'pollIntervalMs',
          'coinbase',
          'feeRecipient',
        ],
      },
    ),
    prover: fc.record({ pollIntervalMs: fc.integer({ min: 1, max: 60_000 }) }),
  },
  { requiredKeys: ['rollupAddress', 'archiverPollIntervalMs'] },
);

describe('the upgrade step (3.x configuration refused, 4.x configuration resolving to the same settings)', () => {
  it('property: for every node setting and every retired 3.x name, the 3.x start is refused by name and the 4.x start gives the settings back', () => {
    fc.assert(
      fc.property(nodeConfig, fc.integer({ min: 0, max: RETIRED_CONFIG_NAMES.length - 1 }), (config, retired) => {
        const outcome = upgradeConfiguration(config, retired);
        expect(outcome).toMatchObject({ ok: true });
        if (outcome.ok) expect(outcome.refusal).toContain(RETIRED_CONFIG_NAMES[retired]!.name);
      }),
      { seed: 7, numRuns: 60 },
    );
  });

  it('a resolver that ignores 3.x names is caught, as is one that loses a setting', () => {
    const config: NodeConfig = {
      rollupAddress: `0x${'11'.repeat(20)}`,
      archiverPollIntervalMs: 500,
      prover: { pollIntervalMs: 700 },
    };
    const retiredNames = new Set(RETIRED_CONFIG_NAMES.map((r) => r.name));
    const lenient = (inputs: ConfigInputs) => {
      const env = Object.fromEntries(Object.entries(inputs.env).filter(([name]) => !retiredNames.has(name)));
      return resolveConfig({ env }).values;
    };
    expect(upgradeConfiguration(config, 0, lenient)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/3\.x configuration was accepted/),
    });
    const archiverOption = configOptions.find((o) => o.key === 'archiverPollingIntervalMs')!;
    const forgetful = (inputs: ConfigInputs) => {
      const { [archiverOption.env]: _dropped, ...env } = inputs.env;
      return resolveConfig({ ...inputs, env }).values;
    };
    expect(upgradeConfiguration(config, 0, forgetful)).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/did not give back the node's settings/),
    });
  });
});
