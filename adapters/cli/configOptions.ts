/**
 * The configuration schema as command-line options. Commander only collects the raw text of each flag: parsing,
 * environment variables, the network configuration and defaults are resolveConfig's job, so that one rule of
 * precedence holds and every error names its source. The help text shows each option's environment variable and
 * default, grouped by subsystem; the 3.x flags are accepted (hidden) only so that resolveConfig can refuse them
 * with the name of their replacement.
 */
import { Option, type Command } from 'commander';
import { RETIRED_CONFIG_NAMES } from '../../spec/config/retiredNames.js';
import { configOptions, defaultText, type ConfigGroup, type ConfigOption } from '../../spec/config/schema.js';

export const CONFIG_GROUP_HEADINGS: Readonly<Record<ConfigGroup, string>> = {
  node: 'Node options:',
  l1: 'L1 options:',
  adminApi: 'Admin API key options:',
  rpc: 'JSON-RPC options:',
  archiver: 'Archiver options:',
  worldState: 'World state options:',
  sequencer: 'Sequencer options:',
  validator: 'Validator options:',
  p2p: 'Transaction pool and p2p options:',
  fees: 'Fee options:',
  blobs: 'Blob options:',
  bot: 'Transaction bot options:',
  prover: 'Prover options:',
  metrics: 'Metrics options:',
  localNetwork: 'Local network options (start --local-network):',
};

/** `--port <port>`, or `--disable-admin-api-key` for a presence flag. */
export function flagTerm(option: ConfigOption): string {
  return option.valueName === undefined ? option.flag : `${option.flag} <${option.valueName}>`;
}

/** What help says after the description: `(env: SVC_PORT, default: 8080)`. */
export function sourcesText(option: ConfigOption): string {
  return `(env: ${option.env}, default: ${defaultText(option)})`;
}

/** The flag and its commander Option, for every schema option and every retired 3.x flag. */
export interface CommandLineOption {
  readonly flag: string;
  readonly option: Option;
}

export function configCommandLineOptions(): CommandLineOption[] {
  const current = configOptions.map((o) => ({
    flag: o.flag,
    option: new Option(flagTerm(o), `${o.description}${o.secret ? ' [secret]' : ''} ${sourcesText(o)}`).helpGroup(
      CONFIG_GROUP_HEADINGS[o.group],
    ),
  }));
  const retired = RETIRED_CONFIG_NAMES.filter((r) => r.kind === 'flag').map((r) => ({
    flag: r.name,
    option: new Option(`${r.name} <value>`).hideHelp(),
  }));
  return [...current, ...retired];
}

/** Adds the options to a command; returns them for `flagsOf`. */
export function addConfigOptions(command: Command): CommandLineOption[] {
  const options = configCommandLineOptions();
  for (const { option } of options) command.addOption(option);
  return options;
}

/** The flags given on the command line, by flag name, as resolveConfig reads them. */
export function flagsOf(command: Command, options: readonly CommandLineOption[]): Record<string, string | boolean> {
  const given = command.opts<Record<string, unknown>>();
  const flags: Record<string, string | boolean> = {};
  for (const { flag, option } of options) {
    const value = given[option.attributeName()];
    if (typeof value === 'string' || typeof value === 'boolean') flags[flag] = value;
  }
  return flags;
}

/** Every option as one help line per flag, grouped: the configuration part of `svc --help`. */
export function configHelpTable(): string {
  const lines: string[] = [
    '',
    'Configuration of svc start (flag, else environment variable, else network configuration JSON, else default):',
  ];
  let group: ConfigGroup | undefined;
  for (const option of configOptions) {
    if (option.group !== group) {
      group = option.group;
      lines.push('', `  ${CONFIG_GROUP_HEADINGS[group]}`);
    }
    lines.push(
      `    ${flagTerm(option)} ${sourcesText(option)}${option.mutability === 'runtime' ? ' [svcAdmin_setConfig]' : ''}`,
    );
  }
  return lines.join('\n');
}
