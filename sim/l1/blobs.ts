/**
 * Blobs on the simulated L1: the versioned hashes a proposal's blobs commit to, the checks a blob transaction passes
 * at submission, and serving a checkpoint's blobs (getBlobs), which the fault injector can make fail for every
 * transaction or withhold for one.
 */
import type { CheckpointProposedLog, ProposeCheckpointRequest } from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type { L1TxFees } from '../../core/l1/l1TxFees.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { BLOB_SIZE_BYTES } from '../../spec/constants.js';
import type { L1Chain } from './chain.js';
import type { TxRecord } from './mempool.js';
import { sha256 } from './sha256.js';

/**
 * The simulator's stand-in for an EIP-4844 versioned hash: 0x01 || sha256(blob)[1..32]. A real one hashes the
 * blob's KZG commitment instead of the blob; the simulator has no KZG, and this keeps the version byte and the
 * one-to-one binding of hash to blob.
 */
export function simVersionedHash(blob: Uint8Array): Hex {
  const digest = sha256(blob);
  digest[0] = 0x01;
  return bytesToHex(digest);
}

/** What an L1 node refuses outright in a blob transaction (L1_TX_REJECTED): a blob of the wrong size, no blob fee cap. */
export function checkBlobTransaction(request: ProposeCheckpointRequest, fees: L1TxFees): void {
  for (const blob of request.blobs) {
    if (blob.length !== BLOB_SIZE_BYTES)
      throw new L1Error('L1_TX_REJECTED', `a blob must be ${BLOB_SIZE_BYTES} bytes, got ${blob.length}`);
  }
  if (fees.maxFeePerBlobGas === undefined)
    throw new L1Error('L1_TX_REJECTED', 'a proposal carries blobs, so it must offer maxFeePerBlobGas');
}

/** Which blobs the L1's blob store serves. */
export class BlobStore {
  private readonly withheldBlobTxs = new Set<Hex>();
  private blobsAvailable = true;

  /** When false, every getBlobs fails with L1_BLOBS_UNAVAILABLE. */
  setBlobsAvailable(available: boolean): void {
    this.blobsAvailable = available;
  }

  /** The blobs of this transaction are never served. */
  withholdBlobs(txHash: Hex): void {
    this.withheldBlobTxs.add(txHash);
  }

  /** The blobs of a proposal `tx` that the log names, if it succeeded on the current chain and its blobs are served. */
  blobsOf(log: CheckpointProposedLog, tx: TxRecord | undefined, chain: L1Chain): Uint8Array[] {
    const canonical =
      tx?.state === 'included' &&
      tx.call.kind === 'propose' &&
      tx.inclusion!.failure === undefined &&
      tx.inclusion!.blockHash === log.l1.blockHash &&
      chain.block(tx.inclusion!.blockNumber)?.ref.hash === log.l1.blockHash;
    if (!canonical || tx.call.kind !== 'propose' || !this.blobsAvailable || this.withheldBlobTxs.has(log.l1.txHash)) {
      throw new L1Error('L1_BLOBS_UNAVAILABLE', `blobs of L1 tx ${log.l1.txHash} are not available`);
    }
    return tx.call.request.blobs.map((blob) => blob.slice());
  }
}
