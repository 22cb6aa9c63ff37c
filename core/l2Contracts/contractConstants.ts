/**
 * The protocol's contract registries and the contract index's fixed widths and bounds.
 *
 * The registry addresses are protocol values (spec/config/allowList.ts, with the authorization registry and the fee
 * asset): small field values fixed at genesis, so no derived address can ever equal one of them.
 */
import type { Hex } from '../../spec/chain.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../spec/config/allowList.js';

/** The registries' addresses (spec/config/allowList.ts, PROTOCOL_CONTRACT_ADDRESSES). */
export const INSTANCE_REGISTRY_ADDRESS: Hex = PROTOCOL_CONTRACT_ADDRESSES.instanceRegistry;
export const CLASS_REGISTRY_ADDRESS: Hex = PROTOCOL_CONTRACT_ADDRESSES.classRegistry;

/** Addresses of the protocol's own contracts. */
export interface ProtocolContractAddresses {
  readonly classRegistry: Hex;
  readonly instanceRegistry: Hex;
  readonly feeAsset: Hex;
}

/** What svc_getProtocolContractAddresses answers. */
export const PROTOCOL_CONTRACTS: ProtocolContractAddresses = Object.freeze({
  classRegistry: CLASS_REGISTRY_ADDRESS,
  instanceRegistry: INSTANCE_REGISTRY_ADDRESS,
  feeAsset: PROTOCOL_CONTRACT_ADDRESSES.feeAsset,
});

/**
 * Decimal digits of a block number in a contract index key (the chain store pads block numbers to the same width).
 * Part of the stored layout: changing it reorders keys already written.
 */
export const CONTRACT_KEY_BLOCK_NUMBER_DIGITS = 12;
/** The largest block number a contract index key can hold. */
export const CONTRACT_KEY_BLOCK_NUMBER_MAX = 10 ** CONTRACT_KEY_BLOCK_NUMBER_DIGITS - 1;

/**
 * Times an instance lookup is read again when a prune removed the entries it was reading between its two reads.
 * Chain writes are serialized and prunes are rare, so a second read almost always sees a settled chain.
 */
export const CONTRACT_READ_ATTEMPTS_MAX = 3;
