/**
 * The validator keystore as the node holds it, and the rule of svcAdmin_reloadKeystore, as pure functions of the
 * file's bytes (spec/validators/keystoreFile.ts). Reading the file is the adapter's part: it reads at most
 * KEYSTORE_FILE_BYTES_MAX bytes from the configured path and hands them here, at startup and on each reload.
 *
 * A reload updates, without restart: attester keys (validators added, removed, or given a new BLS key), each
 * validator's coinbase and fee recipient, and which publisher sends each validator's checkpoints. It never changes
 * the L1 publisher signers, prover keys or the HA signing database connection: those need a restart
 * (KEYSTORE_RELOAD_RESTART_REQUIRED). So a validator may name only a publisher the node started with, or omit the
 * publisher to fall back to its attester address; one unknown publisher rejects the whole reload and nothing changes.
 * A fallback attester address that has no signer is accepted (the spec allows the omission) and listed in
 * `publishersWithoutSigner`, so the operator learns that those validators attest but cannot publish until restart.
 *
 * The new file must also be one the node would start with: valid JSON of the schema, at least one validator, valid
 * and distinct BLS keys, distinct attester addresses.
 */
import type { Hex } from '../../spec/chain.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { KEYSTORE_FILE_BYTES_MAX } from '../../spec/validators/constants.js';
import { keystoreFile, type KeystoreValidatorEntryValue } from '../../spec/validators/keystoreFile.js';
import { NodeError } from '../errors.js';
import { BlsError, BlsSecretKey } from './bls.js';

/** What a reload changes (spec: svcAdmin_reloadKeystore, "Updated"). */
export const KEYSTORE_RELOAD_UPDATES = ['attesterKeys', 'coinbase', 'feeRecipient', 'publisherAssignment'] as const;
/** What only a restart changes (spec: svcAdmin_reloadKeystore, "Not updated"). */
export const KEYSTORE_RELOAD_RESTART_REQUIRED = ['l1PublisherSigners', 'proverKeys', 'haSignerDatabase'] as const;

export interface KeystoreValidator {
  /** The validator's L1 address. */
  readonly attester: Hex;
  readonly blsSecretKey: BlsSecretKey;
  readonly blsPublicKey: Hex;
  readonly coinbase: Hex;
  readonly feeRecipient: Hex;
  /** The L1 account that publishes this validator's checkpoints. */
  readonly publisher: Hex;
  /** `keystore` when the file names it, `attester` when it falls back to the attester address. */
  readonly publisherSource: 'keystore' | 'attester';
}

export interface KeystoreState {
  /** In file order. */
  readonly validators: readonly KeystoreValidator[];
}

export type KeystoreRejectionReason =
  | 'fileTooLarge'
  | 'notJson'
  | 'schemaInvalid'
  | 'noValidators'
  | 'invalidBlsSecretKey'
  | 'duplicateAttester'
  | 'duplicateBlsKey'
  | 'unknownPublisher';

export interface KeystoreRejection {
  readonly reason: KeystoreRejectionReason;
  /** One sentence an operator can act on; never contains key material. */
  readonly message: string;
  /** The offending validator's position in the file, when one is to blame. */
  readonly validatorIndex?: number;
}

export interface KeystoreChanges {
  readonly added: readonly Hex[];
  readonly removed: readonly Hex[];
  /** Same attester address, another BLS key. */
  readonly keyReplaced: readonly Hex[];
  /** Same attester and key, another coinbase, fee recipient or publisher. */
  readonly settingsChanged: readonly Hex[];
}

export type KeystoreLoadResult =
  | { readonly kind: 'accepted'; readonly state: KeystoreState; readonly publishersWithoutSigner: readonly Hex[] }
  | { readonly kind: 'rejected'; readonly rejection: KeystoreRejection };

export type KeystoreReloadResult =
  | {
      readonly kind: 'accepted';
      readonly next: KeystoreState;
      readonly changes: KeystoreChanges;
      readonly publishersWithoutSigner: readonly Hex[];
    }
  | { readonly kind: 'rejected'; readonly rejection: KeystoreRejection };

const reject = (reason: KeystoreRejectionReason, message: string, validatorIndex?: number): KeystoreLoadResult => ({
  kind: 'rejected',
  rejection: validatorIndex === undefined ? { reason, message } : { reason, message, validatorIndex },
});

/** The file as JSON text; never echoes its content (it holds secret keys). */
function parseJson(contents: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(contents)) };
  } catch {
    return { ok: false };
  }
}

function describeIssuePath(path: readonly PropertyKey[]): string {
  return (
    path
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .replace(/^\./, '') || 'the file'
  );
}

function buildValidator(entry: KeystoreValidatorEntryValue): KeystoreValidator {
  const blsSecretKey = BlsSecretKey.fromBytes(hexToBytes(entry.attester.blsSecretKey, 32));
  const publisher = entry.publisher ?? entry.attester.address;
  return {
    attester: entry.attester.address,
    blsSecretKey,
    blsPublicKey: blsSecretKey.publicKey,
    coinbase: entry.coinbase,
    feeRecipient: entry.feeRecipient,
    publisher,
    publisherSource: entry.publisher === undefined ? 'attester' : 'keystore',
  };
}

/** Checks the validators one by one: key validity, distinct attesters and keys, known publishers. */
function buildValidators(
  entries: readonly KeystoreValidatorEntryValue[],
  publishers: ReadonlySet<Hex>,
): KeystoreLoadResult {
  const validators: KeystoreValidator[] = [];
  const attesters = new Set<Hex>();
  const keys = new Set<Hex>();
  for (const [index, entry] of entries.entries()) {
    if (entry.publisher !== undefined && !publishers.has(entry.publisher)) {
      return reject(
        'unknownPublisher',
        `validator ${index} (${entry.attester.address}) names publisher ${entry.publisher}, which is not among the publishers the node started with`,
        index,
      );
    }
    let validator: KeystoreValidator;
    try {
      validator = buildValidator(entry);
    } catch (error) {
      if (!(error instanceof BlsError)) throw error;
      return reject(
        'invalidBlsSecretKey',
        `validator ${index} (${entry.attester.address}) has an invalid BLS secret key: ${error.message}`,
        index,
      );
    }
    if (attesters.has(validator.attester))
      return reject('duplicateAttester', `validator ${index} repeats attester ${validator.attester}`, index);
    if (keys.has(validator.blsPublicKey))
      return reject(
        'duplicateBlsKey',
        `validator ${index} repeats the BLS key ${validator.blsPublicKey} of another validator`,
        index,
      );
    attesters.add(validator.attester);
    keys.add(validator.blsPublicKey);
    validators.push(validator);
  }
  const publishersWithoutSigner = validators.filter((v) => !publishers.has(v.publisher)).map((v) => v.publisher);
  return { kind: 'accepted', state: { validators }, publishersWithoutSigner };
}

/**
 * Parses and checks a keystore file against the publishers (L1 signer addresses) the node has: at startup the
 * ones it configures, on reload the ones it started with.
 */
export function loadKeystore(contents: Uint8Array, publishers: readonly Hex[]): KeystoreLoadResult {
  if (contents.length > KEYSTORE_FILE_BYTES_MAX)
    return reject(
      'fileTooLarge',
      `the keystore is ${contents.length} bytes, above the limit of ${KEYSTORE_FILE_BYTES_MAX}`,
    );
  const json = parseJson(contents);
  if (!json.ok) return reject('notJson', 'the keystore is not valid UTF-8 JSON');
  const parsed = keystoreFile.safeParse(json.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return reject('schemaInvalid', `the keystore is not valid at ${describeIssuePath(issue.path)}: ${issue.message}`);
  }
  if (parsed.data.validators.length === 0) return reject('noValidators', 'the keystore lists no validators');
  return buildValidators(parsed.data.validators, new Set(publishers.map((p) => p.toLowerCase() as Hex)));
}

/** What changed between two keystores, by attester address (in the new file's order, removals in the old one's). */
export function keystoreChanges(current: KeystoreState, next: KeystoreState): KeystoreChanges {
  const before = new Map(current.validators.map((v) => [v.attester, v]));
  const after = new Set(next.validators.map((v) => v.attester));
  const changes = { added: [] as Hex[], removed: [] as Hex[], keyReplaced: [] as Hex[], settingsChanged: [] as Hex[] };
  for (const validator of next.validators) {
    const old = before.get(validator.attester);
    if (old === undefined) changes.added.push(validator.attester);
    else if (old.blsPublicKey !== validator.blsPublicKey) changes.keyReplaced.push(validator.attester);
    else if (
      old.coinbase !== validator.coinbase ||
      old.feeRecipient !== validator.feeRecipient ||
      old.publisher !== validator.publisher
    ) {
      changes.settingsChanged.push(validator.attester);
    }
  }
  changes.removed.push(...current.validators.filter((v) => !after.has(v.attester)).map((v) => v.attester));
  return changes;
}

/**
 * svcAdmin_reloadKeystore's rule: the next keystore state from the current one, the file's new contents and the
 * publishers the node started with, or the rejection (and the current state stays).
 */
export function reloadKeystore(
  current: KeystoreState,
  contents: Uint8Array,
  startupPublishers: readonly Hex[],
): KeystoreReloadResult {
  const loaded = loadKeystore(contents, startupPublishers);
  if (loaded.kind === 'rejected') return loaded;
  return {
    kind: 'accepted',
    next: loaded.state,
    changes: keystoreChanges(current, loaded.state),
    publishersWithoutSigner: loaded.publishersWithoutSigner,
  };
}

/** The error svcAdmin_reloadKeystore answers with (OPERATION_REFUSED, -32007 on the wire). */
export function keystoreReloadRefused(
  rejection: KeystoreRejection,
): NodeError<{ reason: KeystoreRejectionReason; validatorIndex?: number }> {
  const details =
    rejection.validatorIndex === undefined
      ? { reason: rejection.reason }
      : { reason: rejection.reason, validatorIndex: rejection.validatorIndex };
  return new NodeError('OPERATION_REFUSED', `keystore reload rejected, nothing changed: ${rejection.message}`, details);
}
