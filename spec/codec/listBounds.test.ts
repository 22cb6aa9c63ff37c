/**
 * Every list a tx or a tx effect carries, at its bound: the bound itself encodes (and decodes), one more is refused
 * with an error naming the list and the bound, and a forged count above it is refused on reading.
 */
import { describe, expect, it } from 'vitest';
import type { ContractClassPublication, ContractInstancePublication, Hex, TxEffect } from '../chain.js';
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
  PUBLIC_DATA_WRITES_PER_TX_MAX,
  PUBLIC_LOGS_PER_TX_MAX,
} from '../constants.js';
import type { TxValue } from '../wire/tx.js';
import { ByteReader, ByteWriter } from './bytes.js';
import { encodeTxPreimage } from './tx.js';
import { encodeTxEffects, minimalTxEffect, readTxEffect, writeTxEffect } from './txEffect.js';

const h = (n: number, bytes = 32): Hex => `0x${n.toString(16).padStart(bytes * 2, '0')}`;
const times = <T>(count: number, item: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => item(i));

const classPublication = (n: number): ContractClassPublication => ({
  id: h(n),
  version: 1,
  artifactHash: h(n + 1),
  privateFunctionsRoot: h(n + 2),
  publicBytecodeCommitment: h(n + 3),
  packedBytecode: '0x0102',
});
const instancePublication = (n: number): ContractInstancePublication => ({
  address: h(n),
  version: 1,
  salt: h(n + 1),
  deployer: h(n + 2),
  currentContractClassId: h(n + 3),
  originalContractClassId: h(n + 4),
  initializationHash: h(n + 5),
  publicKeysHash: h(n + 6),
});
const call = (n: number, calldata: Hex[] = []) => ({
  contractAddress: h(n),
  msgSender: h(n + 1),
  isStaticCall: n % 2 === 0,
  calldata,
});

const baseTx: TxValue = {
  txHash: h(0),
  chainId: 31337,
  version: 1,
  anchorBlockHash: h(7),
  expirationTimestamp: 1_700_000_000n,
  feePayer: h(9),
  gasSettings: {
    gasLimits: { daGas: 1000, l2Gas: 2000 },
    maxFeesPerGas: { feePerDaGas: 3n, feePerL2Gas: 4n },
    maxPriorityFeesPerGas: { feePerDaGas: 1n, feePerL2Gas: 2n },
  },
  sideEffects: {
    nullifiers: [h(11)],
    noteHashes: [],
    privateLogs: [],
    l2ToL1Messages: [],
    contractClassPublications: [],
    contractInstancePublications: [],
  },
  publicCalls: { setup: [], appLogic: [], teardown: null },
  proof: '0x',
};

type SideEffects = TxValue['sideEffects'];

/** A tx list: its name in the error, its bound, and the tx carrying `count` entries of it. */
interface TxList {
  readonly what: string;
  readonly max: number;
  readonly tx: (count: number) => TxValue;
}

const withSideEffects = (effects: Partial<SideEffects>): TxValue => ({
  ...baseTx,
  sideEffects: { ...baseTx.sideEffects, ...effects },
});

const TX_LISTS: readonly TxList[] = [
  { what: 'nullifiers', max: NULLIFIERS_PER_TX_MAX, tx: (n) => withSideEffects({ nullifiers: times(n, h) }) },
  { what: 'note hashes', max: NOTE_HASHES_PER_TX_MAX, tx: (n) => withSideEffects({ noteHashes: times(n, h) }) },
  {
    what: 'private logs',
    max: PRIVATE_LOGS_PER_TX_MAX,
    tx: (n) => withSideEffects({ privateLogs: times(n, (i) => ({ tag: h(i), fields: [] })) }),
  },
  {
    what: 'fields in one log',
    max: LOG_FIELDS_MAX,
    tx: (n) => withSideEffects({ privateLogs: [{ tag: h(1), fields: times(n, h) }] }),
  },
  {
    what: 'L2-to-L1 messages',
    max: L2_TO_L1_MESSAGES_PER_TX_MAX,
    tx: (n) => withSideEffects({ l2ToL1Messages: times(n, (i) => ({ recipient: h(i, 20), content: h(i) })) }),
  },
  {
    what: 'contract class publications',
    max: CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX,
    tx: (n) => withSideEffects({ contractClassPublications: times(n, classPublication) }),
  },
  {
    what: 'contract instance publications',
    max: CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX,
    tx: (n) => withSideEffects({ contractInstancePublications: times(n, instancePublication) }),
  },
  {
    what: 'calldata fields in one call',
    max: CALLDATA_FIELDS_MAX,
    tx: (n) => ({ ...baseTx, publicCalls: { setup: [], appLogic: [call(1, times(n, h))], teardown: null } }),
  },
  {
    what: 'public calls',
    max: PUBLIC_CALLS_PER_TX_MAX,
    tx: (n) => ({ ...baseTx, publicCalls: { setup: times(n - 1, call), appLogic: [], teardown: call(99) } }),
  },
  {
    what: 'public calls',
    max: PUBLIC_CALLS_PER_TX_MAX,
    tx: (n) => ({ ...baseTx, publicCalls: { setup: [call(1)], appLogic: times(n - 1, call), teardown: null } }),
  },
];

describe('tx preimage lists', () => {
  for (const list of TX_LISTS) {
    it(`encodes ${list.max} ${list.what}, refuses ${list.max + 1} (${TX_LISTS.indexOf(list)})`, () => {
      const atBound = encodeTxPreimage(list.tx(list.max));
      expect(atBound.length).toBeGreaterThan(encodeTxPreimage(list.tx(list.max - 1)).length);
      expect(() => encodeTxPreimage(list.tx(list.max + 1))).toThrow(
        `a tx carries at most ${list.max} ${list.what}, got ${list.max + 1}`,
      );
    });
  }

  it('counts each call list and the teardown apart', () => {
    const encode = (calls: TxValue['publicCalls']) => encodeTxPreimage({ ...baseTx, publicCalls: calls });
    const setupOnly = encode({ setup: [call(1)], appLogic: [], teardown: null });
    const appOnly = encode({ setup: [], appLogic: [call(1)], teardown: null });
    const teardownOnly = encode({ setup: [], appLogic: [], teardown: call(1) });
    const none = encode({ setup: [], appLogic: [], teardown: null });
    expect(new Set([setupOnly, appOnly, teardownOnly].map((bytes) => Buffer.from(bytes).toString('hex'))).size).toBe(3);
    expect(setupOnly.length).toBe(none.length + 32 + 32 + 1 + 2);
    // The three counts, one byte each, end the encoding: setup, app logic, teardown.
    expect([...none.subarray(-3)]).toEqual([0, 0, 0]);
    expect([...teardownOnly.subarray(none.length - 1, none.length)]).toEqual([1]);
  });
});

/** A tx effect list: its name in the errors, its bound, and the effect carrying `count` entries of it. */
interface EffectList {
  readonly what: string;
  readonly max: number;
  readonly effect: (count: number) => TxEffect;
}

const EMPTY_EFFECT: TxEffect = { ...minimalTxEffect(h(1), h(2)), nullifiers: [] };
const withLists = (lists: Partial<TxEffect>): TxEffect => ({ ...EMPTY_EFFECT, ...lists });

const EFFECT_LISTS: readonly EffectList[] = [
  { what: 'note hashes', max: NOTE_HASHES_PER_TX_MAX, effect: (n) => withLists({ noteHashes: times(n, h) }) },
  { what: 'nullifiers', max: NULLIFIERS_PER_TX_MAX, effect: (n) => withLists({ nullifiers: times(n, h) }) },
  {
    what: 'L2-to-L1 messages',
    max: L2_TO_L1_MESSAGES_PER_TX_MAX,
    effect: (n) => withLists({ l2ToL1Messages: times(n, h) }),
  },
  {
    what: 'public data writes',
    max: PUBLIC_DATA_WRITES_PER_TX_MAX,
    effect: (n) => withLists({ publicDataWrites: times(n, (i) => ({ leafSlot: h(i), value: h(i + 1) })) }),
  },
  {
    what: 'private logs',
    max: PRIVATE_LOGS_PER_TX_MAX,
    effect: (n) => withLists({ privateLogs: times(n, (i) => ({ tag: h(i), fields: [] })) }),
  },
  {
    what: 'public logs',
    max: PUBLIC_LOGS_PER_TX_MAX,
    effect: (n) => withLists({ publicLogs: times(n, (i) => ({ contractAddress: h(i), tag: h(i), fields: [] })) }),
  },
  {
    what: 'log fields',
    max: LOG_FIELDS_MAX,
    effect: (n) => withLists({ privateLogs: [{ tag: h(1), fields: times(n, h) }] }),
  },
  {
    what: 'log fields',
    max: LOG_FIELDS_MAX,
    effect: (n) => withLists({ publicLogs: [{ contractAddress: h(1), tag: h(2), fields: times(n, h) }] }),
  },
  {
    what: 'contract class publications',
    max: CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX,
    effect: (n) => withLists({ contractClassPublications: times(n, classPublication) }),
  },
  {
    what: 'contract instance publications',
    max: CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX,
    effect: (n) => withLists({ contractInstancePublications: times(n, instancePublication) }),
  },
];

/** The position of the list's count: the first byte where the effect with none and the one with one differ. */
function countOffset(list: EffectList): number {
  const none = encodeTxEffects([list.effect(0)]);
  const one = encodeTxEffects([list.effect(1)]);
  return none.findIndex((byte, i) => byte !== one[i]);
}

describe('tx effect lists', () => {
  for (const list of EFFECT_LISTS) {
    it(`carries ${list.max} ${list.what} both ways, refuses ${list.max + 1} both ways (${EFFECT_LISTS.indexOf(list)})`, () => {
      const atBound = list.effect(list.max);
      const bytes = encodeTxEffects([atBound]);
      expect(readTxEffect(new ByteReader(bytes))).toEqual(atBound);
      expect(() => writeTxEffect(new ByteWriter(), list.effect(list.max + 1))).toThrow(
        `a tx effect carries at most ${list.max} ${list.what}, got ${list.max + 1}`,
      );
      const forged = bytes.slice();
      forged[countOffset(list)] = list.max + 1;
      expect(() => readTxEffect(new ByteReader(forged))).toThrow(
        `a tx effect declares ${list.max + 1} ${list.what}, at most ${list.max} allowed`,
      );
    });
  }

  it('refuses an execution result it has no code for', () => {
    const effect = { ...EMPTY_EFFECT, executionResult: 'exploded' } as unknown as TxEffect;
    expect(() => writeTxEffect(new ByteWriter(), effect)).toThrow('unknown execution result exploded');
  });
});
