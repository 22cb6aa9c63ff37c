/**
 * The configuration as it may be shown (svcAdmin_getConfig, logs): every option by key, secrets that are set
 * replaced by '[redacted]', URLs with their keys and credentials redacted (redactUrl), unset options as null, and JSON-safe values (bigints as decimal strings, the allow list
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
    if (value === undefined) shown[option.key] = null;
    else if (option.secret) shown[option.key] = REDACTED;
    // Endpoint and store URLs often carry an API key or a token: shown as redactUrl shows them.
    else if (option.kind.shape.type === 'url') shown[option.key] = redactUrl(value as string);
    else if (option.kind.shape.type === 'urlList') shown[option.key] = (value as readonly string[]).map(redactUrl);
    else shown[option.key] = option.kind.toJson(value);
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

/**
 * A path segment shown as is: a short word or an API version (`rpc`, `mainnet`, `v3`). Anything else may be a key
 * (`/v3/<project id>`, `/<token>/`) and is replaced.
 */
const SHOWN_URL_PATH_SEGMENT = /^(?:[a-z]{1,12}|v\d{1,2})$/i;

/**
 * A URL as it may be shown (logs, error messages): scheme, host and port as given; user info replaced; every path
 * segment that is not a short word or version replaced; query values replaced (their names kept); the fragment
 * dropped. Endpoint URLs often carry an API key in any of those places. A string that is not a URL is replaced whole.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return REDACTED;
  }
  const userInfo = parsed.username !== '' || parsed.password !== '' ? `${REDACTED}@` : '';
  const path =
    parsed.pathname === '/' && !url.endsWith('/')
      ? ''
      : parsed.pathname
          .split('/')
          .map((segment) => (segment === '' || SHOWN_URL_PATH_SEGMENT.test(segment) ? segment : REDACTED))
          .join('/');
  const names = [...new Set(parsed.searchParams.keys())];
  const query = names.length === 0 ? '' : `?${names.map((name) => `${name}=${REDACTED}`).join('&')}`;
  return `${parsed.protocol}//${userInfo}${parsed.host}${path}${query}`;
}
