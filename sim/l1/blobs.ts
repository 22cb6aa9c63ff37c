/**
 * Blobs on the simulated L1: the versioned hashes a proposal's blobs commit to, the checks a blob transaction passes
 * at submission, and serving a checkpoint's blobs as a consensus client would, which the fault injector can make
 * fail for every transaction, withhold for one, or delay; and what a blob archive keeps.
 */
import type { ProposeCheckpointRequest } from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type { L1TxFees } from '../../core/l1/l1TxFees.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { BLOB_SIZE_BYTES } from '../../spec/constants.js';
import type { L1Chain } from './chain.js';
import type { TxRecord } from './mempool.js';
import { sha256 } from './sha256.js';

/**
 * Versioned hashes of the blob copies the simulated L1 hands out (`copyOfBlob`), by copy. Every simulated node fetches
 * each checkpoint's blobs and checks each one's hash as it arrives; a fresh copy of bytes the L1 hashed at submission
 * has the hash recorded then, so the check finds it here instead of hashing 128 KiB again. Only the L1's own copies
 * are registered: bytes from anywhere else (the shared file store, which keeps what nodes upload, and its corrupting
 * fault) are hashed afresh. Weak, so an entry goes with its copy; the hashes are those sha256 gives, so traces do not
 * change.
 */
const handedOutHashes = new WeakMap<Uint8Array, Hex>();

/** A fresh copy of `blob`, whose versioned hash `versionedHash` is then known without hashing it again. */
export function copyOfBlob(blob: Uint8Array, versionedHash: Hex): Uint8Array {
  const copy = blob.slice();
  handedOutHashes.set(copy, versionedHash);
  return copy;
}

/**
 * The simulator's stand-in for an EIP-4844 versioned hash: 0x01 || sha256(blob)[1..32]. A real one hashes the
 * blob's KZG commitment instead of the blob; the simulator has no KZG, and this keeps the version byte and the
 * one-to-one binding of hash to blob.
 */
export function simVersionedHash(blob: Uint8Array): Hex {
  const known = handedOutHashes.get(blob);
  if (known !== undefined) return known;
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

/** Where on L1 a proposal's blobs landed: what a consensus client finds them by. */
export interface BlobTxRef {
  readonly txHash: Hex;
  readonly blockHash: Hex;
}

/**
 * Which blobs the L1's consensus clients serve: a proposal's blobs once its transaction is in a canonical block,
 * unless blobs are unavailable (`l1.missingBlobs`), withheld for that transaction, or not yet propagated (`delayMs`
 * after the block's time, `blobs.delayed`).
 */
export class BlobStore {
  private readonly withheldBlobTxs = new Set<Hex>();
  private blobsAvailable = true;
  private delayMs = 0;

  /** When false, every getBlobs fails with L1_BLOBS_UNAVAILABLE. */
  setBlobsAvailable(available: boolean): void {
    this.blobsAvailable = available;
  }

  /** The blobs of this transaction are never served. */
  withholdBlobs(txHash: Hex): void {
    this.withheldBlobTxs.add(txHash);
  }

  /** Blobs are served only `delayMs` after the time of the block that included them (0: at once). */
  setDelayMs(delayMs: number): void {
    this.delayMs = delayMs;
  }

  /**
   * The blobs of the proposal `tx` at `ref`, if it succeeded on the current chain and its blobs are served at
   * `nowMs`; else L1_BLOBS_UNAVAILABLE.
   */
  blobsOf(
    ref: BlobTxRef,
    tx: TxRecord | undefined,
    chain: L1Chain,
    nowMs: number,
    wanted?: readonly Hex[],
  ): Uint8Array[] {
    const block = tx?.inclusion === undefined ? undefined : chain.block(tx.inclusion.blockNumber);
    const canonical =
      tx?.state === 'included' &&
      tx.call.kind === 'propose' &&
      tx.inclusion!.failure === undefined &&
      tx.inclusion!.blockHash === ref.blockHash &&
      block?.ref.hash === ref.blockHash;
    const propagated = block !== undefined && Number(block.ref.timestamp) * 1000 + this.delayMs <= nowMs;
    const served = this.blobsAvailable && !this.withheldBlobTxs.has(ref.txHash) && propagated;
    if (!canonical || tx.call.kind !== 'propose' || !served) {
      throw new L1Error('L1_BLOBS_UNAVAILABLE', `blobs of L1 tx ${ref.txHash} are not available`);
    }
    return blobsWanted(tx.call, wanted);
  }

  /** The blobs of `tx` if it was ever a proposal included on some chain (what a blob archive keeps), else none. */
  archivedBlobsOf(tx: TxRecord | undefined, wanted?: readonly Hex[]): Uint8Array[] {
    if (tx?.call.kind !== 'propose' || tx.inclusion === undefined) return [];
    return blobsWanted(tx.call, wanted);
  }
}

/**
 * Copies of a proposal's blobs whose versioned hash (recorded at submission) is `wanted` (all when undefined): a
 * server finds blobs by the hash it stored, without hashing them again.
 */
function blobsWanted(
  call: { readonly request: ProposeCheckpointRequest; readonly versionedHashes: readonly Hex[] },
  wanted: readonly Hex[] | undefined,
): Uint8Array[] {
  return call.request.blobs.flatMap((blob, i) => {
    const versionedHash = call.versionedHashes[i]!;
    return wanted === undefined || wanted.includes(versionedHash) ? [copyOfBlob(blob, versionedHash)] : [];
  });
}
