/**
 * The value of one log-index entry: everything a LogResult needs except the tx's effects, which are read from the
 * block only when a query asks for them.
 */
import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';

export interface LogIndexEntry {
  readonly txHash: Hex;
  readonly l2BlockNumber: number;
  readonly l2BlockHash: Hex;
  readonly txIndexInBlock: number;
  readonly logIndexInTx: number;
  readonly fields: readonly Hex[];
}

export function encodeLogIndexEntry(entry: LogIndexEntry): string {
  const { txHash, l2BlockNumber, l2BlockHash, txIndexInBlock, logIndexInTx, fields } = entry;
  return JSON.stringify({ txHash, l2BlockNumber, l2BlockHash, txIndexInBlock, logIndexInTx, fields });
}

const isHexText = (value: unknown): value is Hex => typeof value === 'string' && value.startsWith('0x');
const isIndex = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** Reads back what encodeLogIndexEntry wrote; anything else in the index is a bug (asserted). */
export function decodeLogIndexEntry(text: string): LogIndexEntry {
  const value = JSON.parse(text) as Partial<Record<keyof LogIndexEntry, unknown>>;
  assert(
    isHexText(value.txHash) &&
      isHexText(value.l2BlockHash) &&
      isIndex(value.l2BlockNumber) &&
      isIndex(value.txIndexInBlock) &&
      isIndex(value.logIndexInTx),
    `a log-index entry names its tx and block: ${text}`,
  );
  assert(
    Array.isArray(value.fields) && value.fields.every(isHexText),
    `a log-index entry holds its log's fields: ${text}`,
  );
  return value as LogIndexEntry;
}
