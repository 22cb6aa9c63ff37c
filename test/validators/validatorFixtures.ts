/**
 * Deterministic validators for the validator tests: keys derived from their number, addresses that spell it, and a
 * duties function over a fixed committee, so that every test draws the same keys without any randomness.
 */
import type { Hex } from '../../spec/chain.js';
import { BlsSecretKey } from '../../core/validators/bls.js';
import {
  drawCommittee,
  slotDuties,
  type EpochCommittee,
  type SlotDuties,
  type Validator,
} from '../../core/validators/committee.js';
import type { CheckpointProposalPayload, SigningChain } from '../../spec/validators/signingPayloads.js';

export const TEST_CHAIN: SigningChain = { l1ChainId: 31337, rollupVersion: 1 };
export const TEST_EPOCH_DURATION_SLOTS = 32;

const keyCache = new Map<number, BlsSecretKey>();

/** The secret key of test validator `n` (n >= 0), derived from 32 bytes spelling n. */
export function testSecretKey(n: number): BlsSecretKey {
  let key = keyCache.get(n);
  if (key === undefined) {
    const seed = new Uint8Array(32).fill(0xa5);
    new DataView(seed.buffer).setUint32(0, n);
    key = BlsSecretKey.fromSeed(seed);
    keyCache.set(n, key);
  }
  return key;
}

/** The L1 address of test validator `n`: 0x00..00 followed by n in hex. */
export function testAddress(n: number): Hex {
  return `0x${(n + 1).toString(16).padStart(40, '0')}`;
}

export function testValidator(n: number): Validator {
  return { address: testAddress(n), blsPublicKey: testSecretKey(n).publicKey };
}

/** Validators 0..count-1, in that order. */
export function testValidatorSet(count: number): Validator[] {
  return Array.from({ length: count }, (_, n) => testValidator(n));
}

/** Secret key of an address made by testAddress. */
export function secretKeyOf(address: Hex): BlsSecretKey {
  return testSecretKey(Number(BigInt(address)) - 1);
}

export const hex32 = (n: number | bigint): Hex => `0x${BigInt(n).toString(16).padStart(64, '0')}`;

/** A checkpoint payload for `slot`; `variant` changes the archive root, so two variants are two payloads. */
export function testPayload(slot: number, variant = 0, chain: SigningChain = TEST_CHAIN): CheckpointProposalPayload {
  return {
    ...chain,
    slot,
    checkpointNumber: slot,
    archiveRoot: hex32(1000 + variant),
    checkpointHeaderHash: hex32(slot),
  };
}

/** One committee for every epoch (the epoch's seed source fixed), and the duties of any slot. */
export function testDuties(
  validators: readonly Validator[],
  seedSource: Hex = hex32(42),
): (slot: number) => SlotDuties {
  const committees = new Map<number, EpochCommittee>();
  return (slot) => {
    const epoch = Math.floor(slot / TEST_EPOCH_DURATION_SLOTS);
    let committee = committees.get(epoch);
    if (committee === undefined) {
      committee = drawCommittee(validators, epoch, seedSource);
      committees.set(epoch, committee);
    }
    return slotDuties(committee, slot, TEST_EPOCH_DURATION_SLOTS);
  };
}
