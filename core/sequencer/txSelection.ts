/**
 * Filling a block from the pool: candidates in priority order, each executed (core/publicVm) on the state the
 * block's earlier txs leave, kept when it fits the block's budget and is still includable. A tx that no longer is
 * (spent nullifier, expired, invalid execution) is skipped with its reason; the pool's own maintenance evicts it
 * after the block.
 */
import type { GasFees, Hex, TxEffect } from '../../spec/chain.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../spec/config/allowList.js';
import { TX_POOL_CAPACITY_MAX } from '../../spec/constants.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { executePublicTx } from '../publicVm/phaseExecutor.js';
import {
  overlayOfPublications,
  overlayOfTxEffects,
  overlayPublicState,
  type PublicStateView,
} from '../publicVm/stateView.js';
import type { BlockBudget } from './blockBudget.js';

export interface TxSelectionInput {
  /** Pending txs, highest priority first. */
  readonly candidates: readonly TxValue[];
  readonly budget: BlockBudget;
  readonly gasFees: GasFees;
  /** The block's timestamp (Unix seconds): a tx expiring before it is skipped. */
  readonly timestamp: bigint;
  /** The latest state, before the block. */
  readonly state: PublicStateView;
  /**
   * Whether a tx's anchor block is a block of the chain the new block extends (at or below its parent). A tx whose
   * anchor a prune removed proves against a state the chain no longer has; the pool drops such txs after the prune,
   * but a block built in between must not take them.
   */
  readonly anchorOnChain: (blockHash: Hex) => Promise<boolean>;
}

export interface SkippedTx {
  readonly txHash: Hex;
  readonly reason: string;
}

export interface TxSelection {
  readonly effects: readonly TxEffect[];
  readonly manaUsed: number;
  readonly daGasUsed: number;
  readonly totalFees: bigint;
  readonly skipped: readonly SkippedTx[];
}

/** Why a candidate cannot go in before running it, or undefined. */
async function precheck(
  tx: TxValue,
  input: TxSelectionInput,
  used: { mana: number; daGas: number },
  state: PublicStateView,
): Promise<string | undefined> {
  const { gasLimits } = tx.gasSettings;
  if (tx.expirationTimestamp < input.timestamp) return `expired at ${tx.expirationTimestamp}`;
  if (!(await input.anchorOnChain(tx.anchorBlockHash.toLowerCase() as Hex)))
    return `its anchor block ${tx.anchorBlockHash} is not on the chain the block extends`;
  if (used.mana + gasLimits.l2Gas > input.budget.l2Gas)
    return 'its L2 gas limit does not fit what is left of the block budget';
  if (used.daGas + gasLimits.daGas > input.budget.daGas)
    return 'its DA gas limit does not fit what is left of the block budget';
  for (const nullifier of tx.sideEffects.nullifiers) {
    if (await state.nullifierExists(nullifier.toLowerCase() as Hex)) return `nullifier ${nullifier} is already spent`;
  }
  return undefined;
}

/**
 * What the block's earlier txs left, kept up to date as txs are included: their public data writes (last wins),
 * nullifiers, and published contracts (callable by the later txs).
 */
class BlockOverlay {
  private readonly publicData = new Map<Hex, Hex>();
  private readonly nullifiers = new Set<Hex>();
  private readonly contractClassIds = new Map<Hex, Hex>();
  private readonly contractClassBytecodes = new Map<Hex, Uint8Array>();
  readonly state: PublicStateView;

  constructor(base: PublicStateView) {
    const { publicData, nullifiers, contractClassIds, contractClassBytecodes } = this;
    this.state = overlayPublicState(base, { publicData, nullifiers, contractClassIds, contractClassBytecodes });
  }

  add(effect: TxEffect): void {
    const { publicData, nullifiers } = overlayOfTxEffects([effect]);
    publicData?.forEach((value, slot) => this.publicData.set(slot, value));
    nullifiers?.forEach((nullifier) => this.nullifiers.add(nullifier));
    const published = overlayOfPublications(effect);
    published.contractClassIds?.forEach((classId, address) => this.contractClassIds.set(address, classId));
    published.contractClassBytecodes?.forEach((bytecode, classId) =>
      this.contractClassBytecodes.set(classId, bytecode),
    );
  }
}

export async function selectTxs(input: TxSelectionInput): Promise<TxSelection> {
  const effects: TxEffect[] = [];
  const skipped: SkippedTx[] = [];
  const used = { mana: 0, daGas: 0 };
  let totalFees = 0n;
  const overlay = new BlockOverlay(input.state);
  for (const tx of input.candidates.slice(0, TX_POOL_CAPACITY_MAX)) {
    if (effects.length >= input.budget.txCount) break;
    const state = overlay.state;
    const refused = await precheck(tx, input, used, state);
    if (refused !== undefined) {
      skipped.push({ txHash: tx.txHash, reason: refused });
      continue;
    }
    const outcome = await executePublicTx({
      tx,
      gasFees: input.gasFees,
      feeAsset: PROTOCOL_CONTRACT_ADDRESSES.feeAsset,
      state,
    });
    if (outcome.kind === 'invalid') {
      skipped.push({ txHash: tx.txHash, reason: outcome.reason });
      continue;
    }
    effects.push(outcome.effect);
    overlay.add(outcome.effect);
    used.mana += outcome.gasUsed.totalGas.l2Gas;
    used.daGas += outcome.gasUsed.totalGas.daGas;
    totalFees += outcome.transactionFee;
  }
  return { effects, manaUsed: used.mana, daGasUsed: used.daGas, totalFees, skipped };
}
