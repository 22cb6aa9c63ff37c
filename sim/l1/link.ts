/**
 * One node's RPC connection to the simulated L1: the reader and publisher ports over the L1's state, with the link's
 * own faults (failure rate, staleness, latency, targeted failures) drawn from its own PRNG stream.
 */
import { assert } from '../../core/assert.js';
import { L1TxTracker } from '../../core/l1/l1TxSender.js';
import type {
  BlobCandidate,
  BlobRequest,
  BlobSourcePort,
  L1PublisherPort,
  L1ReaderPort,
  LoggerPort,
} from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type { Hex } from '../../spec/chain.js';
import { isHex } from '../../spec/codec/bytes.js';
import type { Prng } from '../prng.js';
import type { Scheduler } from '../scheduler.js';
import type { SimL1 } from '../simL1.js';
import { simVersionedHash } from './blobs.js';
import { checkedCount, checkedProbability } from './checks.js';
import { SIM_INBOX_ADDRESS, SIM_OUTBOX_ADDRESS } from './contract.js';

/** Owner name of the L1's events on the scheduler. */
export const SIM_L1_OWNER = 'l1';

/** One node's RPC connection to the simulated L1. */
export interface SimL1Link {
  readonly name: string;
  readonly reader: L1ReaderPort;
  /**
   * The consensus client beside this link's L1 node, as a blob source: a proposal's blobs once they are served
   * (sim/l1/blobs.ts), none while this link's node has lost them (`setBlobsLost`). Calls share the link's faults.
   */
  readonly blobSource: BlobSourcePort;
  /** While true, this link's consensus client answers every blob request without blobs (pruned or lost them). */
  setBlobsLost(lost: boolean): void;
  /**
   * A publisher account sending through this link. Its nonces live on the chain, so a restarted node's publisher
   * reads them back; it prices and replaces its transactions through core/l1/l1TxSender.ts (logging to `logger`).
   */
  createPublisher(address: Hex, logger?: LoggerPort): L1PublisherPort;
  /** Each call fails with L1_UNREACHABLE with this probability. */
  setRpcFailureRate(probability: number): void;
  /** The link's node lags the chain head by `lagBlocks` blocks. */
  setStale(lagBlocks: number): void;
  /** Every call is answered `latencyMs` of simulated time after it is made. */
  setLatencyMs(latencyMs: number): void;
  /**
   * A targeted fault for tests: each reader call the predicate picks (by method name and arguments) fails with
   * L1_UNREACHABLE; `undefined` removes it. It draws nothing from the link's PRNG, so the rest of a run is unchanged.
   */
  failCallsWhere(predicate: SimL1CallPredicate | undefined): void;
}

/** Picks reader calls by method name and arguments (SimL1Link.failCallsWhere). */
export type SimL1CallPredicate = (method: string, args: readonly unknown[]) => boolean;

export function createLink(l1: SimL1, name: string, prng: Prng, scheduler: Scheduler): SimL1Link {
  let failureRate = 0;
  let staleBlocks = 0;
  let latencyMs = 0;
  let targeted: SimL1CallPredicate | undefined;
  let blobsLost = false;

  /** One RPC call: the failure draw happens when the call is made, the answer is computed when it is delivered. */
  const call = async <T>(
    method: string,
    answer: (visibleHead: bigint) => T,
    args: readonly unknown[] = [],
  ): Promise<T> => {
    const fails = (failureRate > 0 && prng.bool(failureRate)) || targeted?.(method, args) === true;
    if (latencyMs > 0) await scheduler.sleep(latencyMs, { owner: `${SIM_L1_OWNER}/${name}`, label: method });
    if (fails) throw new L1Error('L1_UNREACHABLE', `simulated RPC failure of ${method} on link ${name}`);
    return answer(l1.visibleHeadNumber(staleBlocks));
  };

  const reader: L1ReaderPort = {
    getChainId: () => call('getChainId', () => l1.constants.l1ChainId),
    getBlock: (tag) => call('getBlock', (head) => l1.resolveTag(tag, head), [tag]),
    getRollupConstants: () => call('getRollupConstants', () => l1.constants),
    getCheckpointCount: (atBlock) =>
      call('getCheckpointCount', (head) => l1.checkpointCountAt(atBlock, head), [atBlock]),
    getArchiveAt: (checkpointNumber, atBlock) =>
      call('getArchiveAt', (head) => l1.archiveAt(checkpointNumber, atBlock, head), [checkpointNumber, atBlock]),
    getCheckpointProposedLogs: (fromBlock, toBlock) =>
      call('getCheckpointProposedLogs', (head) => l1.logsIn('checkpointProposed', fromBlock, toBlock, head), [
        fromBlock,
        toBlock,
      ]),
    getProvenCheckpoint: (atBlock) => call('getProvenCheckpoint', (head) => l1.provenAt(atBlock, head), [atBlock]),
    getEpochProvenLogs: (fromBlock, toBlock) =>
      call('getEpochProvenLogs', (head) => l1.logsIn('epochProven', fromBlock, toBlock, head), [fromBlock, toBlock]),
    getChainPrunedLogs: (fromBlock, toBlock) =>
      call('getChainPrunedLogs', (head) => l1.logsIn('chainPruned', fromBlock, toBlock, head), [fromBlock, toBlock]),
    getValidators: (atBlock) => call('getValidators', (head) => l1.validatorsAt(atBlock, head), [atBlock]),
    getInboxMessageLogs: (fromBlock, toBlock) =>
      call('getInboxMessageLogs', (head) => l1.logsIn('messageSent', fromBlock, toBlock, head)),
    getOutboxRoot: (epoch, checkpointsNeeded, atBlock) =>
      call('getOutboxRoot', (head) => l1.outboxRootAt(epoch, checkpointsNeeded, atBlock, head)),
    getMessageBoxAddresses: () =>
      call('getMessageBoxAddresses', () => ({ inboxAddress: SIM_INBOX_ADDRESS, outboxAddress: SIM_OUTBOX_ADDRESS })),
  };

  const blobSource = consensusBlobSource(l1, name, call, () => blobsLost);

  return {
    name,
    reader,
    blobSource,
    setBlobsLost: (lost) => {
      blobsLost = lost;
    },
    createPublisher(address: Hex, logger?: LoggerPort): L1PublisherPort {
      assert(isHex(address) && address.length === 42, `publisher address ${address} must be 20 bytes of hex`);
      const publisherAddress = address.toLowerCase() as Hex;
      const tracker = new L1TxTracker(logger);
      const reads = {
        readNonces: () => call('getTransactionCount', (head) => l1.accountNonces(publisherAddress, head)),
        readFeeMarket: () => call('getFeeMarket', () => l1.feeMarket()),
      };
      return {
        publisherAddress,
        // Computed locally by the sender (in production, by its KZG library): no RPC, no failure.
        blobVersionedHashes: async (blobs) => blobs.map(simVersionedHash),
        proposeCheckpoint: (request) =>
          tracker.send({
            kind: 'blob',
            what: 'propose',
            ...reads,
            send: (nonce, fees) => call('proposeCheckpoint', () => l1.submit(publisherAddress, request, nonce, fees)),
          }),
        getTxStatus: (txHash) => call('getTxStatus', (head) => l1.txStatus(txHash, head)),
        submitEpochProof: (request) =>
          tracker.send({
            kind: 'plain',
            what: 'submitEpochProof',
            ...reads,
            send: (nonce, fees) =>
              call('submitEpochProof', () => l1.submitEpochProof(publisherAddress, request, nonce, fees)),
          }),
      };
    },
    setRpcFailureRate(probability: number): void {
      failureRate = checkedProbability(probability, 'RPC failure rate');
    },
    setStale(lagBlocks: number): void {
      staleBlocks = checkedCount(lagBlocks, 'stale lag');
    },
    setLatencyMs(ms: number): void {
      latencyMs = checkedCount(ms, 'latency');
    },
    failCallsWhere(predicate: SimL1CallPredicate | undefined): void {
      targeted = predicate;
    },
  };
}

/** The consensus client beside a link's L1 node, as a blob source; `call` carries the link's faults. */
function consensusBlobSource(
  l1: SimL1,
  name: string,
  call: <T>(method: string, answer: () => T, args?: readonly unknown[]) => Promise<T>,
  lost: () => boolean,
): BlobSourcePort {
  const answer = (request: BlobRequest): BlobCandidate[] => {
    if (lost()) return [];
    let blobs: Uint8Array[];
    try {
      blobs = l1.blobsOf(request.l1, request.versionedHashes);
    } catch (error) {
      if (error instanceof L1Error && error.code === 'L1_BLOBS_UNAVAILABLE') return []; // a slot without them
      throw error;
    }
    return blobs.map((blob) => ({ blob }));
  };
  return {
    kind: 'consensus',
    name: `consensus/${name}`,
    getBlobs: (request) => call('getBlobs', () => answer(request), [request]),
    check: () => call('getChainId', () => undefined),
  };
}
