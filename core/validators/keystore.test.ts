import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { KEYSTORE_FILE_BYTES_MAX } from '../../spec/validators/constants.js';
import { hex32, testAddress, testSecretKey } from '../../test/validators/validatorFixtures.js';
import { keystoreReloadRefused, loadKeystore, reloadKeystore, type KeystoreState } from './keystore.js';

const PUBLISHER_A: Hex = `0x${'aa'.repeat(20)}`;
const PUBLISHER_B: Hex = `0x${'bb'.repeat(20)}`;
const UNKNOWN_PUBLISHER: Hex = `0x${'cc'.repeat(20)}`;
const STARTUP_PUBLISHERS = [PUBLISHER_A, PUBLISHER_B];

interface EntryOptions {
  readonly key?: number;
  readonly coinbase?: Hex;
  readonly publisher?: Hex | null;
}

function entry(n: number, options: EntryOptions = {}): Record<string, unknown> {
  const secret = bytesToHex(testSecretKey(options.key ?? n).exportBytes());
  const publisher = options.publisher === undefined ? PUBLISHER_A : options.publisher;
  return {
    attester: { address: testAddress(n), blsSecretKey: secret },
    coinbase: options.coinbase ?? testAddress(100 + n),
    feeRecipient: hex32(200 + n),
    ...(publisher === null ? {} : { publisher }),
  };
}

const file = (validators: unknown[], extra: Record<string, unknown> = {}): Uint8Array =>
  new TextEncoder().encode(JSON.stringify({ schemaVersion: 1, validators, ...extra }));

function startState(): KeystoreState {
  const loaded = loadKeystore(file([entry(0), entry(1), entry(2)]), STARTUP_PUBLISHERS);
  if (loaded.kind !== 'accepted') throw new Error(`fixture keystore rejected: ${loaded.rejection.message}`);
  return loaded.state;
}

describe('loadKeystore', () => {
  it('reads validators with their derived public keys, publishers and fallbacks', () => {
    const loaded = loadKeystore(file([entry(0), entry(1, { publisher: null })]), [PUBLISHER_A]);
    expect(loaded.kind).toBe('accepted');
    if (loaded.kind !== 'accepted') return;
    const [first, second] = loaded.state.validators;
    expect(first).toMatchObject({
      attester: testAddress(0),
      blsPublicKey: testSecretKey(0).publicKey,
      coinbase: testAddress(100),
      feeRecipient: hex32(200),
      publisher: PUBLISHER_A,
      publisherSource: 'keystore',
    });
    expect(second).toMatchObject({ publisher: testAddress(1), publisherSource: 'attester' });
    expect(loaded.publishersWithoutSigner).toEqual([testAddress(1)]);
  });

  it('rejects, with a reason and the validator to blame, what the node could not start with', () => {
    const cases: [Uint8Array, string, number | undefined][] = [
      [new TextEncoder().encode('{"schemaVersion": 1, '), 'notJson', undefined],
      [new Uint8Array([0xff, 0xfe]), 'notJson', undefined],
      [file([entry(0)], { schemaVersion: 2 }), 'schemaInvalid', undefined],
      [file([{ ...entry(0), feeRecepient: hex32(1) }]), 'schemaInvalid', undefined],
      [file([]), 'noValidators', undefined],
      [
        file([entry(0), { ...entry(1), attester: { address: testAddress(1), blsSecretKey: `0x${'00'.repeat(32)}` } }]),
        'invalidBlsSecretKey',
        1,
      ],
      [file([entry(0), entry(0, { coinbase: testAddress(7) })]), 'duplicateAttester', 1],
      [file([entry(0), entry(1, { key: 0 })]), 'duplicateBlsKey', 1],
      [file([entry(0), entry(1, { publisher: UNKNOWN_PUBLISHER })]), 'unknownPublisher', 1],
      [new Uint8Array(KEYSTORE_FILE_BYTES_MAX + 1), 'fileTooLarge', undefined],
    ];
    for (const [contents, reason, validatorIndex] of cases) {
      const loaded = loadKeystore(contents, STARTUP_PUBLISHERS);
      expect(loaded, reason).toMatchObject({ kind: 'rejected', rejection: { reason } });
      if (loaded.kind === 'rejected') expect(loaded.rejection.validatorIndex, reason).toBe(validatorIndex);
    }
  });

  it('never repeats a secret key in a rejection', () => {
    const secret = `0x${'ab'.repeat(31)}`;
    const badLength = file([{ ...entry(0), attester: { address: testAddress(0), blsSecretKey: secret } }]);
    const loaded = loadKeystore(badLength, STARTUP_PUBLISHERS);
    expect(loaded.kind).toBe('rejected');
    if (loaded.kind === 'rejected') expect(loaded.rejection.message).not.toContain('abab');
    const broken = new TextEncoder().encode(`{"validators": [{"attester": {"blsSecretKey": "${secret}"}}`);
    const notJson = loadKeystore(broken, STARTUP_PUBLISHERS);
    if (notJson.kind === 'rejected') expect(notJson.rejection.message).not.toContain('abab');
  });
});

describe('reloadKeystore', () => {
  it('adds, removes, replaces keys and updates settings in one reload', () => {
    const current = startState();
    const next = file([
      entry(0, { coinbase: testAddress(150) }),
      entry(2, { key: 12 }),
      entry(3, { publisher: PUBLISHER_B }),
    ]);
    const result = reloadKeystore(current, next, STARTUP_PUBLISHERS);
    expect(result).toMatchObject({
      kind: 'accepted',
      changes: {
        added: [testAddress(3)],
        removed: [testAddress(1)],
        keyReplaced: [testAddress(2)],
        settingsChanged: [testAddress(0)],
      },
      publishersWithoutSigner: [],
    });
    if (result.kind === 'accepted')
      expect(result.next.validators.map((v) => v.attester)).toEqual([0, 2, 3].map(testAddress));
  });

  it('rejects the whole reload when one validator names a publisher the node did not start with', () => {
    const current = startState();
    const result = reloadKeystore(
      current,
      file([entry(0), entry(5, { publisher: UNKNOWN_PUBLISHER })]),
      STARTUP_PUBLISHERS,
    );
    expect(result).toMatchObject({ kind: 'rejected', rejection: { reason: 'unknownPublisher', validatorIndex: 1 } });
    if (result.kind !== 'rejected') return;
    const error = keystoreReloadRefused(result.rejection);
    expect(error).toMatchObject({
      code: 'OPERATION_REFUSED',
      details: { reason: 'unknownPublisher', validatorIndex: 1 },
    });
    expect(error.shortMessage).toMatch(/nothing changed/);
  });

  it('accepts a new validator without a publisher, falling back to its attester address', () => {
    const result = reloadKeystore(startState(), file([entry(0), entry(4, { publisher: null })]), STARTUP_PUBLISHERS);
    expect(result).toMatchObject({
      kind: 'accepted',
      changes: { added: [testAddress(4)] },
      publishersWithoutSigner: [testAddress(4)],
    });
  });

  it('reports no change for the same file', () => {
    const result = reloadKeystore(startState(), file([entry(0), entry(1), entry(2)]), STARTUP_PUBLISHERS);
    expect(result).toMatchObject({
      kind: 'accepted',
      changes: { added: [], removed: [], keyReplaced: [], settingsChanged: [] },
    });
  });
});

describe('rejection messages', () => {
  const rejection = (contents: Uint8Array) => {
    const loaded = loadKeystore(contents, STARTUP_PUBLISHERS);
    if (loaded.kind !== 'rejected') throw new Error('the keystore was accepted');
    return loaded.rejection;
  };
  const text = (json: string) => new TextEncoder().encode(json);

  it('say where the schema is broken: a field, a nested field, an array element, or the whole file', () => {
    expect(rejection(file([entry(0)], { schemaVersion: 2 })).message).toMatch(
      /^the keystore is not valid at schemaVersion: /,
    );
    const badAddress = { ...entry(0), attester: { address: '0x12', blsSecretKey: hex32(1) } };
    expect(rejection(file([entry(1), badAddress])).message).toMatch(
      /^the keystore is not valid at validators\[1\]\.attester\.address: /,
    );
    expect(rejection(text('5')).message).toMatch(/^the keystore is not valid at the file: /);
  });

  it('name the file size, the encoding, an empty list, and the validator at fault', () => {
    expect(rejection(new Uint8Array(KEYSTORE_FILE_BYTES_MAX + 1)).message).toBe(
      `the keystore is ${KEYSTORE_FILE_BYTES_MAX + 1} bytes, above the limit of ${KEYSTORE_FILE_BYTES_MAX}`,
    );
    expect(rejection(text('{')).message).toBe('the keystore is not valid UTF-8 JSON');
    expect(rejection(file([])).message).toBe('the keystore lists no validators');
    expect(rejection(file([entry(0), entry(1, { publisher: UNKNOWN_PUBLISHER })])).message).toBe(
      `validator 1 (${testAddress(1)}) names publisher ${UNKNOWN_PUBLISHER}, which is not among the publishers the node started with`,
    );
    const zeroKey = { ...entry(1), attester: { address: testAddress(1), blsSecretKey: `0x${'00'.repeat(32)}` } };
    expect(rejection(file([entry(0), zeroKey])).message).toMatch(
      new RegExp(`^validator 1 \\(${testAddress(1)}\\) has an invalid BLS secret key: .*zero`),
    );
    expect(rejection(file([entry(0), entry(0, { coinbase: testAddress(7) })])).message).toBe(
      `validator 1 repeats attester ${testAddress(0)}`,
    );
    expect(rejection(file([entry(0), entry(1, { key: 0 })])).message).toBe(
      `validator 1 repeats the BLS key ${testSecretKey(0).publicKey} of another validator`,
    );
  });

  it('carry no validator index when no validator is to blame', () => {
    expect(Object.keys(rejection(text('{')))).toEqual(['reason', 'message']);
    const error = keystoreReloadRefused(rejection(file([])));
    expect(error.details).toStrictEqual({ reason: 'noValidators' });
  });

  it('refuse text that is not valid UTF-8 even where JSON would accept its replacement', () => {
    const quoted = new Uint8Array([0x22, 0xff, 0x22]);
    expect(rejection(quoted).reason).toBe('notJson');
  });
});

describe('file size limit', () => {
  it('accepts a file of exactly the limit', () => {
    const contents = file([entry(0)]);
    const padded = new Uint8Array(KEYSTORE_FILE_BYTES_MAX).fill(0x20);
    padded.set(contents);
    expect(loadKeystore(padded, STARTUP_PUBLISHERS).kind).toBe('accepted');
  });
});

describe('keystoreChanges', () => {
  it('counts a new fee recipient alone, or a new publisher alone, as changed settings', () => {
    const current = startState();
    const feeRecipient = { ...entry(0), feeRecipient: hex32(999) };
    const publisher = entry(1, { publisher: PUBLISHER_B });
    const result = reloadKeystore(current, file([feeRecipient, publisher, entry(2)]), STARTUP_PUBLISHERS);
    expect(result).toMatchObject({
      kind: 'accepted',
      changes: { added: [], removed: [], keyReplaced: [], settingsChanged: [testAddress(0), testAddress(1)] },
    });
  });
});
