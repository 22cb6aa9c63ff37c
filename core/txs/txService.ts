/**
 * The tx part of NodeService: submission and the pool (core/txPool/nodeTxPool.ts), receipts and effects (the chain's
 * tx index), validation and public simulation against the latest state.
 */
import type { ContractInstancePublication, GasFees, Hex, L2Tips, TxEffect } from '../../spec/chain.js';
import { PROTOCOL_CONTRACT_ADDRESSES, type AllowListEntry } from '../../spec/config/allowList.js';
import { MerkleTreeId } from '../../spec/constants.js';
import type { TxReceiptValue, TxValue } from '../../spec/wire/tx.js';
import { txEffectValueOf } from '../../spec/wire/txEffect.js';
import type { Chain } from '../chain/chain.js';
import { findTx } from '../chain/txIndex.js';
import { NodeError } from '../errors.js';
import { simulatePublicTx, publicSimulationOutputOf } from '../publicVm/simulation.js';
import type { PublicStateView } from '../publicVm/stateView.js';
import { answeredTx, maxPriorityFees, pendingTxPage } from '../txPool/txPoolQueries.js';
import type { NodeTxPool } from '../txPool/nodeTxPool.js';
import type { TxValidationResult } from '../validation/txValidator.js';

/** A mined tx's effect with where it is. */
export interface IndexedTxEffect {
  readonly data: TxEffect;
  readonly l2BlockNumber: number;
  readonly l2BlockHash: Hex;
  readonly txIndexInBlock: number;
}

export interface TxReceiptOptions {
  readonly includeTxEffect?: boolean;
  readonly includePendingTx?: boolean;
  readonly includeProof?: boolean;
}

/** What public simulation reports (svc_simulatePublicCalls). */
export interface PublicSimulationResult {
  readonly executionResult: TxEffect['executionResult'];
  readonly gasUsed: {
    readonly totalGas: { readonly daGas: number; readonly l2Gas: number };
    readonly publicGas: { readonly daGas: number; readonly l2Gas: number };
  };
  readonly publicReturnValues: readonly (readonly Hex[])[];
}

export interface SimulationOverridesInput {
  readonly publicStorage?: readonly { readonly contractAddress: Hex; readonly slot: Hex; readonly value: Hex }[];
  readonly contractInstances?: readonly ContractInstancePublication[];
}

/** Transactions: submission, the pool, receipts, validation and simulation. */
export interface TxService {
  /** Validates and pools a tx; INVALID_PARAMS naming every reason, or a pool rejection (TxRejectedError). */
  sendTx(tx: TxValue): Promise<void>;
  getTxReceipt(txHash: Hex, options: TxReceiptOptions): Promise<TxReceiptValue>;
  getTxEffect(txHash: Hex): Promise<IndexedTxEffect | undefined>;
  /** A pending tx, its proof stripped unless asked for. */
  getTxByHash(txHash: Hex, includeProof: boolean): Promise<TxValue | undefined>;
  getTxsByHash(txHashes: readonly Hex[], includeProof: boolean): Promise<TxValue[]>;
  /** Pending txs in priority order after the `after` cursor (from the start when absent). */
  getPendingTxs(limit: number, after: Hex | undefined, includeProof: boolean): Promise<TxValue[]>;
  getPendingTxCount(): Promise<number>;
  getMaxPriorityFees(): Promise<GasFees>;
  isValidTx(
    tx: TxValue,
    options: { readonly isSimulation?: boolean; readonly skipFeeEnforcement?: boolean },
  ): Promise<TxValidationResult>;
  simulatePublicCalls(
    tx: TxValue,
    skipFeeEnforcement: boolean,
    overrides: SimulationOverridesInput,
  ): Promise<PublicSimulationResult>;
  /** The setup-phase allow list in force: the built-in entries, then the network's and the operator's extensions. */
  getAllowedPublicSetup(): readonly AllowListEntry[];
}

export interface TxServiceDeps {
  readonly chain: Chain;
  readonly pool: NodeTxPool;
  /** Public state as of the latest block, for simulation. */
  readonly latestPublicState: () => PublicStateView;
}

/** A mined tx's status: the highest tip its block is under. */
function minedStatus(tips: L2Tips, blockNumber: number): 'proposed' | 'checkpointed' | 'proven' | 'finalized' {
  if (blockNumber <= tips.finalized.block.number) return 'finalized';
  if (blockNumber <= tips.proven.block.number) return 'proven';
  if (blockNumber <= tips.checkpointed.block.number) return 'checkpointed';
  return 'proposed';
}

async function indexedEffect(chain: Chain, txHash: Hex): Promise<IndexedTxEffect | undefined> {
  const location = await findTx(chain.store, txHash);
  if (location === undefined) return undefined;
  const block = await chain.store.getBlock(location.blockNumber);
  const data: TxEffect | undefined = block?.body.txEffects[location.indexInBlock];
  if (block === undefined || data === undefined) return undefined;
  return { data, l2BlockNumber: location.blockNumber, l2BlockHash: block.hash, txIndexInBlock: location.indexInBlock };
}

export function createTxService(deps: TxServiceDeps): TxService {
  const { chain, pool } = deps;
  const pooledTx = (txHash: Hex, includeProof: boolean): TxValue | undefined => {
    const pooled = pool.current.get(txHash.toLowerCase() as Hex);
    return pooled && answeredTx(pooled.tx, includeProof);
  };
  return {
    sendTx: (tx) => pool.sendTx(tx),
    async getTxReceipt(txHash, options): Promise<TxReceiptValue> {
      const mined = await indexedEffect(chain, txHash);
      if (mined !== undefined) {
        const { data } = mined;
        return {
          txHash: data.txHash,
          status: minedStatus(chain.tips, mined.l2BlockNumber),
          blockNumber: mined.l2BlockNumber,
          blockHash: mined.l2BlockHash,
          executionResult: data.executionResult,
          transactionFee: data.transactionFee,
          ...(options.includeTxEffect === true ? { txEffect: txEffectValueOf(data) } : {}),
        };
      }
      const pending = pooledTx(txHash, options.includeProof === true);
      if (pending !== undefined)
        return { txHash, status: 'pending', ...(options.includePendingTx === true ? { tx: pending } : {}) };
      return { txHash, status: 'dropped' };
    },
    getTxEffect: (txHash) => indexedEffect(chain, txHash),
    getTxByHash: async (txHash, includeProof) => pooledTx(txHash, includeProof),
    getTxsByHash: async (txHashes, includeProof) =>
      txHashes.map((hash) => pooledTx(hash, includeProof)).filter((tx): tx is TxValue => tx !== undefined),
    async getPendingTxs(limit, after, includeProof) {
      const page = pendingTxPage(pool.current, {
        limit,
        ...(after !== undefined ? { after: after.toLowerCase() as Hex } : {}),
      });
      return page.txs.map((pooled) => answeredTx(pooled.tx, includeProof));
    },
    getPendingTxCount: async () => pool.current.count,
    getMaxPriorityFees: async () => maxPriorityFees(pool.current),
    isValidTx: (tx, options) => pool.isValidTx(tx, options),
    getAllowedPublicSetup: () => pool.setupAllowList(),
    async simulatePublicCalls(tx, skipFeeEnforcement, overrides) {
      const outcome = await simulatePublicTx({
        tx,
        gasFees: await pool.currentMinFees(),
        feeAsset: PROTOCOL_CONTRACT_ADDRESSES.feeAsset,
        state: deps.latestPublicState(),
        skipFeeEnforcement,
        overrides,
      });
      if (outcome.kind === 'invalid') {
        throw new NodeError('INVALID_PARAMS', `the tx cannot be executed: ${outcome.reason}`, { code: outcome.code });
      }
      return publicSimulationOutputOf(outcome);
    },
  };
}

/** The public state of the world state's latest block, with contracts from `contracts`. */
export function latestPublicStateOf(
  chain: Chain,
  contracts: Pick<PublicStateView, 'contractClassId' | 'contractClassBytecode'>,
): PublicStateView {
  const worldState = chain.worldState;
  return {
    publicDataRead: (leafSlot) => worldState.getPublicDataValue(worldState.latestBlockNumber, leafSlot),
    nullifierExists: async (nullifier) =>
      (await worldState.findLeafIndices(MerkleTreeId.NULLIFIER_TREE, worldState.latestBlockNumber, [nullifier]))[0] !==
      null,
    contractClassId: contracts.contractClassId,
    contractClassBytecode: contracts.contractClassBytecode,
  };
}
