/**
 * BLS12-381 keys and signatures for validators, on @chainsafe/blst in its min-pk layout: 48-byte public keys (G1),
 * 96-byte signatures (G2), which is what the library hard-wires and what Ethereum's consensus layer uses; signatures
 * are the larger half, and a committee's public keys (48 of them, stored on L1) are the part kept small.
 *
 * What is signed is fixed in spec/validators/signingPayloads.ts: a payload hash wrapped with the signer's role.
 * Aggregate verification (`verifyAggregateSignature`) relies on every registered key having a proof of possession
 * (checked at registration, `verifyProofOfPossession`); without it a rogue key could forge an aggregate.
 *
 * Verification never throws on untrusted input: a malformed key or signature verifies as false.
 *
 * Verdicts are memoised (`SignatureVerdicts`): a check is a pure function of the message, the key and the signature
 * bytes, and a node meets the same triple more than once (an attestation heard over gossip is checked again when the
 * checkpoint carrying it is synced from L1; the validator set's keys are parsed on every check). The memo changes no
 * answer, only how often the pairing runs; it is bounded, the least recently used verdicts going first. In the simulator, whose nodes
 * share one process, it also spares each node the checks another already made.
 */
import { PublicKey, SecretKey, Signature, aggregateSignatures, fastAggregateVerify, verify } from '@chainsafe/blst';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex, hexToBytes, isHex } from '../../spec/codec/bytes.js';
import { CodedError, type NoDetails } from '../../spec/errors.js';
import { BLS_PUBLIC_KEY_BYTES, BLS_SECRET_KEY_BYTES, BLS_SIGNATURE_BYTES } from '../../spec/validators/constants.js';
import {
  blockProposalPayloadHash,
  checkpointProposalPayloadHash,
  proofOfPossessionMessage,
  signingMessage,
  type BlockProposalPayload,
  type CheckpointProposalPayload,
  type SigningRole,
} from '../../spec/validators/signingPayloads.js';
import { assert } from '../assert.js';
import { RecentlyUsedCache } from '../recentlyUsedCache.js';

export type BlsErrorCode = 'BLS_SECRET_KEY_INVALID';

/** A secret key that cannot be used (wrong size, zero, or not below the group order). */
export class BlsError extends CodedError<BlsErrorCode, NoDetails> {
  constructor(code: BlsErrorCode, message: string) {
    super(code, message, {});
    this.name = 'BlsError';
  }
}

const REDACTED = '<redacted BLS secret key>';

/** A secret key. It never prints or serialises its bytes (logs, JSON, the admin config view). */
export class BlsSecretKey {
  readonly #key: SecretKey;
  /** Compressed public key, lowercase hex. */
  readonly publicKey: Hex;

  private constructor(key: SecretKey) {
    this.#key = key;
    this.publicKey = bytesToHex(key.toPublicKey().toBytes(true));
  }

  /** 32 big-endian bytes; BlsError('BLS_SECRET_KEY_INVALID') when they are not a usable key. */
  static fromBytes(bytes: Uint8Array): BlsSecretKey {
    if (bytes.length !== BLS_SECRET_KEY_BYTES) {
      throw new BlsError(
        'BLS_SECRET_KEY_INVALID',
        `a BLS secret key is ${BLS_SECRET_KEY_BYTES} bytes, got ${bytes.length}`,
      );
    }
    try {
      return new BlsSecretKey(SecretKey.fromBytes(bytes));
    } catch {
      throw new BlsError('BLS_SECRET_KEY_INVALID', 'the BLS secret key is zero or not below the group order');
    }
  }

  /** Derives a key from at least 32 bytes of input keying material (IETF KeyGen): test keys and key generation. */
  static fromSeed(inputKeyingMaterial: Uint8Array): BlsSecretKey {
    assert(
      inputKeyingMaterial.length >= BLS_SECRET_KEY_BYTES,
      'key generation needs at least 32 bytes of keying material',
    );
    return new BlsSecretKey(SecretKey.fromKeygen(inputKeyingMaterial));
  }

  /** Signs 32 message bytes (a signing message of spec/validators/signingPayloads.ts). */
  sign(message: Uint8Array): Hex {
    const signature = bytesToHex(this.#key.sign(message).toBytes(true));
    // A signature made here is valid for this key and message (BLS correctness): no pairing check needed to know it.
    verdicts.set(verdictKey(message, this.publicKey, signature), true);
    return signature;
  }

  /** The key's bytes, for the keystore adapter writing a file; never for logs. */
  exportBytes(): Uint8Array {
    return this.#key.toBytes();
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }
}

/** Verdicts of signature checks kept (about 0.4 KiB each), and parsed signatures: a few slots' worth of every committee's signatures. */
export const BLS_VERDICTS_KEPT = 8_192;
/** Parsed public keys kept: more than any validator set this node follows. */
export const BLS_PARSED_KEYS_KEPT = 4_096;

const parsedKeys = new RecentlyUsedCache<string, PublicKey | undefined>(BLS_PARSED_KEYS_KEPT);
const verdicts = new RecentlyUsedCache<string, boolean>(BLS_VERDICTS_KEPT);
const parsedSignatures = new RecentlyUsedCache<string, Signature | undefined>(BLS_VERDICTS_KEPT);

/** A public key, checked (on the curve, in the subgroup, not infinity); undefined when it is none. */
export function parseBlsPublicKey(publicKey: Hex): PublicKey | undefined {
  if (!isHex(publicKey) || publicKey.length !== 2 + 2 * BLS_PUBLIC_KEY_BYTES) return undefined;
  return parsedKeys.getOrCompute(publicKey.toLowerCase(), () => {
    try {
      return PublicKey.fromBytes(hexToBytes(publicKey), true);
    } catch {
      return undefined;
    }
  });
}

function verdictKey(message: Uint8Array, publicKey: Hex, signature: Hex): string {
  return `${bytesToHex(message)}:${publicKey.toLowerCase()}:${signature.toLowerCase()}`;
}

/** Whether `signature` is `publicKey`'s (parsed: `key`) signature of `message`, memoised by the three's bytes. */
function verifiedOnce(message: Uint8Array, publicKey: Hex, key: PublicKey, signature: Hex): boolean {
  return verdicts.getOrCompute(verdictKey(message, publicKey, signature), () => {
    const sig = parseBlsSignature(signature);
    return sig !== undefined && verify(message, key, sig);
  });
}

/** A signature, checked (in the subgroup, not infinity); undefined when it is none. */
export function parseBlsSignature(signature: Hex): Signature | undefined {
  if (!isHex(signature) || signature.length !== 2 + 2 * BLS_SIGNATURE_BYTES) return undefined;
  return parsedSignatures.getOrCompute(signature.toLowerCase(), () => {
    try {
      return Signature.fromBytes(hexToBytes(signature), true);
    } catch {
      return undefined;
    }
  });
}

export function isValidBlsPublicKey(publicKey: Hex): boolean {
  return parseBlsPublicKey(publicKey) !== undefined;
}

/** Whether `signature` is `publicKey`'s signature of `message`; false for any malformed input. */
export function verifySignature(message: Uint8Array, publicKey: Hex, signature: Hex): boolean {
  const key = parseBlsPublicKey(publicKey);
  if (key === undefined || !isHex(signature) || signature.length !== 2 + 2 * BLS_SIGNATURE_BYTES) return false;
  return verifiedOnce(message, publicKey, key, signature);
}

/** A signed payload: its hash (the wire's payloadHash) and the signature of the role's message over it. */
export interface PayloadSignature {
  readonly payloadHash: Hex;
  readonly signature: Hex;
}

function signPayloadHash(secretKey: BlsSecretKey, role: SigningRole, payloadHash: Hex): PayloadSignature {
  return { payloadHash, signature: secretKey.sign(signingMessage(role, payloadHash)) };
}

/** The proposer's signature of a checkpoint proposal. */
export function signCheckpointProposal(secretKey: BlsSecretKey, payload: CheckpointProposalPayload): PayloadSignature {
  return signPayloadHash(secretKey, 'proposer', checkpointProposalPayloadHash(payload));
}

/** A committee member's attestation of a checkpoint proposal. */
export function signCheckpointAttestation(
  secretKey: BlsSecretKey,
  payload: CheckpointProposalPayload,
): PayloadSignature {
  return signPayloadHash(secretKey, 'attester', checkpointProposalPayloadHash(payload));
}

/** The proposer's signature of one block of the checkpoint it builds. */
export function signBlockProposal(secretKey: BlsSecretKey, payload: BlockProposalPayload): PayloadSignature {
  return signPayloadHash(secretKey, 'proposer', blockProposalPayloadHash(payload));
}

/** Whether `signature` is `publicKey`'s signature of `payloadHash` in `role`. */
export function verifyPayloadSignature(role: SigningRole, payloadHash: Hex, publicKey: Hex, signature: Hex): boolean {
  return verifySignature(signingMessage(role, payloadHash), publicKey, signature);
}

/** The proof of possession a validator submits with its registration on L1. */
export function signProofOfPossession(secretKey: BlsSecretKey, validatorAddress: Hex): Hex {
  return secretKey.sign(proofOfPossessionMessage(validatorAddress, secretKey.publicKey));
}

export function verifyProofOfPossession(validatorAddress: Hex, publicKey: Hex, signature: Hex): boolean {
  if (!isValidBlsPublicKey(publicKey)) return false;
  return verifySignature(proofOfPossessionMessage(validatorAddress, publicKey), publicKey, signature);
}

/** Why a list of one message's signatures did not verify, and at which entry. */
export type SignatureListProblem = 'invalidPublicKey' | 'malformedSignature' | 'verificationFailed';

export type SignatureListCheck =
  { readonly valid: true } | { readonly valid: false; readonly index: number; readonly problem: SignatureListProblem };

/**
 * Checks that every `signatures[i]` is `publicKeys[i]`'s signature of one message, entry by entry, and names the
 * first bad one. Entry by entry (about 0.7 ms each here) rather than one aggregate pairing: an aggregate check would
 * also pass two signatures swapped between entries, or two invalid ones whose errors cancel, so a list that passes
 * it may still attribute signatures wrongly. An empty list is valid.
 */
export function verifySameMessageSignatures(
  message: Uint8Array,
  publicKeys: readonly Hex[],
  signatures: readonly Hex[],
): SignatureListCheck {
  assert(publicKeys.length === signatures.length, 'one signature per public key');
  for (let index = 0; index < publicKeys.length; index++) {
    const key = parseBlsPublicKey(publicKeys[index]!);
    if (key === undefined) return { valid: false, index, problem: 'invalidPublicKey' };
    const sig = parseBlsSignature(signatures[index]!);
    if (sig === undefined) return { valid: false, index, problem: 'malformedSignature' };
    if (!verifiedOnce(message, publicKeys[index]!, key, signatures[index]!))
      return { valid: false, index, problem: 'verificationFailed' };
  }
  return { valid: true };
}

/** The aggregate (sum) of signatures, or undefined when one is malformed. */
export function aggregateBlsSignatures(signatures: readonly Hex[]): Hex | undefined {
  assert(signatures.length > 0, 'an aggregate has at least one signature');
  const parsed = signatures.map(parseBlsSignature);
  if (parsed.some((sig) => sig === undefined)) return undefined;
  return bytesToHex(aggregateSignatures(parsed as Signature[], false).toBytes(true));
}

/**
 * Whether `aggregate` is the aggregate of all `publicKeys`' signatures of one message: one pairing check whatever
 * the count. Sound only for keys with a proof of possession (a rogue key could otherwise cancel honest ones); for
 * an aggregate published in place of individual signatures.
 */
export function verifyAggregateSignature(message: Uint8Array, publicKeys: readonly Hex[], aggregate: Hex): boolean {
  if (publicKeys.length === 0) return false;
  const keys = publicKeys.map(parseBlsPublicKey);
  const sig = parseBlsSignature(aggregate);
  if (sig === undefined || keys.some((key) => key === undefined)) return false;
  return fastAggregateVerify(message, keys as PublicKey[], sig, false);
}
