/**
 * The keystore file (JSON) a validator node reads at startup and on svcAdmin_reloadKeystore:
 *
 * {
 *   "schemaVersion": 1,
 *   "validators": [
 *     {
 *       "attester": { "address": EthAddress, "blsSecretKey": 32-byte hex },
 *       "coinbase": EthAddress,          L1 address credited for the checkpoints it proposes
 *       "feeRecipient": AztecAddress,    L2 address that receives the fees of its blocks
 *       "publisher": EthAddress          optional: the L1 account that sends its checkpoints; the attester's
 *     }                                  address when omitted
 *   ]
 * }
 *
 * `attester.address` is the validator's identity in the L1 validator set; its BLS public key there must be the one
 * `blsSecretKey` gives. A publisher is named by address: its signing key is an L1 publisher signer configured when
 * the node starts (not in this file), which is why a reload may only name publishers the node started with. Unknown
 * keys are refused, so a misspelt field is an error rather than a silent default.
 */
import { z } from 'zod';
import type { Hex } from '../chain.js';
import { aztecAddress, ethAddress } from '../wire/scalars.js';
import { BLS_SECRET_KEY_BYTES, KEYSTORE_SCHEMA_VERSION, KEYSTORE_VALIDATORS_MAX } from './constants.js';

/** A secret key field: its error never repeats the value. */
const blsSecretKeyHex = z
  .string({ error: 'expected a BLS secret key (0x-prefixed hex string)' })
  .regex(new RegExp(`^0x[0-9a-fA-F]{${2 * BLS_SECRET_KEY_BYTES}}$`), {
    error: `expected a BLS secret key of ${BLS_SECRET_KEY_BYTES} bytes as 0x-prefixed hex`,
  })
  .transform((text) => text.toLowerCase() as Hex);

export const keystoreValidatorEntry = z.strictObject({
  attester: z.strictObject({ address: ethAddress, blsSecretKey: blsSecretKeyHex }),
  coinbase: ethAddress,
  feeRecipient: aztecAddress,
  publisher: ethAddress.optional(),
});

export const keystoreFile = z.strictObject({
  schemaVersion: z.literal(KEYSTORE_SCHEMA_VERSION, { error: `expected schemaVersion ${KEYSTORE_SCHEMA_VERSION}` }),
  validators: z
    .array(keystoreValidatorEntry)
    .max(KEYSTORE_VALIDATORS_MAX, { error: `a keystore lists at most ${KEYSTORE_VALIDATORS_MAX} validators` }),
});

export type KeystoreFileValue = z.output<typeof keystoreFile>;
export type KeystoreValidatorEntryValue = z.output<typeof keystoreValidatorEntry>;
