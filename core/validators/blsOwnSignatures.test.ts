/**
 * A signature this process made is known valid for its key and message (BLS correctness), so checking it costs no
 * pairing; anything else (another signer's signature, the same signature over another message or key) still does.
 */
import * as blst from '@chainsafe/blst';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { checkpointProposalPayloadHash, signingMessage } from '../../spec/validators/signingPayloads.js';
import { testPayload, testSecretKey } from '../../test/validators/validatorFixtures.js';
import { verifySignature } from './bls.js';

const counted = vi.hoisted(() => ({ pairingChecks: 0 }));

vi.mock('@chainsafe/blst', async (importOriginal) => {
  const original = await importOriginal<typeof blst>();
  const verify: typeof original.verify = (...args) => {
    counted.pairingChecks++;
    return original.verify(...args);
  };
  return { ...original, verify };
});

describe('signatures made here', () => {
  beforeEach(() => {
    counted.pairingChecks = 0;
  });

  it('verify without a pairing check; a signature from elsewhere is checked once, then remembered', () => {
    const key = testSecretKey(21);
    const message = signingMessage('attester', checkpointProposalPayloadHash(testPayload(31)));
    const own = key.sign(message);
    expect(verifySignature(message, key.publicKey, own)).toBe(true);
    expect(counted.pairingChecks).toBe(0);

    // Signed outside BlsSecretKey.sign: nothing here vouches for it.
    const foreign = blst.SecretKey.fromKeygen(new Uint8Array(32).fill(7));
    const foreignSignature = bytesToHex(foreign.sign(message).toBytes(true));
    const foreignKey = bytesToHex(foreign.toPublicKey().toBytes(true));
    expect(verifySignature(message, foreignKey, foreignSignature)).toBe(true);
    expect(verifySignature(message, foreignKey, foreignSignature)).toBe(true);
    expect(counted.pairingChecks).toBe(1);
  });

  it('do not vouch for another message or another key', () => {
    const key = testSecretKey(22);
    const message = signingMessage('attester', checkpointProposalPayloadHash(testPayload(32)));
    const otherMessage = signingMessage('proposer', checkpointProposalPayloadHash(testPayload(32)));
    const own = key.sign(message);
    expect(verifySignature(otherMessage, key.publicKey, own)).toBe(false);
    expect(verifySignature(message, testSecretKey(23).publicKey, own)).toBe(false);
    expect(counted.pairingChecks).toBe(2);
  });
});
