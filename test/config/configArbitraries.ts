/** fast-check generators of configuration values, derived from each option's value shape. */
import fc from 'fast-check';
import {
  SETUP_ALLOW_LIST_CALLDATA_FIELDS_MAX,
  SETUP_ALLOW_LIST_DEFAULTS,
  allowListEntryIdentity,
  type AllowListEntry,
} from '../../spec/config/allowList.js';
import { configOptions, type ConfigKey, type ConfigOption } from '../../spec/config/schema.js';
import { FR_MODULUS } from '../../spec/constants.js';
import type { Hex } from '../../spec/chain.js';

const hexOf = (value: bigint, bytes: number): Hex => `0x${value.toString(16).padStart(bytes * 2, '0')}`;

export const fieldHex = fc.bigInt(0n, FR_MODULUS - 1n).map((v) => hexOf(v, 32));
export const selectorHex = fc.bigInt(0n, 2n ** 32n - 1n).map((v) => hexOf(v, 4));

const defaultIdentities = new Set(SETUP_ALLOW_LIST_DEFAULTS.map(allowListEntryIdentity));

export const allowListEntry: fc.Arbitrary<AllowListEntry> = fc
  .record({
    kind: fc.constantFrom('instance' as const, 'class' as const),
    target: fieldHex,
    selector: selectorHex,
    onlySelf: fc.boolean(),
    rejectNullMsgSender: fc.boolean(),
    calldataLength: fc.option(fc.integer({ min: 0, max: SETUP_ALLOW_LIST_CALLDATA_FIELDS_MAX }), { nil: undefined }),
  })
  .map(({ kind, target, calldataLength, ...rest }) => {
    const flags = calldataLength === undefined ? rest : { ...rest, calldataLength };
    return kind === 'instance' ? { kind, address: target, ...flags } : { kind, classId: target, ...flags };
  });

/** Entries naming distinct functions, none of them a built-in one. */
export const allowListExtension = fc
  .uniqueArray(allowListEntry, { selector: allowListEntryIdentity, maxLength: 6 })
  .map((entries) => entries.filter((e) => !defaultIdentities.has(allowListEntryIdentity(e))));

/**
 * A DNS label the WHATWG URL parser takes: one starting with `xn--` must be valid punycode (`http://xn--.example/` is
 * not a URL), so those are left out rather than expected to be refused.
 */
const host = fc.stringMatching(/^[a-z][a-z0-9-]{0,12}$/).filter((label) => !label.startsWith('xn--'));
const urlOf = (schemes: readonly string[]) =>
  fc
    .tuple(fc.constantFrom(...schemes), host, fc.stringMatching(/^[a-z0-9]{0,8}$/))
    .map(([s, h, p]) => `${s}://${h}.example/${p}`);

/** Strings of a pattern kind that survive the command line and trimming (no leading dash, no edge spaces). */
function patternString(pattern: RegExp, maxLength: number): fc.Arbitrary<string> {
  const safe = pattern.source === '^[^\\0]+$' ? /^[A-Za-z0-9._/][A-Za-z0-9._/ -]{0,30}$/ : pattern;
  return fc
    .stringMatching(safe)
    .filter((s) => s.length <= maxLength && s === s.trim() && !s.startsWith('-') && pattern.test(s));
}

export function valueArbitrary(option: ConfigOption): fc.Arbitrary<unknown> {
  const shape = option.kind.shape;
  switch (shape.type) {
    case 'integer':
      return fc.integer({ min: shape.min, max: shape.max });
    case 'decimal':
      return fc
        .double({ min: shape.zeroAllowed ? 0 : Number.MIN_VALUE, max: shape.max, noNaN: true, noDefaultInfinity: true })
        .map((v) => (v === 0 ? 0 : v));
    case 'bigint':
      return fc.bigInt(shape.min, 2n ** 128n);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...shape.values);
    case 'pattern':
      return patternString(shape.pattern, shape.maxLength);
    case 'hex':
      return fc
        .bigInt(0n, shape.belowFieldModulus ? FR_MODULUS - 1n : 2n ** BigInt(shape.bytes * 8) - 1n)
        .map((v) => hexOf(v, shape.bytes));
    case 'sha256':
      return fc.bigInt(0n, 2n ** 256n - 1n).map((v) => v.toString(16).padStart(64, '0'));
    case 'url':
      return urlOf(shape.schemes);
    case 'urlList':
      return fc.array(urlOf(shape.schemes), { minLength: option.hasDefault ? 0 : 1, maxLength: 4 });
    case 'tokenList':
      // Non-empty items: a list of one empty item prints as the empty text, which is the empty list.
      return fc.array(
        patternString(shape.pattern, shape.maxLength).filter((v) => v.length > 0),
        { minLength: option.hasDefault ? 0 : 1, maxLength: 4 },
      );
    case 'originList':
      return fc.array(
        fc.oneof(
          fc.constant('*'),
          host.map((h) => `https://${h}.example`),
        ),
        { maxLength: 4 },
      );
    case 'peerAddressList':
      return fc.array(
        fc.oneof(
          fc.stringMatching(/^[A-Za-z0-9_-]{8,40}$/).map((body) => `enr:${body}`),
          fc
            .tuple(fc.integer({ min: 1, max: 65_535 }), fc.stringMatching(/^[A-Za-z0-9]{8,52}$/))
            .map(([port, id]) => `/ip4/127.0.0.1/tcp/${port}/p2p/${id}`),
        ),
        { maxLength: 4 },
      );
    case 'allowList':
      return allowListExtension;
    case 'databaseUrl':
      return fc
        .tuple(fc.constantFrom(...shape.schemes), host, host, host, fc.integer({ min: 1, max: 65_535 }), host)
        .map(([scheme, user, password, h, port, db]) => `${scheme}://${user}:${password}@${h}:${port}/${db}`);
  }
}

export type GeneratedSource = 'flag' | 'env' | 'network';

/** Some options, each with a value and the source that will give it. */
export const configAssignment: fc.Arbitrary<Partial<Record<ConfigKey, { value: unknown; source: GeneratedSource }>>> =
  fc
    .record(
      Object.fromEntries(
        configOptions.map((option) => {
          const sources: GeneratedSource[] =
            option.scope === 'network' && !option.secret ? ['flag', 'env', 'network'] : ['flag', 'env'];
          return [option.key, fc.record({ value: valueArbitrary(option), source: fc.constantFrom(...sources) })];
        }),
      ) as Record<ConfigKey, fc.Arbitrary<{ value: unknown; source: GeneratedSource }>>,
      { requiredKeys: [] },
    )
    .map((assignment) => {
      // Keep the rules between options: HA signing needs its database and id; a preset key hash excludes disable/reset.
      const fixed = { ...assignment };
      if (
        fixed.validatorHaSigningEnabled?.value === true &&
        (fixed.validatorHaDatabaseUrl === undefined || fixed.validatorHaNodeId === undefined)
      )
        delete fixed.validatorHaSigningEnabled;
      if (fixed.adminApiKeyHash !== undefined) {
        delete fixed.disableAdminApiKey;
        delete fixed.resetAdminApiKey;
      }
      return fixed;
    });
