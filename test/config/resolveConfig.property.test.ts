/**
 * Generated configurations, written out as flags, environment variables and network configuration JSON, come back
 * through resolveConfig with the same values and the right sources; through the CLI's own options as well.
 */
import { Command } from 'commander';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addConfigOptions, flagsOf } from '../../adapters/cli/configOptions.js';
import { configToArgv, configToEnv, configToFlags } from '../../adapters/config/configText.js';
import { resolveConfig, type ConfigSource } from '../../adapters/config/resolveConfig.js';
import {
  configOptions,
  configSchema,
  defaultConfigValues,
  type ConfigKey,
  type ConfigValues,
} from '../../spec/config/schema.js';
import type { JsonValue } from '../../spec/config/valueKinds.js';
import { configAssignment, valueArbitrary, type GeneratedSource } from './configArbitraries.js';

type Assignment = Partial<Record<ConfigKey, { value: unknown; source: GeneratedSource }>>;

const valuesFrom = (assignment: Assignment, source: GeneratedSource): Partial<ConfigValues> =>
  Object.fromEntries(
    Object.entries(assignment).flatMap(([key, a]) => (a.source === source ? [[key, a.value]] : [])),
  ) as Partial<ConfigValues>;

function networkJson(values: Partial<ConfigValues>): Record<string, JsonValue> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, configSchema[key as ConfigKey].kind.toJson(value as never)]),
  );
}

/** Whether a source gives the value at all: an empty text or a false presence flag does not. */
function isGiven(key: ConfigKey, value: unknown, source: GeneratedSource): boolean {
  const option = configSchema[key];
  if (source === 'flag' && option.kind.presence === true) return value === true;
  if (source === 'network') return option.kind.toJson(value as never) !== '';
  return option.kind.print(value as never) !== '';
}

function expected(assignment: Assignment): { values: ConfigValues; sources: Record<ConfigKey, ConfigSource> } {
  const values: Record<string, unknown> = { ...defaultConfigValues() };
  const sources = Object.fromEntries(configOptions.map((o) => [o.key, o.hasDefault ? 'default' : 'unset'])) as Record<
    ConfigKey,
    ConfigSource
  >;
  for (const [key, { value, source }] of Object.entries(assignment) as [
    ConfigKey,
    { value: unknown; source: GeneratedSource },
  ][]) {
    values[key] = value;
    if (isGiven(key, value, source)) sources[key] = source;
  }
  return { values: values as ConfigValues, sources };
}

describe('resolveConfig round trip (properties)', () => {
  it('flags, environment and network configuration give back the generated values and their sources', () => {
    fc.assert(
      fc.property(configAssignment, (assignment) => {
        const resolved = resolveConfig({
          flags: configToFlags(valuesFrom(assignment, 'flag')),
          env: configToEnv(valuesFrom(assignment, 'env')),
          networkConfig: JSON.parse(JSON.stringify(networkJson(valuesFrom(assignment, 'network')))) as unknown,
        });
        const want = expected(assignment);
        expect(resolved.values).toEqual(want.values);
        expect(resolved.sources).toEqual(want.sources);
      }),
      { numRuns: 200 },
    );
  });

  it('the same values as argv, parsed by the CLI options, give back the generated values', () => {
    fc.assert(
      fc.property(configAssignment, (assignment) => {
        const values = Object.fromEntries(
          Object.entries(assignment).map(([key, a]) => [key, a.value]),
        ) as Partial<ConfigValues>;
        const command = new Command('start').exitOverride();
        const options = addConfigOptions(command);
        command.parse(configToArgv(values), { from: 'user' });
        const resolved = resolveConfig({ flags: flagsOf(command, options), env: {} });
        expect(resolved.values).toEqual({ ...defaultConfigValues(), ...values });
      }),
      { numRuns: 100 },
    );
  });

  it('an option given by several sources takes the flag, else the variable, else the network value', () => {
    const shared = configOptions.filter(
      (o) => o.scope === 'network' && o.kind.presence !== true && o.key !== 'txPublicSetupAllowListExtend',
    );
    const given = fc.constantFrom(...shared).chain((option) =>
      fc.record({
        option: fc.constant(option),
        flag: fc.option(valueArbitrary(option), { nil: undefined }),
        env: fc.option(valueArbitrary(option), { nil: undefined }),
        network: fc.option(valueArbitrary(option), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(given, ({ option, flag, env, network }) => {
        const only = (value: unknown) => (value === undefined ? {} : { [option.key]: value });
        const resolved = resolveConfig({
          flags: configToFlags(only(flag)),
          env: configToEnv(only(env)),
          networkConfig: networkJson(only(network)),
        });
        const winner = (
          [
            ['flag', flag],
            ['env', env],
            ['network', network],
          ] as const
        ).find(([source, value]) => value !== undefined && isGiven(option.key, value, source));
        expect(resolved.values[option.key]).toEqual(winner === undefined ? option.default : winner[1]);
        expect(resolved.sources[option.key]).toBe(winner?.[0] ?? (option.hasDefault ? 'default' : 'unset'));
      }),
    );
  });
});
