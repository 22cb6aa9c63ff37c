import { describe, expect, it, vi } from 'vitest';
import { NodeError } from '../../core/errors.js';
import { ConfigError } from '../../spec/config/configError.js';
import { configOptions } from '../../spec/config/schema.js';
import { createConfigAdmin } from './configAdmin.js';
import { REDACTED } from './redactConfig.js';
import { resolveConfig } from './resolveConfig.js';
import { validateConfigPatch } from './validateConfigPatch.js';

const resolved = resolveConfig({
  env: { SEQ_PUBLISHER_PRIVATE_KEY: `0x${'11'.repeat(32)}`, SEQ_MAX_L2_BLOCK_GAS: '5000' },
});

const refusal = (patch: unknown): ConfigError => {
  try {
    validateConfigPatch(patch);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('the patch was accepted');
};

describe('validateConfigPatch', () => {
  it('returns the typed change of runtime options, null clearing one', () => {
    expect(
      validateConfigPatch({
        sequencerPollingIntervalMs: 250,
        sequencerCoinbase: `0x${'AB'.repeat(20)}`,
        maxL2BlockGas: null,
      }),
    ).toEqual({
      sequencerPollingIntervalMs: 250,
      sequencerCoinbase: `0x${'ab'.repeat(20)}`,
      maxL2BlockGas: undefined,
    });
  });

  it('refuses unknown keys and options that need a restart, naming each', () => {
    const error = refusal({ port: 1, bogus: true, sequencerPublisherPrivateKey: '0x00' });
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.problems.map((p) => [p.kind, p.name])).toEqual([
      ['restartRequired', 'port'],
      ['unknownName', 'bogus'],
      ['restartRequired', 'sequencerPublisherPrivateKey'],
    ]);
    expect(error.message).toContain('"port" is read only at startup: set --port or SVC_PORT and restart the node');
    expect(error.message).toContain('unknown configuration key "bogus"');
  });

  it('checks each value against its option type', () => {
    expect(refusal({ sequencerPollingIntervalMs: '250' }).message).toBe(
      '"sequencerPollingIntervalMs"="250": expected an integer from 1 to 60000',
    );
    expect(refusal({ p2pRpcPriceBumpPercentage: -1 }).message).toContain('expected an integer from 0 to 1000');
    expect(refusal([]).message).toContain('must be an object');
  });

  it('refuses every restart-only option of the schema', () => {
    for (const option of configOptions.filter((o) => o.mutability === 'restart')) {
      expect(refusal({ [option.key]: null }).problems[0]?.kind, option.key).toBe('restartRequired');
    }
  });
});

describe('createConfigAdmin', () => {
  it('shows the configuration redacted', () => {
    const admin = createConfigAdmin(resolved, () => undefined);
    expect(admin.getConfig()).toMatchObject({
      sequencerPublisherPrivateKey: REDACTED,
      maxL2BlockGas: 5000,
      port: 8080,
    });
  });

  it('merges a change, hands it to the node, then shows it', async () => {
    const apply = vi.fn();
    const admin = createConfigAdmin(resolved, apply);
    await admin.setConfig({ archiverPollingIntervalMs: 2500, maxL2BlockGas: null });
    expect(apply).toHaveBeenCalledWith(
      { archiverPollingIntervalMs: 2500, maxL2BlockGas: undefined },
      expect.objectContaining({ archiverPollingIntervalMs: 2500, maxL2BlockGas: undefined }),
    );
    expect(admin.getConfig()).toMatchObject({ archiverPollingIntervalMs: 2500, maxL2BlockGas: null });
    expect(admin.current().sources).toMatchObject({ archiverPollingIntervalMs: 'admin', maxL2BlockGas: 'unset' });
  });

  it('answers a bad change with INVALID_PARAMS naming the keys, and changes nothing', async () => {
    const apply = vi.fn();
    const admin = createConfigAdmin(resolved, apply);
    const failure = admin.setConfig({ adminPort: 1, archiverPollingIntervalMs: 5 });
    await expect(failure).rejects.toBeInstanceOf(NodeError);
    await expect(failure).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringContaining('"adminPort" is read only at startup'),
    });
    expect(apply).not.toHaveBeenCalled();
    expect(admin.getConfig().archiverPollingIntervalMs).toBe(1000);
  });

  it('keeps the old configuration when the node refuses the change', async () => {
    const admin = createConfigAdmin(resolved, () => {
      throw new NodeError('OPERATION_REFUSED', 'no sequencer runs on this node');
    });
    await expect(admin.setConfig({ sequencerPollingIntervalMs: 100 })).rejects.toMatchObject({
      code: 'OPERATION_REFUSED',
    });
    expect(admin.getConfig().sequencerPollingIntervalMs).toBe(500);
    await expect(admin.setConfig({})).resolves.toBeUndefined();
  });

  it('applies concurrent changes one at a time, in order', async () => {
    const seen: number[] = [];
    const admin = createConfigAdmin(resolved, async (_change, next) => {
      await new Promise((resolve) => setTimeout(resolve, next.archiverPollingIntervalMs === 10 ? 20 : 0));
      seen.push(next.archiverPollingIntervalMs);
    });
    await Promise.all([
      admin.setConfig({ archiverPollingIntervalMs: 10 }),
      admin.setConfig({ archiverPollingIntervalMs: 20 }),
    ]);
    expect(seen).toEqual([10, 20]);
    expect(admin.getConfig().archiverPollingIntervalMs).toBe(20);
  });
});
