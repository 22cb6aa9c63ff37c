import { GENESIS_TEST_ACCOUNT_BALANCE, genesisTestAccounts } from '../../spec/genesis.js';
import path from 'node:path';
import { mkdir } from 'node:fs/promises';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devKeystoreFile, devValidators } from '../../core/validators/devValidators.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { LOCAL_NETWORK_VALIDATOR_COUNT } from '../../spec/validators/constants.js';
import { writeKeystoreFile } from '../keystore/fileKeystore.js';
import { createInProcessBus } from '../network/inProcessBus.js';
import type { Hex } from '../../spec/chain.js';
import {
  L1_CHAIN_ID_LOCAL_NETWORK,
  LOCAL_NETWORK_EPOCH_DURATION_SLOTS_DEFAULT,
  LOCAL_NETWORK_L1_SLOTS_IN_AN_EPOCH,
  PROOF_SUBMISSION_EPOCHS_DEFAULT,
  ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT,
  SEQ_BLOCK_DURATION_SECONDS_DEFAULT,
  SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT_SECONDS_DEFAULT,
} from '../../spec/constants.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import { overrideConfig, type ResolvedConfig } from '../config/resolveConfig.js';
import { startAnvil, type AnvilInstance } from '../l1/anvil.js';
import { deployRollup } from '../l1/deployRollup.js';
import { configFromSettings, definedValues, type NodeSettings } from './nodeConfig.js';
import { runNode, type RunNodeIo, type RunningNode } from './runNode.js';

/**
 * Anvil's first three well-known development accounts (public test keys, funded on every fresh anvil): the first
 * deploys the contracts, the second publishes checkpoints, the third submits epoch proofs.
 */
export const LOCAL_DEPLOYER_PRIVATE_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
export const LOCAL_PUBLISHER_PRIVATE_KEY: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
export const LOCAL_PROVER_PRIVATE_KEY: Hex = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

/** Where the local network keeps its data when no data directory is configured. */
export const LOCAL_NETWORK_DATA_DIRECTORY_DEFAULT = '.data/local-network';

/** The flat settings form (tests, embedding); the CLI gives a resolved configuration instead. */
export interface LocalNetworkSettings extends Omit<
  NodeSettings,
  'l1RpcUrl' | 'rollupAddress' | 'sequencerPrivateKey' | 'dataDirectory'
> {
  readonly dataDirectory: string;
  readonly l1Port: number;
  readonly slotDurationSeconds: number;
  /** Seconds between L1 blocks (default 12, as on Ethereum; tests use less). */
  readonly l1BlockTimeSeconds?: number;
  /**
   * Anvil's slots per L1 epoch, which sets how far its `finalized` block trails the head (twice this many blocks;
   * default LOCAL_NETWORK_L1_SLOTS_IN_AN_EPOCH). Reorg tests raise it to keep the blocks they reorg above finality.
   */
  readonly l1SlotsInAnEpoch?: number;
}

export type LocalNetworkOptions = RunNodeIo &
  ({ readonly config: ResolvedConfig } | LocalNetworkSettings) & {
    /** Rollup epoch length (default LOCAL_NETWORK_EPOCH_DURATION_SLOTS_DEFAULT, short so epochs are proven soon). */
    readonly epochDurationSlots?: number;
  };

function localNetworkConfig(options: LocalNetworkOptions): ResolvedConfig {
  if ('config' in options) return options.config;
  return configFromSettings(
    options,
    definedValues({
      localNetworkL1Port: options.l1Port,
      localNetworkSlotDurationSeconds: options.slotDurationSeconds,
      localNetworkL1BlockTimeSeconds: options.l1BlockTimeSeconds,
    }),
  );
}

/**
 * What the local network supplies itself: its L1, the rollup contract it deployed, the publisher and prover accounts
 * (the prover runs in-process), and sequencer timing scaled to the slot for the timing options still at their
 * defaults.
 */
function withLocalNetwork(
  config: ResolvedConfig,
  l1RpcUrl: string,
  rollupAddress: Hex,
  dataDirectory: string,
  keystorePath: string,
): ResolvedConfig {
  const { values, sources } = config;
  const timing = sequencerTimingForSlot(values.localNetworkSlotDurationSeconds, values.localNetworkL1BlockTimeSeconds);
  return overrideConfig(
    config,
    {
      l1RpcUrls: [l1RpcUrl],
      // Blobs come from anvil's own beacon routes, as from a real L1's consensus client.
      ...(values.l1ConsensusHostUrls.length === 0 ? { l1ConsensusHostUrls: [l1RpcUrl] } : {}),
      rollupAddress,
      ...(values.dataDirectory === undefined ? { dataDirectory } : {}),
      validatorKeystorePath: keystorePath,
      sequencerEnabled: true,
      sequencerPublisherPrivateKey: LOCAL_PUBLISHER_PRIVATE_KEY,
      proverNode: true,
      ...(values.proverPublisherPrivateKey === undefined
        ? { proverPublisherPrivateKey: LOCAL_PROVER_PRIVATE_KEY }
        : {}),
      ...(sources.sequencerBlockDurationMs === 'default' ? { sequencerBlockDurationMs: timing.blockDurationMs } : {}),
      ...(sources.sequencerL1PublishingTimeAllowanceInSlotSeconds === 'default'
        ? { sequencerL1PublishingTimeAllowanceInSlotSeconds: timing.l1PublishingTimeAllowanceInSlotSeconds }
        : {}),
    },
    'localNetwork',
  );
}

/**
 * Sequencer timing that fits the slot: the default 6 s blocks and 24 s publishing allowance on the default 36 s
 * slot, scaled down for shorter slots so that at least one block is built and L1 has two blocks' time to include
 * the checkpoint.
 */
export function sequencerTimingForSlot(slotDurationSeconds: number, l1BlockTimeSeconds: number) {
  const buildWindowMinSeconds = Math.max(1, Math.floor(slotDurationSeconds / 3));
  const l1PublishingTimeAllowanceInSlotSeconds = Math.min(
    SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT_SECONDS_DEFAULT,
    2 * l1BlockTimeSeconds,
    slotDurationSeconds - buildWindowMinSeconds,
  );
  const buildWindowSeconds = slotDurationSeconds - l1PublishingTimeAllowanceInSlotSeconds;
  const blockDurationMs = Math.min(
    SEQ_BLOCK_DURATION_SECONDS_DEFAULT * 1000,
    Math.max(500, Math.floor((buildWindowSeconds * 1000) / 2)),
  );
  return { blockDurationMs, l1PublishingTimeAllowanceInSlotSeconds };
}

/**
 * The local network's validators: without a configured keystore, LOCAL_NETWORK_VALIDATOR_COUNT development validators
 * written to `<data directory>/keystore.json` (publishing from the local publisher account) and registered with the
 * rollup contract, so the node's committee is its own keys. A configured keystore is used as is and nothing is
 * registered: its validators must be registered by whoever runs that L1.
 */
async function localValidators(configuredPath: string | undefined, dataDirectory: string) {
  if (configuredPath !== undefined) return { keystorePath: configuredPath, registrations: [] };
  const keystorePath = path.join(dataDirectory, 'keystore.json');
  const validators = devValidators('local-network', LOCAL_NETWORK_VALIDATOR_COUNT);
  const publisher = privateKeyToAccount(LOCAL_PUBLISHER_PRIVATE_KEY).address.toLowerCase() as Hex;
  await mkdir(dataDirectory, { recursive: true });
  await writeKeystoreFile(
    keystorePath,
    devKeystoreFile(validators, { coinbase: publisher, feeRecipient: zeroHex(32), publisher }),
  );
  return { keystorePath, registrations: validators.map((v) => v.registration) };
}

export interface RunningLocalNetwork extends RunningNode {
  readonly l1RpcUrl: string;
  readonly rollupAddress: Hex;
}

/**
 * A whole network on this machine: a fresh anvil L1 (12 s blocks; its finalized block two blocks behind latest), the
 * rollup contract deployed with this node's genesis and short epochs, and one node running sync, a sequencer and a
 * prover. With the default 36 s slots, the first epoch is proven about 84 s after genesis and finalized 24 s later.
 */
export async function runLocalNetwork(options: LocalNetworkOptions): Promise<RunningLocalNetwork> {
  const config = localNetworkConfig(options);
  const { values } = config;
  const dataDirectory = values.dataDirectory ?? LOCAL_NETWORK_DATA_DIRECTORY_DEFAULT;
  const validators = await localValidators(values.validatorKeystorePath, dataDirectory);
  const l1 = await startLocalL1(options, config, validators.registrations);
  try {
    options.print(`data directory: ${path.resolve(dataDirectory)}`);
    printLocalL1(l1, options.print);
    options.print(
      `validators: ${validators.registrations.length} registered, run from ${path.resolve(validators.keystorePath)}`,
    );
    const running = await runNode({
      config: withLocalNetwork(config, l1.anvil.url, l1.rollupAddress, dataDirectory, validators.keystorePath),
      logger: options.logger,
      ...(options.setLogLevel !== undefined ? { setLogLevel: options.setLogLevel } : {}),
      print: options.print,
      network: createInProcessBus().connect(),
      ...(options.snapshots !== undefined ? { snapshots: options.snapshots } : {}),
    });
    return {
      ...running,
      l1RpcUrl: l1.anvil.url,
      rollupAddress: l1.rollupAddress,
      async stop() {
        await running.stop();
        await l1.anvil.stop();
      },
    };
  } catch (error) {
    await l1.anvil.stop();
    throw error;
  }
}

export interface LocalL1 {
  readonly anvil: AnvilInstance;
  readonly rollupAddress: Hex;
}

/**
 * The local network's L1: a fresh anvil, the rollup contract deployed on it with this node's genesis and the given
 * validators registered, then interval mining like a real chain.
 */
export async function startLocalL1(
  options: Pick<LocalNetworkOptions, 'epochDurationSlots'> & { readonly l1SlotsInAnEpoch?: number },
  config: ResolvedConfig,
  registrations: Parameters<typeof deployRollup>[0]['validators'],
): Promise<LocalL1> {
  const { values } = config;
  const anvil = await startAnvil({
    port: values.localNetworkL1Port,
    host: '127.0.0.1',
    chainId: L1_CHAIN_ID_LOCAL_NETWORK,
    slotsInAnEpoch: options.l1SlotsInAnEpoch ?? LOCAL_NETWORK_L1_SLOTS_IN_AN_EPOCH,
  });
  try {
    const genesis = createGenesis(L1_CHAIN_ID_LOCAL_NETWORK, ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT);
    const { rollupAddress } = await deployRollup({
      l1RpcUrl: anvil.url,
      deployerPrivateKey: LOCAL_DEPLOYER_PRIVATE_KEY,
      genesisArchive: genesis.block.archive.root,
      slotDuration: values.localNetworkSlotDurationSeconds,
      epochDuration: options.epochDurationSlots ?? LOCAL_NETWORK_EPOCH_DURATION_SLOTS_DEFAULT,
      proofSubmissionEpochs: PROOF_SUBMISSION_EPOCHS_DEFAULT,
      rollupVersion: ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT,
      validators: registrations,
      ethPerFeeAsset: values.initialEthPerFeeAsset,
    });
    // Deployed instantly under automine; from now on L1 mines a block every l1BlockTime seconds like a real chain.
    const l1 = createPublicClient({ transport: http(anvil.url) });
    await l1.request({ method: 'evm_setAutomine' as never, params: [false] as never });
    await l1.request({
      method: 'evm_setIntervalMining' as never,
      params: [values.localNetworkL1BlockTimeSeconds] as never,
    });
    return { anvil, rollupAddress };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

export function printLocalL1(l1: LocalL1, print: (line: string) => void): void {
  print(`L1 RPC URL: ${l1.anvil.url}`);
  print(`rollup contract: ${l1.rollupAddress}`);
  for (const [i, account] of genesisTestAccounts().entries()) {
    print(`test account ${i}: ${account} (fee-asset balance ${GENESIS_TEST_ACCOUNT_BALANCE})`);
  }
}
