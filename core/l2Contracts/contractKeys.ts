/**
 * Key layout of the contract index (one indexer prefix, `contracts:`, three families):
 *
 *   contracts:class:<class id>:<block ascending>                              -> the class (with its bytecode)
 *   contracts:instance:<address>:<block ascending>                            -> the instance as published
 *   contracts:currentClass:<address>:<original class id>:<block descending>   -> the current class id
 *
 * `<block ascending>` is the block number in CONTRACT_KEY_BLOCK_NUMBER_DIGITS zero-padded decimals, so a forward scan
 * meets the earliest block first (the first registration, the first publication). `<block descending>` is
 * CONTRACT_KEY_BLOCK_NUMBER_MAX minus the block number, padded the same way, so a forward scan meets the newest block
 * first and "the newest version at or before block b" is the first key at or after the descending form of b.
 * Ids and addresses are canonical (lowercase hex of 32 bytes) so every one has the same width.
 */
import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import { CONTRACT_KEY_BLOCK_NUMBER_DIGITS, CONTRACT_KEY_BLOCK_NUMBER_MAX } from './contractConstants.js';

export const CONTRACT_KEY_PREFIX = 'contracts:';
const CLASS_PREFIX = `${CONTRACT_KEY_PREFIX}class:`;
const INSTANCE_PREFIX = `${CONTRACT_KEY_PREFIX}instance:`;
const CURRENT_CLASS_PREFIX = `${CONTRACT_KEY_PREFIX}currentClass:`;

const FIELD_HEX_ANY_FORM = /^0x[0-9a-fA-F]{1,64}$/;
const FIELD_HEX_DIGITS = 64;

/** A field value as the index compares it: lowercase hex of 32 bytes. Undefined when `value` is not such hex. */
export function canonicalField(value: string): Hex | undefined {
  if (!FIELD_HEX_ANY_FORM.test(value)) return undefined;
  return `0x${value.slice(2).toLowerCase().padStart(FIELD_HEX_DIGITS, '0')}`;
}

function assertCanonical(value: Hex, what: string): void {
  assert(canonicalField(value) === value, `a ${what} in a contract key is canonical, not ${value}`);
}

function assertBlockNumber(blockNumber: number): void {
  assert(
    Number.isSafeInteger(blockNumber) && blockNumber >= 0 && blockNumber <= CONTRACT_KEY_BLOCK_NUMBER_MAX,
    `block number ${blockNumber} fits the ${CONTRACT_KEY_BLOCK_NUMBER_DIGITS} digits of a contract key`,
  );
}

/** The block number as a key suffix that sorts earliest first. */
export function ascendingBlock(blockNumber: number): string {
  assertBlockNumber(blockNumber);
  return blockNumber.toString().padStart(CONTRACT_KEY_BLOCK_NUMBER_DIGITS, '0');
}

/** The block number as a key suffix that sorts newest first. */
export function descendingBlock(blockNumber: number): string {
  assertBlockNumber(blockNumber);
  return (CONTRACT_KEY_BLOCK_NUMBER_MAX - blockNumber).toString().padStart(CONTRACT_KEY_BLOCK_NUMBER_DIGITS, '0');
}

function suffixOf(key: string): string {
  const suffix = key.slice(-CONTRACT_KEY_BLOCK_NUMBER_DIGITS);
  assert(
    /^\d+$/.test(suffix) && key.startsWith(CONTRACT_KEY_PREFIX),
    `${key} is a contract key ending in a block number`,
  );
  return suffix;
}

/** The block number of a `class` or `instance` key. */
export const blockOfAscendingKey = (key: string): number => Number(suffixOf(key));
/** The block number of a `currentClass` key. */
export const blockOfDescendingKey = (key: string): number => CONTRACT_KEY_BLOCK_NUMBER_MAX - Number(suffixOf(key));

/** The start of every registration of one class. */
export function classPrefix(classId: Hex): string {
  assertCanonical(classId, 'class id');
  return `${CLASS_PREFIX}${classId}:`;
}

/** The start of every publication of one address (one entry per block holding one). */
export function instancePrefix(address: Hex): string {
  assertCanonical(address, 'contract address');
  return `${INSTANCE_PREFIX}${address}:`;
}

/** The start of every current-class version of an address published with this original class. */
export function currentClassPrefix(address: Hex, originalClassId: Hex): string {
  assertCanonical(address, 'contract address');
  assertCanonical(originalClassId, 'original class id');
  return `${CURRENT_CLASS_PREFIX}${address}:${originalClassId}:`;
}

export const classKey = (classId: Hex, blockNumber: number): string =>
  `${classPrefix(classId)}${ascendingBlock(blockNumber)}`;
export const instanceKey = (address: Hex, blockNumber: number): string =>
  `${instancePrefix(address)}${ascendingBlock(blockNumber)}`;
export const currentClassKey = (address: Hex, originalClassId: Hex, blockNumber: number): string =>
  `${currentClassPrefix(address, originalClassId)}${descendingBlock(blockNumber)}`;
