import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './loadConfig.js';

describe('loadConfig', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'svc-config-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads the network configuration file named by the flag, else the variable', async () => {
    const file = path.join(dir, 'network.json');
    await writeFile(file, JSON.stringify({ l1ChainId: 11155111, p2pRpcPriceBumpPercentage: 25 }));
    const fromEnv = await loadConfig({ env: { NETWORK_CONFIG_FILE: file, P2P_RPC_PRICE_BUMP_PERCENTAGE: '30' } });
    expect([fromEnv.values.l1ChainId, fromEnv.sources.l1ChainId, fromEnv.values.p2pRpcPriceBumpPercentage]).toEqual([
      11155111,
      'network',
      30,
    ]);
    const fromFlag = await loadConfig({
      flags: { '--network-config': file },
      env: { NETWORK_CONFIG_FILE: path.join(dir, 'absent.json') },
    });
    expect(fromFlag.values.l1ChainId).toBe(11155111);
  });

  it('names the flag and the file when the file cannot be used', async () => {
    const broken = path.join(dir, 'broken.json');
    await writeFile(broken, '{ not json');
    await expect(loadConfig({ flags: { '--network-config': broken }, env: {} })).rejects.toThrow(
      `--network-config="${broken}": the file is not JSON`,
    );
    await expect(loadConfig({ env: { NETWORK_CONFIG_FILE: path.join(dir, 'absent.json') } })).rejects.toThrow(
      /NETWORK_CONFIG_FILE=".*absent\.json": cannot read the file \(ENOENT\)/,
    );
  });

  it('names the file in the messages about its fields', async () => {
    const file = path.join(dir, 'local.json');
    await writeFile(file, JSON.stringify({ dataDirectory: '/tmp/x' }));
    await expect(loadConfig({ env: { NETWORK_CONFIG_FILE: file } })).rejects.toThrow(
      `network configuration ${file} field "dataDirectory" is a local setting`,
    );
  });
});
