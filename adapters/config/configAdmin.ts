/**
 * svcAdmin_getConfig and svcAdmin_setConfig over the node's effective configuration. getConfig shows it redacted;
 * setConfig validates the change (runtime options only, each of its type), merges it, checks the rules between
 * options, hands it to the running node, and only once the node has taken it makes it the shown configuration.
 * Calls are applied one at a time, in the order they arrive. A refused change is a NodeError INVALID_PARAMS
 * (-32602 on the wire) whose `details.problems` name every offending key.
 */
import { NodeError } from '../../core/errors.js';
import type { NodeAdmin } from '../../core/node/nodeAdmin.js';
import { ConfigError } from '../../spec/config/configError.js';
import type { ConfigPatch, ConfigValues } from '../../spec/config/schema.js';
import { redactConfig, type RedactedConfig } from './redactConfig.js';
import { overrideConfig, type ResolvedConfig } from './resolveConfig.js';
import { validateConfigPatch } from './validateConfigPatch.js';

/**
 * Applies a validated change to the running node. `change` holds only the keys the caller sent (undefined: back
 * to the default or unset); `next` is the whole configuration after the change. A rejection leaves the shown
 * configuration as it was.
 */
export type ApplyConfigToNode = (change: ConfigPatch, next: ConfigValues) => Promise<void> | void;

export interface ConfigAdmin extends Pick<NodeAdmin, 'getConfig' | 'setConfig'> {
  getConfig(): RedactedConfig;
  /** The effective configuration now, with sources (changes made here have source 'admin'). */
  current(): ResolvedConfig;
}

export function createConfigAdmin(resolved: ResolvedConfig, applyToNode: ApplyConfigToNode): ConfigAdmin {
  let current = resolved;
  let tail: Promise<void> = Promise.resolve();
  const apply = async (patch: unknown): Promise<void> => {
    let change: ConfigPatch;
    let next: ResolvedConfig;
    try {
      change = validateConfigPatch(patch);
      next = overrideConfig(current, change, 'admin');
    } catch (error) {
      if (error instanceof ConfigError)
        throw new NodeError('INVALID_PARAMS', error.message, { problems: error.problems }, { cause: error });
      throw error;
    }
    if (Object.keys(change).length === 0) return;
    await applyToNode(change, next.values);
    current = next;
  };
  return {
    getConfig: () => redactConfig(current.values),
    current: () => current,
    setConfig(patch) {
      const done = tail.then(() => apply(patch));
      tail = done.catch(() => undefined);
      return done;
    },
  };
}
