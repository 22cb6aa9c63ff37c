/**
 * Key layout of the log index. One entry per log, ordered so that one tag's entries come in chain order:
 *
 *   logPriv:<tag>:<block number>:<tx index in block>:<log index in tx>
 *   logPub:<contract address>:<tag>:<block number>:<tx index in block>:<log index in tx>
 *
 * Tags and addresses are written in canonical form (lowercase 0x-prefixed hex of 32 bytes, so every one has the
 * same width and ends at the same place); numbers are zero-padded decimals (logConstants.ts), so that key order
 * (bytewise) is numeric order.
 */
import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import { LOG_KEY_BLOCK_NUMBER_DIGITS, LOG_KEY_LOG_INDEX_DIGITS, LOG_KEY_TX_INDEX_DIGITS } from './logConstants.js';

export const PRIVATE_LOG_KEY_PREFIX = 'logPriv:';
export const PUBLIC_LOG_KEY_PREFIX = 'logPub:';

/** 0x-prefixed hex of 1 to 32 bytes' worth of digits, either case. */
const FIELD_HEX_ANY_FORM = /^0x[0-9a-fA-F]{1,64}$/;
const FIELD_HEX_DIGITS = 64;

/**
 * A field value as the log index compares it: lowercase hex of exactly 32 bytes (leading zeros added). Undefined
 * when `value` is not hex of at most 32 bytes.
 */
export function canonicalField(value: string): Hex | undefined {
  if (!FIELD_HEX_ANY_FORM.test(value)) return undefined;
  return `0x${value.slice(2).toLowerCase().padStart(FIELD_HEX_DIGITS, '0')}`;
}

const isCanonical = (value: Hex): boolean => canonicalField(value) === value;

/** Where a log is on the chain. */
export interface LogPosition {
  readonly blockNumber: number;
  readonly txIndexInBlock: number;
  readonly logIndexInTx: number;
}

function padded(value: number, digits: number, what: string): string {
  assert(
    Number.isSafeInteger(value) && value >= 0 && value < 10 ** digits,
    `${what} ${value} fits the ${digits} digits of a log key`,
  );
  return value.toString().padStart(digits, '0');
}

function positionSuffix(position: LogPosition): string {
  const block = padded(position.blockNumber, LOG_KEY_BLOCK_NUMBER_DIGITS, 'block number');
  const tx = padded(position.txIndexInBlock, LOG_KEY_TX_INDEX_DIGITS, 'tx index');
  const log = padded(position.logIndexInTx, LOG_KEY_LOG_INDEX_DIGITS, 'log index');
  return `${block}:${tx}:${log}`;
}

/** The start of every key of one tag's private logs. */
export function privateTagPrefix(tag: Hex): string {
  assert(isCanonical(tag), `a private log tag in a key is canonical, not ${tag}`);
  return `${PRIVATE_LOG_KEY_PREFIX}${tag}:`;
}

/** The start of every key of one contract's public logs under one tag. */
export function publicTagPrefix(contractAddress: Hex, tag: Hex): string {
  assert(isCanonical(contractAddress), `a contract address in a key is canonical, not ${contractAddress}`);
  assert(isCanonical(tag), `a public log tag in a key is canonical, not ${tag}`);
  return `${PUBLIC_LOG_KEY_PREFIX}${contractAddress}:${tag}:`;
}

export function privateLogKey(tag: Hex, position: LogPosition): string {
  return `${privateTagPrefix(tag)}${positionSuffix(position)}`;
}

export function publicLogKey(contractAddress: Hex, tag: Hex, position: LogPosition): string {
  return `${publicTagPrefix(contractAddress, tag)}${positionSuffix(position)}`;
}
