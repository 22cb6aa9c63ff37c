/**
 * Limits, costs and fixed slots of the public VM (spec/vm/instructionSet.ts describes the machine). Every loop of the
 * interpreter and the phase executor cites one of these. Names carry their unit last.
 */

/** First byte of every program's bytecode; a different byte is refused, so the format can change later. */
export const BYTECODE_VERSION = 1;

/** Registers of one call frame, r0 .. r255, each a field element that starts at zero. An operand is one byte. */
export const REGISTERS_PER_FRAME = 256;

/** Registers one range operand covers at most (its count is one byte). */
export const RANGE_REGISTERS_MAX = 255;

/** Instructions one program may hold (jump targets are two-byte instruction indexes, so at most 65,536). */
export const PROGRAM_INSTRUCTIONS_MAX = 16_384;

/**
 * Frames nested below a tx's public call: the tx's call runs at depth 0, a call it makes at depth 1, and so on. A
 * call that would run at a depth above this fails (the caller sees it as a reverted call).
 */
export const CALL_DEPTH_MAX = 8;

/**
 * Instructions one tx may execute over all its phases, whatever its mana: a safety net under the mana limit (the
 * cheapest instruction costs 1 mana, so a large gas limit alone would not bound the work). Reaching it reverts the
 * running phase like running out of mana.
 */
export const INSTRUCTIONS_PER_TX_MAX = 1_000_000;

/** Fields the `hash` instruction reads at most. */
export const HASH_INPUT_FIELDS_MAX = 16;

/**
 * Mana every tx pays before any public call runs (its private part: the nullifier and note hash insertions, the
 * proof check). It counts towards `gasLimits.l2Gas`: a tx whose limit is below it is invalid.
 */
export const TX_BASE_MANA = 10_000;

/** DA gas per byte of the tx effect's encoding (spec/codec/txEffect.ts): what the tx puts in the blobs. */
export { DA_GAS_PER_BYTE } from '../constants.js';

/** Largest recipient of an L2-to-L1 message: an EthAddress is 20 bytes. */
export const ETH_ADDRESS_MAX = (1n << 160n) - 1n;

/** Bytes of a short string packed into one field element (revert reasons, log tags): the first byte stays zero. */
export const SHORT_STRING_BYTES_MAX = 31;
