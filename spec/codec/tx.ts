/**
 * Byte encoding of a transaction and its hash (docs/protocol.md, Transaction encoding: `txHash` is the hash of
 * everything but the proof). `encodeTxPreimage` is the canonical encoding of every field except `txHash` and `proof`;
 * the hash is hashToField of it. Layout (big-endian; every list prefixed by its count, bounded by spec/constants.ts):
 *   chainId u64 | version u64 | anchorBlockHash 32 | expirationTimestamp 32 | feePayer 32
 *   | gasLimits (daGas u64, l2Gas u64) | maxFeesPerGas (da 32, l2 32) | maxPriorityFeesPerGas (da 32, l2 32)
 *   | nullifiers u8 + 32 each | noteHashes u8 + 32 each
 *   | privateLogs u8 + (tag 32, fields u8 + 32 each) each | l2ToL1Messages u8 + (recipient 20, content 32) each
 *   | contractClassPublications u8 + (id, version u64, artifactHash, privateFunctionsRoot, publicBytecodeCommitment,
 *     bytecode u32 length + bytes) each | contractInstancePublications u8 + (address, version u64, salt, deployer,
 *     currentClassId, originalClassId, initializationHash, publicKeysHash) each
 *   | setup calls u8 + call each | appLogic calls u8 + call each | teardown u8 (0 or 1) + call
 *   call = contractAddress 32 | msgSender 32 | isStaticCall u8 | calldata u16 + 32 each
 */
import type { Hex } from '../chain.js';
import {
  CALLDATA_FIELDS_MAX,
  CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX,
  CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX,
  L2_TO_L1_MESSAGES_PER_TX_MAX,
  LOG_FIELDS_MAX,
  NOTE_HASHES_PER_TX_MAX,
  NULLIFIERS_PER_TX_MAX,
  PRIVATE_LOGS_PER_TX_MAX,
  PUBLIC_CALLS_PER_TX_MAX,
} from '../constants.js';
import { hashToField } from '../hash.js';
import type { TxValue } from '../wire/tx.js';
import { ByteWriter, CodecError, hexToBytes } from './bytes.js';
import { writeContractClass, writeContractInstance } from './contracts.js';

type PublicCall = TxValue['publicCalls']['appLogic'][number];

const FIELD = 32;

/** What the hash covers: a tx with or without its hash and proof (both are ignored). */
export type TxPreimage = Omit<TxValue, 'txHash' | 'proof'> & { readonly txHash?: Hex; readonly proof?: Hex };

function list<T>(
  w: ByteWriter,
  items: readonly T[],
  max: number,
  what: string,
  countBytes: number,
  write: (item: T) => void,
): void {
  if (items.length > max) throw new CodecError(`a tx carries at most ${max} ${what}, got ${items.length}`);
  w.uint(items.length, countBytes);
  for (const item of items) write(item);
}

function writeCall(w: ByteWriter, call: PublicCall): void {
  w.hex(call.contractAddress, FIELD)
    .hex(call.msgSender, FIELD)
    .uint(call.isStaticCall ? 1 : 0, 1);
  list(w, call.calldata, CALLDATA_FIELDS_MAX, 'calldata fields in one call', 2, (field) => w.hex(field, FIELD));
}

function writeSideEffects(w: ByteWriter, effects: TxValue['sideEffects']): void {
  list(w, effects.nullifiers, NULLIFIERS_PER_TX_MAX, 'nullifiers', 1, (h) => w.hex(h, FIELD));
  list(w, effects.noteHashes, NOTE_HASHES_PER_TX_MAX, 'note hashes', 1, (h) => w.hex(h, FIELD));
  list(w, effects.privateLogs, PRIVATE_LOGS_PER_TX_MAX, 'private logs', 1, (log) => {
    w.hex(log.tag, FIELD);
    list(w, log.fields, LOG_FIELDS_MAX, 'fields in one log', 1, (field) => w.hex(field, FIELD));
  });
  list(w, effects.l2ToL1Messages, L2_TO_L1_MESSAGES_PER_TX_MAX, 'L2-to-L1 messages', 1, (message) =>
    w.hex(message.recipient, 20).hex(message.content, FIELD),
  );
  list(
    w,
    effects.contractClassPublications,
    CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX,
    'contract class publications',
    1,
    (c) => writeContractClass(w, c),
  );
  list(
    w,
    effects.contractInstancePublications,
    CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX,
    'contract instance publications',
    1,
    (i) => writeContractInstance(w, i),
  );
}

function writePublicCalls(w: ByteWriter, calls: TxValue['publicCalls']): void {
  const total = calls.setup.length + calls.appLogic.length + (calls.teardown === null ? 0 : 1);
  if (total > PUBLIC_CALLS_PER_TX_MAX)
    throw new CodecError(`a tx carries at most ${PUBLIC_CALLS_PER_TX_MAX} public calls, got ${total}`);
  list(w, calls.setup, PUBLIC_CALLS_PER_TX_MAX, 'setup calls', 1, (call) => writeCall(w, call));
  list(w, calls.appLogic, PUBLIC_CALLS_PER_TX_MAX, 'app logic calls', 1, (call) => writeCall(w, call));
  list(w, calls.teardown === null ? [] : [calls.teardown], 1, 'teardown calls', 1, (call) => writeCall(w, call));
}

/** Everything of a tx but its hash and its proof, canonically encoded. Throws CodecError past a bound. */
export function encodeTxPreimage(tx: TxPreimage): Uint8Array {
  const w = new ByteWriter();
  w.uint(tx.chainId, 8)
    .uint(tx.version, 8)
    .hex(tx.anchorBlockHash, FIELD)
    .uint(tx.expirationTimestamp, FIELD)
    .hex(tx.feePayer, FIELD);
  const { gasLimits, maxFeesPerGas, maxPriorityFeesPerGas } = tx.gasSettings;
  w.uint(gasLimits.daGas, 8).uint(gasLimits.l2Gas, 8);
  w.uint(maxFeesPerGas.feePerDaGas, FIELD).uint(maxFeesPerGas.feePerL2Gas, FIELD);
  w.uint(maxPriorityFeesPerGas.feePerDaGas, FIELD).uint(maxPriorityFeesPerGas.feePerL2Gas, FIELD);
  writeSideEffects(w, tx.sideEffects);
  writePublicCalls(w, tx.publicCalls);
  return w.finish();
}

/** The tx's hash: hashToField of its preimage encoding (the proof is not covered). */
export function computeTxHash(tx: TxPreimage): Hex {
  return hashToField(encodeTxPreimage(tx));
}

/** The tx's size in bytes as the node accounts it: its preimage, its hash and its proof. */
export function txSizeBytes(tx: TxValue): number {
  return encodeTxPreimage(tx).length + FIELD + hexToBytes(tx.proof).length;
}

/** computeTxHash and txSizeBytes of one tx from one encoding of its preimage (validation needs both). */
export function txHashAndSize(tx: TxValue): { readonly hash: Hex; readonly sizeBytes: number } {
  const preimage = encodeTxPreimage(tx);
  return { hash: hashToField(preimage), sizeBytes: preimage.length + FIELD + hexToBytes(tx.proof).length };
}
