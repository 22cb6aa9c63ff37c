/**
 * The log index: two block indexers (core/chain/blockIndexer.ts) writing one entry per private log, keyed by tag,
 * and one per public log, keyed by contract address then tag (key layout in logKeys.ts). Their entries are written
 * in the storage batch that adds a block and deleted in the batch that prunes it.
 */
import type { Block, Hex, PrivateLog, PublicLog, TxEffect } from '../../spec/chain.js';
import { PRIVATE_LOGS_PER_TX_MAX, PUBLIC_LOGS_PER_TX_MAX, TXS_PER_BLOCK_MAX } from '../../spec/constants.js';
import { assert } from '../assert.js';
import type { BlockIndexer, IndexOp } from '../chain/blockIndexer.js';
import type { ChainStore } from '../chain/chainStore.js';
import { encodeLogIndexEntry } from './logIndexEntry.js';
import {
  canonicalField,
  PRIVATE_LOG_KEY_PREFIX,
  privateLogKey,
  PUBLIC_LOG_KEY_PREFIX,
  publicLogKey,
  type LogPosition,
} from './logKeys.js';

interface LogEntry {
  readonly key: string;
  readonly value: string;
}

/** A field of a stored block in canonical form; the block codec admits only 32-byte fields. */
function storedField(value: Hex): Hex {
  const canonical = canonicalField(value);
  assert(canonical !== undefined, `a field of a stored block is hex of at most 32 bytes, not ${value}`);
  return canonical;
}

/** One entry per log of the block, in chain order; `keyOf` places a log in the index. */
function logEntries<L extends { readonly fields: readonly Hex[] }>(
  block: Block,
  logsOf: (effect: TxEffect) => readonly L[],
  logsPerTxMax: number,
  keyOf: (log: L, position: LogPosition) => string,
): LogEntry[] {
  const effects = block.body.txEffects;
  assert(
    effects.length <= TXS_PER_BLOCK_MAX,
    `block ${block.header.globalVariables.blockNumber} holds at most ${TXS_PER_BLOCK_MAX} txs`,
  );
  const blockNumber = block.header.globalVariables.blockNumber;
  const entries: LogEntry[] = [];
  effects.forEach((effect, txIndexInBlock) => {
    const logs = logsOf(effect);
    assert(logs.length <= logsPerTxMax, `tx ${effect.txHash} holds at most ${logsPerTxMax} logs of a kind`);
    logs.forEach((log, logIndexInTx) => {
      const position = { blockNumber, txIndexInBlock, logIndexInTx };
      const fields = log.fields.map(storedField);
      const value = encodeLogIndexEntry({
        txHash: effect.txHash,
        l2BlockNumber: blockNumber,
        l2BlockHash: block.hash,
        txIndexInBlock,
        logIndexInTx,
        fields,
      });
      entries.push({ key: keyOf(log, position), value });
    });
  });
  return entries;
}

export function privateLogEntries(block: Block): LogEntry[] {
  return logEntries(
    block,
    (effect) => effect.privateLogs,
    PRIVATE_LOGS_PER_TX_MAX,
    (log: PrivateLog, position) => privateLogKey(storedField(log.tag), position),
  );
}

export function publicLogEntries(block: Block): LogEntry[] {
  const keyOf = (log: PublicLog, position: LogPosition) =>
    publicLogKey(storedField(log.contractAddress), storedField(log.tag), position);
  return logEntries(block, (effect) => effect.publicLogs, PUBLIC_LOGS_PER_TX_MAX, keyOf);
}

function indexerOf(keyPrefix: string, entriesOf: (block: Block) => LogEntry[]): BlockIndexer {
  return {
    keyPrefix,
    blockAdded: (block): IndexOp[] => entriesOf(block).map(({ key, value }) => ({ type: 'put', key, value })),
    blockRemoved: (block): IndexOp[] => entriesOf(block).map(({ key }) => ({ type: 'del', key })),
  };
}

export const privateLogIndexer: BlockIndexer = indexerOf(PRIVATE_LOG_KEY_PREFIX, privateLogEntries);
export const publicLogIndexer: BlockIndexer = indexerOf(PUBLIC_LOG_KEY_PREFIX, publicLogEntries);

/** Adds both log indexers to the store; do it before the store writes blocks (blocks written earlier have no entries). */
export function registerLogIndexers(store: Pick<ChainStore, 'registerIndexer'>): void {
  store.registerIndexer(privateLogIndexer);
  store.registerIndexer(publicLogIndexer);
}
