/** Settings the benchmarks read from the environment. */

/**
 * The integer in environment variable `name`, from 1 to `max`; `fallback` when it is unset or empty. Anything else is
 * an error naming the variable, so a mistyped setting never runs a different benchmark than the one asked for.
 */
export function positiveIntegerSetting(name: string, fallback: number, max: number): number {
  return integerSetting(name, fallback, 1, max);
}

/** The integer in environment variable `name`, from `min` to `max`, as positiveIntegerSetting reads it. */
export function integerSetting(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max)
    throw new Error(`${name} must be an integer in [${min}, ${max}], got ${raw}`);
  return value;
}
