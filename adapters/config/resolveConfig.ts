/**
 * The effective configuration from its sources, with where each value came from.
 *
 * Precedence, one rule for every option: a command-line flag, else the environment variable, else the network
 * configuration JSON (options whose scope is `network` only), else the default. An empty or blank string, from any
 * source (and null in the network configuration), counts as not given, so `FOO=` in a compose file leaves the
 * option to its next source. A value hidden by a higher source is not read, so it cannot fail the startup.
 *
 * One option combines sources instead of choosing one: `txPublicSetupAllowListExtend`. Its value is the network
 * configuration's entries followed by the local ones (flag, else environment variable); for a function named in
 * both, the local entry's flags win (spec/config/allowList.ts, mergeAllowListLayers). The built-in defaults come
 * first in the effective list (`setupAllowList`) and cannot be changed.
 *
 * Every problem found (3.x names, unknown flags, bad values, broken rules between options) is reported in one
 * ConfigError, each naming the flag, environment variable or network configuration field and the bad value
 * (secrets are never repeated).
 */
import { mergeAllowListLayers, setupAllowListWith, type AllowListEntry } from '../../spec/config/allowList.js';
import { ConfigError, type ConfigProblem } from '../../spec/config/configError.js';
import { RETIRED_CONFIG_NAMES, retiredNameMessage } from '../../spec/config/retiredNames.js';
import {
  configConsistencyProblems,
  configOptions,
  configSchema,
  isConfigKey,
  type ConfigKey,
  type ConfigOption,
  type ConfigValues,
} from '../../spec/config/schema.js';
import { firstIssueMessage } from '../../spec/config/valueKinds.js';

export type ConfigSource =
  | 'flag'
  | 'env'
  | 'network'
  /** txPublicSetupAllowListExtend with entries from both the network configuration and a local source. */
  | 'network+flag'
  | 'network+env'
  | 'default'
  /** An optional option that no source sets. */
  | 'unset'
  /** Given in code by the program embedding the node (tests, runNode's settings form). */
  | 'programmatic'
  /** Supplied by `svc start --local-network` (its own L1, rollup contract and publisher). */
  | 'localNetwork'
  /** Changed on the running node through svcAdmin_setConfig. */
  | 'admin';

export interface ConfigInputs {
  /** Command-line flags by their long name as typed (`'--admin-port'`): the value, or true for a presence flag. */
  readonly flags?: Readonly<Record<string, string | boolean | undefined>>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The parsed network configuration JSON: an object whose fields are option keys. */
  readonly networkConfig?: unknown;
  /** How messages name the network configuration (its file); default 'network configuration'. */
  readonly networkConfigName?: string;
}

export interface ResolvedConfig {
  readonly values: ConfigValues;
  readonly sources: Readonly<Record<ConfigKey, ConfigSource>>;
  /** The effective setup allow list: built-in defaults, then `values.txPublicSetupAllowListExtend`. */
  readonly setupAllowList: readonly AllowListEntry[];
  /** Things worth a log line that do not stop the node (network configuration fields this node does not know). */
  readonly warnings: readonly string[];
}

/** Characters of a bad value repeated in a message. */
const ECHO_CHARS_MAX = 120;

export function echoValue(option: ConfigOption, value: unknown): string {
  if (option.secret) return '<secret, not shown>';
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return JSON.stringify(text.length > ECHO_CHARS_MAX ? `${text.slice(0, ECHO_CHARS_MAX)}...` : text);
}

/** A source's raw value for one option, with how messages name it. */
interface Given {
  readonly source: 'flag' | 'env' | 'network';
  readonly name: string;
  readonly raw: unknown;
}

type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: ConfigProblem };

function parseGiven(option: ConfigOption, given: Given): Parsed {
  const result =
    given.raw === true && option.kind.presence === true
      ? { success: true as const, data: true }
      : typeof given.raw === 'string' && given.source !== 'network'
        ? option.kind.text.safeParse(given.raw.trim())
        : option.type.safeParse(given.raw);
  if (result.success) return { ok: true, value: result.data };
  const message = `${given.name}=${echoValue(option, given.raw)}: ${firstIssueMessage(result.error)}`;
  return { ok: false, problem: { kind: 'invalidValue', name: given.name, message } };
}

const isBlank = (value: unknown): boolean => typeof value === 'string' && value.trim() === '';
/** A flag or variable counts when it has a non-blank value (a presence flag: when it is true). */
const isGivenText = (value: unknown): boolean => value !== undefined && value !== false && !isBlank(value);
/** A network configuration field counts unless it is null or a blank string (false is a value there). */
const isGivenJson = (value: unknown): boolean => value !== undefined && value !== null && !isBlank(value);

/** The sources that give this option a value, highest precedence first. */
function givenValues(
  option: ConfigOption & { key: ConfigKey },
  inputs: ConfigInputs,
  network: Readonly<Record<string, unknown>>,
): Given[] {
  const flag = inputs.flags?.[option.flag];
  const env = inputs.env[option.env];
  const fromNetwork = Object.hasOwn(network, option.key) ? network[option.key] : undefined;
  const networkName = `${inputs.networkConfigName ?? 'network configuration'} field "${option.key}"`;
  return [
    ...(isGivenText(flag) ? [{ source: 'flag' as const, name: option.flag, raw: flag }] : []),
    ...(isGivenText(env) ? [{ source: 'env' as const, name: option.env, raw: env }] : []),
    ...(isGivenJson(fromNetwork) && option.scope === 'network'
      ? [{ source: 'network' as const, name: networkName, raw: fromNetwork }]
      : []),
  ];
}

/** 3.x names and flags the schema does not have. */
function nameProblems(inputs: ConfigInputs): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const retired of RETIRED_CONFIG_NAMES) {
    const value = retired.kind === 'flag' ? inputs.flags?.[retired.name] : inputs.env[retired.name];
    if (isGivenText(value))
      problems.push({ kind: 'retired', name: retired.name, message: retiredNameMessage(retired) });
  }
  const known = new Set<string>([...configOptions.map((o) => o.flag), ...RETIRED_CONFIG_NAMES.map((r) => r.name)]);
  for (const flag of Object.keys(inputs.flags ?? {})) {
    if (!known.has(flag)) problems.push({ kind: 'unknownName', name: flag, message: `unknown flag ${flag}` });
  }
  return problems;
}

/** The network configuration's fields by key, with refusals (local-only options) and warnings (unknown fields). */
function readNetworkConfig(inputs: ConfigInputs): {
  fields: Readonly<Record<string, unknown>>;
  problems: ConfigProblem[];
  warnings: string[];
} {
  const name = inputs.networkConfigName ?? 'network configuration';
  const config = inputs.networkConfig;
  if (config === undefined) return { fields: {}, problems: [], warnings: [] };
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return {
      fields: {},
      problems: [{ kind: 'invalidValue', name, message: `${name} must be a JSON object whose fields are option keys` }],
      warnings: [],
    };
  }
  const fields = config as Readonly<Record<string, unknown>>;
  const problems: ConfigProblem[] = [];
  const warnings: string[] = [];
  for (const field of Object.keys(fields)) {
    if (!isConfigKey(field)) {
      warnings.push(`${name} field "${field}" is not an option of this node; it is ignored`);
      continue;
    }
    const option = configSchema[field];
    if (option.scope === 'local' || option.secret) {
      problems.push({
        kind: 'localOnly',
        name: `${name} field "${field}"`,
        message: `${name} field "${field}" is a local setting: set ${option.flag} or ${option.env} on this node instead`,
      });
    }
  }
  return { fields, problems, warnings };
}

/** txPublicSetupAllowListExtend: the network layer, then the local one (flag, else environment variable). */
function resolveAllowListExtension(
  givens: readonly Given[],
  parsed: readonly Parsed[],
): { value: readonly AllowListEntry[]; source: ConfigSource; problems: ConfigProblem[] } {
  const problems = parsed.flatMap((p) => (p.ok ? [] : [p.problem]));
  const network = givens.findIndex((g) => g.source === 'network');
  const local = givens.findIndex((g) => g.source !== 'network');
  const layers = [network, local].flatMap((i) => {
    const p = parsed[i];
    const g = givens[i];
    return i >= 0 && p?.ok === true && g !== undefined
      ? [{ name: g.name, entries: p.value as readonly AllowListEntry[] }]
      : [];
  });
  const merged = mergeAllowListLayers(layers);
  for (const conflict of merged.conflicts)
    problems.push({ kind: 'conflict', name: configSchema.txPublicSetupAllowListExtend.flag, message: conflict });
  const localSource = local >= 0 ? givens[local]?.source : undefined;
  const source: ConfigSource =
    network >= 0
      ? localSource === undefined
        ? 'network'
        : localSource === 'flag'
          ? 'network+flag'
          : 'network+env'
      : (localSource ?? 'default');
  return { value: merged.entries, source, problems };
}

/** The effective allow list of some values, or the conflicts that forbid it. */
export function effectiveSetupAllowList(values: ConfigValues): {
  entries: readonly AllowListEntry[];
  problems: ConfigProblem[];
} {
  const merged = setupAllowListWith(values.txPublicSetupAllowListExtend);
  const name = configSchema.txPublicSetupAllowListExtend.flag;
  return {
    entries: merged.entries,
    problems: merged.conflicts.map((message) => ({ kind: 'conflict' as const, name, message })),
  };
}

export function consistencyProblems(values: ConfigValues): ConfigProblem[] {
  return configConsistencyProblems(values).map((p) => ({ kind: 'conflict', name: p.names, message: p.message }));
}

export function resolveConfig(inputs: ConfigInputs): ResolvedConfig {
  const network = readNetworkConfig(inputs);
  const problems: ConfigProblem[] = [...nameProblems(inputs), ...network.problems];
  const values: Record<string, unknown> = {};
  const sources: Record<string, ConfigSource> = {};
  for (const option of configOptions) {
    const givens = givenValues(option, inputs, network.fields);
    if (option.key === 'txPublicSetupAllowListExtend') {
      const extension = resolveAllowListExtension(
        givens,
        givens.map((g) => parseGiven(option, g)),
      );
      problems.push(...extension.problems);
      values[option.key] = extension.value;
      sources[option.key] = extension.source;
      continue;
    }
    const first = givens[0];
    if (first === undefined) {
      values[option.key] = option.default;
      sources[option.key] = option.hasDefault ? 'default' : 'unset';
      continue;
    }
    const parsed = parseGiven(option, first);
    if (parsed.ok) values[option.key] = parsed.value;
    else problems.push(parsed.problem);
    sources[option.key] = first.source;
  }
  if (problems.length > 0) throw new ConfigError('CONFIG_INVALID', problems);
  return finish(values as ConfigValues, sources as Record<ConfigKey, ConfigSource>, network.warnings);
}

/** Checks the rules between options and composes the allow list; throws CONFIG_INVALID when one is broken. */
function finish(
  values: ConfigValues,
  sources: Readonly<Record<ConfigKey, ConfigSource>>,
  warnings: readonly string[],
): ResolvedConfig {
  const allowList = effectiveSetupAllowList(values);
  const problems = [...consistencyProblems(values), ...allowList.problems];
  if (problems.length > 0) throw new ConfigError('CONFIG_INVALID', problems);
  return { values, sources, setupAllowList: allowList.entries, warnings };
}

/**
 * The configuration with some values replaced, each checked by its option's type and recorded with `source`
 * (for values the program supplies: the local network's L1, a test's settings). Undefined clears an optional
 * option (a defaulted one goes back to its default).
 */
export function overrideConfig(
  resolved: ResolvedConfig,
  changes: Partial<ConfigValues>,
  source: ConfigSource,
): ResolvedConfig {
  const values: Record<string, unknown> = { ...resolved.values };
  const sources: Record<string, ConfigSource> = { ...resolved.sources };
  const problems: ConfigProblem[] = [];
  for (const key of Object.keys(changes)) {
    if (!isConfigKey(key)) {
      problems.push({ kind: 'unknownName', name: key, message: `unknown option ${key}` });
      continue;
    }
    const option = configSchema[key] as ConfigOption;
    const value = changes[key];
    if (value === undefined) {
      values[key] = option.default;
      sources[key] = option.hasDefault ? 'default' : 'unset';
      continue;
    }
    // Typed values are checked by printing them and reading the text back, which also normalises them.
    const parsed = option.kind.text.safeParse(option.kind.print(value));
    if (parsed.success) {
      values[key] = parsed.data;
      sources[key] = source;
    } else {
      problems.push({
        kind: 'invalidValue',
        name: key,
        message: `${key}=${echoValue(option, value)}: ${firstIssueMessage(parsed.error)}`,
      });
    }
  }
  if (problems.length > 0) throw new ConfigError('CONFIG_INVALID', problems);
  return finish(values as ConfigValues, sources as Record<ConfigKey, ConfigSource>, resolved.warnings);
}
