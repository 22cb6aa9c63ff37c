/**
 * Wire shapes of a mined tx's effects (spec/chain.ts `TxEffect`; byte layout in spec/codec/txEffect.ts):
 *
 * TxEffect = { txHash, executionResult, transactionFee, noteHashes, nullifiers, l2ToL1Messages: Fr[] (each message's
 *              hash, the leaf the L1 outbox checks), publicDataWrites: { leafSlot, value }[], privateLogs: { tag,
 *              fields }[], publicLogs: { contractAddress, tag, fields }[], contractClassPublications:
 *              ContractClassPublic[], contractInstancePublications: ContractInstanceWithAddress[] }
 * executionResult: 'success', or the phase that reverted: 'appLogicReverted', 'teardownReverted', 'bothReverted'.
 * Every list is bounded by its per-tx maximum (spec/constants.ts).
 */
import { z } from 'zod';
import type { TxEffect } from '../chain.js';
import {
  CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX,
  CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX,
  L2_TO_L1_MESSAGES_PER_TX_MAX,
  LOG_FIELDS_MAX,
  NOTE_HASHES_PER_TX_MAX,
  NULLIFIERS_PER_TX_MAX,
  PRIVATE_LOGS_PER_TX_MAX,
  PUBLIC_DATA_WRITES_PER_TX_MAX,
  PUBLIC_LOGS_PER_TX_MAX,
} from '../constants.js';
import { contractClassPublic, contractInstanceWithAddress } from './contracts.js';
import { aztecAddress, bigUint, fr, txHash } from './scalars.js';

const logFields = z.array(fr).max(LOG_FIELDS_MAX);

export const privateLog = z.object({ tag: fr, fields: logFields });
export const publicLog = z.object({ contractAddress: aztecAddress, tag: fr, fields: logFields });
export const publicDataWrite = z.object({ leafSlot: fr, value: fr });

export const EXECUTION_RESULTS = ['success', 'appLogicReverted', 'teardownReverted', 'bothReverted'] as const;
export const executionResult = z.enum(EXECUTION_RESULTS);

export const txEffect = z.object({
  txHash,
  executionResult,
  transactionFee: bigUint,
  noteHashes: z.array(fr).max(NOTE_HASHES_PER_TX_MAX),
  nullifiers: z.array(fr).max(NULLIFIERS_PER_TX_MAX),
  l2ToL1Messages: z.array(fr).max(L2_TO_L1_MESSAGES_PER_TX_MAX),
  publicDataWrites: z.array(publicDataWrite).max(PUBLIC_DATA_WRITES_PER_TX_MAX),
  privateLogs: z.array(privateLog).max(PRIVATE_LOGS_PER_TX_MAX),
  publicLogs: z.array(publicLog).max(PUBLIC_LOGS_PER_TX_MAX),
  contractClassPublications: z.array(contractClassPublic).max(CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX),
  contractInstancePublications: z.array(contractInstanceWithAddress).max(CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX),
});

export type TxEffectValue = z.output<typeof txEffect>;

/** The wire value of a core TxEffect (the same fields; the wire type's lists are mutable copies). */
export function txEffectValueOf(effect: TxEffect): TxEffectValue {
  return {
    ...effect,
    noteHashes: [...effect.noteHashes],
    nullifiers: [...effect.nullifiers],
    l2ToL1Messages: [...effect.l2ToL1Messages],
    publicDataWrites: effect.publicDataWrites.map((write) => ({ ...write })),
    privateLogs: effect.privateLogs.map((log) => ({ ...log, fields: [...log.fields] })),
    publicLogs: effect.publicLogs.map((log) => ({ ...log, fields: [...log.fields] })),
    contractClassPublications: effect.contractClassPublications.map((publication) => ({ ...publication })),
    contractInstancePublications: effect.contractInstancePublications.map((publication) => ({ ...publication })),
  };
}
