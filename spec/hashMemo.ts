/**
 * A bounded memo of 64-byte tree hashes (a Merkle node's two children), for processes that run several nodes over
 * the same chain: the simulator's nodes all hash the same tree nodes as each applies the same blocks. It stores
 * results of a pure function, so whether an input hits or misses changes nothing but time. Production nodes never
 * install one (one node per process hashes each node once: a memo would only add lookups).
 *
 * Direct mapped, like a CPU cache: an input has one slot, chosen by bytes of both children (hash outputs, so
 * uniform), and a new input evicts whatever held its slot. Keys and digests live in two flat byte arrays, so a
 * lookup allocates nothing but the copy it returns (and `copyInto` not even that).
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
    if (slot === -1) return undefined;
    return this.digests.slice(slot * DIGEST_BYTES, (slot + 1) * DIGEST_BYTES);
  }

  /**
   * Writes the digest memoized for the 64 bytes of `input` at `offset` into `out` at `outOffset`, allocating nothing;
   * false (and `out` untouched) when the memo does not hold them.
   */
  copyInto(input: Uint8Array, offset: number, out: Uint8Array, outOffset: number): boolean {
    const slot = this.find(input, offset);
    if (slot === -1) return false;
    out.set(this.digests.subarray(slot * DIGEST_BYTES, (slot + 1) * DIGEST_BYTES), outOffset);
    return true;
  }

  /** The slot holding the 64 bytes of `input` at `offset`, or -1; counts the hit or miss. */
  private find(input: Uint8Array, offset: number): number {
    const slot = slotOf(input, offset);
    if (this.filled[slot] === 0 || !this.holds(slot, input, offset)) {
      this.misses++;
      return -1;
    }
    this.hits++;
    return slot;
  }

  set(input: Uint8Array, digest: Uint8Array): void {
    const slot = slotOf(input, 0);
    this.inputs.set(input, slot * FIELD_HASH_MEMO_INPUT_BYTES);
    this.digests.set(digest, slot * DIGEST_BYTES);
    this.filled[slot] = 1;
  }

  /** Whether `slot` holds the input at `offset` (compared from the end: the children's last bytes differ first). */
  private holds(slot: number, input: Uint8Array, offset: number): boolean {
    const base = slot * FIELD_HASH_MEMO_INPUT_BYTES;
    for (let i = FIELD_HASH_MEMO_INPUT_BYTES - 1; i >= 0; i--)
      if (this.inputs[base + i] !== input[offset + i]) return false;
    return true;
  }
}

/** The slot of the input at `offset`: the last two bytes of each child, mixed. */
function slotOf(input: Uint8Array, offset: number): number {
  const left = (input[offset + 30]! << 8) | input[offset + 31]!;
  const right = (input[offset + 62]! << 8) | input[offset + 63]!;
  return ((left << 1) ^ right ^ (input[offset + 29]! << 9)) & SLOT_MASK;
}
