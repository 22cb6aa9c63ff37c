/**
 * The setup-phase allow list (spec: Limits, Setup-phase allow list): which public functions a transaction may call
 * in its non-revertible setup phase.
 *
 * Text form, one entry per comma:
 *   I:<address>:<selector>[:<flags>]   a function of one contract instance
 *   C:<classId>:<selector>[:<flags>]   a function of every instance of a contract class
 * - `<address>` and `<classId>` are field elements: `0x` and 64 hex digits, below the BN254 scalar field modulus.
 * - `<selector>` is mandatory and is the contract language's function selector: 4 bytes, written `0x` and exactly
 *   8 hex digits. It is derived from the function's signature by `functionSelector` below. A field-sized value is
 *   refused: a selector is not a field element.
 * - `<flags>` are joined by `+`, each at most once: `os` (onlySelf: msg_sender must be the contract itself),
 *   `rn` (rejectNullMsgSender), `cl=N` (the calldata is exactly N fields, the selector field included).
 * Hex is read in either case and printed in lowercase; flags are printed in the order os, rn, cl.
 *
 * The effective list is the built-in defaults, then the network configuration's `txPublicSetupAllowListExtend`,
 * then the local `--txPublicSetupAllowListExtend` / `TX_PUBLIC_SETUP_ALLOWLIST` (see `mergeAllowListLayers`).
 */
import type { Hex } from '../chain.js';
import { bytesToHex } from '../codec/bytes.js';
import { FR_MODULUS } from '../constants.js';
import { CodedError } from '../errors.js';
import { hashToFieldBytes } from '../hash.js';

/** Entries one list may hold; more is a configuration mistake, not a policy. */
export const SETUP_ALLOW_LIST_ENTRIES_MAX = 256;
/** Largest `cl=N`: a sanity bound so that a typo (an extra digit) is caught rather than never matching. */
export const SETUP_ALLOW_LIST_CALLDATA_FIELDS_MAX = 65_535;

export interface AllowListFlags {
  /** `os`: only calls whose msg_sender is the contract's own address. */
  readonly onlySelf: boolean;
  /** `rn`: calls with a null msg_sender are rejected. */
  readonly rejectNullMsgSender: boolean;
  /** `cl=N`: the calldata must be exactly this many fields. */
  readonly calldataLength?: number;
}

export type AllowListEntry =
  | ({ readonly kind: 'instance'; readonly address: Hex; readonly selector: Hex } & AllowListFlags)
  | ({ readonly kind: 'class'; readonly classId: Hex; readonly selector: Hex } & AllowListFlags);

export interface AllowListErrorDetails {
  readonly index: number;
  readonly entry: string;
  readonly reason: string;
}

/** A bad entry: `index` counts from 1, `entry` is the text as given. */
export class AllowListError extends CodedError<'ALLOW_LIST_INVALID', AllowListErrorDetails> {
  constructor(
    readonly index: number,
    readonly entry: string,
    readonly reason: string,
  ) {
    super('ALLOW_LIST_INVALID', `entry ${index} "${entry}": ${reason}`, { index, entry, reason });
    this.name = 'AllowListError';
  }
}

/**
 * The contract language's function selector: the last 4 bytes of hashToField(UTF-8 of the canonical signature),
 * the signature being `name(type,type,...)` with no spaces, e.g. `set_authorized(Field,bool)`.
 */
export function functionSelector(signature: string): Hex {
  return bytesToHex(hashToFieldBytes(new TextEncoder().encode(signature)).slice(28, 32));
}

/**
 * Rollup addresses of the protocol's own contracts, fixed at genesis (small field values, so they can never collide
 * with a derived address).
 */
export const PROTOCOL_CONTRACT_ADDRESSES = {
  /** Keeps public authorization witnesses (a user approving a call made on their behalf). */
  authRegistry: '0x0000000000000000000000000000000000000000000000000000000000000001',
  /** Records contract instances: an instance is published when a mined tx effect carries it. */
  instanceRegistry: '0x0000000000000000000000000000000000000000000000000000000000000002',
  /** Records contract classes: a class is registered when a mined tx effect carries it. */
  classRegistry: '0x0000000000000000000000000000000000000000000000000000000000000003',
  /** The fee asset: balances that transaction fees are paid from. */
  feeAsset: '0x0000000000000000000000000000000000000000000000000000000000000004',
} as const satisfies Record<string, Hex>;

/**
 * Always present, whatever the network or the operator adds. Token classes are not here (4.x removed them from the
 * defaults): a node that must accept fee payment in custom tokens adds their entries by hand.
 */
export const SETUP_ALLOW_LIST_DEFAULTS: readonly AllowListEntry[] = [
  {
    // A fee-payment contract approving, in setup, the call that moves the user's funds: needs a real caller.
    kind: 'instance',
    address: PROTOCOL_CONTRACT_ADDRESSES.authRegistry,
    selector: functionSelector('set_authorized(Field,bool)'),
    onlySelf: false,
    rejectNullMsgSender: true,
    calldataLength: 3,
  },
  {
    // The fee asset crediting a balance in setup; only the fee asset contract itself may make this call.
    kind: 'instance',
    address: PROTOCOL_CONTRACT_ADDRESSES.feeAsset,
    selector: functionSelector('_increase_public_balance((Field),u128)'),
    onlySelf: true,
    rejectNullMsgSender: false,
    calldataLength: 3,
  },
];

const FIELD_HEX = /^0x[0-9a-fA-F]{64}$/;
const SELECTOR_HEX = /^0x[0-9a-fA-F]{8}$/;
const DECIMAL = /^\d+$/;
const SHAPE = 'I:<address>:<selector>[:<flags>] or C:<classId>:<selector>[:<flags>]';

function parseField(text: string, what: string): { readonly value: Hex } | { readonly reason: string } {
  if (!FIELD_HEX.test(text)) return { reason: `the ${what} "${text}" is not 0x followed by 64 hex digits` };
  if (BigInt(text) >= FR_MODULUS) return { reason: `the ${what} "${text}" is not below the BN254 field modulus` };
  return { value: text.toLowerCase() as Hex };
}

function parseFlags(text: string): AllowListFlags | string {
  if (text === '') return 'the flags part is empty: drop the last ":" or give os, rn or cl=N joined by +';
  const seen = new Set<string>();
  let onlySelf = false;
  let rejectNullMsgSender = false;
  let calldataLength: number | undefined;
  for (const flag of text.split('+')) {
    const name = flag.startsWith('cl=') ? 'cl' : flag;
    if (seen.has(name)) return `the flag "${name}" is given twice`;
    seen.add(name);
    if (flag === 'os') onlySelf = true;
    else if (flag === 'rn') rejectNullMsgSender = true;
    else if (name === 'cl') {
      const digits = flag.slice(3);
      const n = Number(digits);
      if (!DECIMAL.test(digits) || n > SETUP_ALLOW_LIST_CALLDATA_FIELDS_MAX) {
        return `cl needs a whole number of fields from 0 to ${SETUP_ALLOW_LIST_CALLDATA_FIELDS_MAX}, got "${digits}"`;
      }
      calldataLength = n;
    } else return `unknown flag "${flag}" (expected os, rn or cl=N, joined by +)`;
  }
  return calldataLength === undefined
    ? { onlySelf, rejectNullMsgSender }
    : { onlySelf, rejectNullMsgSender, calldataLength };
}

/** One entry (already trimmed); `index` (from 1) only names it in the error. */
export function parseAllowListEntry(entry: string, index = 1): AllowListEntry {
  const fail = (reason: string): never => {
    throw new AllowListError(index, entry, reason);
  };
  if (entry === '') fail('the entry is empty');
  const parts = entry.split(':');
  const [kind = '', target = '', selector = '', flags] = parts;
  if (kind !== 'I' && kind !== 'C')
    fail(`it starts with "${kind}": expected I (contract instance) or C (contract class), as in ${SHAPE}`);
  if (parts.length === 2) fail(`it has no selector; 4.x requires one in every entry: ${SHAPE}`);
  if (parts.length !== 3 && parts.length !== 4) fail(`it has ${parts.length} ":"-separated parts; expected ${SHAPE}`);
  const field = parseField(target, kind === 'I' ? 'address' : 'class id');
  if ('reason' in field) return fail(field.reason);
  if (!SELECTOR_HEX.test(selector))
    fail(`the selector "${selector}" is not 0x followed by 8 hex digits (a 4-byte function selector)`);
  const parsedFlags = flags === undefined ? { onlySelf: false, rejectNullMsgSender: false } : parseFlags(flags);
  if (typeof parsedFlags === 'string') return fail(parsedFlags);
  const common = { selector: selector.toLowerCase() as Hex, ...parsedFlags };
  return kind === 'I'
    ? { kind: 'instance', address: field.value, ...common }
    : { kind: 'class', classId: field.value, ...common };
}

/** A comma-separated list; whitespace around entries is ignored, an empty text is an empty list. */
export function parseAllowList(text: string): AllowListEntry[] {
  if (text.trim() === '') return [];
  const entries = text.split(',').map((entry) => entry.trim());
  if (entries.length > SETUP_ALLOW_LIST_ENTRIES_MAX) {
    throw new AllowListError(
      SETUP_ALLOW_LIST_ENTRIES_MAX + 1,
      entries[SETUP_ALLOW_LIST_ENTRIES_MAX] ?? '',
      `a list holds at most ${SETUP_ALLOW_LIST_ENTRIES_MAX} entries`,
    );
  }
  return entries.map((entry, i) => parseAllowListEntry(entry, i + 1));
}

/** `I:<address>:<selector>` or `C:<classId>:<selector>`: two entries with the same identity name the same function. */
export function allowListEntryIdentity(entry: AllowListEntry): string {
  return entry.kind === 'instance' ? `I:${entry.address}:${entry.selector}` : `C:${entry.classId}:${entry.selector}`;
}

function printFlags(entry: AllowListFlags): string {
  const flags = [
    ...(entry.onlySelf ? ['os'] : []),
    ...(entry.rejectNullMsgSender ? ['rn'] : []),
    ...(entry.calldataLength !== undefined ? [`cl=${entry.calldataLength}`] : []),
  ];
  return flags.length === 0 ? '' : `:${flags.join('+')}`;
}

/** The canonical text of one entry: parsing it gives the entry back. */
export function printAllowListEntry(entry: AllowListEntry): string {
  return `${allowListEntryIdentity(entry)}${printFlags(entry)}`;
}

export function printAllowList(entries: readonly AllowListEntry[]): string {
  return entries.map(printAllowListEntry).join(',');
}

const sameFlags = (a: AllowListFlags, b: AllowListFlags): boolean =>
  a.onlySelf === b.onlySelf && a.rejectNullMsgSender === b.rejectNullMsgSender && a.calldataLength === b.calldataLength;

/** One source of entries, named as an operator knows it (`TX_PUBLIC_SETUP_ALLOWLIST`, `network configuration`). */
export interface AllowListLayer {
  readonly name: string;
  readonly entries: readonly AllowListEntry[];
}

export interface MergedAllowList {
  readonly entries: readonly AllowListEntry[];
  /** Contradictions found, one sentence each; a non-empty list means the layers must not be used. */
  readonly conflicts: readonly string[];
}

/**
 * Merges layers given from lowest to highest precedence. Each function (identity) appears once, at the place it
 * first appears:
 * - within one layer, a repeated entry is dropped, and a repeat with other flags is a conflict;
 * - a later layer's entry replaces an earlier layer's flags for the same function (so the local variable overrides
 *   the network configuration for a function both name);
 * - a layer marked `fixed` (the defaults) cannot be changed: repeating one of its entries is harmless, repeating it
 *   with other flags is a conflict, because the defaults are always present as they are.
 */
export function mergeAllowListLayers(
  layers: readonly (AllowListLayer & { readonly fixed?: boolean })[],
): MergedAllowList {
  const merged = new Map<string, { entry: AllowListEntry; layer: number }>();
  const conflicts: string[] = [];
  layers.forEach((layer, layerIndex) => {
    for (const entry of layer.entries) {
      const identity = allowListEntryIdentity(entry);
      const earlier = merged.get(identity);
      if (earlier === undefined) {
        merged.set(identity, { entry, layer: layerIndex });
        continue;
      }
      const earlierFixed = layers[earlier.layer]?.fixed === true;
      if (sameFlags(earlier.entry, entry)) {
        // The function now belongs to this layer too, so a later repeat in it with other flags is caught.
        if (!earlierFixed) merged.set(identity, { entry: earlier.entry, layer: layerIndex });
      } else if (earlierFixed) {
        conflicts.push(
          `${layer.name} changes the flags of the built-in entry "${printAllowListEntry(earlier.entry)}"; built-in entries cannot be changed`,
        );
      } else if (earlier.layer === layerIndex) {
        conflicts.push(
          `${layer.name} lists ${identity} twice with different flags ("${printAllowListEntry(earlier.entry)}" and "${printAllowListEntry(entry)}")`,
        );
      } else {
        merged.set(identity, { entry, layer: layerIndex });
      }
    }
  });
  return { entries: [...merged.values()].map((m) => m.entry), conflicts };
}

/** The effective list: the defaults, then `extension` (already merged from the network and local layers). */
export function setupAllowListWith(extension: readonly AllowListEntry[]): MergedAllowList {
  return mergeAllowListLayers([
    { name: 'the built-in defaults', entries: SETUP_ALLOW_LIST_DEFAULTS, fixed: true },
    { name: 'txPublicSetupAllowListExtend', entries: extension },
  ]);
}
