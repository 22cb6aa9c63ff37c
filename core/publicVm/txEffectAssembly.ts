/**
 * A tx's effect from its private side effects and its public journal, its DA gas and its fee.
 *
 * Order in the effect: the tx's private items first (as the tx lists them; L2-to-L1 messages as their hashes), then
 * what public execution emitted, in emission order. Public data writes are one per leaf slot (last value, first-write
 * order), with the fee payer's balance write where the journal has it, or last.
 *
 * DA gas = DA_GAS_PER_BYTE x the effect's encoded size (spec/codec/txEffect.ts). The size does not depend on the fee
 * or on the balance written (fixed-width fields), so it is measured before the fee is known, with the balance write
 * present as a zero placeholder.
 */
import type { ExecutionResult, GasFees, Hex, PublicDataWrite, PublicLog, TxEffect } from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { encodeTxEffects } from '../../spec/codec/txEffect.js';
import { l2ToL1MessageHash } from '../../spec/vm/storageSlots.js';
import { DA_GAS_PER_BYTE } from '../../spec/vm/vmConstants.js';
import type { StateJournal } from './journal.js';
import type { Gas, PublicTxInput } from './publicTxTypes.js';

/** What public execution adds to a tx's effect. */
export interface PublicEffects {
  readonly noteHashes: readonly Hex[];
  readonly nullifiers: readonly Hex[];
  readonly l2ToL1Messages: readonly Hex[];
  readonly publicDataWrites: readonly PublicDataWrite[];
  readonly publicLogs: readonly PublicLog[];
}

/** The journal's effects; the balance slot gets a zero placeholder when the journal has not written it. */
export function publicEffectsOf(journal: StateJournal, feePayerBalanceSlot: Hex): PublicEffects {
  const publicDataWrites = journal.publicDataWrites();
  if (!journal.hasWritten(feePayerBalanceSlot))
    publicDataWrites.push({ leafSlot: feePayerBalanceSlot, value: zeroHex(32) });
  return {
    noteHashes: journal.noteHashes,
    nullifiers: journal.nullifiers,
    l2ToL1Messages: journal.l2ToL1Messages,
    publicDataWrites,
    publicLogs: journal.publicLogs,
  };
}

/** The effects of a tx whose public calls did nothing: only the balance placeholder. */
export function noPublicEffects(feePayerBalanceSlot: Hex): PublicEffects {
  return {
    noteHashes: [],
    nullifiers: [],
    l2ToL1Messages: [],
    publicDataWrites: [{ leafSlot: feePayerBalanceSlot, value: zeroHex(32) }],
    publicLogs: [],
  };
}

export function assembleTxEffect(
  tx: PublicTxInput,
  effects: PublicEffects,
  executionResult: ExecutionResult,
  transactionFee: bigint,
): TxEffect {
  const { sideEffects } = tx;
  return {
    txHash: tx.txHash,
    executionResult,
    transactionFee,
    noteHashes: [...sideEffects.noteHashes, ...effects.noteHashes],
    nullifiers: [...sideEffects.nullifiers, ...effects.nullifiers],
    l2ToL1Messages: [
      ...sideEffects.l2ToL1Messages.map((m) => l2ToL1MessageHash(m.recipient, m.content)),
      ...effects.l2ToL1Messages,
    ],
    publicDataWrites: [...effects.publicDataWrites],
    privateLogs: sideEffects.privateLogs.map((log) => ({ tag: log.tag, fields: [...log.fields] })),
    publicLogs: effects.publicLogs.map((log) => ({ ...log, fields: [...log.fields] })),
    contractClassPublications: sideEffects.contractClassPublications.map((publication) => ({ ...publication })),
    contractInstancePublications: sideEffects.contractInstancePublications.map((publication) => ({ ...publication })),
  };
}

/** DA gas of an effect: DA_GAS_PER_BYTE per byte of its encoding. */
export function daGasOf(effect: TxEffect): number {
  return encodeTxEffects([effect]).length * DA_GAS_PER_BYTE;
}

/** DA gas of the tx as it would stand with `effects` (result and fee do not change the size). */
export function daGasWith(tx: PublicTxInput, effects: PublicEffects): number {
  return daGasOf(assembleTxEffect(tx, effects, 'success', 0n));
}

/** transactionFee = l2Gas x feePerL2Gas + daGas x feePerDaGas, at the block's fees. */
export function transactionFeeOf(gasUsed: Gas, gasFees: GasFees): bigint {
  return BigInt(gasUsed.l2Gas) * gasFees.feePerL2Gas + BigInt(gasUsed.daGas) * gasFees.feePerDaGas;
}
