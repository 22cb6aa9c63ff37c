/**
 * Configuration values back to the text forms resolveConfig reads: environment variables and command-line flags.
 * Options absent from the values (or undefined) are left out; presence flags are given only when true.
 */
import { configOptions, type ConfigKey, type ConfigValues } from '../../spec/config/schema.js';

function shouldWrite(key: ConfigKey, values: Partial<ConfigValues>): boolean {
  return Object.hasOwn(values, key) && values[key] !== undefined;
}

export function configToEnv(values: Partial<ConfigValues>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const option of configOptions) {
    if (shouldWrite(option.key, values)) env[option.env] = option.kind.print(values[option.key]);
  }
  return env;
}

export function configToFlags(values: Partial<ConfigValues>): Record<string, string | true> {
  const flags: Record<string, string | true> = {};
  for (const option of configOptions) {
    if (!shouldWrite(option.key, values)) continue;
    const value: unknown = values[option.key];
    if (option.kind.presence === true) {
      if (value === true) flags[option.flag] = true;
    } else {
      flags[option.flag] = option.kind.print(value);
    }
  }
  return flags;
}

/** The same values as argv: `['--port', '8080', '--disable-admin-api-key', ...]`. */
export function configToArgv(values: Partial<ConfigValues>): string[] {
  return Object.entries(configToFlags(values)).flatMap(([flag, value]) => (value === true ? [flag] : [flag, value]));
}
