/**
 * JSON for stored values: bigints are written as `"<digits>n"` strings and read back as bigints. Hex strings and
 * other text never end in `n` after only digits, so the tagging is unambiguous for the node's own values.
 */
const BIGINT_RE = /^-?\d+n$/;

export function toStoredJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
}

export function fromStoredJson<T>(text: string): T {
  return JSON.parse(text, (_key, v: unknown) =>
    typeof v === 'string' && BIGINT_RE.test(v) ? BigInt(v.slice(0, -1)) : v,
  ) as T;
}
