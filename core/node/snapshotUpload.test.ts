import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isoUtcTimestamp } from './snapshotUpload.js';

describe('isoUtcTimestamp', () => {
  test("is Date's toISOString for every time from 1970 to 9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(isoUtcTimestamp(ms)).toBe(new Date(ms).toISOString());
      }),
    );
    expect(isoUtcTimestamp(951_782_400_000)).toBe('2000-02-29T00:00:00.000Z');
  });
});
