/**
 * Building a valid tx in a few lines (the client's `buildTx`, the CLI's `svc tx send`, tests and the simulator's
 * workload): fills in sensible gas settings from the network's minimum fees, then seals the tx with its hash and the
 * proof the default verifier accepts.
 */
import type { GasFees, Hex } from './chain.js';
import { computeTxHash } from './codec/tx.js';
import { txProofFor } from './proof.js';
import { TX_BASE_MANA } from './vm/vmConstants.js';
import { z } from 'zod';
import { tx as txSchema, type TxValue } from './wire/tx.js';

/** L2 gas a tx asks for by default: the base cost and room for a few public calls. */
export const BUILD_TX_L2_GAS_DEFAULT = TX_BASE_MANA + 200_000;
/** DA gas a tx asks for by default: about 4 KiB of effects. */
export const BUILD_TX_DA_GAS_DEFAULT = 16 * 4_096;
/** How far above the minimum fee a built tx's max fee goes by default, in percent (headroom for a fee rise). */
export const BUILD_TX_FEE_PADDING_PERCENT_DEFAULT = 50;

type TxBody = Omit<TxValue, 'txHash' | 'proof' | 'gasSettings' | 'sideEffects' | 'publicCalls' | 'expirationTimestamp'>;

export interface BuildTxInput extends TxBody {
  /** The first nullifier (a tx must emit one; it makes the tx unique). */
  readonly nullifier: Hex;
  /** The network's current minimum fees per gas (svc_getCurrentMinFees). */
  readonly minFees: GasFees;
  readonly expirationTimestamp: bigint;
  readonly gasLimits?: { readonly daGas: number; readonly l2Gas: number };
  /** Max priority fee per gas, both dimensions (default 0). */
  readonly priorityFeePerGas?: bigint;
  readonly feePaddingPercent?: number;
  readonly sideEffects?: Partial<TxValue['sideEffects']>;
  readonly publicCalls?: Partial<TxValue['publicCalls']>;
}

const padded = (fee: bigint, percent: number): bigint => fee + (fee * BigInt(percent)) / 100n;

export function buildTx(input: BuildTxInput): TxValue {
  const { nullifier, minFees, gasLimits, priorityFeePerGas, feePaddingPercent, sideEffects, publicCalls, ...body } =
    input;
  const padding = feePaddingPercent ?? BUILD_TX_FEE_PADDING_PERCENT_DEFAULT;
  const priority = priorityFeePerGas ?? 0n;
  const preimage = {
    ...body,
    gasSettings: {
      gasLimits: gasLimits ?? { daGas: BUILD_TX_DA_GAS_DEFAULT, l2Gas: BUILD_TX_L2_GAS_DEFAULT },
      maxFeesPerGas: {
        feePerDaGas: padded(minFees.feePerDaGas, padding) + priority,
        feePerL2Gas: padded(minFees.feePerL2Gas, padding) + priority,
      },
      maxPriorityFeesPerGas: { feePerDaGas: priority, feePerL2Gas: priority },
    },
    sideEffects: {
      nullifiers: [nullifier, ...(sideEffects?.nullifiers ?? [])],
      noteHashes: sideEffects?.noteHashes ?? [],
      privateLogs: sideEffects?.privateLogs ?? [],
      l2ToL1Messages: sideEffects?.l2ToL1Messages ?? [],
      contractClassPublications: sideEffects?.contractClassPublications ?? [],
      contractInstancePublications: sideEffects?.contractInstancePublications ?? [],
    },
    publicCalls: {
      setup: publicCalls?.setup ?? [],
      appLogic: publicCalls?.appLogic ?? [],
      teardown: publicCalls?.teardown ?? null,
    },
  };
  return { ...preimage, txHash: computeTxHash(preimage), proof: txProofFor(preimage) };
}

/** A tx as svc_sendTx takes it on the wire (bigints as decimal strings). */
export function txToWire(tx: TxValue): z.input<typeof txSchema> {
  return z.encode(txSchema, tx);
}
