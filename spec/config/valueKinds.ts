/**
 * The kinds of value a configuration option holds. Each kind reads the text of a flag or environment variable
 * (trimmed first), reads a JSON value (network configuration, svcAdmin_setConfig), prints a value back to text
 * (parsing the text gives the same value) and shows it as JSON (the admin view: bigints become decimal strings).
 * Error messages say what was expected and do not repeat the whole value (the caller decides whether it may be shown:
 * secrets never are); list kinds name the bad item, by its value except in a list of secrets (private keys, API keys).
 */
import { z } from 'zod';
import type { Hex } from '../chain.js';
import { FR_MODULUS } from '../constants.js';
import { AllowListError, parseAllowList, printAllowList, type AllowListEntry } from './allowList.js';

export type JsonValue = string | number | boolean | null | readonly JsonValue[];

/** What a kind accepts, as data: for documentation and for the generators of the property tests. */
export type ValueShape =
  | { readonly type: 'integer'; readonly min: number; readonly max: number }
  | { readonly type: 'decimal'; readonly max: number; readonly zeroAllowed: boolean }
  | { readonly type: 'bigint'; readonly min: bigint }
  | { readonly type: 'boolean' }
  | { readonly type: 'enum'; readonly values: readonly string[] }
  | { readonly type: 'pattern'; readonly pattern: RegExp; readonly maxLength: number }
  | { readonly type: 'hex'; readonly bytes: number; readonly belowFieldModulus: boolean }
  | { readonly type: 'sha256' }
  | { readonly type: 'url'; readonly schemes: readonly string[] }
  | { readonly type: 'urlList'; readonly schemes: readonly string[] }
  | { readonly type: 'originList' }
  | { readonly type: 'tokenList'; readonly pattern: RegExp; readonly maxLength: number }
  | { readonly type: 'peerAddressList' }
  | { readonly type: 'allowList' }
  | { readonly type: 'databaseUrl'; readonly schemes: readonly string[] };

export interface ValueKind<T> {
  /** What a value looks like, for help and errors: "a TCP port from 0 to 65535". */
  readonly label: string;
  readonly shape: ValueShape;
  /** From JSON: the native JSON type of the value. */
  readonly type: z.ZodType<T>;
  /** From the (trimmed) text of a flag or environment variable. */
  readonly text: z.ZodType<T, string>;
  print(value: T): string;
  toJson(value: T): JsonValue;
  /** True for presence flags (`--disable-admin-api-key`), which take no value on the command line. */
  readonly presence?: boolean;
}

/** Items in any list-valued option (URLs, origins). */
export const CONFIG_LIST_ITEMS_MAX = 64;

const expected = (label: string) => ({ error: `expected ${label}` });

function kind<T>(
  label: string,
  shape: ValueShape,
  type: z.ZodType<T>,
  text: z.ZodType<T, string>,
  print: (value: T) => string,
  toJson: (value: T) => JsonValue,
): ValueKind<T> {
  return { label, shape, type, text, print, toJson };
}

export function integerKind(min: number, max: number, what = 'an integer'): ValueKind<number> {
  const label = `${what} from ${min} to ${max}`;
  const type = z.number(expected(label)).int(expected(label)).min(min, expected(label)).max(max, expected(label));
  const text = z
    .string()
    .regex(/^[+-]?\d+$/, expected(label))
    .transform(Number)
    .pipe(type);
  return kind(label, { type: 'integer', min, max }, type, text, String, (v) => v);
}

/** A finite decimal number in (0, max] (or [0, max] with `zeroAllowed`). */
export function decimalKind(max: number, zeroAllowed: boolean): ValueKind<number> {
  const label = `a number ${zeroAllowed ? 'from 0' : 'above 0'} up to ${max}`;
  const base = z.number(expected(label)).finite(expected(label)).max(max, expected(label));
  const type = zeroAllowed ? base.min(0, expected(label)) : base.gt(0, expected(label));
  const text = z
    .string()
    .regex(/^\d+(\.\d+)?([eE][+-]?\d+)?$/, expected(label))
    .transform(Number)
    .pipe(type);
  return kind(label, { type: 'decimal', max, zeroAllowed }, type, text, String, (v) => v);
}

/** A non-negative integer too large for a JSON number: decimal digits in text, a digit string or safe integer in JSON. */
export function bigintKind(min: bigint, what: string): ValueKind<bigint> {
  const label = `${what} (a whole number, at least ${min})`;
  const digits = z.string().regex(/^\d{1,78}$/, expected(label));
  const check = z.bigint().min(min, expected(label));
  const type = z
    .union([digits, z.number().int().nonnegative()], expected(label))
    .transform((v) => BigInt(v))
    .pipe(check);
  return kind(
    label,
    { type: 'bigint', min },
    type,
    digits.transform((v) => BigInt(v)).pipe(check),
    (v) => v.toString(),
    (v) => v.toString(),
  );
}

const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  '1': true,
  '0': false,
  yes: true,
  no: false,
};

export const booleanKind: ValueKind<boolean> = {
  ...kind(
    'true or false',
    { type: 'boolean' },
    z.boolean(expected('true or false')),
    z
      .string()
      .transform((v) => v.toLowerCase())
      .refine((v) => Object.hasOwn(BOOLEAN_TEXT, v), expected('true or false (also 1/0, yes/no)'))
      .transform((v) => BOOLEAN_TEXT[v] === true),
    String,
    (v) => v,
  ),
  presence: true,
};

export function enumKind<const Values extends readonly [string, ...string[]]>(
  values: Values,
): ValueKind<Values[number]> {
  const label = `one of ${values.join(', ')}`;
  const type = z.enum(values, expected(label));
  return kind<Values[number]>(
    label,
    { type: 'enum', values },
    type as z.ZodType<Values[number]>,
    z.string().pipe(type) as z.ZodType<Values[number], string>,
    String,
    (v) => v,
  );
}

/** A string matching `pattern` (length 1 to `maxLength`). */
export function patternKind(label: string, pattern: RegExp, maxLength: number): ValueKind<string> {
  const type = z
    .string(expected(label))
    .min(1, expected(label))
    .max(maxLength, expected(label))
    .regex(pattern, expected(label));
  return kind(label, { type: 'pattern', pattern, maxLength }, type, type, String, (v) => v);
}

/** `0x` and exactly `bytes` bytes of hex, read in either case, kept in lowercase. */
export function hexKind(bytes: number, label: string, belowFieldModulus = false): ValueKind<Hex> {
  const pattern = new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`);
  const full = `${label} (0x and ${bytes * 2} hex digits${belowFieldModulus ? ', below the BN254 field modulus' : ''})`;
  const type = z
    .string(expected(full))
    .regex(pattern, expected(full))
    .refine((v) => !belowFieldModulus || BigInt(v) < FR_MODULUS, expected(full))
    .transform((v) => v.toLowerCase() as Hex);
  return kind(full, { type: 'hex', bytes, belowFieldModulus }, type, type, String, (v) => v);
}

/** A SHA-256 digest as 64 hex digits (a leading 0x is accepted and dropped), kept in lowercase. */
export const sha256HexKind: ValueKind<string> = (() => {
  const label = 'a SHA-256 digest (64 hex digits)';
  const type = z
    .string(expected(label))
    .regex(/^(0x)?[0-9a-fA-F]{64}$/, expected(label))
    .transform((v) => v.replace(/^0x/, '').toLowerCase());
  return kind(label, { type: 'sha256' }, type, type, String, (v) => v);
})();

const hasScheme = (value: string, schemes: readonly string[]): boolean => {
  if (!URL.canParse(value)) return false;
  return schemes.includes(new URL(value).protocol.replace(/:$/, ''));
};

export function urlKind(schemes: readonly string[]): ValueKind<string> {
  const label = `a URL (${schemes.join(', ')})`;
  const type = z.string(expected(label)).refine((v) => hasScheme(v, schemes), expected(label));
  return kind(label, { type: 'url', schemes }, type, type, String, (v) => v);
}

/** A list in JSON, comma-separated in text (spaces around items ignored); every item must be `itemLabel`. */
function listKind(
  shape: ValueShape,
  itemLabel: string,
  itemsLabel: string,
  item: (value: string) => boolean,
  itemsAreSecret = false,
): ValueKind<readonly string[]> {
  const label = `a comma-separated list of at most ${CONFIG_LIST_ITEMS_MAX} ${itemsLabel}`;
  const items = z
    .array(z.string(expected(label)), expected(label))
    .max(CONFIG_LIST_ITEMS_MAX, expected(label))
    .superRefine((list, ctx) => {
      const bad = list.findIndex((v) => !item(v));
      if (bad < 0) return;
      const shown = itemsAreSecret ? '' : ` "${list[bad]}"`;
      ctx.addIssue({ code: 'custom', message: `item ${bad + 1}${shown} is not ${itemLabel}` });
    });
  const text = z
    .string()
    .transform((v) => (v === '' ? [] : v.split(',').map((part) => part.trim())))
    .pipe(items);
  return kind(
    label,
    shape,
    items,
    text,
    (v) => v.join(','),
    (v) => [...v],
  );
}

export const urlListKind = (schemes: readonly string[]): ValueKind<readonly string[]> =>
  listKind({ type: 'urlList', schemes }, `a URL (${schemes.join(', ')})`, `URLs (${schemes.join(', ')})`, (v) =>
    hasScheme(v, schemes),
  );

/**
 * A list of tokens (API keys, header names), each matching `pattern` (which excludes commas) and at most `maxLength`.
 * With `itemsAreSecret` (API keys) a bad item is named by its position only.
 */
export function tokenListKind(
  itemLabel: string,
  pattern: RegExp,
  maxLength: number,
  itemsAreSecret = false,
): ValueKind<readonly string[]> {
  return listKind(
    { type: 'tokenList', pattern, maxLength },
    itemLabel,
    `${itemLabel}s`,
    (v) => v.length <= maxLength && pattern.test(v),
    itemsAreSecret,
  );
}

/** Private keys (32 bytes as 0x and 64 hex digits), comma-separated; a bad one is named by its position only. */
export const privateKeyListKind: ValueKind<readonly string[]> = (() => {
  const pattern = /^0x[0-9a-fA-F]{64}$/;
  const itemLabel = 'a 32-byte private key (0x and 64 hex digits)';
  return listKind(
    { type: 'tokenList', pattern, maxLength: 66 },
    itemLabel,
    '32-byte private keys (0x and 64 hex digits)',
    (v) => pattern.test(v),
    true,
  );
})();

/** CORS origins: `*`, or exact origins such as `https://app.example` (scheme, host, optional port, nothing else). */
export const originListKind: ValueKind<readonly string[]> = listKind(
  { type: 'originList' },
  'an origin (https://host[:port]) or *',
  'origins (https://host[:port], or *)',
  (v) => {
    if (v === '*') return true;
    return URL.canParse(v) && new URL(v).origin === v;
  },
);

/** The setup allow list (spec/config/allowList.ts): text in both forms; JSON also as an array of entry strings. */
export const allowListKind: ValueKind<readonly AllowListEntry[]> = (() => {
  const label =
    'setup allow list entries (I:<address>:<selector>[:<flags>] or C:<classId>:<selector>[:<flags>], comma-separated)';
  const text = z.string().transform((v, ctx): AllowListEntry[] => {
    try {
      return parseAllowList(v);
    } catch (error) {
      if (!(error instanceof AllowListError)) throw error;
      ctx.issues.push({ code: 'custom', message: error.message, input: v });
      return z.NEVER;
    }
  });
  const type = z
    .union([z.string(), z.array(z.string())], expected(label))
    .transform((v) => (Array.isArray(v) ? v.join(',') : (v as string)))
    .pipe(text);
  return kind(label, { type: 'allowList' }, type, text, printAllowList, (v) => printAllowList(v));
})();

/**
 * A database URL of the form `<scheme>://<user>:<password>@<host>:<port>/<database>`, with one of `schemes`. It holds
 * a password, so the messages name the missing part and never the value.
 */
export function databaseUrlKind(schemes: readonly string[]): ValueKind<string> {
  const shape = '<scheme>://<user>:<password>@<host>:<port>/<database>';
  const label = `a database URL ${shape} (${schemes.join(', ')})`;
  const problemOf = (v: string): string | undefined => {
    const match =
      /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^:@/\s]*)(?::([^@/\s]*))?@([^:/\s]*)(?::([^/\s]*))?\/([^/?#\s]*)$/.exec(v);
    if (match === null) return `expected ${label}`;
    const [, scheme, user, password, host, port, database] = match;
    if (!schemes.includes(scheme!.toLowerCase()))
      return `expected ${label}: the scheme must be ${schemes.join(' or ')}`;
    if (!user) return `expected ${label}: the user is missing`;
    if (!password) return `expected ${label}: the password is missing`;
    if (!host) return `expected ${label}: the host is missing`;
    if (!port || !/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535)
      return `expected ${label}: the port is missing or not 1-65535`;
    if (!database) return `expected ${label}: the database name is missing`;
    return undefined;
  };
  const type = z.string(expected(label)).superRefine((v, ctx) => {
    const problem = problemOf(v);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
  return kind(label, { type: 'databaseUrl', schemes }, type, type, String, (v) => v);
}

/** The first message of a failed parse. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'invalid value';
}

/** Longest ENR text (an ENR is at most 300 bytes, base64url in text) or multiaddr accepted. */
const PEER_ADDRESS_TEXT_MAX = 512;

/** A peer to dial: an ENR (`enr:` and base64url) or a multiaddr naming the peer (`/ip4/…/tcp/…/p2p/<id>`). */
export function isPeerAddressText(value: string): boolean {
  if (value.length > PEER_ADDRESS_TEXT_MAX) return false;
  if (value.startsWith('enr:')) return /^enr:[A-Za-z0-9_-]+$/.test(value);
  return /^(\/[A-Za-z0-9._:-]+)+$/.test(value) && /\/p2p\/[A-Za-z0-9]+$/.test(value);
}

export const peerAddressListKind: ValueKind<readonly string[]> = listKind(
  { type: 'peerAddressList' },
  'an ENR (enr:...) or a multiaddr ending in /p2p/<peer id>',
  'peers (ENRs or multiaddrs with /p2p/<peer id>)',
  isPeerAddressText,
);
