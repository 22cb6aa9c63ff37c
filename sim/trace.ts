import { hash } from 'node:crypto';
import { assert } from '../core/assert.js';
import type { Hex } from '../spec/chain.js';
import { bytesToHex } from '../spec/codec/bytes.js';

/**
 * The record of a run's significant events. Each entry is a kind plus JSON-safe fields, stamped with simulated time
 * and a sequence number, and folded into a chained sha256:
 *
 *   hash_0 = 32 zero bytes;  hash_i = sha256(hash_{i-1} || utf8(line_i))
 *   line_i = `${seq} ${timeMs} ${kind} ${canonicalJson(fields)}`
 *
 * Two runs of the same seed must end with the same `traceHash()`; each kept entry carries the chain value after it,
 * so two diverging runs can be compared entry by entry to find the first difference.
 *
 * Canonical JSON: object keys sorted (code unit order), undefined members left out, bigint as a decimal string,
 * byte arrays as 0x hex, Map as an object, Set and other iterables as arrays, Error as { name, message, code? },
 * non-finite numbers as strings, -0 as 0.
 */

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

/** Entries kept in memory for diagnostics by default; every entry, kept or not, is in the hash. */
export const TRACE_ENTRIES_KEPT_DEFAULT = 10_000;
/** Nesting depth of trace fields; deeper means a cycle or a value that does not belong in a trace. */
export const TRACE_FIELD_DEPTH_MAX = 32;

const KIND_RE = /^[A-Za-z0-9_.:/-]+$/;

export interface TraceEntry {
  readonly seq: number;
  readonly timeMs: number;
  readonly kind: string;
  readonly fields: JsonObject;
  /** The chain hash after this entry. */
  readonly hash: Hex;
}

/** A kept entry before its chain value is written as hex. */
interface KeptEntry extends Omit<TraceEntry, 'hash'> {
  readonly chain: Buffer;
}

/** Bytes of the chain value. */
const CHAIN_BYTES = 32;
/** The buffer each entry's hash input is written into (longer lines are concatenated instead). */
const TRACE_SCRATCH_BYTES = 64 * 1024;

export interface TraceOptions {
  /** Simulated time source (the scheduler's true time). */
  readonly now: () => number;
  /** How many recent entries to keep in memory (default TRACE_ENTRIES_KEPT_DEFAULT; 0 keeps none). */
  readonly keepLast?: number;
  /** Receives every entry's line as it is recorded (e.g. to print a verbose run). */
  readonly sink?: (line: string) => void;
}

export class Trace {
  private readonly now: () => number;
  private readonly keepLast: number;
  private readonly sink: ((line: string) => void) | undefined;
  /** Ring buffer of the last `keepLast` entries; entry `seq` sits at `seq % keepLast`. */
  private readonly kept: KeptEntry[] = [];
  private chain: Buffer = Buffer.alloc(CHAIN_BYTES);
  private readonly scratch = Buffer.allocUnsafe(TRACE_SCRATCH_BYTES);
  private count = 0;

  constructor(options: TraceOptions) {
    this.now = options.now;
    this.keepLast = options.keepLast ?? TRACE_ENTRIES_KEPT_DEFAULT;
    assert(
      Number.isSafeInteger(this.keepLast) && this.keepLast >= 0,
      `keepLast ${this.keepLast} must be a non-negative integer`,
    );
    this.sink = options.sink;
  }

  record(kind: string, fields: Readonly<Record<string, unknown>> = {}): void {
    assert(KIND_RE.test(kind), `trace kind ${JSON.stringify(kind)} must be non-empty and use [A-Za-z0-9_.:/-] only`);
    // The canonical text in one walk; the JSON value only for a trace that keeps entries (a simulation's keeps none).
    const text = canonicalTraceText(fields, 0);
    assert(text.charCodeAt(0) === OPEN_BRACE, 'trace fields must be an object');
    const json = this.keepLast > 0 ? toTraceJson(fields, 0) : undefined;
    const seq = this.count++;
    const timeMs = this.now();
    const line = `${seq} ${timeMs} ${kind} ${text}`;
    this.chain = this.chained(line);
    // The chain value is kept as bytes; its hex is made only for the entries someone reads (recent()).
    if (json !== undefined)
      this.kept[seq % this.keepLast] = { seq, timeMs, kind, fields: json as JsonObject, chain: this.chain };
    this.sink?.(line);
  }

  /** sha256(chain || utf8(line)), through one reused buffer when the line fits it (UTF-8 takes at most 3 bytes a unit). */
  private chained(line: string): Buffer {
    if (CHAIN_BYTES + 3 * line.length > this.scratch.length)
      return hash('sha256', Buffer.concat([this.chain, Buffer.from(line, 'utf8')]), 'buffer') as Buffer;
    this.chain.copy(this.scratch, 0);
    const written = this.scratch.write(line, CHAIN_BYTES, 'utf8');
    return hash('sha256', this.scratch.subarray(0, CHAIN_BYTES + written), 'buffer') as Buffer;
  }

  /** The chain hash over every entry so far, 0x-prefixed hex. */
  traceHash(): Hex {
    return bytesToHex(this.chain);
  }

  /** Entries recorded so far (kept or not). */
  get length(): number {
    return this.count;
  }

  /** The most recent entries, oldest first (at most `keepLast`). */
  recent(): TraceEntry[] {
    const start = this.count <= this.keepLast ? 0 : this.count % this.keepLast;
    return [...this.kept.slice(start), ...this.kept.slice(0, start)].map(({ chain, ...entry }) => ({
      ...entry,
      hash: bytesToHex(chain),
    }));
  }
}

export function createTrace(options: TraceOptions): Trace {
  return new Trace(options);
}

/** Converts any value to its canonical JSON form (see the module comment). */
export function toTraceJson(value: unknown, depth = 0): JsonValue {
  assert(
    depth <= TRACE_FIELD_DEPTH_MAX,
    `trace field nested deeper than TRACE_FIELD_DEPTH_MAX (${TRACE_FIELD_DEPTH_MAX})`,
  );
  if (typeof value === 'object') return objectToTraceJson(value, depth);
  switch (typeof value) {
    case 'undefined':
      return null;
    case 'boolean':
    case 'string':
      return value;
    case 'number':
      if (Object.is(value, -0)) return 0;
      return Number.isFinite(value) ? value : String(value);
    case 'bigint':
      return value.toString(10);
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name}]`;
    default:
      return null;
  }
}

function objectToTraceJson(value: object | null, depth: number): JsonValue {
  if (value === null) return null;
  if (value instanceof Uint8Array) return bytesToHex(value);
  if (Array.isArray(value)) return value.map((item: unknown) => toTraceJson(item, depth + 1));
  if (value instanceof Map) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of value) out[String(key)] = toTraceJson(item, depth + 1);
    return out;
  }
  if (value instanceof Set) return [...value].map((item: unknown) => toTraceJson(item, depth + 1));
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return typeof code === 'string'
      ? { name: value.name, message: value.message, code }
      : { name: value.name, message: value.message };
  }
  const out: Record<string, JsonValue> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) out[key] = toTraceJson(item, depth + 1);
  }
  return out;
}

/**
 * `canonicalJson(toTraceJson(value, depth))`, written in one walk without the intermediate JSON value: the text every
 * trace entry hashes. The two must agree on every input (sim/trace.test.ts holds them to it), since entries kept for
 * reading carry the JSON value.
 */
export function canonicalTraceText(value: unknown, depth: number): string {
  assert(
    depth <= TRACE_FIELD_DEPTH_MAX,
    `trace field nested deeper than TRACE_FIELD_DEPTH_MAX (${TRACE_FIELD_DEPTH_MAX})`,
  );
  switch (typeof value) {
    case 'object':
      return objectTraceText(value, depth);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (Object.is(value, -0)) return '0';
      return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value));
    case 'bigint':
      return `"${value.toString(10)}"`;
    case 'symbol':
      return JSON.stringify(value.toString());
    case 'function':
      return JSON.stringify(`[function ${value.name}]`);
    default:
      return 'null';
  }
}

function objectTraceText(value: object | null, depth: number): string {
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return `"${bytesToHex(value)}"`;
  if (Array.isArray(value)) return listTraceText(value, depth);
  if (value instanceof Map) {
    const members = new Map<string, string>();
    for (const [key, item] of value) setMember(members, String(key), canonicalTraceText(item, depth + 1));
    return membersText(members);
  }
  if (value instanceof Set) return listTraceText([...value], depth);
  if (value instanceof Error) return canonicalJson(objectToTraceJson(value, depth));
  const members = new Map<string, string>();
  for (const [key, item] of Object.entries(value)) {
    if (item !== undefined) setMember(members, key, canonicalTraceText(item, depth + 1));
  }
  return membersText(members);
}

/** A hole of a sparse array writes nothing between its commas, as `map` and `join` do in the two-step path. */
function listTraceText(items: readonly unknown[], depth: number): string {
  let text = '[';
  for (let i = 0; i < items.length; i++) {
    text += (i === 0 ? '' : ',') + (i in items ? canonicalTraceText(items[i], depth + 1) : '');
  }
  return `${text}]`;
}

/** As `out[key] = value` on a plain object: a later value replaces an earlier one, and `__proto__` is no member. */
function setMember(members: Map<string, string>, key: string, text: string): void {
  if (key === '__proto__') return;
  members.delete(key);
  members.set(key, text);
}

function membersText(members: ReadonlyMap<string, string>): string {
  const keys = [...members.keys()].sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++)
    text += `${i === 0 ? '' : ','}${JSON.stringify(keys[i])}:${members.get(keys[i]!)}`;
  return `${text}}`;
}

const OPEN_BRACE = 0x7b;

/** JSON text with object keys sorted at every level. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${(value as readonly JsonValue[]).map(canonicalJson).join(',')}]`;
  const object = value as JsonObject;
  const keys = Object.keys(object).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key]!)}`).join(',')}}`;
}
