/**
 * The L1 publishers of a production node (adapters/l1/viemL1Publisher.ts), from the keys it starts with.
 */
import type { L1PublisherPort, LoggerPort, MetricsPort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { createViemL1Publisher } from '../l1/viemL1Publisher.js';
import type { NodeStartValues } from './nodeConfig.js';

export interface NodePublishers {
  /** The sequencer's own account (NodePorts.l1Publisher); absent without a sequencer. */
  readonly l1Publisher: L1PublisherPort | undefined;
  /** The further accounts the keystore's validators may name, in the configured order. */
  readonly l1ValidatorPublishers: readonly L1PublisherPort[];
  /** The prover's account when it is not the sequencer's (absent: the prover submits from `l1Publisher`). */
  readonly l1ProofPublisher: L1PublisherPort | undefined;
}

/**
 * One L1 publisher per key the node starts with, each with its own nonces and fees: the sequencer's, the further ones
 * the keystore's validators may name, and the prover's. A prover whose key is one of the others shares that
 * account's publisher (one nonce sequence per account); with a key of its own it gets its own.
 */
export function createNodePublishers(
  start: Pick<
    NodeStartValues,
    'l1RpcUrls' | 'rollupAddress' | 'sequencerPrivateKey' | 'validatorPublisherPrivateKeys' | 'proverPrivateKey'
  >,
  logger: LoggerPort,
  metrics?: MetricsPort,
): NodePublishers {
  const publisherOf = (privateKey: Hex, component: string): L1PublisherPort =>
    createViemL1Publisher({
      l1RpcUrls: start.l1RpcUrls,
      rollupAddress: start.rollupAddress,
      publisherPrivateKey: privateKey,
      logger: logger.child({ component }),
      ...(metrics !== undefined ? { metrics } : {}),
    });
  const l1Publisher = start.sequencerPrivateKey ? publisherOf(start.sequencerPrivateKey, 'l1Publisher') : undefined;
  const furtherKeys = start.validatorPublisherPrivateKeys ?? [];
  const l1ValidatorPublishers = furtherKeys.map((key, i) => publisherOf(key, `l1ValidatorPublisher${i + 1}`));
  const proverKey = start.proverPrivateKey?.toLowerCase() as Hex | undefined;
  // Absent: the prover submits from `l1Publisher` (core/ports.ts).
  let l1ProofPublisher: L1PublisherPort | undefined;
  if (proverKey !== undefined && proverKey !== start.sequencerPrivateKey?.toLowerCase()) {
    const index = furtherKeys.indexOf(proverKey);
    l1ProofPublisher = index >= 0 ? l1ValidatorPublishers[index] : publisherOf(proverKey, 'l1ProofPublisher');
  }
  return { l1Publisher, l1ValidatorPublishers, l1ProofPublisher };
}
