/** Resolving the block a query names, naming a reference block in answers, and the error for one the node does not have. */
import type { BlockTipName, L2Tips } from '../../spec/chain.js';
import { NodeError } from '../errors.js';
import type { BlockQuery } from '../nodeService.js';
import type { Chain } from './chain.js';

/** The block number of a tip (`latest` is the proposed tip). */
export function tipBlockNumber(tips: L2Tips, tip: 'latest' | BlockTipName): number {
  switch (tip) {
    case 'latest':
    case 'proposed':
      return tips.proposed.number;
    case 'checkpointed':
    case 'proven':
    case 'finalized':
      return tips[tip].block.number;
  }
}

/** The number of the block `query` names, or undefined when the chain's store does not know it. */
export async function resolveBlockNumber(chain: Chain, query: BlockQuery): Promise<number | undefined> {
  const store = chain.store;
  switch (query.kind) {
    case 'number':
      return query.number;
    case 'tag':
      return tipBlockNumber(chain.tips, query.tag);
    case 'hash':
      return store.getBlockNumberByHash(query.hash);
    case 'archive':
      return store.getBlockNumberByArchive(query.archive);
    case 'hashOrArchive':
      return (await store.getBlockNumberByHash(query.value)) ?? (await store.getBlockNumberByArchive(query.value));
  }
}

/** How a query names its block, for messages ("block 12", "tip proven"...). */
export function describeBlockQuery(query: BlockQuery): string {
  switch (query.kind) {
    case 'number':
      return `block ${query.number}`;
    case 'hash':
      return `block hash ${query.hash}`;
    case 'archive':
      return `archive root ${query.archive}`;
    case 'hashOrArchive':
      return `block hash or archive root ${query.value}`;
    case 'tag':
      return `tip ${query.tag}`;
  }
}

/** STATE_NOT_AVAILABLE for a reference block the node does not have (reason 'unknown'). */
export function unknownReferenceBlock(query: BlockQuery, blockNumber?: number): NodeError {
  return new NodeError('STATE_NOT_AVAILABLE', `${describeBlockQuery(query)} is not known to this node`, {
    ...(blockNumber === undefined ? {} : { blockNumber }),
    reason: 'unknown',
  });
}
