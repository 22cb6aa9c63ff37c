/**
 * svcAdmin_reloadKeystore's publisher rule for all keystores: a reload is rejected exactly when some validator names a
 * publisher the node did not start with; an accepted one gives every validator a startup publisher or its attester
 * address, and what it reports as added, removed and kept accounts for both files.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { loadKeystore, reloadKeystore, type KeystoreState } from '../../core/validators/keystore.js';
import { hex32, testAddress, testSecretKey } from './validatorFixtures.js';

const STARTUP_PUBLISHERS: Hex[] = [`0x${'a1'.repeat(20)}`, `0x${'a2'.repeat(20)}`];
const OTHER_PUBLISHERS: Hex[] = [`0x${'b1'.repeat(20)}`, `0x${'b2'.repeat(20)}`];

/** A validator number and its publisher choice: undefined (fallback), a startup publisher, or another one. */
const validatorArbitrary = fc.tuple(
  fc.integer({ min: 0, max: 9 }),
  fc.option(fc.constantFrom(...STARTUP_PUBLISHERS, ...OTHER_PUBLISHERS), { nil: undefined }),
);
const keystoreArbitrary = fc.uniqueArray(validatorArbitrary, { minLength: 1, maxLength: 6, selector: ([n]) => n });

function fileOf(validators: readonly (readonly [number, Hex | undefined])[]): Uint8Array {
  const entries = validators.map(([n, publisher]) => ({
    attester: { address: testAddress(n), blsSecretKey: bytesToHex(testSecretKey(n).exportBytes()) },
    coinbase: testAddress(50 + n),
    feeRecipient: hex32(n),
    ...(publisher === undefined ? {} : { publisher }),
  }));
  return new TextEncoder().encode(JSON.stringify({ schemaVersion: 1, validators: entries }));
}

const CURRENT: KeystoreState = (() => {
  const loaded = loadKeystore(
    fileOf([
      [0, STARTUP_PUBLISHERS[0]],
      [1, undefined],
      [2, STARTUP_PUBLISHERS[1]],
    ]),
    STARTUP_PUBLISHERS,
  );
  if (loaded.kind !== 'accepted') throw new Error('fixture keystore rejected');
  return loaded.state;
})();

describe('keystore reload for all keystores', () => {
  it('is rejected exactly when a validator names a publisher the node did not start with', () => {
    fc.assert(
      fc.property(keystoreArbitrary, (validators) => {
        const result = reloadKeystore(CURRENT, fileOf(validators), STARTUP_PUBLISHERS);
        const unknown = validators.findIndex(
          ([, publisher]) => publisher !== undefined && !STARTUP_PUBLISHERS.includes(publisher),
        );
        if (unknown >= 0) {
          expect(result).toMatchObject({
            kind: 'rejected',
            rejection: { reason: 'unknownPublisher', validatorIndex: unknown },
          });
          return;
        }
        expect(result.kind).toBe('accepted');
        if (result.kind !== 'accepted') return;
        for (const v of result.next.validators)
          expect(STARTUP_PUBLISHERS.includes(v.publisher) || v.publisher === v.attester).toBe(true);
        const { added, removed, keyReplaced, settingsChanged } = result.changes;
        const before = CURRENT.validators.map((v) => v.attester);
        const after = result.next.validators.map((v) => v.attester);
        expect(new Set([...before.filter((a) => !removed.includes(a)), ...added])).toEqual(new Set(after));
        expect(keyReplaced).toEqual([]);
        for (const a of settingsChanged) expect(before.includes(a) && after.includes(a)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
