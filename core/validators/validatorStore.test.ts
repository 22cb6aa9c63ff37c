import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { SLASH_OFFENSES_KEPT_MAX, VALIDATOR_STATS_SLOT_WINDOW } from '../../spec/validators/constants.js';
import { ManualClock } from '../../test/helpers/manualClock.js';
import {
  reopenableClassicLevelStore,
  reopenableInMemoryStore,
  type ReopenableStore,
} from '../../test/helpers/reopenableStorage.js';
import { capturingLogger, silentLogger, type LogLine } from '../../test/helpers/testLogger.js';
import {
  TEST_CHAIN,
  hex32,
  secretKeyOf,
  testAddress,
  testDuties,
  testPayload,
  testValidatorSet,
} from '../../test/validators/validatorFixtures.js';
import type { Chain } from '../chain/chain.js';
import { toStoredJson } from '../chain/serde.js';
import type { StoragePort } from '../ports.js';
import { signCheckpointAttestation } from './bls.js';
import type { SignedEntry } from './offenses.js';
import type { SlotRecord } from './stats.js';
import { ValidatorClient } from './validatorClient.js';
import type { ValidatorDuties } from './validatorDuties.js';
import { ValidatorStore } from './validatorStore.js';

const entry = (signer: Hex, slot: number, variant: number): SignedEntry => ({
  kind: 'checkpointAttestation',
  payload: testPayload(slot, variant),
  payloadHash: hex32(slot * 10 + variant),
  signer,
  signature: `0x${'00'.repeat(96)}`,
});

const [a, b, c] = [testAddress(0), testAddress(1), testAddress(2)];
const slotRecord = (slot: number, attesters: Hex[]): SlotRecord => ({
  slot,
  proposer: slot % 2 === 0 ? a : undefined,
  proposed: slot % 4 === 0,
  committee: [a, b, c],
  attesters: new Set(attesters),
});

const keysUnder = (storage: StoragePort, prefix: string): Promise<string[]> =>
  storage.keys({ gte: prefix, lt: `${prefix}\uffff` }).all();

const stores: ReopenableStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.cleanup();
});

const backends: [string, () => Promise<ReopenableStore>][] = [
  ['memory-level', () => reopenableInMemoryStore(createMemoryStorage())],
  ['classic-level', () => reopenableClassicLevelStore('validator-store-')],
];

describe.each(backends)('ValidatorStore on %s', (_name, makeStore) => {
  async function opened(): Promise<ReopenableStore> {
    const store = await makeStore();
    stores.push(store);
    return store;
  }

  it('reloads the offense log after a restart, evidence and detection order included', async () => {
    const storage = await opened();
    const before = await ValidatorStore.open(storage.store, silentLogger);
    before.offenseLog.record('duplicateAttestation', entry(a, 5, 0), entry(a, 5, 1));
    before.offenseLog.record('duplicateProposal', entry(b, 300, 0), entry(b, 300, 1));
    before.offenseLog.record('duplicateAttestation', entry(c, 7, 0), entry(c, 7, 2));
    await before.settled();
    const after = await ValidatorStore.open(await storage.reopen(), silentLogger);
    expect(after.offenseLog.offenses('all', 0)).toEqual(before.offenseLog.offenses('all', 0));
    expect(after.offenseLog.offenses('current', 5)).toEqual(before.offenseLog.offenses('current', 5));
    expect(after.offenseLog.recordsOf(2n, 0)).toEqual(before.offenseLog.recordsOf(2n, 0));
    // A known offense stays one; a new one follows the reloaded ones and survives the next restart too.
    after.offenseLog.record('duplicateAttestation', entry(a, 5, 0), entry(a, 5, 3));
    after.offenseLog.record('duplicateAttestation', entry(b, 8, 0), entry(b, 8, 1));
    await after.settled();
    const again = await ValidatorStore.open(await storage.reopen(), silentLogger);
    expect(again.offenseLog.offenses('all', 0).map((o) => [o.validator, o.slot])).toEqual([
      [a, 5],
      [b, 300],
      [c, 7],
      [b, 8],
    ]);
  });

  it('reloads the statistics after a restart, within their window', async () => {
    const storage = await opened();
    const before = await ValidatorStore.open(storage.store, silentLogger);
    const records = Array.from({ length: 6 }, (_, i) => slotRecord(20 + i, i % 3 === 0 ? [a] : [a, b]));
    for (const record of records.slice(0, 4)) before.stats.record(record);
    before.slotsRecorded(records.slice(0, 4));
    for (const record of records.slice(4)) before.stats.record(record);
    before.slotsRecorded(records.slice(4));
    await before.settled();
    const after = await ValidatorStore.open(await storage.reopen(), silentLogger);
    expect(after.stats.validatorsStats()).toEqual(before.stats.validatorsStats());
    expect(after.stats.validatorStats(b, 21, 24)).toEqual(before.stats.validatorStats(b, 21, 24));
  });
});

describe('ValidatorStore bounds', () => {
  async function memoryStore(): Promise<ReopenableStore> {
    const store = await reopenableInMemoryStore(createMemoryStorage());
    stores.push(store);
    return store;
  }

  it('keeps as many offenses as the in-memory log, deleting the ones it drops', async () => {
    const storage = await memoryStore();
    const before = await ValidatorStore.open(storage.store, silentLogger);
    const extra = 3;
    for (let slot = 0; slot < SLASH_OFFENSES_KEPT_MAX + extra; slot++)
      before.offenseLog.record('duplicateAttestation', entry(a, slot, 0), entry(a, slot, 1));
    await before.settled();
    expect(await keysUnder(storage.store, 'validators:offense:')).toHaveLength(SLASH_OFFENSES_KEPT_MAX);
    const after = await ValidatorStore.open(await storage.reopen(), silentLogger);
    expect(after.offenseLog.size).toBe(SLASH_OFFENSES_KEPT_MAX);
    expect(after.offenseLog.offenses('all', 0)[0]?.slot).toBe(extra);
    expect(after.offenseLog.offenses('all', 0)).toEqual(before.offenseLog.offenses('all', 0));
  });

  it('deletes the slots that leave the statistics window', async () => {
    const storage = await memoryStore();
    const before = await ValidatorStore.open(storage.store, silentLogger);
    const lastSlot = VALIDATOR_STATS_SLOT_WINDOW + 40;
    for (let slot = 0; slot <= lastSlot; slot += 2) {
      const record = slotRecord(slot, [a, c]);
      before.stats.record(record);
      before.slotsRecorded([record]);
    }
    await before.settled();
    const kept = await keysUnder(storage.store, 'validators:statsSlot:');
    expect(kept).toHaveLength(VALIDATOR_STATS_SLOT_WINDOW / 2);
    const after = await ValidatorStore.open(await storage.reopen(), silentLogger);
    expect(after.stats.validatorsStats()).toEqual(before.stats.validatorsStats());
    expect(after.stats.validatorsStats().initialSlot).toBe(lastSlot - VALIDATOR_STATS_SLOT_WINDOW + 2);
  });
});

describe('a validator client over a reopened storage', () => {
  it('answers the same slash offenses after a restart', async () => {
    const storage = await reopenableInMemoryStore(createMemoryStorage());
    stores.push(storage);
    const dutiesOf = testDuties(testValidatorSet(4));
    const slot = 12;
    const clientOver = async (store: StoragePort): Promise<ValidatorClient> =>
      new ValidatorClient({
        chain: { tips: { checkpointed: { checkpoint: { number: 0 } } } } as unknown as Chain,
        constants: { ...TEST_CHAIN } as unknown as L1RollupConstants,
        clock: new ManualClock(),
        logger: silentLogger,
        duties: { cachedDuties: dutiesOf } as unknown as ValidatorDuties,
        network: undefined,
        keystore: () => ({ validators: [] }),
        limits: () => ({}),
        slotAt: () => slot,
        store: await ValidatorStore.open(store, silentLogger),
      });
    const before = await clientOver(storage.store);
    const attester = dutiesOf(slot).committee.members[1]!.address;
    for (const variant of [0, 1]) {
      const payload = testPayload(slot, variant);
      const { signature } = signCheckpointAttestation(secretKeyOf(attester), payload);
      before.pool.addCheckpointAttestation({ payload, attester, signature });
    }
    expect(before.slashOffenses('all')).toHaveLength(1);
    await before.recordsWritten();
    const after = await clientOver(await storage.reopen());
    expect(after.slashOffenses('all')).toEqual(before.slashOffenses('all'));
    expect(after.slashOffenses('current')).toEqual(before.slashOffenses('current'));
    expect(after.pool.offenseRecords('all')).toEqual(before.pool.offenseRecords('all'));
  });
});

describe('ValidatorStore over its storage', () => {
  async function memoryStore(): Promise<ReopenableStore> {
    const store = await reopenableInMemoryStore(createMemoryStorage());
    stores.push(store);
    return store;
  }

  /** The options each batch was written with, in order. */
  function recordBatchOptions(storage: StoragePort): unknown[] {
    const seen: unknown[] = [];
    const batch = storage.batch.bind(storage) as (ops: unknown, options?: unknown) => Promise<void>;
    (storage as unknown as { batch: typeof batch }).batch = (ops, options) => {
      seen.push(options);
      return batch(ops, options);
    };
    return seen;
  }

  it('refuses to load a stored slot record without a slot, a committee or attesters', async () => {
    const corrupt = [
      { slot: 1.5, proposer: null, proposed: false, committee: [a], attesters: [a] },
      { slot: 1, proposer: null, proposed: false, attesters: [a] },
      { slot: 1, proposer: null, proposed: false, committee: [a] },
    ];
    for (const record of corrupt) {
      const storage = await memoryStore();
      await storage.store.put('validators:statsSlot:000000000001', toStoredJson(record));
      await expect(ValidatorStore.open(storage.store, silentLogger)).rejects.toThrow(
        /a stored slot record has a slot, a committee and attesters/,
      );
    }
  });

  it('logs what it loaded, and nothing when there was nothing', async () => {
    const loadedLines = async (fill: (store: ValidatorStore) => void): Promise<LogLine[]> => {
      const storage = await memoryStore();
      const writer = await ValidatorStore.open(storage.store, silentLogger);
      fill(writer);
      await writer.settled();
      const lines: LogLine[] = [];
      await ValidatorStore.open(
        await storage.reopen(),
        capturingLogger((line) => lines.push(line)),
      );
      return lines.filter((line) => line.message === 'validator records loaded');
    };
    expect(await loadedLines(() => undefined)).toEqual([]);
    const offenses = await loadedLines((store) =>
      store.offenseLog.record('duplicateAttestation', entry(a, 5, 0), entry(a, 5, 1)),
    );
    expect(offenses.map((line) => [line.level, line.fields])).toEqual([['info', { offenses: 1, statsSlots: 0 }]]);
    const slots = await loadedLines((store) => {
      const records = [slotRecord(3, [a]), slotRecord(4, [b])];
      for (const record of records) store.stats.record(record);
      store.slotsRecorded(records);
    });
    expect(slots.map((line) => [line.level, line.fields])).toEqual([['info', { offenses: 0, statsSlots: 2 }]]);
  });

  it('after a restart, keeps deleting the slots that leave the window, also those stored before it', async () => {
    const storage = await memoryStore();
    const record = (store: ValidatorStore, slot: number) => {
      const taken = slotRecord(slot, [a]);
      store.stats.record(taken);
      store.slotsRecorded([taken]);
    };
    const before = await ValidatorStore.open(storage.store, silentLogger);
    for (let slot = 0; slot < 10; slot++) record(before, slot);
    await before.settled();
    const after = await ValidatorStore.open(await storage.reopen(), silentLogger);
    const lastSlot = VALIDATOR_STATS_SLOT_WINDOW + 20;
    for (let slot = 10; slot <= lastSlot; slot++) record(after, slot);
    await after.settled();
    const kept = await keysUnder(storage.store, 'validators:statsSlot:');
    expect(kept).toHaveLength(VALIDATOR_STATS_SLOT_WINDOW);
    expect(kept[0]).toBe(
      `validators:statsSlot:${String(lastSlot - VALIDATOR_STATS_SLOT_WINDOW + 1).padStart(12, '0')}`,
    );
  });

  it('writes offenses with the disk flush and slot records without it', async () => {
    const storage = await memoryStore();
    const store = await ValidatorStore.open(storage.store, silentLogger);
    const options = recordBatchOptions(storage.store);
    store.offenseLog.record('duplicateAttestation', entry(a, 5, 0), entry(a, 5, 1));
    await store.settled();
    expect(options).toEqual([undefined]);
    const taken = slotRecord(6, [a]);
    store.stats.record(taken);
    store.slotsRecorded([taken]);
    await store.settled();
    expect(options).toEqual([undefined, { sync: false }]);
  });

  it('logs a write that failed, keeps the records in memory, and goes on writing', async () => {
    const storage = await memoryStore();
    const lines: LogLine[] = [];
    const store = await ValidatorStore.open(
      storage.store,
      capturingLogger((line) => lines.push(line)),
    );
    const batch = storage.store.batch.bind(storage.store) as (ops: unknown, options?: unknown) => Promise<void>;
    let failNext = true;
    (storage.store as unknown as { batch: typeof batch }).batch = (ops, options) => {
      if (!failNext) return batch(ops, options);
      failNext = false;
      return Promise.reject(new Error('disk full'));
    };
    store.offenseLog.record('duplicateAttestation', entry(a, 5, 0), entry(a, 5, 1));
    store.offenseLog.record('duplicateAttestation', entry(b, 6, 0), entry(b, 6, 1));
    await store.settled();
    expect(lines.filter((line) => line.level === 'warn').map((line) => [line.message, line.fields])).toEqual([
      ['validator records not persisted', { operations: 1, error: 'Error: disk full' }],
    ]);
    expect(store.offenseLog.size).toBe(2);
    expect(await keysUnder(storage.store, 'validators:offense:')).toEqual(['validators:offense:000000000001']);
  });
});
