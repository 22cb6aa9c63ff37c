/**
 * L1PublisherPort over viem: `propose` goes out as an EIP-4844 blob transaction signed locally by the publisher key
 * and sent raw (anvil 1.7.1 panics on blob txs sent through its unlocked accounts). Each proposal is simulated first
 * against the pending block, with its blob hashes, so a contract rejection surfaces as L1Error('L1_TX_REJECTED')
 * naming the contract error instead of as a reverted transaction. `submitEpochProof` goes out the same way as an
 * EIP-1559 transaction.
 *
 * Nonces and fees come from core/l1/l1TxSender.ts: a send while an earlier transaction of the same kind from this
 * publisher is still pending goes out at that transaction's nonce with replacement fees (core/l1/l1TxFees.ts), so a
 * proposal stuck under a fee spike is replaced by the next slot's instead of holding every later nonce behind it. The
 * publisher remembers its transactions in flight; a restarted one starts from the chain's nonces ('latest' and
 * 'pending') and replaces a pending nonce it does not know, learning its price from the node's refusals.
 */
import {
  blobsToCommitments,
  blobsToProofs,
  commitmentsToVersionedHashes,
  encodeFunctionData,
  toBlobSidecars,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { rollupAbi } from '../../contracts/artifacts/rollup.js';
import { assert } from '../../core/assert.js';
import { L1TxTracker, type L1AccountNonces, type L1TxSendOperations } from '../../core/l1/l1TxSender.js';
import type { L1FeeMarket, L1TxFees, L1TxKind } from '../../core/l1/l1TxFees.js';
import {
  type LoggerPort,
  type MetricsPort,
  type L1PublisherPort,
  type L1TxStatus,
  type ProposeCheckpointRequest,
  type SubmitEpochProofRequest,
} from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { BLOB_SIZE_BYTES, BLOBS_PER_CHECKPOINT_MAX } from '../../spec/constants.js';
import { blobVersionedHashes, getKzg } from './kzg.js';
import {
  callL1,
  createL1PublicClient,
  describeRevert,
  detailsOf,
  isRevert,
  isTransportFailure,
  rawRequest,
  shownUrls,
} from './l1Rpc.js';

/**
 * Where the publisher sends: one URL, or several of one L1 (failoverHttp in l1Rpc.ts: sticky to the URL that answered
 * last, the same request sent on to the next URL when one is unreachable or times out, never after the L1 node
 * answered, so a refused transaction is not sent twice).
 */
export type ViemL1PublisherEndpoints =
  | { readonly l1RpcUrl: string; readonly l1RpcUrls?: undefined }
  | { readonly l1RpcUrls: readonly string[]; readonly l1RpcUrl?: undefined };

export type ViemL1PublisherOptions = ViemL1PublisherEndpoints & {
  readonly rollupAddress: Hex;
  readonly publisherPrivateKey: Hex;
  readonly requestTimeoutMs?: number;
  /** Where replacements, fee-cap refusals and switches between URLs are logged. */
  readonly logger?: LoggerPort;
  /** Told of every transaction sent, with its fees (adapters/metrics/). */
  readonly metrics?: MetricsPort;
};

/** Gas limit = estimate + 20%: the estimate is taken on the pending block, which can differ from the including one. */
const GAS_ESTIMATE_MARGIN_PERCENT = 20n;

interface PreparedProposal {
  readonly data: Hex;
  readonly versionedHashes: readonly Hex[];
  readonly sidecars: readonly { blob: Hex; commitment: Hex; proof: Hex }[];
}

export function createViemL1Publisher(options: ViemL1PublisherOptions): L1PublisherPort {
  const urls = options.l1RpcUrls ?? [options.l1RpcUrl];
  assert(urls.length > 0, 'the L1 publisher needs at least one URL');
  // Messages name the endpoints (redacted by callL1 and shownUrls); the client talks to them.
  const url = urls.length === 1 ? urls[0]! : urls;
  const rollupAddress = options.rollupAddress;
  const account = privateKeyToAccount(options.publisherPrivateKey);
  const client = createL1PublicClient(urls, {
    requestTimeoutMs: options.requestTimeoutMs,
    onFailover: (from, to, error) =>
      options.logger?.warn('L1 publisher switches endpoint', { from, to, reason: detailsOf(error) }),
  });
  const tracker = new L1TxTracker(options.logger, options.metrics);
  let chainId: Promise<number> | undefined;
  const getChainId = () => {
    chainId ??= client.getChainId().catch((error: unknown) => {
      chainId = undefined; // do not cache a failure
      throw error;
    });
    return chainId;
  };

  return {
    publisherAddress: account.address.toLowerCase() as Hex,

    async blobVersionedHashes(blobs) {
      return blobVersionedHashes(blobs);
    },

    proposeCheckpoint: (request) =>
      callL1(url, 'propose', async () => {
        const prepared = prepareProposal(request);
        await simulate(client, account.address, rollupAddress, prepared.data, prepared.versionedHashes);
        const gas = await estimateGas(
          client,
          {
            from: account.address,
            to: rollupAddress,
            data: prepared.data,
            blobVersionedHashes: prepared.versionedHashes,
          },
          'propose',
        );
        return tracker.send({
          ...sendReads(client, account.address, 'blob'),
          what: 'propose',
          send: async (nonce, fees) => {
            const serialized = await signProposal(account, rollupAddress, prepared, {
              chainId: await getChainId(),
              nonce,
              gas,
              fees,
            });
            return sendRaw(client, url, 'propose', serialized);
          },
        });
      }),

    getTxStatus: (txHash) => callL1(url, 'tx status', () => readTxStatus(client, txHash)),

    submitEpochProof: (request) =>
      callL1(url, 'submitEpochProof', async () => {
        const data = encodeSubmitEpochProofCall(request);
        await simulatePlainCall(client, account.address, rollupAddress, data, 'submitEpochProof');
        const gas = await estimateGas(client, { from: account.address, to: rollupAddress, data }, 'submitEpochProof');
        return tracker.send({
          ...sendReads(client, account.address, 'plain'),
          what: 'submitEpochProof',
          send: async (nonce, fees) => {
            const serialized = await signPlainCall(account, rollupAddress, data, {
              chainId: await getChainId(),
              nonce,
              gas,
              fees,
            });
            return sendRaw(client, url, 'submitEpochProof', serialized);
          },
        });
      }),
  };
}

/** How a signed transaction's nonce, gas and fees were chosen. */
interface TxParameters {
  readonly chainId: number;
  readonly nonce: number;
  readonly gas: bigint;
  readonly fees: L1TxFees;
}

/** The reads a send plans from: the account's nonces and the pending block's fee market. */
function sendReads(
  client: PublicClient,
  address: Hex,
  kind: L1TxKind,
): Pick<L1TxSendOperations, 'kind' | 'readNonces' | 'readFeeMarket'> {
  return {
    kind,
    readNonces: async (): Promise<L1AccountNonces> => {
      const [minedNonce, pendingNonce] = await Promise.all([
        client.getTransactionCount({ address, blockTag: 'latest' }),
        client.getTransactionCount({ address, blockTag: 'pending' }),
      ]);
      return { minedNonce, pendingNonce };
    },
    readFeeMarket: async (): Promise<L1FeeMarket> => {
      const [pendingBlock, priorityFeePerGas, blobBaseFeePerGas] = await Promise.all([
        client.getBlock({ blockTag: 'pending' }),
        client.estimateMaxPriorityFeePerGas(),
        kind === 'blob' ? client.getBlobBaseFee() : Promise.resolve(0n),
      ]);
      return { baseFeePerGas: pendingBlock.baseFeePerGas ?? 0n, blobBaseFeePerGas, priorityFeePerGas };
    },
  };
}

/** The L1 node's words for a replacement it refused: underpriced, or of the other pool (geth, reth, anvil). */
const UNDERPRICED_PATTERN = /underpriced/i;
const KIND_CONFLICT_PATTERN = /already reserved|blob.*cannot replace|cannot replace.*blob/i;

/**
 * Sends a signed transaction. A refusal by the L1 node is L1Error: L1_TX_UNDERPRICED or L1_TX_KIND_CONFLICT for a
 * refused replacement (the sender learns from those), L1_TX_REJECTED otherwise; transport failures pass.
 */
async function sendRaw(
  client: PublicClient,
  url: string | readonly string[],
  what: string,
  serializedTransaction: Hex,
): Promise<Hex> {
  try {
    return await client.sendRawTransaction({ serializedTransaction });
  } catch (error) {
    if (isTransportFailure(error)) throw error;
    const details = detailsOf(error);
    const code = UNDERPRICED_PATTERN.test(details)
      ? 'L1_TX_UNDERPRICED'
      : KIND_CONFLICT_PATTERN.test(details)
        ? 'L1_TX_KIND_CONFLICT'
        : 'L1_TX_REJECTED';
    throw new L1Error(code, `L1 node at ${shownUrls(url)} refused the ${what} transaction: ${details}`, {
      cause: error,
    });
  }
}

/** eth_estimateGas on the pending block plus GAS_ESTIMATE_MARGIN_PERCENT; a revert is L1Error('L1_TX_REJECTED'). */
async function estimateGas(client: PublicClient, call: Record<string, unknown>, what: string): Promise<bigint> {
  const estimate = await rawRequest(client, 'eth_estimateGas', [call, 'pending']).catch((error: unknown) => {
    throw rejection(error, `${what} gas estimate`);
  });
  if (typeof estimate !== 'string') throw new Error(`eth_estimateGas answered ${JSON.stringify(estimate)}`);
  const gas = BigInt(estimate);
  return gas + (gas * GAS_ESTIMATE_MARGIN_PERCENT) / 100n;
}

export function encodeSubmitEpochProofCall(request: SubmitEpochProofRequest): Hex {
  return encodeFunctionData({
    abi: rollupAbi,
    functionName: 'submitEpochProof',
    args: [
      BigInt(request.epoch),
      BigInt(request.fromCheckpoint),
      BigInt(request.toCheckpoint),
      request.endArchive,
      request.outHash,
      request.proof,
    ],
  });
}

/** eth_call of a transaction without blobs on the pending block; a revert is L1Error('L1_TX_REJECTED') naming it. */
async function simulatePlainCall(client: PublicClient, from: Hex, to: Hex, data: Hex, what: string): Promise<void> {
  try {
    await rawRequest(client, 'eth_call', [{ from, to, data }, 'pending']);
  } catch (error) {
    throw rejection(error, what);
  }
}

/** Signs an EIP-1559 call at the planned nonce, gas and fees. */
function signPlainCall(account: PrivateKeyAccount, to: Hex, data: Hex, tx: TxParameters): Promise<Hex> {
  return account.signTransaction({
    type: 'eip1559',
    chainId: tx.chainId,
    nonce: tx.nonce,
    to,
    data,
    gas: tx.gas,
    maxPriorityFeePerGas: tx.fees.maxPriorityFeePerGas,
    maxFeePerGas: tx.fees.maxFeePerGas,
  });
}

/** Checks the blob count, computes commitments, proofs and versioned hashes once, and encodes the call. */
function prepareProposal(request: ProposeCheckpointRequest): PreparedProposal {
  const count = request.blobs.length;
  if (count === 0 || count > BLOBS_PER_CHECKPOINT_MAX) {
    throw new L1Error(
      'L1_TX_REJECTED',
      `propose rejected before sending: WrongBlobCount(count: ${count}, max: ${BLOBS_PER_CHECKPOINT_MAX})`,
    );
  }
  const wrongSize = request.blobs.findIndex((blob) => blob.length !== BLOB_SIZE_BYTES);
  if (wrongSize !== -1) {
    throw new L1Error(
      'L1_TX_REJECTED',
      `blob ${wrongSize} is ${request.blobs[wrongSize]!.length} bytes, not ${BLOB_SIZE_BYTES}`,
    );
  }
  const kzg = getKzg();
  const blobs = request.blobs.map((blob) => bytesToHex(blob));
  const commitments = blobsToCommitments({ blobs, kzg });
  const proofs = blobsToProofs({ blobs, commitments, kzg });
  const versionedHashes = commitmentsToVersionedHashes({ commitments });
  const data = encodeProposeCall({ ...request, blobHashes: versionedHashes });
  return { data, versionedHashes, sidecars: toBlobSidecars({ blobs, commitments, proofs }) };
}

/** The arguments of Rollup.propose. */
export interface ProposeCallArguments {
  readonly checkpointNumber: number;
  readonly archive: Hex;
  readonly lastArchive: Hex;
  readonly slotNumber: number;
  readonly header: Hex;
  /** The versioned hashes the contract checks the transaction's blobs against. */
  readonly blobHashes: readonly Hex[];
  /** Encoded attestation list (spec/validators/checkpointAttestations.ts). */
  readonly attestations: Hex;
}

export function encodeProposeCall(args: ProposeCallArguments): Hex {
  return encodeFunctionData({
    abi: rollupAbi,
    functionName: 'propose',
    args: [
      BigInt(args.checkpointNumber),
      args.archive,
      args.lastArchive,
      BigInt(args.slotNumber),
      args.header,
      args.blobHashes,
      args.attestations,
    ],
  });
}

/**
 * Simulates `propose` on the pending block as sent by `from` in a transaction carrying blobs with
 * `txBlobVersionedHashes` (which may differ from `call.blobHashes`). Throws L1Error('L1_TX_REJECTED') naming the
 * contract error when the contract would revert.
 */
export async function simulatePropose(params: {
  readonly l1RpcUrl: string;
  readonly rollupAddress: Hex;
  readonly from: Hex;
  readonly call: ProposeCallArguments;
  readonly txBlobVersionedHashes: readonly Hex[];
}): Promise<void> {
  const client = createL1PublicClient(params.l1RpcUrl);
  const data = encodeProposeCall(params.call);
  await callL1(params.l1RpcUrl, 'simulate propose', () =>
    simulate(client, params.from, params.rollupAddress, data, params.txBlobVersionedHashes),
  );
}

/** eth_call on the pending block with the blob hashes (viem's `call` drops them, so the request is sent raw). */
async function simulate(client: PublicClient, from: Hex, to: Hex, data: Hex, blobVersionedHashes: readonly Hex[]) {
  try {
    await rawRequest(client, 'eth_call', [{ from, to, data, blobVersionedHashes }, 'pending']);
  } catch (error) {
    throw rejection(error, 'propose');
  }
}

/** A revert (or other refusal) of a call as L1Error('L1_TX_REJECTED') naming the contract error; transport failures pass. */
function rejection(error: unknown, what: string): unknown {
  if (isTransportFailure(error)) return error;
  const reason = describeRevert(rollupAbi, error);
  if (reason !== undefined)
    return new L1Error('L1_TX_REJECTED', `${what} rejected by the rollup contract: ${reason}`, { cause: error });
  if (isRevert(error)) return new L1Error('L1_TX_REJECTED', `${what} reverted: ${detailsOf(error)}`, { cause: error });
  return error;
}

/** Signs the blob transaction of a proposal at the planned nonce, gas and fees. */
function signProposal(account: PrivateKeyAccount, to: Hex, prepared: PreparedProposal, tx: TxParameters): Promise<Hex> {
  assert(tx.fees.maxFeePerBlobGas !== undefined, 'a blob transaction offers maxFeePerBlobGas');
  return account.signTransaction({
    type: 'eip4844',
    chainId: tx.chainId,
    nonce: tx.nonce,
    to,
    data: prepared.data,
    gas: tx.gas,
    maxPriorityFeePerGas: tx.fees.maxPriorityFeePerGas,
    maxFeePerGas: tx.fees.maxFeePerGas,
    maxFeePerBlobGas: tx.fees.maxFeePerBlobGas,
    blobVersionedHashes: prepared.versionedHashes,
    sidecars: prepared.sidecars,
  });
}

async function readTxStatus(client: PublicClient, hash: Hex): Promise<L1TxStatus> {
  const included = await readReceipt(client, hash);
  if (included !== undefined) return included;
  let blockNumber: bigint | null;
  try {
    blockNumber = (await client.getTransaction({ hash })).blockNumber;
  } catch (error) {
    if (error instanceof TransactionNotFoundError) return { status: 'unknown' };
    throw error;
  }
  if (blockNumber === null) return { status: 'pending' };
  // Mined between the two reads: its receipt is there now.
  return (await readReceipt(client, hash)) ?? { status: 'pending' };
}

async function readReceipt(client: PublicClient, hash: Hex): Promise<L1TxStatus | undefined> {
  try {
    const receipt = await client.getTransactionReceipt({ hash });
    return {
      status: 'included',
      success: receipt.status === 'success',
      blockNumber: receipt.blockNumber,
      blockHash: receipt.blockHash,
    };
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return undefined;
    throw error;
  }
}
