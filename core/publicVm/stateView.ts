/**
 * What public execution reads of the world: a read-only view, answered by the world state as of some block (plus,
 * when building a block, the effects of the block's earlier txs). Execution never writes through it: every write
 * and emit goes to the tx's journal (journal.ts), and the caller applies the resulting TxEffect.
 *
 * Overlays layer values over a view without touching it: a tx's own contract publications (callable in its public
 * phases), the earlier txs of a block being built, or a simulation's overrides (an ephemeral fork).
 */
import type { Hex, TxEffect } from '../../spec/chain.js';
import { hexToBytes, zeroHex } from '../../spec/codec/bytes.js';
import { publicDataLeafSlot } from '../../spec/vm/storageSlots.js';

export interface PublicStateView {
  /** The value at a public data leaf slot; zero when the slot was never written. */
  publicDataRead(leafSlot: Hex): Promise<Hex>;
  /** Whether the nullifier tree holds this (siloed) nullifier. */
  nullifierExists(nullifier: Hex): Promise<boolean>;
  /** The class an instance currently points to; undefined for an address with no published instance. */
  contractClassId(address: Hex): Promise<Hex | undefined>;
  /** A class's packed public bytecode; undefined for an unknown class. */
  contractClassBytecode(classId: Hex): Promise<Uint8Array | undefined>;
}

/** Values that shadow a view's. Keys are lowercase hex, as the wire and the hashes produce them. */
export interface PublicStateOverlay {
  readonly publicData?: ReadonlyMap<Hex, Hex>;
  readonly nullifiers?: ReadonlySet<Hex>;
  readonly contractClassIds?: ReadonlyMap<Hex, Hex>;
  readonly contractClassBytecodes?: ReadonlyMap<Hex, Uint8Array>;
}

const ZERO_FIELD = zeroHex(32);

/** A world with nothing in it: every slot zero, no nullifier, no contract. */
export const emptyPublicState: PublicStateView = {
  publicDataRead: async () => ZERO_FIELD,
  nullifierExists: async () => false,
  contractClassId: async () => undefined,
  contractClassBytecode: async () => undefined,
};

/** `base` with `overlay`'s values in front; nullifiers are the union of both. */
export function overlayPublicState(base: PublicStateView, overlay: PublicStateOverlay): PublicStateView {
  return {
    publicDataRead: async (leafSlot) => overlay.publicData?.get(leafSlot) ?? base.publicDataRead(leafSlot),
    nullifierExists: async (nullifier) =>
      overlay.nullifiers?.has(nullifier) === true || base.nullifierExists(nullifier),
    contractClassId: async (address) => overlay.contractClassIds?.get(address) ?? base.contractClassId(address),
    contractClassBytecode: async (classId) =>
      overlay.contractClassBytecodes?.get(classId) ?? base.contractClassBytecode(classId),
  };
}

/** The public state a tx's earlier block-mates left: their public data writes (last wins) and nullifiers. */
export function overlayOfTxEffects(effects: readonly TxEffect[]): PublicStateOverlay {
  const publicData = new Map<Hex, Hex>();
  const nullifiers = new Set<Hex>();
  for (const effect of effects) {
    for (const write of effect.publicDataWrites) publicData.set(write.leafSlot, write.value);
    for (const nullifier of effect.nullifiers) nullifiers.add(nullifier);
  }
  return { publicData, nullifiers };
}

/** The contract publications a tx carries, in the fields execution needs. */
export interface ContractPublications {
  readonly contractClassPublications: readonly { readonly id: Hex; readonly packedBytecode: Hex }[];
  readonly contractInstancePublications: readonly { readonly address: Hex; readonly currentContractClassId: Hex }[];
}

/** A tx's own classes and instances, callable from its public calls. */
export function overlayOfPublications(publications: ContractPublications): PublicStateOverlay {
  return {
    contractClassIds: new Map(
      publications.contractInstancePublications.map((instance) => [instance.address, instance.currentContractClassId]),
    ),
    contractClassBytecodes: new Map(
      publications.contractClassPublications.map((cls) => [cls.id, hexToBytes(cls.packedBytecode)]),
    ),
  };
}

/** svc_simulatePublicCalls's overrides (the wire's SimulationOverrides, in the fields execution needs). */
export interface PublicSimulationOverrides {
  readonly publicStorage?: readonly { readonly contractAddress: Hex; readonly slot: Hex; readonly value: Hex }[];
  readonly contractInstances?: readonly { readonly address: Hex; readonly currentContractClassId: Hex }[];
}

/** The overlay a simulation runs on: storage values by leaf slot, instances pointing to their override class. */
export function overlayOfSimulationOverrides(overrides: PublicSimulationOverrides): PublicStateOverlay {
  const publicData = new Map<Hex, Hex>();
  for (const { contractAddress, slot, value } of overrides.publicStorage ?? [])
    publicData.set(publicDataLeafSlot(contractAddress, slot), value);
  const contractClassIds = new Map(
    (overrides.contractInstances ?? []).map((instance) => [instance.address, instance.currentContractClassId]),
  );
  return { publicData, contractClassIds };
}

/**
 * An in-memory world for tests and the simulator: storage by (contract, slot), nullifiers, instances and classes.
 */
export function memoryPublicState(contents: {
  readonly storage?: readonly { readonly contractAddress: Hex; readonly slot: Hex; readonly value: Hex }[];
  readonly nullifiers?: readonly Hex[];
  readonly instances?: readonly { readonly address: Hex; readonly classId: Hex }[];
  readonly classes?: readonly { readonly classId: Hex; readonly bytecode: Uint8Array }[];
}): PublicStateView {
  const storage = overlayOfSimulationOverrides({ publicStorage: contents.storage ?? [] });
  return overlayPublicState(emptyPublicState, {
    publicData: storage.publicData,
    nullifiers: new Set(contents.nullifiers ?? []),
    contractClassIds: new Map((contents.instances ?? []).map((instance) => [instance.address, instance.classId])),
    contractClassBytecodes: new Map((contents.classes ?? []).map((cls) => [cls.classId, cls.bytecode])),
  });
}
