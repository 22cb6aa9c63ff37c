import fc from 'fast-check';
import { verify, PublicKey, Signature } from '@chainsafe/blst';
import { describe, expect, it } from 'vitest';
import { bytesToHex, hexToBytes } from '../../spec/codec/bytes.js';
import type { Hex } from '../../spec/chain.js';
import { checkpointProposalPayloadHash, signingMessage } from '../../spec/validators/signingPayloads.js';
import { testAddress, testPayload, testSecretKey } from '../../test/validators/validatorFixtures.js';
import {
  aggregateBlsSignatures,
  BlsError,
  BlsSecretKey,
  isValidBlsPublicKey,
  signCheckpointAttestation,
  signCheckpointProposal,
  signProofOfPossession,
  verifyPayloadSignature,
  verifyProofOfPossession,
  verifyAggregateSignature,
  verifySameMessageSignatures,
  verifySignature,
} from './bls.js';

const payload = testPayload(10);
const payloadHash = checkpointProposalPayloadHash(payload);

describe('keys', () => {
  it('are min-pk: 48-byte public keys, 96-byte signatures', () => {
    const key = testSecretKey(0);
    expect(key.publicKey).toMatch(/^0x[0-9a-f]{96}$/);
    expect(key.sign(new Uint8Array(32))).toMatch(/^0x[0-9a-f]{192}$/);
  });

  it('round-trip through their bytes and sign deterministically', () => {
    const key = testSecretKey(1);
    const again = BlsSecretKey.fromBytes(key.exportBytes());
    expect(again.publicKey).toBe(key.publicKey);
    expect(again.sign(new Uint8Array(32).fill(1))).toBe(key.sign(new Uint8Array(32).fill(1)));
  });

  it('refuse zero, a value above the group order, and a wrong size with a stable code', () => {
    for (const bytes of [new Uint8Array(32), new Uint8Array(32).fill(0xff), new Uint8Array(31)]) {
      expect(() => BlsSecretKey.fromBytes(bytes)).toThrow(BlsError);
      try {
        BlsSecretKey.fromBytes(bytes);
      } catch (error) {
        expect((error as BlsError).code).toBe('BLS_SECRET_KEY_INVALID');
      }
    }
  });

  it('never print or serialise the secret', () => {
    const key = testSecretKey(2);
    const secretHex = Buffer.from(key.exportBytes()).toString('hex');
    expect(JSON.stringify({ key })).not.toContain(secretHex);
    expect(String(key)).not.toContain(secretHex);
    expect(JSON.stringify({ key })).toContain('redacted');
  });

  it('public keys are checked: infinity and garbage are not keys', () => {
    expect(isValidBlsPublicKey(testSecretKey(0).publicKey)).toBe(true);
    expect(isValidBlsPublicKey(`0xc0${'00'.repeat(47)}`)).toBe(false);
    expect(isValidBlsPublicKey(`0x${'12'.repeat(48)}`)).toBe(false);
    expect(isValidBlsPublicKey('0x1234')).toBe(false);
  });
});

describe('payload signatures', () => {
  it('verify for the signer and role they were made for, and for nothing else', () => {
    const key = testSecretKey(3);
    const attestation = signCheckpointAttestation(key, payload);
    expect(attestation.payloadHash).toBe(payloadHash);
    expect(verifyPayloadSignature('attester', payloadHash, key.publicKey, attestation.signature)).toBe(true);
    expect(verifyPayloadSignature('proposer', payloadHash, key.publicKey, attestation.signature)).toBe(false);
    expect(verifyPayloadSignature('attester', payloadHash, testSecretKey(4).publicKey, attestation.signature)).toBe(
      false,
    );
    expect(
      verifyPayloadSignature(
        'attester',
        checkpointProposalPayloadHash(testPayload(11)),
        key.publicKey,
        attestation.signature,
      ),
    ).toBe(false);
    const proposal = signCheckpointProposal(key, payload);
    expect(proposal.signature).not.toBe(attestation.signature);
    expect(verifyPayloadSignature('proposer', payloadHash, key.publicKey, proposal.signature)).toBe(true);
  });

  it('a payload of another rollup does not verify here', () => {
    const key = testSecretKey(3);
    const other = testPayload(10, 0, { l1ChainId: 31337, rollupVersion: 2 });
    const { signature } = signCheckpointAttestation(key, other);
    expect(verifyPayloadSignature('attester', payloadHash, key.publicKey, signature)).toBe(false);
  });

  it('malformed input verifies as false instead of throwing', () => {
    const key = testSecretKey(3);
    const message = signingMessage('attester', payloadHash);
    expect(verifySignature(message, key.publicKey, '0x00')).toBe(false);
    expect(verifySignature(message, key.publicKey, `0x${'00'.repeat(96)}`)).toBe(false);
    expect(verifySignature(message, `0x${'00'.repeat(48)}`, key.sign(message))).toBe(false);
    expect(verifySignature(message, 'nothex' as Hex, key.sign(message))).toBe(false);
  });
});

describe('memoised verdicts', () => {
  /** The library's own check, never memoised. */
  const direct = (message: Uint8Array, publicKey: Hex, signature: Hex) => {
    try {
      return verify(
        message,
        PublicKey.fromBytes(hexToBytes(publicKey), true),
        Signature.fromBytes(hexToBytes(signature), true),
      );
    } catch {
      return false;
    }
  };

  it('answer as the uncached check does, whatever was asked before and in whatever case the hex comes', () => {
    const keys = [3, 4, 5].map(testSecretKey);
    const messages = [10, 11].map((n) => signingMessage('attester', checkpointProposalPayloadHash(testPayload(n))));
    const signatures = keys.flatMap((k) => messages.map((m) => k.sign(m)));
    const ask = fc.record({
      message: fc.integer({ min: 0, max: 1 }),
      key: fc.integer({ min: 0, max: 2 }),
      signature: fc.integer({ min: 0, max: signatures.length - 1 }),
      upper: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(ask, { minLength: 1, maxLength: 12 }), (asks) => {
        for (const a of asks) {
          const signature = signatures[a.signature]!;
          const asked = (a.upper ? `0x${signature.slice(2).toUpperCase()}` : signature) as Hex;
          expect(verifySignature(messages[a.message]!, keys[a.key]!.publicKey, asked)).toBe(
            direct(messages[a.message]!, keys[a.key]!.publicKey, signature),
          );
        }
      }),
      { numRuns: 40 },
    );
  });

  it('a list check and a single check agree on the same triple, in either order', () => {
    const key = testSecretKey(6);
    const message = signingMessage('attester', payloadHash);
    const good = key.sign(message);
    const other = testSecretKey(7).sign(message);
    expect(verifySameMessageSignatures(message, [key.publicKey], [other])).toEqual({
      valid: false,
      index: 0,
      problem: 'verificationFailed',
    });
    expect(verifySignature(message, key.publicKey, other)).toBe(false);
    expect(verifySignature(message, key.publicKey, good)).toBe(true);
    expect(verifySameMessageSignatures(message, [key.publicKey], [good])).toEqual({ valid: true });
  });
});

describe('proof of possession', () => {
  it('binds the key to the address registering it', () => {
    const key = testSecretKey(5);
    const proof = signProofOfPossession(key, testAddress(5));
    expect(verifyProofOfPossession(testAddress(5), key.publicKey, proof)).toBe(true);
    expect(verifyProofOfPossession(testAddress(6), key.publicKey, proof)).toBe(false);
    expect(verifyProofOfPossession(testAddress(5), testSecretKey(6).publicKey, proof)).toBe(false);
  });
});

describe('signature lists of one message', () => {
  const message = signingMessage('attester', payloadHash);
  const keys = [0, 1, 2, 3].map(testSecretKey);
  const publicKeys = keys.map((k) => k.publicKey);
  const signatures = keys.map((k) => k.sign(message));

  it('aggregate: verifies for exactly the keys that signed', () => {
    const aggregate = aggregateBlsSignatures(signatures)!;
    expect(verifyAggregateSignature(message, publicKeys, aggregate)).toBe(true);
    expect(verifyAggregateSignature(message, publicKeys.slice(1), aggregate)).toBe(false);
    expect(verifyAggregateSignature(new Uint8Array(32), publicKeys, aggregate)).toBe(false);
    expect(verifyAggregateSignature(message, [], aggregate)).toBe(false);
    expect(aggregateBlsSignatures([signatures[0]!, '0x00'])).toBeUndefined();
  });

  it('accepts the signatures of all keys, and an empty list', () => {
    expect(verifySameMessageSignatures(message, publicKeys, signatures)).toEqual({ valid: true });
    expect(verifySameMessageSignatures(message, [], [])).toEqual({ valid: true });
  });

  it('names the first bad entry and why', () => {
    // Swapped entries keep the aggregate valid; checked one by one they are caught.
    const swapped = [signatures[0]!, signatures[2]!, signatures[1]!, signatures[3]!];
    expect(verifyAggregateSignature(message, publicKeys, aggregateBlsSignatures(swapped)!)).toBe(true);
    expect(verifySameMessageSignatures(message, publicKeys, swapped)).toEqual({
      valid: false,
      index: 1,
      problem: 'verificationFailed',
    });
    const otherMessage = [...signatures.slice(0, 3), keys[3]!.sign(new Uint8Array(32))];
    expect(verifySameMessageSignatures(message, publicKeys, otherMessage)).toEqual({
      valid: false,
      index: 3,
      problem: 'verificationFailed',
    });
    const malformed = [signatures[0]!, `0x${'00'.repeat(96)}` as Hex, ...signatures.slice(2)];
    expect(verifySameMessageSignatures(message, publicKeys, malformed)).toEqual({
      valid: false,
      index: 1,
      problem: 'malformedSignature',
    });
    const badKey = [...publicKeys.slice(0, 2), `0x${'00'.repeat(48)}` as Hex, publicKeys[3]!];
    expect(verifySameMessageSignatures(message, badKey, signatures)).toEqual({
      valid: false,
      index: 2,
      problem: 'invalidPublicKey',
    });
  });
});

describe('refusals name what is wrong', () => {
  const refusal = (bytes: Uint8Array): BlsError => {
    try {
      BlsSecretKey.fromBytes(bytes);
    } catch (error) {
      return error as BlsError;
    }
    throw new Error('the key was accepted');
  };

  it('a secret key of the wrong size says its size, an unusable one says why', () => {
    const short = refusal(new Uint8Array(31));
    expect(short.name).toBe('BlsError');
    expect(short.message).toMatch(/a BLS secret key is 32 bytes, got 31/);
    expect(refusal(new Uint8Array(32)).message).toMatch(/zero or not below the group order/);
  });

  it('key generation refuses less than 32 bytes of keying material', () => {
    expect(() => BlsSecretKey.fromSeed(new Uint8Array(31))).toThrow(/at least 32 bytes of keying material/);
  });

  it('a signature list with one signature per key is the caller’s duty, checked', () => {
    const key = testSecretKey(0);
    const message = new Uint8Array(32);
    expect(() => verifySameMessageSignatures(message, [key.publicKey, key.publicKey], [key.sign(message)])).toThrow(
      /one signature per public key/,
    );
  });

  it('an aggregate of nothing is refused', () => {
    expect(() => aggregateBlsSignatures([])).toThrow(/an aggregate has at least one signature/);
  });
});

describe('only the compressed encodings are keys and signatures', () => {
  const key = testSecretKey(8);
  const message = signingMessage('attester', payloadHash);
  const uncompressedKey = bytesToHex(PublicKey.fromBytes(hexToBytes(key.publicKey), true).toBytes(false));
  const uncompressedSignature = bytesToHex(Signature.fromBytes(hexToBytes(key.sign(message)), true).toBytes(false));

  it('an uncompressed public key is not a key', () => {
    expect(isValidBlsPublicKey(uncompressedKey)).toBe(false);
    expect(verifySignature(message, uncompressedKey, key.sign(message))).toBe(false);
  });

  it('an uncompressed signature is malformed, and aggregates to nothing', () => {
    expect(verifySameMessageSignatures(message, [key.publicKey], [uncompressedSignature])).toEqual({
      valid: false,
      index: 0,
      problem: 'malformedSignature',
    });
    expect(aggregateBlsSignatures([uncompressedSignature])).toBeUndefined();
  });

  it('the signature at infinity is malformed, not merely unverified', () => {
    const infinity = `0xc0${'00'.repeat(95)}` as Hex;
    expect(verifySameMessageSignatures(message, [key.publicKey], [infinity])).toEqual({
      valid: false,
      index: 0,
      problem: 'malformedSignature',
    });
  });

  it('a signature that is not even a string verifies as false instead of throwing', () => {
    const notAString = Array.from({ length: 2 + 2 * 96 }, () => 'a') as unknown as Hex;
    expect(verifySameMessageSignatures(message, [key.publicKey], [notAString])).toEqual({
      valid: false,
      index: 0,
      problem: 'malformedSignature',
    });
    expect(verifySignature(message, key.publicKey, notAString)).toBe(false);
  });
});

describe('aggregate verification of malformed input', () => {
  const message = signingMessage('attester', payloadHash);
  const keys = [0, 1].map(testSecretKey);
  const aggregate = aggregateBlsSignatures(keys.map((k) => k.sign(message)))!;

  it('is false, without throwing, for a malformed key among valid ones or a malformed aggregate', () => {
    const badKey = `0x${'00'.repeat(48)}` as Hex;
    expect(verifyAggregateSignature(message, [keys[0]!.publicKey, badKey], aggregate)).toBe(false);
    expect(verifyAggregateSignature(message, [badKey], aggregate)).toBe(false);
    expect(
      verifyAggregateSignature(
        message,
        keys.map((k) => k.publicKey),
        '0x00',
      ),
    ).toBe(false);
  });
});
