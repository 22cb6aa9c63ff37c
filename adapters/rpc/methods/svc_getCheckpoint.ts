import { NodeError } from '../../../core/errors.js';
import type { NodeService } from '../../../core/nodeService.js';
import type { Checkpoint } from '../../../spec/chain.js';
import { blockResponseOf } from '../../../spec/wire/block.js';
import {
  checkpointResponseOf,
  type CheckpointIncludeOptionsValue,
  type CheckpointResponseValue,
} from '../../../spec/wire/checkpoint.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * The CheckpointResponse of a checkpoint, with its blocks read from the node when the options ask for them. A
 * checkpoint has at most BLOCKS_PER_CHECKPOINT_MAX blocks, so the blocks add a bounded amount per checkpoint. When
 * the blocks read back do not match the checkpoint (it was pruned between the two reads), the answer is -32006.
 */
export async function checkpointResponseFromNode(
  node: NodeService,
  checkpoint: Checkpoint,
  options: CheckpointIncludeOptionsValue = {},
): Promise<CheckpointResponseValue> {
  if (options.includeBlocks !== true) return checkpointResponseOf(checkpoint, undefined);
  const found = await node.chain.getBlocks(checkpoint.firstBlockNumber, checkpoint.blockCount);
  const matches =
    found.length === checkpoint.blockCount &&
    found.every(
      ({ block }, index) =>
        block.checkpointNumber === checkpoint.number &&
        block.header.globalVariables.blockNumber === checkpoint.firstBlockNumber + index,
    );
  if (!matches) {
    throw new NodeError(
      'STATE_NOT_AVAILABLE',
      `the blocks of checkpoint ${checkpoint.number} are no longer available`,
      {
        checkpointNumber: checkpoint.number,
      },
    );
  }
  const include = { includeTransactions: options.includeTransactions === true };
  return checkpointResponseOf(
    checkpoint,
    found.map(({ block }) => blockResponseOf(block, undefined, include)),
  );
}

export const svc_getCheckpoint: MethodHandler<'svc_getCheckpoint'> = async (node, [param, options]) => {
  const checkpoint = await node.chain.findCheckpoint(param);
  return checkpoint && checkpointResponseFromNode(node, checkpoint, options);
};
