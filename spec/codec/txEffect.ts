/**
 * Byte encoding of a tx's effects, as checkpoint blobs carry them and as the block header's `txsEffectsHash`
 * commits to them. Layout (big-endian, every count bounded by its `*_PER_TX_MAX`):
 *   txHash 32 | executionResult u8 | transactionFee 32
 *   | noteHashes: count u8, 32 each | nullifiers: count u8, 32 each | l2ToL1Messages: count u8, 32 each
 *   | publicDataWrites: count u8, (leafSlot 32, value 32) each
 *   | privateLogs: count u8, (tag 32, fieldCount u8, 32 each) each
 *   | publicLogs: count u8, (contractAddress 32, tag 32, fieldCount u8, 32 each) each
 *   | contractClassPublications: count u8, class each | contractInstancePublications: count u8, instance each
 *   (spec/codec/contracts.ts)
 */
import type { ExecutionResult, Hex, PrivateLog, PublicDataWrite, PublicLog, TxEffect } from '../chain.js';
import {
  CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX,
  DA_GAS_PER_BYTE,
  CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX,
  L2_TO_L1_MESSAGES_PER_TX_MAX,
  LOG_FIELDS_MAX,
  NOTE_HASHES_PER_TX_MAX,
  NULLIFIERS_PER_TX_MAX,
  PRIVATE_LOGS_PER_TX_MAX,
  PUBLIC_DATA_WRITES_PER_TX_MAX,
  PUBLIC_LOGS_PER_TX_MAX,
} from '../constants.js';
import { hashToField } from '../hash.js';
import { ByteReader, ByteWriter, CodecError } from './bytes.js';
import { readContractClass, readContractInstance, writeContractClass, writeContractInstance } from './contracts.js';

/** Wire order of execution results; the byte is the index. */
export const EXECUTION_RESULT_CODES: readonly ExecutionResult[] = [
  'success',
  'appLogicReverted',
  'teardownReverted',
  'bothReverted',
];

const FIELD_BYTES = 32;
const COUNT_BYTES = 1;

function writeList<T>(w: ByteWriter, items: readonly T[], max: number, what: string, write: (item: T) => void): void {
  if (items.length > max) throw new CodecError(`a tx effect carries at most ${max} ${what}, got ${items.length}`);
  w.uint(items.length, COUNT_BYTES);
  for (const item of items) write(item);
}

function readList<T>(r: ByteReader, max: number, what: string, read: () => T): T[] {
  const count = r.number(COUNT_BYTES);
  if (count > max) throw new CodecError(`a tx effect declares ${count} ${what}, at most ${max} allowed`);
  return Array.from({ length: count }, read);
}

const writeFields = (w: ByteWriter, fields: readonly Hex[]) =>
  writeList(w, fields, LOG_FIELDS_MAX, 'log fields', (field) => w.hex(field, FIELD_BYTES));
const readFields = (r: ByteReader) => readList(r, LOG_FIELDS_MAX, 'log fields', () => r.hex(FIELD_BYTES));

export function writeTxEffect(w: ByteWriter, effect: TxEffect): void {
  const resultCode = EXECUTION_RESULT_CODES.indexOf(effect.executionResult);
  if (resultCode < 0) throw new CodecError(`unknown execution result ${String(effect.executionResult)}`);
  w.hex(effect.txHash, FIELD_BYTES).uint(resultCode, 1).uint(effect.transactionFee, FIELD_BYTES);
  writeList(w, effect.noteHashes, NOTE_HASHES_PER_TX_MAX, 'note hashes', (h) => w.hex(h, FIELD_BYTES));
  writeList(w, effect.nullifiers, NULLIFIERS_PER_TX_MAX, 'nullifiers', (h) => w.hex(h, FIELD_BYTES));
  writeList(w, effect.l2ToL1Messages, L2_TO_L1_MESSAGES_PER_TX_MAX, 'L2-to-L1 messages', (h) => w.hex(h, FIELD_BYTES));
  writeList(w, effect.publicDataWrites, PUBLIC_DATA_WRITES_PER_TX_MAX, 'public data writes', (write) =>
    w.hex(write.leafSlot, FIELD_BYTES).hex(write.value, FIELD_BYTES),
  );
  writeList(w, effect.privateLogs, PRIVATE_LOGS_PER_TX_MAX, 'private logs', (log) => {
    w.hex(log.tag, FIELD_BYTES);
    writeFields(w, log.fields);
  });
  writeList(w, effect.publicLogs, PUBLIC_LOGS_PER_TX_MAX, 'public logs', (log) => {
    w.hex(log.contractAddress, FIELD_BYTES).hex(log.tag, FIELD_BYTES);
    writeFields(w, log.fields);
  });
  writeList(
    w,
    effect.contractClassPublications,
    CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX,
    'contract class publications',
    (c) => writeContractClass(w, c),
  );
  writeList(
    w,
    effect.contractInstancePublications,
    CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX,
    'contract instance publications',
    (i) => writeContractInstance(w, i),
  );
}

export function readTxEffect(r: ByteReader): TxEffect {
  const txHash = r.hex(FIELD_BYTES);
  const resultCode = r.number(1);
  const executionResult = EXECUTION_RESULT_CODES[resultCode];
  if (executionResult === undefined) throw new CodecError(`unknown execution result code ${resultCode}`);
  const transactionFee = r.bigint(FIELD_BYTES);
  const noteHashes = readList(r, NOTE_HASHES_PER_TX_MAX, 'note hashes', () => r.hex(FIELD_BYTES));
  const nullifiers = readList(r, NULLIFIERS_PER_TX_MAX, 'nullifiers', () => r.hex(FIELD_BYTES));
  const l2ToL1Messages = readList(r, L2_TO_L1_MESSAGES_PER_TX_MAX, 'L2-to-L1 messages', () => r.hex(FIELD_BYTES));
  const publicDataWrites = readList(r, PUBLIC_DATA_WRITES_PER_TX_MAX, 'public data writes', (): PublicDataWrite => ({
    leafSlot: r.hex(FIELD_BYTES),
    value: r.hex(FIELD_BYTES),
  }));
  const privateLogs = readList(r, PRIVATE_LOGS_PER_TX_MAX, 'private logs', (): PrivateLog => ({
    tag: r.hex(FIELD_BYTES),
    fields: readFields(r),
  }));
  const publicLogs = readList(r, PUBLIC_LOGS_PER_TX_MAX, 'public logs', (): PublicLog => ({
    contractAddress: r.hex(FIELD_BYTES),
    tag: r.hex(FIELD_BYTES),
    fields: readFields(r),
  }));
  const contractClassPublications = readList(
    r,
    CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX,
    'contract class publications',
    () => readContractClass(r),
  );
  const contractInstancePublications = readList(
    r,
    CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX,
    'contract instance publications',
    () => readContractInstance(r),
  );
  return {
    txHash,
    executionResult,
    transactionFee,
    noteHashes,
    nullifiers,
    l2ToL1Messages,
    publicDataWrites,
    privateLogs,
    publicLogs,
    contractClassPublications,
    contractInstancePublications,
  };
}

export function encodeTxEffects(effects: readonly TxEffect[]): Uint8Array {
  const w = new ByteWriter();
  for (const effect of effects) writeTxEffect(w, effect);
  return w.finish();
}

/**
 * Decodes a list of encoded effects that fills `bytes` exactly (a block's body as gossiped); CodecError when an
 * effect is malformed, bytes are left over, or there are more than `countMax` effects.
 */
export function decodeTxEffects(bytes: Uint8Array, countMax: number): TxEffect[] {
  const reader = new ByteReader(bytes);
  const effects: TxEffect[] = [];
  while (reader.remaining > 0) {
    if (effects.length >= countMax) throw new CodecError(`a tx effect list holds at most ${countMax} effects`);
    effects.push(readTxEffect(reader));
  }
  return effects;
}

/** DA gas of a list of effects: DA_GAS_PER_BYTE for every byte of their encoding (what the blobs carry for them). */
export function txEffectsDaGas(effects: readonly TxEffect[]): number {
  return DA_GAS_PER_BYTE * encodeTxEffects(effects).length;
}

/** The block header's commitment to its tx effects: hashToField of their encodings, in block order. */
export function txsEffectsHash(effects: readonly TxEffect[]): Hex {
  return hashToField(encodeTxEffects(effects));
}

/** A successful tx's effects with only its mandatory nullifier and nothing else (tests, simulator workloads). */
export function minimalTxEffect(txHash: Hex, nullifier: Hex): TxEffect {
  return {
    txHash,
    executionResult: 'success',
    transactionFee: 0n,
    noteHashes: [],
    nullifiers: [nullifier],
    l2ToL1Messages: [],
    publicDataWrites: [],
    privateLogs: [],
    publicLogs: [],
    contractClassPublications: [],
    contractInstancePublications: [],
  };
}
