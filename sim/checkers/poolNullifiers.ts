/** Checker: a pool never holds two txs that share a nullifier (admission replaces or refuses; a returning tx yields). */
import type { Hex } from '../../spec/chain.js';
import type { TxPool } from '../../core/txPool/txPool.js';
import type { SimFailure } from './simFailure.js';

export function checkPoolNullifiers(node: string, pool: TxPool): SimFailure[] {
  const holder = new Map<Hex, Hex>();
  for (const pooled of pool.ordered()) {
    for (const raw of pooled.tx.sideEffects.nullifiers) {
      const nullifier = raw.toLowerCase() as Hex;
      const other = holder.get(nullifier);
      if (other !== undefined && other !== pooled.txHash) {
        return [
          {
            kind: 'poolNullifierShared',
            node,
            detail: `txs ${other} and ${pooled.txHash} are both pooled with nullifier ${nullifier}`,
          },
        ];
      }
      holder.set(nullifier, pooled.txHash);
    }
  }
  return [];
}
