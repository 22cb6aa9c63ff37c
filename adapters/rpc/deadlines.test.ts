import { expect, test } from 'vitest';
import { Deadlines } from './deadlines.js';

test('a settled call keeps its value or error; one past its deadline is rejected; the sweep stops when idle', async () => {
  const deadlines = new Deadlines(50, () => new Error('timed out'));
  await expect(deadlines.race(Promise.resolve(7))).resolves.toBe(7);
  await expect(deadlines.race(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
  const started = Date.now();
  await expect(deadlines.race(new Promise(() => undefined))).rejects.toThrow('timed out');
  expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect((deadlines as unknown as { timer: unknown }).timer).toBeUndefined();
});
