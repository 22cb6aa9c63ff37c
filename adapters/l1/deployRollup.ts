/**
 * Deploys the rollup contract (contracts/Rollup.sol, from its checked-in artifact) to an L1, with the epoch proof
 * verifier it checks proofs through (contracts/CommitmentVerifier.sol) deployed just before it.
 */
import { createWalletClient, http, type Abi, type PublicClient, type WalletClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  commitmentVerifierAbi,
  commitmentVerifierBytecode,
  rollupAbi,
  rollupBytecode,
} from '../../contracts/artifacts/rollup.js';
import type { L1Validator } from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type { Hex } from '../../spec/chain.js';
import { callL1, createL1PublicClient, L1_REQUEST_TIMEOUT_MS_DEFAULT, L1_TRANSPORT_RETRY_COUNT } from './l1Rpc.js';

export interface DeployRollupParameters {
  readonly l1RpcUrl: string;
  readonly deployerPrivateKey: Hex;
  readonly genesisArchive: Hex;
  /** Unix seconds of L2 slot 0's start; absent (or 0) means the timestamp of the deployment block. */
  readonly genesisTime?: bigint;
  readonly slotDuration: number;
  readonly epochDuration: number;
  readonly proofSubmissionEpochs: number;
  readonly rollupVersion: number;
  /** Base currency per unit of fee asset, 12 decimals (`--initialEthPerFeeAsset`); fixed for the contract's life. */
  readonly ethPerFeeAsset: bigint;
  /** How long to wait for the deployment to be included. */
  readonly inclusionTimeoutMs?: number;
  /** Validators the deployer registers right after deployment (before any checkpoint: active from epoch 0). */
  readonly validators?: readonly Omit<L1Validator, 'activeFromEpoch'>[];
}

export interface DeployedRollup {
  readonly rollupAddress: Hex;
  /** The epoch proof verifier the rollup checks proofs through. */
  readonly verifierAddress: Hex;
  /** L1 block holding the deployment (the contract's l1StartBlock). */
  readonly deployBlock: bigint;
}

const INCLUSION_TIMEOUT_MS_DEFAULT = 60_000;

export async function deployRollup(params: DeployRollupParameters): Promise<DeployedRollup> {
  const url = params.l1RpcUrl;
  const publicClient = createL1PublicClient(url);
  const walletClient = createWalletClient({
    account: privateKeyToAccount(params.deployerPrivateKey),
    transport: http(url, { timeout: L1_REQUEST_TIMEOUT_MS_DEFAULT, retryCount: L1_TRANSPORT_RETRY_COUNT }),
  });
  const timeout = params.inclusionTimeoutMs ?? INCLUSION_TIMEOUT_MS_DEFAULT;
  const deploy = (what: string, abi: Abi, bytecode: Hex, args: readonly unknown[]) =>
    deployContract({ url, publicClient, walletClient, timeout }, what, abi, bytecode, args);
  const verifier = await deploy('epoch proof verifier', commitmentVerifierAbi, commitmentVerifierBytecode, []);
  const rollup = await deploy('rollup', rollupAbi, rollupBytecode, [
    params.genesisArchive,
    params.genesisTime ?? 0n,
    BigInt(params.slotDuration),
    BigInt(params.epochDuration),
    BigInt(params.proofSubmissionEpochs),
    BigInt(params.rollupVersion),
    params.ethPerFeeAsset,
    verifier.address,
  ]);
  for (const validator of params.validators ?? []) {
    await registerValidator({ url, publicClient, walletClient, timeout }, rollup.address, validator);
  }
  return { rollupAddress: rollup.address, verifierAddress: verifier.address, deployBlock: rollup.blockNumber };
}

/** Rollup.addValidator from the deployer; a revert is L1Error('L1_TX_REJECTED'). */
async function registerValidator(
  context: DeployContext,
  rollupAddress: Hex,
  validator: Omit<L1Validator, 'activeFromEpoch'>,
): Promise<void> {
  const { url, publicClient, walletClient, timeout } = context;
  const receipt = await callL1(url, 'addValidator', async () => {
    const hash = await walletClient.writeContract({
      address: rollupAddress,
      abi: rollupAbi,
      functionName: 'addValidator',
      args: [validator.address, validator.blsPublicKey, validator.proofOfPossession],
      chain: null,
      account: walletClient.account!,
    });
    return publicClient.waitForTransactionReceipt({ hash, timeout });
  });
  if (receipt.status !== 'success')
    throw new L1Error(
      'L1_TX_REJECTED',
      `registering validator ${validator.address} reverted in block ${receipt.blockNumber}`,
    );
}

interface DeployContext {
  readonly url: string;
  readonly publicClient: PublicClient;
  readonly walletClient: WalletClient;
  readonly timeout: number;
}

/** Deploys one contract and waits for it; a reverted deployment is L1Error('L1_TX_REJECTED'). */
async function deployContract(
  context: DeployContext,
  what: string,
  abi: Abi,
  bytecode: Hex,
  args: readonly unknown[],
): Promise<{ address: Hex; blockNumber: bigint }> {
  const { url, publicClient, walletClient, timeout } = context;
  const receipt = await callL1(url, `deploy ${what}`, async () => {
    const hash = await walletClient.deployContract({
      abi,
      bytecode,
      chain: null,
      account: walletClient.account!,
      args,
    });
    return publicClient.waitForTransactionReceipt({ hash, timeout });
  });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new L1Error(
      'L1_TX_REJECTED',
      `${what} deployment ${receipt.transactionHash} reverted in block ${receipt.blockNumber}`,
    );
  }
  return { address: receipt.contractAddress.toLowerCase() as Hex, blockNumber: receipt.blockNumber };
}
