/**
 * A client's witness checks, written from docs/protocol.md alone (World state; Shapes that clients verify) and sharing
 * no code with the tree implementation:
 *   hashToField(bytes) = sha256(bytes) with its first byte set to zero; a node = hashToField(left || right);
 *   nullifier leaf = hashToField(nullifier || nextNullifier || nextIndex); public data leaf =
 *   hashToField(slot || value || nextSlot || nextIndex), each field 32 bytes big-endian; a sibling path lists the
 *   sibling nearest the leaf first.
 */
import { createHash } from 'node:crypto';

type Hex = `0x${string}`;

export interface PathWitness {
  readonly leafIndex: bigint;
  readonly siblingPath: readonly Hex[];
}

export interface NullifierWitness {
  readonly index: bigint;
  readonly leafPreimage: { readonly nullifier: Hex; readonly nextNullifier: Hex; readonly nextIndex: bigint };
  readonly siblingPath: readonly Hex[];
}

export interface PublicDataWitnessShape {
  readonly index: bigint;
  readonly leafPreimage: {
    readonly slot: Hex;
    readonly value: Hex;
    readonly nextSlot: Hex;
    readonly nextIndex: bigint;
  };
  readonly siblingPath: readonly Hex[];
}

export function protocolHash(bytes: Uint8Array): Uint8Array {
  const digest = new Uint8Array(createHash('sha256').update(bytes).digest());
  digest[0] = 0;
  return digest;
}

/** A field (hex or bigint) as 32 bytes big-endian. */
export function field32(value: Hex | bigint): Uint8Array {
  const n = typeof value === 'bigint' ? value : BigInt(value);
  const out = new Uint8Array(32);
  let rest = n;
  for (let i = 31; i >= 0; i--) {
    out[i] = Number(rest & 0xffn);
    rest >>= 8n;
  }
  if (rest !== 0n) throw new Error(`${n} does not fit 32 bytes`);
  return out;
}

export function toHex(bytes: Uint8Array): Hex {
  return `0x${Buffer.from(bytes).toString('hex')}`;
}

export function hashFields(fields: readonly (Hex | bigint)[]): Hex {
  const input = new Uint8Array(32 * fields.length);
  fields.forEach((f, i) => input.set(field32(f), 32 * i));
  return toHex(protocolHash(input));
}

/** The root a leaf and its sibling path lead to. */
export function rootFromPath(leaf: Hex, leafIndex: bigint, siblingPath: readonly Hex[]): Hex {
  let node = leaf;
  let index = leafIndex;
  for (const sibling of siblingPath) {
    node = index % 2n === 0n ? hashFields([node, sibling]) : hashFields([sibling, node]);
    index /= 2n;
  }
  if (index !== 0n) throw new Error(`leaf index ${leafIndex} is outside a tree of height ${siblingPath.length}`);
  return node;
}

export function nullifierLeafHash(p: NullifierWitness['leafPreimage']): Hex {
  return hashFields([p.nullifier, p.nextNullifier, p.nextIndex]);
}

export function publicDataLeafHash(p: PublicDataWitnessShape['leafPreimage']): Hex {
  return hashFields([p.slot, p.value, p.nextSlot, p.nextIndex]);
}

export function verifyMembership(root: Hex, leaf: Hex, witness: PathWitness, height: number): boolean {
  return witness.siblingPath.length === height && rootFromPath(leaf, witness.leafIndex, witness.siblingPath) === root;
}

export function verifyNullifierMembership(
  root: Hex,
  nullifier: Hex,
  witness: NullifierWitness,
  height: number,
): boolean {
  return (
    BigInt(witness.leafPreimage.nullifier) === BigInt(nullifier) &&
    verifyMembership(
      root,
      nullifierLeafHash(witness.leafPreimage),
      { leafIndex: witness.index, siblingPath: witness.siblingPath },
      height,
    )
  );
}

/** The low leaf proves absence: it is in the tree, below the nullifier, and its successor is above it (or none). */
export function verifyNullifierAbsence(root: Hex, nullifier: Hex, low: NullifierWitness, height: number): boolean {
  const value = BigInt(nullifier);
  const next = BigInt(low.leafPreimage.nextNullifier);
  return (
    BigInt(low.leafPreimage.nullifier) < value &&
    (next === 0n || next > value) &&
    verifyMembership(
      root,
      nullifierLeafHash(low.leafPreimage),
      { leafIndex: low.index, siblingPath: low.siblingPath },
      height,
    )
  );
}

/** A public data witness for `slot`: the slot's own leaf, or a low leaf proving the slot absent (its value is 0). */
export function verifyPublicDataWitness(
  root: Hex,
  slot: Hex,
  witness: PublicDataWitnessShape,
  height: number,
): boolean {
  const { leafPreimage } = witness;
  const inTree = verifyMembership(
    root,
    publicDataLeafHash(leafPreimage),
    { leafIndex: witness.index, siblingPath: witness.siblingPath },
    height,
  );
  if (BigInt(leafPreimage.slot) === BigInt(slot)) return inTree;
  const next = BigInt(leafPreimage.nextSlot);
  return inTree && BigInt(leafPreimage.slot) < BigInt(slot) && (next === 0n || next > BigInt(slot));
}
