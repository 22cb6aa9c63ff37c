/**
 * A bounded memo of 64-byte tree hashes (a Merkle node's two children), for processes that run several nodes over
 * the same chain: the simulator's nodes all hash the same tree nodes as each applies the same blocks. It stores
 * results of a pure function, so whether an input hits or misses changes nothing but time. Production nodes never
 * install one (one node per process hashes each node once: a memo would only add lookups).
 *
 * Direct mapped, like a CPU cache: an input has one slot, chosen by bytes of both children (hash outputs, so
 * uniform), and a new input evicts whatever held its slot. Keys and digests live in two flat byte arrays, so a
 * lookup allocates nothing but the copy it returns.
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
    const slot = slotOf(input);
    if (this.filled[slot] === 0 || !this.holds(slot, input)) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return this.digests.slice(slot * DIGEST_BYTES, (slot + 1) * DIGEST_BYTES);
  }

  set(input: Uint8Array, digest: Uint8Array): void {
    const slot = slotOf(input);
    this.inputs.set(input, slot * FIELD_HASH_MEMO_INPUT_BYTES);
    this.digests.set(digest, slot * DIGEST_BYTES);
    this.filled[slot] = 1;
  }

  /** Whether `slot` holds `input` (compared from the end: the children's last bytes differ first). */
  private holds(slot: number, input: Uint8Array): boolean {
    const base = slot * FIELD_HASH_MEMO_INPUT_BYTES;
    for (let i = FIELD_HASH_MEMO_INPUT_BYTES - 1; i >= 0; i--) if (this.inputs[base + i] !== input[i]) return false;
    return true;
  }
}

/** The slot of an input: the last two bytes of each child, mixed. */
function slotOf(input: Uint8Array): number {
  const left = (input[30]! << 8) | input[31]!;
  const right = (input[62]! << 8) | input[63]!;
  return ((left << 1) ^ right ^ (input[29]! << 9)) & SLOT_MASK;
}
