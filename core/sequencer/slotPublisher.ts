/**
 * Which L1 account sends a slot's checkpoint. A node holds one publisher per publisher key it started with, each with
 * its own nonces and fees (core/l1/l1TxSender.ts). The slot's proposer, when the node's keystore holds it, names its
 * publisher there (or falls back to its attester address); the checkpoint goes out from that account and from no
 * other. When the keystore names an account the node holds no key for (a fallback attester address, listed as
 * `publishersWithoutSigner` by the keystore's load and reload), the slot cannot be published: the sequencer skips it
 * rather than send the proposer's checkpoint from another account. A node proposing without a keystore proposer (no
 * validators, or an epoch without a committee) publishes from its sequencer's own account.
 */
import type { Hex } from '../../spec/chain.js';

export type SlotPublisherChoice =
  { readonly kind: 'publisher'; readonly address: Hex } | { readonly kind: 'noSigner'; readonly publisher: Hex };

/**
 * The publisher of a slot: the proposer's when the node holds its key, `noSigner` when it does not, and
 * `defaultPublisher` (the sequencer's own account) when there is no keystore proposer.
 */
export function slotPublisher(
  proposer: { readonly publisher: Hex } | undefined,
  defaultPublisher: Hex,
  signers: ReadonlySet<Hex>,
): SlotPublisherChoice {
  if (proposer === undefined) return { kind: 'publisher', address: defaultPublisher.toLowerCase() as Hex };
  const address = proposer.publisher.toLowerCase() as Hex;
  return signers.has(address) ? { kind: 'publisher', address } : { kind: 'noSigner', publisher: address };
}
