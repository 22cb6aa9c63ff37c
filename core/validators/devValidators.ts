/**
 * Validators for development networks and the simulator, derived from a label: the local network registers them with
 * the rollup contract at deployment and runs them from a keystore file; the simulator does the same with a label
 * drawn from its seed. Keys derived this way are public knowledge: never for a real network.
 */
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { hashToFieldBytes } from '../../spec/hash.js';
import { KEYSTORE_SCHEMA_VERSION, KEYSTORE_VALIDATORS_MAX } from '../../spec/validators/constants.js';
import type { KeystoreFileValue } from '../../spec/validators/keystoreFile.js';
import { assert } from '../assert.js';
import type { L1Validator } from '../ports.js';
import { BlsSecretKey, signProofOfPossession } from './bls.js';

export interface DevValidator {
  readonly address: Hex;
  readonly secretKey: BlsSecretKey;
  /** What the deployer registers on L1 (Rollup.addValidator). */
  readonly registration: Omit<L1Validator, 'activeFromEpoch'>;
}

const material = (label: string, index: number, purpose: string): Uint8Array =>
  hashToFieldBytes(new TextEncoder().encode(`svc-dev-validator/${label}/${index}/${purpose}`));

/** `count` validators derived from `label`, in registration order. */
export function devValidators(label: string, count: number): DevValidator[] {
  assert(
    Number.isSafeInteger(count) && count >= 0 && count <= KEYSTORE_VALIDATORS_MAX,
    `a development network has 0 to ${KEYSTORE_VALIDATORS_MAX} validators`,
  );
  return Array.from({ length: count }, (_, index) => {
    const address = bytesToHex(material(label, index, 'address').slice(12));
    const secretKey = BlsSecretKey.fromSeed(material(label, index, 'bls'));
    return {
      address,
      secretKey,
      registration: {
        address,
        blsPublicKey: secretKey.publicKey,
        proofOfPossession: signProofOfPossession(secretKey, address),
      },
    };
  });
}

/**
 * A keystore file running `validators`, all with one fee recipient and publisher (none: the attester's), and one
 * coinbase (none: each validator's own address).
 */
export function devKeystoreFile(
  validators: readonly DevValidator[],
  settings: { readonly coinbase?: Hex; readonly feeRecipient: Hex; readonly publisher?: Hex },
): Uint8Array {
  const file: KeystoreFileValue = {
    schemaVersion: KEYSTORE_SCHEMA_VERSION,
    validators: validators.map((v) => ({
      attester: { address: v.address, blsSecretKey: bytesToHex(v.secretKey.exportBytes()) },
      coinbase: settings.coinbase ?? v.address,
      feeRecipient: settings.feeRecipient,
      ...(settings.publisher !== undefined ? { publisher: settings.publisher } : {}),
    })),
  };
  return new TextEncoder().encode(JSON.stringify(file, null, 2));
}
