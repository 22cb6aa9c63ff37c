import type { Hex, TxEffect } from '../../spec/chain.js';
import { isHex } from '../../spec/codec/bytes.js';
import { FR_MODULUS } from '../../spec/constants.js';
import {
  L1_TO_L2_MESSAGES_PER_BLOCK_MAX,
  NOTE_HASHES_PER_TX_MAX,
  NULLIFIERS_PER_TX_MAX,
  PUBLIC_DATA_WRITES_PER_TX_MAX,
  TXS_PER_BLOCK_MAX,
} from '../../spec/constants.js';
import { WorldStateError } from './worldStateError.js';

/** A write of public storage: the leaf slot (see publicDataLeafSlot) and its new value. */
export interface PublicDataWrite {
  readonly leafSlot: Hex;
  readonly value: Hex;
}

/** What one tx changes in the world state, in the tx's order. */
export interface TxStateEffects {
  readonly noteHashes: readonly Hex[];
  readonly nullifiers: readonly Hex[];
  readonly publicDataWrites: readonly PublicDataWrite[];
}

/** What one block changes in the world state (the archive leaf comes later, once the header is known). */
export interface BlockStateEffects {
  readonly txs: readonly TxStateEffects[];
  /** Messages the block makes available, in order (may be empty). */
  readonly l1ToL2Messages: readonly Hex[];
}

/** What a block's tx effects change in the world state. */
export function blockStateEffects(
  txEffects: readonly TxEffect[],
  l1ToL2Messages: readonly Hex[] = [],
): BlockStateEffects {
  return {
    txs: txEffects.map((effect) => ({
      noteHashes: effect.noteHashes,
      nullifiers: effect.nullifiers,
      publicDataWrites: effect.publicDataWrites,
    })),
    l1ToL2Messages,
  };
}

const FIELD_HEX_LENGTH = 66;
/** The modulus as 32-byte lowercase hex: for same-length lowercase hex, string order is numeric order. */
const FR_MODULUS_HEX = `0x${FR_MODULUS.toString(16).padStart(64, '0')}`;

/** A field element as 32-byte lowercase hex; WORLD_STATE_EFFECTS_INVALID when it is not one. */
export function normalizeField(value: Hex, what: string): Hex {
  const lower = typeof value === 'string' ? value.toLowerCase() : value;
  if (!isHex(lower) || lower.length !== FIELD_HEX_LENGTH || lower >= FR_MODULUS_HEX) {
    throw new WorldStateError(
      'WORLD_STATE_EFFECTS_INVALID',
      `${what} is not a 32-byte field element: ${String(value).slice(0, 80)}`,
      { what },
    );
  }
  return lower as Hex;
}

function checkCount(count: number, max: number, what: string): void {
  if (count > max)
    throw new WorldStateError('WORLD_STATE_EFFECTS_INVALID', `${what}: ${count} is above the limit of ${max}`, {
      what,
      count,
      max,
    });
}

/**
 * The effects with every count checked against its limit and every field normalized to lowercase. A tx's note hashes
 * and nullifiers must also fit its subtree of `subtreeLeaves` leaves.
 */
export function validateBlockEffects(effects: BlockStateEffects, subtreeLeaves: number): BlockStateEffects {
  checkCount(effects.txs.length, TXS_PER_BLOCK_MAX, 'txs in the block');
  checkCount(effects.l1ToL2Messages.length, L1_TO_L2_MESSAGES_PER_BLOCK_MAX, 'L1-to-L2 messages in the block');
  const txs = effects.txs.map((tx, t) => {
    checkCount(tx.noteHashes.length, Math.min(NOTE_HASHES_PER_TX_MAX, subtreeLeaves), `note hashes of tx ${t}`);
    checkCount(tx.nullifiers.length, Math.min(NULLIFIERS_PER_TX_MAX, subtreeLeaves), `nullifiers of tx ${t}`);
    checkCount(tx.publicDataWrites.length, PUBLIC_DATA_WRITES_PER_TX_MAX, `public data writes of tx ${t}`);
    return {
      noteHashes: tx.noteHashes.map((v, i) => normalizeField(v, `note hash ${i} of tx ${t}`)),
      nullifiers: tx.nullifiers.map((v, i) => normalizeField(v, `nullifier ${i} of tx ${t}`)),
      publicDataWrites: tx.publicDataWrites.map((w, i) => ({
        leafSlot: normalizeField(w.leafSlot, `public data write ${i} of tx ${t} (slot)`),
        value: normalizeField(w.value, `public data write ${i} of tx ${t} (value)`),
      })),
    };
  });
  return { txs, l1ToL2Messages: effects.l1ToL2Messages.map((v, i) => normalizeField(v, `L1-to-L2 message ${i}`)) };
}
