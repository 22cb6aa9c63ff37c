import type { L1RollupConstants } from '../../spec/chain.js';

/** Slot arithmetic over the rollup constants. Times are Unix seconds unless named `Ms`. */
export interface Timetable {
  slotAt(timestampSeconds: bigint): number;
  slotStartSeconds(slot: number): bigint;
  slotStartMs(slot: number): number;
  slotDurationMs: number;
  epochOfSlot(slot: number): number;
}

export function createTimetable(
  c: Pick<L1RollupConstants, 'l1GenesisTime' | 'slotDuration' | 'epochDuration'>,
): Timetable {
  const slotDuration = BigInt(c.slotDuration);
  return {
    slotAt: (t) => (t < c.l1GenesisTime ? -1 : Number((t - c.l1GenesisTime) / slotDuration)),
    slotStartSeconds: (slot) => c.l1GenesisTime + BigInt(slot) * slotDuration,
    slotStartMs: (slot) => Number(c.l1GenesisTime + BigInt(slot) * slotDuration) * 1000,
    slotDurationMs: c.slotDuration * 1000,
    epochOfSlot: (slot) => Math.floor(slot / c.epochDuration),
  };
}
