/**
 * Expected failures of the world state, each with a stable string code and a typed payload (the style of
 * core/errors.ts). The lead maps WORLD_STATE_BLOCK_PRUNED and WORLD_STATE_BLOCK_UNKNOWN to STATE_NOT_AVAILABLE.
 */
import { CodedError, type CodedErrorOptions } from '../../spec/errors.js';

export type WorldStateErrorCode =
  /** The block is older than the oldest block whose state is still kept. */
  | 'WORLD_STATE_BLOCK_PRUNED'
  /** The block is not (or no longer, after an unwind) part of this world state. */
  | 'WORLD_STATE_BLOCK_UNKNOWN'
  /** A block was prepared for a number other than the latest plus one. */
  | 'WORLD_STATE_BLOCK_OUT_OF_ORDER'
  /** A nullifier is already in the tree, or twice in the block. */
  | 'WORLD_STATE_DUPLICATE_NULLIFIER'
  /** A block's effects break a per-tx or per-block limit, or hold a malformed value. */
  | 'WORLD_STATE_EFFECTS_INVALID'
  /** A tree has no room for the block's leaves. */
  | 'WORLD_STATE_TREE_FULL'
  /** A prepared block was overtaken by another block, an unwind or a clear before it was committed. */
  | 'WORLD_STATE_DRAFT_STALE'
  /** The stored world state was written for another genesis block. */
  | 'WORLD_STATE_GENESIS_MISMATCH'
  /** The stored world state was written with other tree heights or another storage layout. */
  | 'WORLD_STATE_STORAGE_MISMATCH'
  /** A query asked for more values than a lookup allows. */
  | 'WORLD_STATE_LOOKUP_TOO_LARGE'
  /** A query's argument is malformed (not a 32-byte field, a negative index...). */
  | 'WORLD_STATE_QUERY_INVALID'
  /** A read kept being overtaken by unwinds or clears. */
  | 'WORLD_STATE_READ_INTERRUPTED';

export class WorldStateError<Details extends Record<string, unknown> = Record<string, unknown>> extends CodedError<
  WorldStateErrorCode,
  Details
> {
  constructor(
    code: WorldStateErrorCode,
    shortMessage: string,
    details: Details = {} as Details,
    options?: CodedErrorOptions,
  ) {
    super(code, shortMessage, details, options);
    this.name = 'WorldStateError';
  }
}

export function isWorldStateError(error: unknown, code?: WorldStateErrorCode): error is WorldStateError {
  return error instanceof WorldStateError && (code === undefined || error.code === code);
}
