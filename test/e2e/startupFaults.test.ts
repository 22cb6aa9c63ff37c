import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnvil } from '../../adapters/l1/anvil.js';
import { deployRollup } from '../../adapters/l1/deployRollup.js';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { LOCAL_DEPLOYER_PRIVATE_KEY } from '../../adapters/node/localNetwork.js';
import { resolveConfig } from '../../adapters/config/resolveConfig.js';
import { configFromSettings } from '../../adapters/node/nodeConfig.js';
import { runNode, type NodeSettings, type RunNodeOptions } from '../../adapters/node/runNode.js';
import type { Hex } from '../../spec/chain.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import { INITIAL_ETH_PER_FEE_ASSET_DEFAULT } from '../../spec/config/schema.js';
import { svcNodeArgs } from '../helpers/svcCommand.js';

const exec = promisify(execFile);
const logger = createPinoLogger({ level: 'silent' });

describe('startup faults give a clear error, never a hang or a bare stack trace', () => {
  let anvil: Awaited<ReturnType<typeof startAnvil>>;
  let root: string;
  const deploy = async (rollupVersion: number) =>
    (
      await deployRollup({
        l1RpcUrl: anvil.url,
        deployerPrivateKey: LOCAL_DEPLOYER_PRIVATE_KEY,
        genesisArchive: createGenesis(31337, rollupVersion).block.archive.root,
        slotDuration: 36,
        epochDuration: 32,
        proofSubmissionEpochs: 1,
        rollupVersion,
        ethPerFeeAsset: INITIAL_ETH_PER_FEE_ASSET_DEFAULT,
      })
    ).rollupAddress;
  const options = (overrides: Partial<NodeSettings>): RunNodeOptions => ({
    l1RpcUrl: anvil.url,
    l1ConsensusHostUrl: anvil.url,
    rollupAddress: '0x0000000000000000000000000000000000000001',
    port: 0,
    adminPort: 0,
    adminHost: '127.0.0.1',
    adminApiKey: { disabled: true, reset: false },
    logger,
    print: () => undefined,
    ...overrides,
  });

  beforeAll(async () => {
    anvil = await startAnvil({ port: 0 });
    root = await mkdtemp(path.join(tmpdir(), 'svc-faults-'));
  });
  afterAll(async () => {
    await anvil.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('a configuration without an L1 or a rollup contract names the flags and variables to set', async () => {
    const config = resolveConfig({ flags: { '--port': '0', '--admin-port': '0' }, env: {} });
    await expect(runNode({ config, logger, print: () => undefined })).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      message: expect.stringMatching(/--l1-rpc-urls \/ ETHEREUM_HOSTS.*--rollup-address \/ ROLLUP_CONTRACT_ADDRESS/),
    });
  });

  it('an unreachable L1 names its URL', async () => {
    await expect(runNode(options({ l1RpcUrl: 'http://127.0.0.1:9' }))).rejects.toMatchObject({
      code: 'L1_UNREACHABLE',
      message: expect.stringContaining('127.0.0.1:9'),
    });
  });

  it('an address without the rollup contract is refused', async () => {
    await expect(
      runNode(options({ rollupAddress: '0x00000000000000000000000000000000000000aa' })),
    ).rejects.toMatchObject({ code: 'L1_NO_ROLLUP_CONTRACT' });
  });

  it('a data directory written for another rollup is refused, and a locked one names the lock', async () => {
    const first: Hex = await deploy(1);
    const second: Hex = await deploy(2);
    const dataDirectory = path.join(root, 'node');
    const node = await runNode(options({ rollupAddress: first, dataDirectory }));
    await expect(runNode(options({ rollupAddress: first, dataDirectory }))).rejects.toMatchObject({
      code: 'STORAGE_LOCKED',
    });
    await node.stop();
    const refusal = runNode(options({ rollupAddress: second, dataDirectory }));
    await expect(refusal).rejects.toMatchObject({
      code: 'DATA_DIRECTORY_CHAIN_MISMATCH',
      message: expect.stringContaining('--data-directory'),
    });
    // The refused start released the database: the right rollup still opens it.
    const again = await runNode(options({ rollupAddress: first, dataDirectory }));
    await again.stop();
  });

  it('HA signing on an unreachable database refuses to start (a node never signs unguarded), naming the database but not its password', async () => {
    const rollupAddress = await deploy(1);
    const settings = {
      l1RpcUrl: anvil.url,
      l1ConsensusHostUrl: anvil.url,
      rollupAddress,
      port: 0,
      adminPort: 0,
      adminHost: '127.0.0.1',
      adminApiKey: { disabled: true, reset: false },
    };
    const config = configFromSettings(settings, {
      validatorHaSigningEnabled: true,
      validatorHaDatabaseUrl: 'postgres://signer:s3cret@127.0.0.1:1/ha',
      validatorHaNodeId: 'node-a',
    });
    const error: unknown = await runNode({ config, logger, print: () => undefined }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      code: 'SIGNING_GUARD_UNAVAILABLE',
      message: expect.stringContaining('127.0.0.1:1/ha'),
    });
    expect((error as Error).message).not.toContain('s3cret');
  });

  it('a port already in use is named, and the database is released', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    const port = (blocker.address() as { port: number }).port;
    const dataDirectory = path.join(root, 'busy');
    const rollupAddress = await deploy(1);
    try {
      await expect(runNode(options({ rollupAddress, dataDirectory, port }))).rejects.toThrow(new RegExp(`${port}`));
      const node = await runNode(options({ rollupAddress, dataDirectory }));
      await node.stop();
    } finally {
      blocker.close();
    }
  });

  it('the CLI prints one line for an error, exits non-zero, and explains its usage', async () => {
    const cli = (args: string[]) =>
      exec(process.execPath, svcNodeArgs(...args)).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    const unreachable = await cli([
      'start',
      '--node',
      '--l1-rpc-urls',
      'http://127.0.0.1:9',
      '--rollup-address',
      '0x0000000000000000000000000000000000000001',
      '--port',
      '0',
      '--admin-port',
      '0',
    ]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(/^svc: .*127\.0\.0\.1:9/m);
    expect(unreachable.stderr).not.toMatch(/^\s+at /m);
    const neither = await cli(['start']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('--local-network');
    const help = await cli(['start', '--help']);
    expect(help.code).toBe(0);
    for (const flag of [
      '--local-network',
      '--node',
      '--port',
      '--admin-port',
      '--data-directory',
      '--l1-rpc-urls',
      '--l1-chain-id',
      '--rollup-address',
      '--admin-api-key-hash',
      '--disable-admin-api-key',
      '--reset-admin-api-key',
    ]) {
      expect(help.stdout).toContain(flag);
    }
    const badAddress = await cli(['start', '--node', '--rollup-address', '0x12']);
    expect(badAddress.code).not.toBe(0);
    expect(badAddress.stderr).toContain('20-byte');
  });
});
