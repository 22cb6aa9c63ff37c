/**
 * A bounded memo of 64-byte tree hashes (a Merkle node's two children), for processes that run several nodes over
 * the same chain: the simulator's nodes all hash the same tree nodes as each applies the same blocks. It stores
 * results of a pure function, so whether an input hits or misses changes nothing but time. Production nodes never
 * install one (one node per process hashes each node once: a memo would only add lookups).
 *
 * Direct mapped, like a CPU cache: an input has one slot, chosen by bytes of both children (hash outputs, so
 * uniform), and a new input evicts whatever held its slot. Keys and digests live in two flat byte arrays, so a
 * lookup allocates nothing but the copy it returns, and `copyInto` not even that.
 */

/** Slots of the memo: 2^17 x 96 bytes = 12 MiB per thread. */
export const FIELD_HASH_MEMO_SLOTS = 1 << 17;

/** Bytes of the inputs the memo keeps: a Merkle node's two 32-byte children. */
export const FIELD_HASH_MEMO_INPUT_BYTES = 64;

const DIGEST_BYTES = 32;
const SLOT_MASK = FIELD_HASH_MEMO_SLOTS - 1;

export class FieldHashMemo {
  private readonly inputs = new Uint8Array(FIELD_HASH_MEMO_SLOTS * FIELD_HASH_MEMO_INPUT_BYTES);
  private readonly digests = new Uint8Array(FIELD_HASH_MEMO_SLOTS * DIGEST_BYTES);
  private readonly filled = new Uint8Array(FIELD_HASH_MEMO_SLOTS);
  hits = 0;
  misses = 0;

  /** A copy of the digest memoized for `input` (64 bytes), or undefined. */
  get(input: Uint8Array): Uint8Array | undefined {
    const slot = this.find(input, 0);
    if (slot === undefined) return undefined;
    return this.digests.slice(slot * DIGEST_BYTES, (slot + 1) * DIGEST_BYTES);
  }

  /**
   * Writes the digest memoized for the 64 bytes of `source` at `offset` into `target` at `targetOffset`, allocating
   * nothing; false (and `target` untouched) when there is none.
   */
  copyInto(source: Uint8Array, offset: number, target: Uint8Array, targetOffset: number): boolean {
    const slot = this.find(source, offset);
    if (slot === undefined) return false;
    // Byte by byte: for 32 bytes a loop beats `set` on a subarray, which allocates the view and calls into C++.
    const digests = this.digests;
    const from = slot * DIGEST_BYTES;
    for (let i = 0; i < DIGEST_BYTES; i++) target[targetOffset + i] = digests[from + i]!;
    return true;
  }

  set(input: Uint8Array, digest: Uint8Array): void {
    this.setAt(input, 0, digest);
  }

  /** Memoizes `digest` for the 64 bytes of `source` at `offset`. */
  setAt(source: Uint8Array, offset: number, digest: Uint8Array): void {
    const slot = slotOf(source, offset);
    this.inputs.set(source.subarray(offset, offset + FIELD_HASH_MEMO_INPUT_BYTES), slot * FIELD_HASH_MEMO_INPUT_BYTES);
    this.digests.set(digest, slot * DIGEST_BYTES);
    this.filled[slot] = 1;
  }

  /** The slot holding the 64 bytes of `source` at `offset`, counted as a hit, or undefined (a miss). */
  private find(source: Uint8Array, offset: number): number | undefined {
    const slot = slotOf(source, offset);
    if (this.filled[slot] === 0 || !this.holds(slot, source, offset)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return slot;
  }

  /** Whether `slot` holds the input at `offset` (compared from the end: the children's last bytes differ first). */
  private holds(slot: number, source: Uint8Array, offset: number): boolean {
    const base = slot * FIELD_HASH_MEMO_INPUT_BYTES;
    for (let i = FIELD_HASH_MEMO_INPUT_BYTES - 1; i >= 0; i--)
      if (this.inputs[base + i] !== source[offset + i]) return false;
    return true;
  }
}

/** The slot of the input at `offset`: the last two bytes of each child, mixed. */
function slotOf(source: Uint8Array, offset: number): number {
  const left = (source[offset + 30]! << 8) | source[offset + 31]!;
  const right = (source[offset + 62]! << 8) | source[offset + 63]!;
  return ((left << 1) ^ right ^ (source[offset + 29]! << 9)) & SLOT_MASK;
}
