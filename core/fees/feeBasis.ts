import type { Chain } from '../chain/chain.js';
import { feeBasisOf, type FeeBasis } from './minFees.js';

/** The fee basis of the checkpointed tip: the last checkpoint's fees and mana (genesis before the first). */
export async function lastFeeBasis(chain: Chain): Promise<FeeBasis> {
  const n = chain.tips.checkpointed.checkpoint.number;
  return feeBasisOf(n === 0 ? undefined : (await chain.store.getCheckpoint(n))?.header);
}
