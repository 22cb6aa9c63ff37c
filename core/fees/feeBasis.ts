import type { GasFees } from '../../spec/chain.js';
import type { Chain, ChainUpdate } from '../chain/chain.js';
import { feeBasisOf, type FeeBasis } from './minFees.js';

/** The fee basis of the checkpointed tip: the last checkpoint's fees and mana (genesis, at the floor, before the first). */
export async function lastFeeBasis(chain: Chain, floor: GasFees): Promise<FeeBasis> {
  const n = chain.tips.checkpointed.checkpoint.number;
  return feeBasisOf(n === 0 ? undefined : (await chain.store.getCheckpoint(n))?.header, floor);
}

/** The fee basis of an update's checkpointed tip (genesis, at the floor, before the first checkpoint). */
export async function checkpointedFeeBasis(u: ChainUpdate, floor: GasFees): Promise<FeeBasis> {
  const n = u.tips.checkpointed.checkpoint.number;
  return feeBasisOf(n === 0 ? undefined : (await u.getCheckpoint(n))?.header, floor);
}
