/**
 * The validator subsystem's records through the storage port, so that they survive a restart: the offense log
 * (core/validators/offenses.ts) and the statistics' slot history (core/validators/stats.ts). `open` loads both; after
 * that every change is written in the background, one batch per change, in order (`settled` waits for them).
 *
 * Keys (beside the chain store's, in the same database):
 * - `validators:offense:<sequence, 12 digits>` -> stored JSON (core/chain/serde.ts) of a SequencedOffenseRecord;
 *   a record dropped from the log's bound is deleted in the batch that adds the newer one;
 * - `validators:statsSlot:<slot, 12 digits>` -> stored JSON of a StoredSlotRecord; slots that leave the statistics'
 *   window are deleted in the batch that records the newer slot.
 *
 * Offenses are written with the disk flush (they are evidence, and rare); slot records without it, one per slot: a
 * machine crash may lose the last few, as it loses the gossip they were counted from.
 */
import type { Hex } from '../../spec/chain.js';
import { SLASH_OFFENSES_KEPT_MAX, VALIDATOR_STATS_SLOT_WINDOW } from '../../spec/validators/constants.js';
import { assert } from '../assert.js';
import { fromStoredJson, toStoredJson } from '../chain/serde.js';
import { batchWithoutFlush, type LoggerPort, type StorageOp, type StoragePort } from '../ports.js';
import { OffenseLog, type OffenseLogChange, type SequencedOffenseRecord } from './offenses.js';
import { ValidatorStatsHistory, type SlotRecord } from './stats.js';

export const VALIDATOR_KEY_PREFIX = 'validators:';
const OFFENSE_KEY_PREFIX = `${VALIDATOR_KEY_PREFIX}offense:`;
/** The first key after every `validators:offense:` key (';' follows ':'). */
const OFFENSE_KEY_END = `${VALIDATOR_KEY_PREFIX}offense;`;
const STATS_SLOT_KEY_PREFIX = `${VALIDATOR_KEY_PREFIX}statsSlot:`;
const STATS_SLOT_KEY_END = `${VALIDATOR_KEY_PREFIX}statsSlot;`;

/** Fixed-width decimal so that lexicographic key order is numeric order. */
const pad = (n: number): string => n.toString().padStart(12, '0');
const offenseKey = (sequence: number): string => `${OFFENSE_KEY_PREFIX}${pad(sequence)}`;
const statsSlotKey = (slot: number): string => `${STATS_SLOT_KEY_PREFIX}${pad(slot)}`;

/** A slot record as stored: JSON has no undefined and no sets. */
interface StoredSlotRecord {
  readonly slot: number;
  readonly proposer: Hex | null;
  readonly proposed: boolean;
  readonly committee: readonly Hex[];
  readonly attesters: readonly Hex[];
}

function toStoredSlotRecord(record: SlotRecord): StoredSlotRecord {
  return { ...record, proposer: record.proposer ?? null, attesters: [...record.attesters] };
}

function slotRecordOfStored(stored: StoredSlotRecord): SlotRecord {
  assert(
    Number.isSafeInteger(stored.slot) && Array.isArray(stored.committee) && Array.isArray(stored.attesters),
    'a stored slot record has a slot, a committee and attesters',
  );
  return { ...stored, proposer: stored.proposer ?? undefined, attesters: new Set(stored.attesters) };
}

/** The newest `limit` values under a key range, oldest first. */
async function newestValues(storage: StoragePort, gte: string, lt: string, limit: number): Promise<string[]> {
  const newestFirst = await storage.values({ gte, lt, limit, reverse: true }).all();
  return newestFirst.reverse();
}

export class ValidatorStore {
  private writes: Promise<void> = Promise.resolve();
  /** Slots whose record is stored (or on its way), in order: the statistics' kept slots. */
  private storedSlots: number[];

  private constructor(
    private readonly storage: StoragePort,
    private readonly logger: LoggerPort,
    readonly offenseLog: OffenseLog,
    readonly stats: ValidatorStatsHistory,
  ) {
    this.storedSlots = [...stats.keptSlots];
    offenseLog.onChange((change) => this.write(offenseOps(change), 'flush'));
  }

  /** Loads the offense log and the statistics as they were written (the storage is open). */
  static async open(storage: StoragePort, logger: LoggerPort): Promise<ValidatorStore> {
    const offenseTexts = await newestValues(storage, OFFENSE_KEY_PREFIX, OFFENSE_KEY_END, SLASH_OFFENSES_KEPT_MAX);
    const offenseLog = OffenseLog.restore(offenseTexts.map((text) => fromStoredJson<SequencedOffenseRecord>(text)));
    const slotTexts = await newestValues(
      storage,
      STATS_SLOT_KEY_PREFIX,
      STATS_SLOT_KEY_END,
      VALIDATOR_STATS_SLOT_WINDOW,
    );
    const stats = new ValidatorStatsHistory();
    for (const text of slotTexts) stats.record(slotRecordOfStored(fromStoredJson<StoredSlotRecord>(text)));
    if (offenseLog.size > 0 || slotTexts.length > 0)
      logger.info('validator records loaded', { offenses: offenseLog.size, statsSlots: slotTexts.length });
    return new ValidatorStore(storage, logger, offenseLog, stats);
  }

  /** Writes the records `stats` just took (in slot order), and deletes the slots that left its window. */
  slotsRecorded(records: readonly SlotRecord[]): void {
    if (records.length === 0) return;
    const kept = new Set(this.stats.keptSlots);
    const ops: StorageOp[] = records
      .filter((record) => kept.has(record.slot))
      .map((record) => ({
        type: 'put',
        key: statsSlotKey(record.slot),
        value: toStoredJson(toStoredSlotRecord(record)),
      }));
    const stored = [...this.storedSlots, ...records.map((r) => r.slot)];
    for (const slot of stored) if (!kept.has(slot)) ops.push({ type: 'del', key: statsSlotKey(slot) });
    this.storedSlots = stored.filter((slot) => kept.has(slot));
    assert(this.storedSlots.length <= VALIDATOR_STATS_SLOT_WINDOW, 'stored slot records stay within the window');
    this.write(ops, 'noFlush');
  }

  /** Resolves once every change made so far is written (or its failure logged). */
  settled(): Promise<void> {
    return this.writes;
  }

  private write(ops: readonly StorageOp[], durability: 'flush' | 'noFlush'): void {
    if (ops.length === 0) return;
    this.writes = this.writes
      .then(() => (durability === 'flush' ? this.storage.batch([...ops]) : batchWithoutFlush(this.storage, ops)))
      .catch((error: unknown) => {
        // The records stay in memory; only their survival of a restart is lost.
        this.logger.warn('validator records not persisted', { operations: ops.length, error: String(error) });
      });
  }
}

function offenseOps(change: OffenseLogChange): StorageOp[] {
  const ops: StorageOp[] = [{ type: 'put', key: offenseKey(change.added.sequence), value: toStoredJson(change.added) }];
  if (change.dropped !== undefined) ops.push({ type: 'del', key: offenseKey(change.dropped.sequence) });
  return ops;
}
