/**
 * The core's own configuration admin, used when no adapter provides one: its view of the tunables, the checks a
 * patch goes through, and how an accepted update merges into the running configuration.
 */
import { NodeError } from '../errors.js';
import type { AdminConfigView } from './nodeAdmin.js';
import type { SequencerConfig } from '../sequencer/sequencerDuties.js';
import type { ConfigAdmin, NodeConfig, NodeConfigUpdate } from './node.js';

/** svcAdmin_getConfig and svcAdmin_setConfig over the core's tunables. */
export function coreConfigAdmin(current: () => NodeConfig, update: (update: NodeConfigUpdate) => void): ConfigAdmin {
  return {
    getConfig: () => coreConfigView(current()),
    setConfig: async (patch) => update(coreConfigUpdate(patch)),
  };
}

/** The configuration after `update`; OPERATION_REFUSED for sequencer settings on a node without a sequencer. */
export function applyConfigUpdate(config: NodeConfig, update: NodeConfigUpdate): NodeConfig {
  if (update.sequencer && !config.sequencer) {
    throw new NodeError('OPERATION_REFUSED', 'sequencer settings given, but no sequencer runs on this node', {
      keys: Object.keys(update.sequencer),
    });
  }
  return {
    ...config,
    ...(update.archiverPollIntervalMs !== undefined ? { archiverPollIntervalMs: update.archiverPollIntervalMs } : {}),
    ...(update.sequencer && config.sequencer ? { sequencer: { ...config.sequencer, ...update.sequencer } } : {}),
    ...(update.txPool ? { txPool: update.txPool } : {}),
    ...(update.validatorLimits && config.validator
      ? { validator: { ...config.validator, limits: update.validatorLimits } }
      : {}),
    ...(update.health ? { health: update.health } : {}),
  };
}

/** The configuration view when no adapter supplies one: the core's tunables. */
export function coreConfigView(config: NodeConfig): AdminConfigView {
  return {
    rollupAddress: config.rollupAddress,
    archiverPollIntervalMs: config.archiverPollIntervalMs,
    ...(config.sequencer ? { sequencer: { ...config.sequencer } } : {}),
  };
}

/** Validates a patch against the core's tunables: only known keys with positive integer values (or hex addresses). */
export function coreConfigUpdate(patch: Readonly<Record<string, unknown>>): NodeConfigUpdate {
  const known = new Set(['archiverPollIntervalMs', 'sequencer']);
  const unknown = Object.keys(patch).filter((k) => !known.has(k));
  if (unknown.length > 0)
    throw new NodeError('INVALID_PARAMS', `unknown configuration keys: ${unknown.join(', ')}`, { keys: unknown });
  const interval = patch.archiverPollIntervalMs;
  if (interval !== undefined && !(Number.isSafeInteger(interval) && (interval as number) > 0)) {
    throw new NodeError('INVALID_PARAMS', 'archiverPollIntervalMs must be a positive integer', {
      key: 'archiverPollIntervalMs',
    });
  }
  const sequencer = patch.sequencer as Readonly<Record<string, unknown>> | undefined;
  if (sequencer !== undefined) {
    const numeric = ['blockDurationMs', 'pollIntervalMs', 'l1PublishingTimeAllowanceInSlotSeconds'];
    const wrong = Object.entries(sequencer).filter(
      ([k, v]) => !numeric.includes(k) || !(Number.isSafeInteger(v) && (v as number) > 0),
    );
    if (wrong.length > 0) {
      throw new NodeError(
        'INVALID_PARAMS',
        `sequencer settings must be known positive integers: ${wrong.map(([k]) => k).join(', ')}`,
        { keys: wrong.map(([k]) => k) },
      );
    }
  }
  return {
    ...(interval !== undefined ? { archiverPollIntervalMs: interval as number } : {}),
    ...(sequencer ? { sequencer: sequencer as Partial<SequencerConfig> } : {}),
  };
}
