import { describe, expect, it } from 'vitest';
import { createSystemClock } from './systemClock.js';

describe('createSystemClock', () => {
  it('reads Unix milliseconds', () => {
    const before = Date.now();
    const now = createSystemClock().now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('keeps the process alive while a timer is pending', () => {
    const clock = createSystemClock();
    const id = clock.setTimeout(() => undefined, 60_000) as NodeJS.Timeout;
    try {
      expect(id.hasRef()).toBe(true);
    } finally {
      clock.clearTimeout(id);
    }
  });
});
