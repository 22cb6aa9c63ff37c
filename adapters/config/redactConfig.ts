/**
 * The configuration as it may be shown (svcAdmin_getConfig, logs): every option by key, secrets that are set
 * replaced by '[redacted]', unset options as null, and JSON-safe values (bigints as decimal strings, the allow list
 * in its text form).
 */
import { configOptions, type ConfigKey, type ConfigValues } from '../../spec/config/schema.js';
import type { JsonValue } from '../../spec/config/valueKinds.js';
import type { ConfigSource, ResolvedConfig } from './resolveConfig.js';

export const REDACTED = '[redacted]';

export type RedactedConfig = { readonly [K in ConfigKey]: JsonValue };

export function redactConfig(values: ConfigValues): RedactedConfig {
  const shown: Record<string, JsonValue> = {};
  for (const option of configOptions) {
    const value: unknown = values[option.key];
    shown[option.key] = value === undefined ? null : option.secret ? REDACTED : option.kind.toJson(value);
  }
  return shown as RedactedConfig;
}

/** The options not at their default, redacted, with their sources: what a startup log line should show. */
export function configSummary(
  resolved: ResolvedConfig,
): Record<string, { readonly value: JsonValue; readonly source: ConfigSource }> {
  const shown = redactConfig(resolved.values);
  const summary: Record<string, { value: JsonValue; source: ConfigSource }> = {};
  for (const option of configOptions) {
    const source = resolved.sources[option.key];
    if (source !== 'default' && source !== 'unset') summary[option.key] = { value: shown[option.key], source };
  }
  return summary;
}
