import type { BlockRef, ChainEvent, CheckpointRef, L2Tips } from '../../spec/chain.js';
import { assert } from '../assert.js';

/** Tips of a chain holding only its genesis block. */
export function genesisTips(genesis: BlockRef, genesisCheckpoint: CheckpointRef): L2Tips {
  const settled = { block: genesis, checkpoint: genesisCheckpoint };
  return { proposed: genesis, checkpointed: settled, proven: settled, finalized: settled };
}

/** docs/protocol.md, Tips: always finalized <= proven <= checkpointed <= proposed (block and checkpoint numbers). */
export function tipsOrdered(t: L2Tips): boolean {
  return (
    t.finalized.block.number <= t.proven.block.number &&
    t.proven.block.number <= t.checkpointed.block.number &&
    t.checkpointed.block.number <= t.proposed.number &&
    t.finalized.checkpoint.number <= t.proven.checkpoint.number &&
    t.proven.checkpoint.number <= t.checkpointed.checkpoint.number
  );
}

/** Why an event cannot apply to these tips, or undefined when it can. */
export function chainEventRejection(t: L2Tips, e: ChainEvent): string | undefined {
  switch (e.type) {
    case 'blocksAdded': {
      const first = e.blocks[0];
      if (!first) return 'blocksAdded carries no blocks';
      if (first.header.globalVariables.blockNumber !== t.proposed.number + 1) {
        return `block ${first.header.globalVariables.blockNumber} does not follow proposed tip ${t.proposed.number}`;
      }
      const contiguous = e.blocks.every(
        (b, i) => b.header.globalVariables.blockNumber === first.header.globalVariables.blockNumber + i,
      );
      return contiguous ? undefined : 'blocksAdded blocks are not contiguous';
    }
    case 'chainCheckpointed':
      if (e.checkpoint.number !== t.checkpointed.checkpoint.number + 1) {
        return `checkpoint ${e.checkpoint.number} does not follow checkpointed tip ${t.checkpointed.checkpoint.number}`;
      }
      return e.block.number > t.proposed.number
        ? `checkpointed block ${e.block.number} is above proposed tip`
        : undefined;
    case 'chainProven':
      // Proven follows L1's proven checkpoint, which an L1 reorg can take back (the proof's block is gone), so it may
      // move down as well as up; never below finalized, which the node treats as final whatever L1 does.
      return outsideRange('proven', e, t.finalized, t.checkpointed);
    case 'chainFinalized':
      // Finalized only moves forward.
      return outsideRange('finalized', e, t.finalized, t.proven);
    case 'chainPruned':
      // Only an operator's forced rollback goes below finalized (svcAdmin_rollbackTo with force).
      if (e.toBlock.number < t.finalized.block.number && e.reason !== 'rollback')
        return `prune to ${e.toBlock.number} below finalized`;
      if (e.toBlock.number > t.proposed.number) return `prune to ${e.toBlock.number} above proposed tip`;
      return e.checkpointed.block.number > e.toBlock.number
        ? 'checkpointed tip after prune above the pruned-to block'
        : undefined;
  }
}

/** Why a tip cannot move to `e`'s block and checkpoint: each must lie within `[low, high]`. */
function outsideRange(
  tip: 'proven' | 'finalized',
  e: { readonly block: BlockRef; readonly checkpoint: CheckpointRef },
  low: { readonly block: BlockRef; readonly checkpoint: CheckpointRef },
  high: { readonly block: BlockRef; readonly checkpoint: CheckpointRef },
): string | undefined {
  const blockOutside = e.block.number < low.block.number || e.block.number > high.block.number;
  const checkpointOutside = e.checkpoint.number < low.checkpoint.number || e.checkpoint.number > high.checkpoint.number;
  if (!blockOutside && !checkpointOutside) return undefined;
  return `${tip} block ${e.block.number} (checkpoint ${e.checkpoint.number}) outside [${low.block.number}, ${high.block.number}] (checkpoints [${low.checkpoint.number}, ${high.checkpoint.number}])`;
}

/** The tips after one chain event; asserts the event applies (callers check chainEventRejection first). */
export function applyChainEvent(t: L2Tips, e: ChainEvent): L2Tips {
  const rejection = chainEventRejection(t, e);
  assert(rejection === undefined, rejection ?? '');
  let next: L2Tips;
  switch (e.type) {
    case 'blocksAdded': {
      const last = e.blocks[e.blocks.length - 1]!;
      next = { ...t, proposed: { number: last.header.globalVariables.blockNumber, hash: last.hash } };
      break;
    }
    case 'chainCheckpointed':
      next = {
        ...t,
        checkpointed: { block: e.block, checkpoint: { number: e.checkpoint.number, hash: e.checkpoint.hash } },
      };
      break;
    case 'chainProven':
      next = { ...t, proven: { block: e.block, checkpoint: e.checkpoint } };
      break;
    case 'chainFinalized':
      next = { ...t, finalized: { block: e.block, checkpoint: e.checkpoint } };
      break;
    case 'chainPruned': {
      const checkpointed = e.checkpointed;
      assert(checkpointed.block.number <= e.toBlock.number, 'the checkpointed tip after a prune is at or below it');
      const proven = t.proven.block.number > checkpointed.block.number ? checkpointed : t.proven;
      const finalized = t.finalized.block.number > checkpointed.block.number ? checkpointed : t.finalized;
      next = { ...t, proposed: e.toBlock, checkpointed, proven, finalized };
      break;
    }
  }
  assert(tipsOrdered(next), `tips out of order after ${e.type}`);
  return next;
}
