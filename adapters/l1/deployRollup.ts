/**
 * Deploys the rollup contract (contracts/Rollup.sol, from its checked-in artifact) to an L1.
 */
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { rollupAbi, rollupBytecode } from '../../contracts/artifacts/rollup.js';
import { L1Error } from '../../core/ports.js';
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
  /** How long to wait for the deployment to be included. */
  readonly inclusionTimeoutMs?: number;
}

export interface DeployedRollup {
  readonly rollupAddress: Hex;
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
  const receipt = await callL1(url, 'deploy rollup', async () => {
    const hash = await walletClient.deployContract({
      abi: rollupAbi,
      bytecode: rollupBytecode,
      chain: null,
      args: [
        params.genesisArchive,
        params.genesisTime ?? 0n,
        BigInt(params.slotDuration),
        BigInt(params.epochDuration),
        BigInt(params.proofSubmissionEpochs),
        BigInt(params.rollupVersion),
      ],
    });
    return publicClient.waitForTransactionReceipt({
      hash,
      timeout: params.inclusionTimeoutMs ?? INCLUSION_TIMEOUT_MS_DEFAULT,
    });
  });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new L1Error('L1_TX_REJECTED', `rollup deployment ${receipt.transactionHash} reverted in block ${receipt.blockNumber}`);
  }
  return { rollupAddress: receipt.contractAddress.toLowerCase() as Hex, deployBlock: receipt.blockNumber };
}
