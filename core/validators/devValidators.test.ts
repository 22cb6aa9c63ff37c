import { describe, expect, it } from 'vitest';
import { KEYSTORE_VALIDATORS_MAX } from '../../spec/validators/constants.js';
import { verifyProofOfPossession } from './bls.js';
import { devValidators } from './devValidators.js';

describe('devValidators', () => {
  it('derives the same addresses and keys from a label in every release', () => {
    expect(devValidators('golden', 2).map((v) => [v.address, v.secretKey.publicKey])).toEqual([
      [
        '0x3b7eaf0a271d5af30bf9442de396740648335c8b',
        '0x961e74ff3d877d87a948eb775ab966ac6f5617f47d363cc4f90b1d74a664f0524d5239b6573fca3de7abb1ffc2801dd8',
      ],
      [
        '0xebe7d911a2ac1e6da681c358e6f9e351bd979b39',
        '0x82c2f360d7e9063da3f945a8e14706e70b91556b49f74d99ac05ca63cc82cd9b36846a4952f982f778ab13e771b907cb',
      ],
    ]);
  });

  it('registers each validator with its key and a proof of possession binding it to its address', () => {
    for (const v of devValidators('registration', 2)) {
      expect(v.registration.address).toBe(v.address);
      expect(v.registration.blsPublicKey).toBe(v.secretKey.publicKey);
      expect(verifyProofOfPossession(v.address, v.registration.blsPublicKey, v.registration.proofOfPossession)).toBe(
        true,
      );
    }
  });

  it(`makes 0 to ${KEYSTORE_VALIDATORS_MAX} validators, and refuses other counts`, () => {
    expect(devValidators('none', 0)).toEqual([]);
    expect(devValidators('most', KEYSTORE_VALIDATORS_MAX)).toHaveLength(KEYSTORE_VALIDATORS_MAX);
    for (const count of [-1, 1.5, KEYSTORE_VALIDATORS_MAX + 1])
      expect(() => devValidators('bad', count), String(count)).toThrow(
        `a development network has 0 to ${KEYSTORE_VALIDATORS_MAX} validators`,
      );
  });
});
