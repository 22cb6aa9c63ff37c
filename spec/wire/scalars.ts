/**
 * Codecs of the scalar wire types (docs/protocol.md, Wire encoding). Each is a zod codec: decoding turns wire JSON into
 * the value the core uses, encoding turns a core value back into wire JSON and checks it on the way, so one schema
 * serves the server (params in, results out) and the typed client (params out, results in).
 *
 * Decisions beyond it (docs/protocol.md, Wire decisions): hex inputs are accepted in either case and decoded to
 * lowercase (outputs are always lowercase); decimal strings may carry leading zeros on input (outputs never do);
 * decimal strings are at most WIRE_DECIMAL_DIGITS_MAX digits.
 */
import { z } from 'zod';
import type { BlockTipName, CheckpointTipName, Hex } from '../chain.js';
import { FR_MODULUS, MerkleTreeId } from '../constants.js';
import { WIRE_BIGINT_MAX, WIRE_DECIMAL_DIGITS_MAX } from '../rpc/limits.js';

const INPUT_ECHO_CHARS_MAX = 40;

/** A short, safe rendering of an offending input for an error message. */
export function describeInput(input: unknown): string {
  if (input === undefined) return 'nothing';
  if (typeof input === 'bigint') return `${input}n`;
  const text = JSON.stringify(input) ?? typeof input;
  return text.length > INPUT_ECHO_CHARS_MAX ? `${text.slice(0, INPUT_ECHO_CHARS_MAX)}...` : text;
}

const SAFE_UINT_MESSAGE = 'expected a non-negative safe integer';

/** A JSON number that is a safe non-negative integer (counts, chain id, rollup version, epoch). */
export const safeUint = z
  .int({ error: (issue) => `${SAFE_UINT_MESSAGE}, got ${describeInput(issue.input)}` })
  .min(0, { error: (issue) => `${SAFE_UINT_MESSAGE}, got ${describeInput(issue.input)}` });

/** A block number: safe non-negative integer; 0 is genesis. */
export const blockNumber = safeUint.describe('block number');

/** A checkpoint number: safe non-negative integer; checkpoints start at 1. */
export const checkpointNumber = safeUint.describe('checkpoint number');

/** An epoch number: safe non-negative integer; epoch 0 starts at L2 slot 0. */
export const epochNumber = safeUint.describe('epoch number');

const decimalDigits = z.string().refine((text) => /^[0-9]+$/.test(text) && text.length <= WIRE_DECIMAL_DIGITS_MAX, {
  error: (issue) =>
    `expected a string of at most ${WIRE_DECIMAL_DIGITS_MAX} decimal digits, got ${describeInput(issue.input)}`,
});

const decimalOrSafeUint = z.union([decimalDigits, safeUint], {
  error: (issue) =>
    `expected a string of decimal digits or a non-negative safe integer, got ${describeInput(issue.input)}`,
});

/** `bigint`: a string of decimal digits on output; a decimal string or a safe JSON integer on input. */
export const bigUint = z.codec(
  decimalOrSafeUint,
  z.bigint().min(0n).max(WIRE_BIGINT_MAX, { error: 'expected a value below 2^256' }),
  { decode: (wire) => BigInt(wire), encode: (value) => value.toString() },
);

/** `SlotNumber`: a string of decimal digits on output; a decimal string or a safe JSON integer on input. */
export const slotNumber = z.codec(decimalOrSafeUint, z.int({ error: 'expected a slot number below 2^53' }).min(0), {
  decode: (wire) => Number(wire),
  encode: (value) => value.toString(),
});

const hexPattern = (bytes: number): RegExp => new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`);
const lowerHexPattern = (bytes: number): RegExp => new RegExp(`^0x[0-9a-f]{${bytes * 2}}$`);

function describeHex(input: unknown): string {
  if (typeof input === 'string' && /^0x[0-9a-fA-F]*$/.test(input)) {
    const digits = input.length - 2;
    if (digits % 2 !== 0) return `an odd number of hex digits (${digits})`;
    return digits === 2 ? '1 byte' : `${digits / 2} bytes`;
  }
  return describeInput(input);
}

/** A fixed-size byte string: `0x`-prefixed hex, either case in, lowercase out; `belowModulus` bounds its value. */
function hexCodec(bytes: number, label: string, belowModulus?: bigint) {
  const anyCase = hexPattern(bytes);
  const lowerCase = lowerHexPattern(bytes);
  const inRange = (hex: string): boolean => belowModulus === undefined || BigInt(hex) < belowModulus;
  const wire = z
    .string({
      error: (issue) => `expected ${label} (0x-prefixed hex of ${bytes} bytes), got ${describeInput(issue.input)}`,
    })
    .refine((text) => anyCase.test(text), {
      error: (issue) => `expected ${label} (0x-prefixed hex of ${bytes} bytes), got ${describeHex(issue.input)}`,
    })
    .refine((text) => !anyCase.test(text) || inRange(text), {
      error: `${label} must be below the BN254 scalar field modulus`,
    });
  const value = z.custom<Hex>((v) => typeof v === 'string' && lowerCase.test(v) && inRange(v), {
    error: `expected ${label} as lowercase 0x-prefixed hex of ${bytes} bytes`,
  });
  return z.codec(wire, value, { decode: (text) => text.toLowerCase() as Hex, encode: (hex) => hex });
}

/** A byte string of any length (proofs, bytecode, ENR payloads): `0x`-prefixed hex, an even number of digits. */
export const hexBytes = z.codec(
  z
    .string({ error: (issue) => `expected 0x-prefixed hex bytes, got ${describeInput(issue.input)}` })
    .refine((text) => /^0x([0-9a-fA-F]{2})*$/.test(text), {
      error: (issue) => `expected 0x-prefixed hex bytes, got ${describeHex(issue.input)}`,
    }),
  z.custom<Hex>((v) => typeof v === 'string' && /^0x([0-9a-f]{2})*$/.test(v), {
    error: 'expected lowercase 0x-prefixed hex bytes',
  }),
  { decode: (text) => text.toLowerCase() as Hex, encode: (hex) => hex },
);

/** `Fr`: 32 bytes, strictly below the BN254 scalar field modulus. */
export const fr = hexCodec(32, 'an Fr', FR_MODULUS);
/** Any 32-byte value (hashes, commitments). */
export const bytes32 = hexCodec(32, 'a 32-byte hash');
export const blockHash = hexCodec(32, 'a block hash');
export const txHash = hexCodec(32, 'a tx hash');
/** Address of a contract on the rollup: a field element. */
export const aztecAddress = hexCodec(32, 'an AztecAddress', FR_MODULUS);
/** Base-layer address, 20 bytes. */
export const ethAddress = hexCodec(20, 'an EthAddress');
/** A function selector of the contract language, 4 bytes. */
export const functionSelector = hexCodec(4, 'a function selector');
/** A compressed BLS12-381 signature (G2 point), 96 bytes. */
export const blsSignature = hexCodec(96, 'a BLS signature');

const TREE_IDS = Object.values(MerkleTreeId);
const TREE_ID_NAMES = 'one of 0 (nullifier), 1 (note hash), 2 (public data), 3 (L1-to-L2 messages), 4 (archive)';

/** `MerkleTreeId`: the tree's number (docs/protocol.md, Trees). */
export const merkleTreeId = z.custom<MerkleTreeId>(
  (v) => typeof v === 'number' && (TREE_IDS as readonly number[]).includes(v),
  {
    error: (issue) => `expected a tree id, ${TREE_ID_NAMES}; got ${describeInput(issue.input)}`,
  },
);

export const BLOCK_TIP_NAMES = [
  'proposed',
  'checkpointed',
  'proven',
  'finalized',
] as const satisfies readonly BlockTipName[];
export const CHECKPOINT_TIP_NAMES = [
  'checkpointed',
  'proven',
  'finalized',
] as const satisfies readonly CheckpointTipName[];

const quoted = (names: readonly string[]): string => names.map((name) => `'${name}'`).join(', ');

/** `BlockTagWithoutLatest`: a chain-tip name other than 'latest'. */
export const blockTagWithoutLatest = z.enum(BLOCK_TIP_NAMES, {
  error: (issue) =>
    issue.input === 'latest'
      ? `'latest' is not accepted here: omit the tag (or send 'proposed') for the latest block`
      : `expected one of ${quoted(BLOCK_TIP_NAMES)}, got ${describeInput(issue.input)}`,
});

/** `CheckpointTag`: a checkpoint tip name; 'proposed' is not one (spec: Errors, 5). */
export const checkpointTag = z.enum(CHECKPOINT_TIP_NAMES, {
  error: (issue) =>
    issue.input === 'proposed'
      ? `'proposed' is not a valid checkpoint tag: expected one of ${quoted(CHECKPOINT_TIP_NAMES)}`
      : `expected one of ${quoted(CHECKPOINT_TIP_NAMES)}, got ${describeInput(issue.input)}`,
});

/** A block tag: 'latest' (the proposed tip) or a tip name. */
export const blockTag = z.enum(['latest', ...BLOCK_TIP_NAMES], {
  error: (issue) => `expected 'latest' or one of ${quoted(BLOCK_TIP_NAMES)}, got ${describeInput(issue.input)}`,
});

/** `ManaUsageEstimate`: the mana each coming checkpoint is assumed to use when fees are predicted. */
export const MANA_USAGE_ESTIMATES = ['none', 'target', 'limit'] as const;
export const manaUsageEstimate = z.enum(MANA_USAGE_ESTIMATES, {
  error: (issue) => `expected one of ${quoted(MANA_USAGE_ESTIMATES)}, got ${describeInput(issue.input)}`,
});

/** The result of a `void` method: always `null` on the wire. */
export const voidResult = z.null();

/**
 * A JSON object (string keys, JSON values): the admin configuration and its patches. The node's side is an open
 * record; encoding checks that every value is plain JSON (a bigint there is a fault of the node, not sent).
 */
/** A key a JSON object may not carry: records would drop it silently, and an object must never gain a prototype. */
const FORBIDDEN_OBJECT_KEY = '__proto__';

const hasForbiddenKey = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && Object.hasOwn(value, FORBIDDEN_OBJECT_KEY);

export const jsonObject = z.codec(
  z
    .custom<unknown>((value) => !hasForbiddenKey(value), { error: `the key "${FORBIDDEN_OBJECT_KEY}" is not allowed` })
    // What JSON Schema (OpenRPC) shows of this step: the object the record below then checks value by value.
    .meta({ type: 'object', additionalProperties: {}, description: 'a JSON object; the key "__proto__" is refused' })
    .pipe(
      z.record(z.string(), z.json(), { error: (issue) => `expected a JSON object, got ${describeInput(issue.input)}` }),
    ),
  z.custom<Readonly<Record<string, unknown>>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
    error: 'expected an object',
  }),
  { decode: (json) => json, encode: (value) => value as Record<string, z.core.util.JSONType> },
);
