/** svcAdmin_getConfig / svcAdmin_setConfig on a running node (real anvil L1, real listeners). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../adapters/config/resolveConfig.js';
import { startAnvil } from '../../adapters/l1/anvil.js';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { runNode, type RunningNode } from '../../adapters/node/runNode.js';
import { deployTestRollup } from '../helpers/testRollup.js';

const call = async (url: string, method: string, params: unknown[] = []) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as {
    result?: Record<string, unknown> | null;
    error?: { code: number; message: string };
  };
};

describe('configuration over the admin API', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let node: RunningNode;

  beforeAll(async () => {
    anvil = await startAnvil({ port: 0 });
    const { rollupAddress } = await deployTestRollup(anvil.url);
    const config = resolveConfig({
      flags: { '--port': '0', '--admin-port': '0', '--disable-admin-api-key': true },
      env: {
        ETHEREUM_HOSTS: anvil.url,
        L1_CONSENSUS_HOST_URLS: anvil.url,
        ROLLUP_CONTRACT_ADDRESS: rollupAddress,
        VALIDATOR_HA_DATABASE_URL: 'postgres://signer:s3cret@db:5432/ha',
      },
    });
    node = await runNode({ config, logger: createPinoLogger({ level: 'silent' }), print: () => undefined });
  });
  afterAll(async () => {
    await node?.stop();
    await anvil?.stop();
  });

  it('shows the effective configuration with secrets redacted', async () => {
    const { result } = await call(node.adminUrl, 'svcAdmin_getConfig');
    expect(result).toMatchObject({
      port: 0,
      archiverPollingIntervalMs: 1000,
      validatorHaDatabaseUrl: '[redacted]',
      sequencerPublisherPrivateKey: null,
    });
    expect(JSON.stringify(result)).not.toContain('s3cret');
  });

  it('applies a runtime change to the node and shows it', async () => {
    expect(
      await call(node.adminUrl, 'svcAdmin_setConfig', [
        { archiverPollingIntervalMs: 250, p2pRpcPriceBumpPercentage: 20 },
      ]),
    ).toMatchObject({ result: null });
    expect(node.node.currentConfig().archiverPollIntervalMs).toBe(250);
    expect((await call(node.adminUrl, 'svcAdmin_getConfig')).result).toMatchObject({
      archiverPollingIntervalMs: 250,
      p2pRpcPriceBumpPercentage: 20,
    });
  });

  it('refuses unknown and restart-only keys as invalid params, naming them', async () => {
    const { error } = await call(node.adminUrl, 'svcAdmin_setConfig', [{ port: 1, bogus: 2 }]);
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain('"port" is read only at startup');
    expect(error?.message).toContain('unknown configuration key "bogus"');
  });

  it('refuses sequencer settings on a node without a sequencer', async () => {
    const { error } = await call(node.adminUrl, 'svcAdmin_setConfig', [{ sequencerPollingIntervalMs: 100 }]);
    expect(error?.code).toBe(-32007);
    expect((await call(node.adminUrl, 'svcAdmin_getConfig')).result).toMatchObject({ sequencerPollingIntervalMs: 500 });
  });
});
