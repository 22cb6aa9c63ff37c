/**
 * The upgrade step (`node.upgrade`): an operator stops a node, starts it again on the same data with the 3.x
 * configuration it ran before (one 3.x name, RETIRED_CONFIG_NAMES), sees the start refused with a message naming
 * the 4.x replacement, rewrites the configuration with 4.x names and starts it again.
 *
 * The configuration goes through the production resolver (adapters/config, pure) and the production mapping onto the
 * core's NodeConfig (adapters/node/nodeConfig), from the environment variables an operator would write for the
 * node's current settings. What the checker holds the node to:
 * - the 3.x configuration is refused, CONFIG_INVALID, with exactly the retired name's message;
 * - the 4.x configuration resolves, and gives back the settings the node ran with (nothing lost or changed on the
 *   way through text);
 * - the node restarted on it goes on and converges like any other (the run's liveness checkers).
 */
import { isDeepStrictEqual } from 'node:util';
import type { NodeConfig } from '../core/node/node.js';
import { configToEnv } from '../adapters/config/configText.js';
import { resolveConfig, type ConfigInputs } from '../adapters/config/resolveConfig.js';
import { coreNodeConfigOf } from '../adapters/node/nodeConfig.js';
import { ConfigError } from '../spec/config/configError.js';
import { RETIRED_CONFIG_NAMES, retiredNameMessage, type RetiredName } from '../spec/config/retiredNames.js';
import { configOptions, type ConfigValues } from '../spec/config/schema.js';

/** The configuration values an operator writes for a node running with `config` (4.x names). */
export function configValuesOf(config: NodeConfig): Partial<ConfigValues> {
  const { sequencer, prover, txPool } = config;
  return {
    rollupAddress: config.rollupAddress,
    archiverPollingIntervalMs: config.archiverPollIntervalMs,
    ...(config.worldStateHistoricCheckpointCount !== undefined
      ? { worldStateHistoricCheckpointCount: config.worldStateHistoricCheckpointCount }
      : {}),
    ...(txPool !== undefined
      ? { p2pPendingTxCountMax: txPool.capacity, p2pRpcPriceBumpPercentage: txPool.priceBumpPercentage }
      : {}),
    ...(sequencer !== undefined
      ? {
          sequencerEnabled: true,
          sequencerBlockDurationMs: sequencer.blockDurationMs,
          sequencerL1PublishingTimeAllowanceInSlotSeconds: sequencer.l1PublishingTimeAllowanceInSlotSeconds,
          sequencerPollingIntervalMs: sequencer.pollIntervalMs,
          sequencerCoinbase: sequencer.coinbase,
          sequencerFeeRecipient: sequencer.feeRecipient,
          ...(sequencer.maxL2BlockGas !== undefined ? { maxL2BlockGas: sequencer.maxL2BlockGas } : {}),
          ...(sequencer.maxDABlockGas !== undefined ? { maxDABlockGas: sequencer.maxDABlockGas } : {}),
          ...(sequencer.perBlockAllocationMultiplier !== undefined
            ? { perBlockAllocationMultiplier: sequencer.perBlockAllocationMultiplier }
            : {}),
          ...(sequencer.maxTxsPerCheckpoint !== undefined
            ? { maxTxsPerCheckpoint: sequencer.maxTxsPerCheckpoint }
            : {}),
        }
      : {}),
    ...(prover !== undefined ? { proverNode: true, proverPollingIntervalMs: prover.pollIntervalMs } : {}),
  };
}

/** A value to give a retired name that has no 4.x option to take one from. */
const RETIRED_VALUE_PLACEHOLDER = '1';

/**
 * The 3.x form of a 4.x configuration: `retired` written where its replacement was (with its value), or added when
 * the replacement is not set or the setting was removed.
 */
export function threeXInputs(env4x: Readonly<Record<string, string>>, retired: RetiredName): ConfigInputs {
  const env: Record<string, string> = { ...env4x };
  const replacement =
    retired.replacement === undefined
      ? undefined
      : configOptions.find((o) => (retired.kind === 'env' ? o.env : o.flag) === retired.replacement);
  let value = RETIRED_VALUE_PLACEHOLDER;
  if (replacement !== undefined && env[replacement.env] !== undefined) {
    value = env[replacement.env]!;
    delete env[replacement.env];
  }
  return retired.kind === 'env'
    ? { env: { ...env, [retired.name]: value } }
    : { env, flags: { [retired.name]: value } };
}

export type UpgradeOutcome =
  | { readonly ok: true; readonly config: NodeConfig; readonly refusal: string }
  | { readonly ok: false; readonly problem: string; readonly config?: NodeConfig };

/** What the core's config holds of `reference`'s fields: only those the running node set are compared. */
function sameSettings(reference: NodeConfig, resolved: NodeConfig): boolean {
  const pick = <T extends object>(ref: T | undefined, got: T | undefined): [unknown, unknown] => {
    if (ref === undefined) return [undefined, got === undefined ? undefined : 'set'];
    if (got === undefined) return [ref, undefined];
    const keys = Object.keys(ref) as (keyof T)[];
    return [{ ...ref }, Object.fromEntries(keys.map((k) => [k, got[k]]))];
  };
  return (
    reference.rollupAddress.toLowerCase() === resolved.rollupAddress.toLowerCase() &&
    reference.archiverPollIntervalMs === resolved.archiverPollIntervalMs &&
    isDeepStrictEqual(...pick(reference.sequencer, resolved.sequencer)) &&
    isDeepStrictEqual(...pick(reference.prover, resolved.prover)) &&
    (reference.txPool === undefined || isDeepStrictEqual({ ...reference.txPool }, { ...resolved.txPool }))
  );
}

/**
 * Plays the operator's upgrade for a node running with `current`: the 3.x start (must be refused), then the 4.x
 * start (must resolve to the same settings). `publisherAddress` is the sequencer's L1 account, if it runs one.
 */
export function upgradeConfiguration(
  current: NodeConfig,
  retiredIndex: number,
  resolve: (inputs: ConfigInputs) => ConfigValues = (i) => resolveConfig(i).values,
): UpgradeOutcome {
  const retired = RETIRED_CONFIG_NAMES[retiredIndex];
  if (retired === undefined) return { ok: false, problem: `no retired 3.x name at index ${retiredIndex}` };
  const env4x = configToEnv(configValuesOf(current));
  const expected = retiredNameMessage(retired);
  let refusal: string | undefined;
  try {
    resolve(threeXInputs(env4x, retired));
  } catch (error) {
    if (!(error instanceof ConfigError))
      return {
        ok: false,
        problem: `the 3.x configuration (${retired.name}) failed without a configuration error: ${String(error)}`,
      };
    const messages = error.problems.map((p) => p.message);
    if (error.code !== 'CONFIG_INVALID' || !messages.includes(expected)) {
      return {
        ok: false,
        problem: `the 3.x configuration (${retired.name}) was refused as ${error.code} with ${JSON.stringify(messages)}, not with "${expected}"`,
      };
    }
    refusal = expected;
  }
  if (refusal === undefined)
    return {
      ok: false,
      problem: `the 3.x configuration was accepted: ${retired.kind} ${retired.name} must be refused`,
    };
  let values: ConfigValues;
  try {
    values = resolve({ env: env4x });
  } catch (error) {
    return {
      ok: false,
      problem: `the 4.x configuration was refused: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const config = coreNodeConfigOf(
    values,
    current.rollupAddress,
    current.sequencer === undefined ? undefined : current.sequencer.coinbase,
  );
  if (!sameSettings(current, config)) {
    return {
      ok: false,
      config,
      problem: `the 4.x configuration did not give back the node's settings: ran with ${stringify(current)}, resolved to ${stringify(config)}`,
    };
  }
  return { ok: true, config, refusal };
}

function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}
