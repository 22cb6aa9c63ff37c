/**
 * Wire shapes of transactions (this project's layouts; docs/protocol.md, Transaction contents, lists what a tx
 * carries, and docs/protocol.md, Receipts, fixes TxReceipt's fields):
 *
 * Tx = { txHash, chainId, version, anchorBlockHash, expirationTimestamp, feePayer,
 *        gasSettings: { gasLimits: Gas, maxFeesPerGas: GasFees, maxPriorityFeesPerGas: GasFees },
 *        sideEffects: { nullifiers (at least one), noteHashes, privateLogs: PrivateLog[],
 *                       l2ToL1Messages: { recipient, content }[],
 *                       contractClassPublications: ContractClassPublic[],
 *                       contractInstancePublications: ContractInstanceWithAddress[] },
 *        publicCalls: { setup: PublicCall[], appLogic: PublicCall[], teardown: PublicCall | null },
 *        proof }
 *   Gas = { daGas, l2Gas } (numbers). PublicCall = { contractAddress, msgSender, isStaticCall, calldata: Fr[] },
 *   calldata[0] being the function selector. `txHash` hashes everything but the proof; a tx answered without its
 *   proof carries `proof: "0x"`.
 * TxEffect = { txHash, executionResult, transactionFee, noteHashes, nullifiers, l2ToL1Messages: Fr[] (each message's
 *              hash, the leaf the L1 outbox checks), publicDataWrites: { leafSlot, value }[], privateLogs,
 *              publicLogs: { contractAddress, tag, fields }[] }
 * IndexedTxEffect = { data: TxEffect, l2BlockNumber, l2BlockHash, txIndexInBlock }
 * executionResult: 'success', or the phase that reverted: 'appLogicReverted', 'teardownReverted', 'bothReverted'.
 * TxReceipt: { txHash, status: 'dropped' } (not found) | { txHash, status: 'pending', tx? } |
 *            { txHash, status: 'proposed' | 'checkpointed' | 'proven' | 'finalized', blockNumber, blockHash,
 *              executionResult, transactionFee, txEffect? }
 * TxValidationResult = { valid: true } | { valid: false, reasons: string[] (at least one) }
 * PublicSimulationOutput = { executionResult, gasUsed: { totalGas: Gas, publicGas: Gas }, publicReturnValues: Fr[][]
 *                            (one entry per public call, setup then app logic then teardown) }
 * SimulationOverrides = { publicStorage?: { contractAddress, slot, value }[], contractInstances?:
 *                         ContractInstanceWithAddress[] }
 * AllowedElement = { kind: 'instance', address, selector, onlySelf, rejectNullMsgSender, calldataLength } |
 *                  { kind: 'class', classId, selector, onlySelf, rejectNullMsgSender, calldataLength }
 *   (the `I:`/`C:` entries of the setup allow list; calldataLength null when the entry does not fix it).
 */
import { z } from 'zod';
import {
  CALLDATA_FIELDS_MAX,
  CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX,
  CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX,
  L2_TO_L1_MESSAGES_PER_TX_MAX,
  NOTE_HASHES_PER_TX_MAX,
  NULLIFIERS_PER_TX_MAX,
  PRIVATE_LOGS_PER_TX_MAX,
  PUBLIC_CALLS_PER_TX_MAX,
  TX_PROOF_BYTES_MAX,
} from '../constants.js';
import { gasFees } from './block.js';
import { contractClassPublic, contractInstanceWithAddress } from './contracts.js';
import { executionResult, privateLog, txEffect } from './txEffect.js';
import {
  aztecAddress,
  bigUint,
  blockHash,
  blockNumber,
  ethAddress,
  fr,
  functionSelector,
  hexBytes,
  safeUint,
  txHash,
} from './scalars.js';

export const gas = z.object({ daGas: safeUint, l2Gas: safeUint });

export const gasSettings = z.object({ gasLimits: gas, maxFeesPerGas: gasFees, maxPriorityFeesPerGas: gasFees });

export const l2ToL1Message = z.object({ recipient: ethAddress, content: fr });
export const publicCall = z.object({
  contractAddress: aztecAddress,
  msgSender: aztecAddress,
  isStaticCall: z.boolean(),
  calldata: z.array(fr).max(CALLDATA_FIELDS_MAX),
});

export const tx = z.object({
  txHash,
  chainId: safeUint,
  version: safeUint,
  anchorBlockHash: blockHash,
  expirationTimestamp: bigUint,
  feePayer: aztecAddress,
  gasSettings,
  sideEffects: z.object({
    nullifiers: z.array(fr).min(1, { error: 'a tx emits at least one nullifier' }).max(NULLIFIERS_PER_TX_MAX),
    noteHashes: z.array(fr).max(NOTE_HASHES_PER_TX_MAX),
    privateLogs: z.array(privateLog).max(PRIVATE_LOGS_PER_TX_MAX),
    l2ToL1Messages: z.array(l2ToL1Message).max(L2_TO_L1_MESSAGES_PER_TX_MAX),
    contractClassPublications: z.array(contractClassPublic).max(CONTRACT_CLASS_PUBLICATIONS_PER_TX_MAX),
    contractInstancePublications: z.array(contractInstanceWithAddress).max(CONTRACT_INSTANCE_PUBLICATIONS_PER_TX_MAX),
  }),
  publicCalls: z
    .object({ setup: z.array(publicCall), appLogic: z.array(publicCall), teardown: publicCall.nullable() })
    .refine(
      (calls) =>
        calls.setup.length + calls.appLogic.length + (calls.teardown === null ? 0 : 1) <= PUBLIC_CALLS_PER_TX_MAX,
      {
        error: `a tx makes at most ${PUBLIC_CALLS_PER_TX_MAX} public calls in all phases`,
      },
    ),
  proof: hexBytes.refine((proof) => proof.length <= 2 + 2 * TX_PROOF_BYTES_MAX, {
    error: `a proof has at most ${TX_PROOF_BYTES_MAX} bytes`,
  }),
});

export const indexedTxEffect = z.object({
  data: txEffect,
  l2BlockNumber: blockNumber,
  l2BlockHash: blockHash,
  txIndexInBlock: safeUint,
});

export const TX_RECEIPT_MINED_STATUSES = ['proposed', 'checkpointed', 'proven', 'finalized'] as const;

export const txReceipt = z.discriminatedUnion('status', [
  z.object({ txHash, status: z.literal('dropped') }),
  z.object({ txHash, status: z.literal('pending'), tx: tx.optional() }),
  z.object({
    txHash,
    status: z.enum(TX_RECEIPT_MINED_STATUSES),
    blockNumber,
    blockHash,
    executionResult,
    transactionFee: bigUint,
    txEffect: txEffect.optional(),
  }),
]);

/** `GetTxReceiptOptions`; unknown keys are refused. */
export const getTxReceiptOptions = z.strictObject({
  /** Attach the full tx effect to a mined receipt. */
  includeTxEffect: z.boolean().optional(),
  /** Attach the pooled tx to a pending receipt. */
  includePendingTx: z.boolean().optional(),
  /** Keep the proof on the attached pending tx; meaningful only with includePendingTx. */
  includeProof: z.boolean().optional(),
});

/** `GetTxByHashOptions`: proofs are stripped unless includeProof is set. */
export const getTxByHashOptions = z.strictObject({ includeProof: z.boolean().optional() });

/** Options of svc_isValidTx. */
export const isValidTxOptions = z.strictObject({
  /** Validate for a simulation: checks that need the final proof are skipped. */
  isSimulation: z.boolean().optional(),
  /** Do not require the fee payer to cover the tx's maximum fee. */
  skipFeeEnforcement: z.boolean().optional(),
});

export const txValidationResult = z.discriminatedUnion('valid', [
  z.object({ valid: z.literal(true) }),
  z.object({ valid: z.literal(false), reasons: z.array(z.string()).min(1) }),
]);

export const publicSimulationOutput = z.object({
  executionResult,
  gasUsed: z.object({ totalGas: gas, publicGas: gas }),
  publicReturnValues: z.array(z.array(fr)),
});

/** `SimulationOverrides`: state applied to an ephemeral fork before simulating; unknown keys are refused. */
export const simulationOverrides = z.strictObject({
  publicStorage: z.array(z.strictObject({ contractAddress: aztecAddress, slot: fr, value: fr })).optional(),
  contractInstances: z.array(contractInstanceWithAddress).optional(),
});

const allowedElementFlags = {
  selector: functionSelector,
  onlySelf: z.boolean(),
  rejectNullMsgSender: z.boolean(),
  calldataLength: safeUint.nullable(),
};

export const allowedElement = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('instance'), address: aztecAddress, ...allowedElementFlags }),
  z.object({ kind: z.literal('class'), classId: fr, ...allowedElementFlags }),
]);

export type TxValue = z.output<typeof tx>;
export type TxReceiptValue = z.output<typeof txReceipt>;
