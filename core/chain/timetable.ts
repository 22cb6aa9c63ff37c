import type { L1RollupConstants } from '../../spec/chain.js';

/** Slot arithmetic over the rollup constants. Times are Unix seconds unless named `Ms`. */
export interface Timetable {
  slotAt(timestampSeconds: bigint): number;
  slotStartSeconds(slot: number): bigint;
  slotStartMs(slot: number): number;
  slotDurationMs: number;
  epochOfSlot(slot: number): number;
}

type TimetableConstants = Pick<L1RollupConstants, 'l1GenesisTime' | 'slotDuration' | 'epochDuration'>;

/**
 * The timetable of `c`. Callers make one wherever they need it (the tx pool on every validation), so it is a class:
 * methods on its prototype, not closures made (and, under tsx, renamed) on every call.
 */
export function createTimetable(c: TimetableConstants): Timetable {
  return new ConstantsTimetable(c);
}

class ConstantsTimetable implements Timetable {
  readonly slotDurationMs: number;
  readonly #genesis: bigint;
  readonly #slotDuration: bigint;
  readonly #epochDuration: number;

  constructor(c: TimetableConstants) {
    this.#genesis = c.l1GenesisTime;
    this.#slotDuration = BigInt(c.slotDuration);
    this.#epochDuration = c.epochDuration;
    this.slotDurationMs = c.slotDuration * 1000;
  }

  slotAt(t: bigint): number {
    return t < this.#genesis ? -1 : Number((t - this.#genesis) / this.#slotDuration);
  }

  slotStartSeconds(slot: number): bigint {
    return this.#genesis + BigInt(slot) * this.#slotDuration;
  }

  slotStartMs(slot: number): number {
    return Number(this.slotStartSeconds(slot)) * 1000;
  }

  epochOfSlot(slot: number): number {
    return Math.floor(slot / this.#epochDuration);
  }
}
