/** Naming a reference block in answers, and the error for one the node does not have. */
import { NodeError } from '../errors.js';
import type { BlockQuery } from '../nodeService.js';

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
