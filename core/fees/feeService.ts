/** The fee part of NodeService: the minimum fees per gas a tx must offer, now and in the coming slots. */
import type { GasFees, L1RollupConstants } from '../../spec/chain.js';
import type { Chain } from '../chain/chain.js';
import { lastFeeBasis } from './feeBasis.js';
import { feeFloor, nextGasFees, predictedGasFees } from './minFees.js';

export interface FeeService {
  /** The minimum fees per gas a tx must offer to enter the next checkpoint. */
  getCurrentMinFees(): Promise<GasFees>;
  /** The current minimum fees, then a forecast per coming slot under the given mana usage. */
  getPredictedMinFees(manaUsage: 'none' | 'target' | 'limit'): Promise<GasFees[]>;
}

/** Minimum fees from the fee basis of the chain's last block, never below the floor the fee asset's price sets. */
export function createFeeService(chain: Chain, constants: L1RollupConstants): FeeService {
  const floor = feeFloor(constants.ethPerFeeAsset);
  return {
    getCurrentMinFees: async () => nextGasFees(await lastFeeBasis(chain, floor), floor),
    getPredictedMinFees: async (usage) => predictedGasFees(await lastFeeBasis(chain, floor), usage, floor),
  };
}
