/**
 * Reads the configuration of this process: its flags, its environment and, when `--network-config` /
 * `NETWORK_CONFIG_FILE` names one, the network configuration file; then resolves them (resolveConfig.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { ConfigError } from '../../spec/config/configError.js';
import { configSchema } from '../../spec/config/schema.js';
import { resolveConfig, type ConfigInputs, type ResolvedConfig } from './resolveConfig.js';

/** A network configuration is a few dozen fields; a larger file is not one. */
export const NETWORK_CONFIG_FILE_BYTES_MAX = 1024 * 1024;

const option = configSchema.networkConfigFile;

/** The network configuration file named by the flag, else the environment variable (empty means none). */
export function networkConfigPath(
  inputs: Pick<ConfigInputs, 'flags' | 'env'>,
): { readonly path: string; readonly name: string } | undefined {
  const flag = inputs.flags?.[option.flag];
  if (typeof flag === 'string' && flag.trim() !== '') return { path: flag.trim(), name: option.flag };
  const env = inputs.env[option.env];
  if (env !== undefined && env.trim() !== '') return { path: env.trim(), name: option.env };
  return undefined;
}

function unreadable(name: string, path: string, why: string): ConfigError {
  return new ConfigError('CONFIG_INVALID', [
    { kind: 'invalidValue', name, message: `${name}=${JSON.stringify(path)}: ${why}` },
  ]);
}

/** The parsed JSON of the file; errors name the flag or variable that pointed at it. */
export async function readNetworkConfigFile(path: string, name: string): Promise<unknown> {
  let text: string;
  try {
    const size = (await stat(path)).size;
    if (size > NETWORK_CONFIG_FILE_BYTES_MAX)
      throw unreadable(
        name,
        path,
        `the file is ${size} bytes, more than the ${NETWORK_CONFIG_FILE_BYTES_MAX} a network configuration may be`,
      );
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw unreadable(
      name,
      path,
      `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw unreadable(name, path, `the file is not JSON (${(error as Error).message})`);
  }
}

export async function loadConfig(inputs: Pick<ConfigInputs, 'flags' | 'env'>): Promise<ResolvedConfig> {
  const file = networkConfigPath(inputs);
  if (file === undefined) return resolveConfig(inputs);
  const networkConfig = await readNetworkConfigFile(file.path, file.name);
  return resolveConfig({ ...inputs, networkConfig, networkConfigName: `network configuration ${file.path}` });
}
