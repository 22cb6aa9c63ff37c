import { describe, expect, it } from 'vitest';
import { isWorldStateError, WorldStateError } from './worldStateError.js';

describe('WorldStateError', () => {
  it('is named as its class, with its code, message and details', () => {
    const error = new WorldStateError('WORLD_STATE_TREE_FULL', 'the tree is full', { treeId: 1 });
    expect(error).toMatchObject({
      name: 'WorldStateError',
      code: 'WORLD_STATE_TREE_FULL',
      message: 'the tree is full',
      details: { treeId: 1 },
    });
    expect(new WorldStateError('WORLD_STATE_DRAFT_STALE', 'stale').details).toEqual({});
  });

  it('is recognized by isWorldStateError, with any code or the one asked for', () => {
    const error = new WorldStateError('WORLD_STATE_BLOCK_PRUNED', 'pruned');
    expect(isWorldStateError(error)).toBe(true);
    expect(isWorldStateError(error, 'WORLD_STATE_BLOCK_PRUNED')).toBe(true);
    expect(isWorldStateError(error, 'WORLD_STATE_BLOCK_UNKNOWN')).toBe(false);
    const lookalike = Object.assign(new Error('pruned'), { code: 'WORLD_STATE_BLOCK_PRUNED' });
    expect(isWorldStateError(lookalike)).toBe(false);
    expect(isWorldStateError(lookalike, 'WORLD_STATE_BLOCK_PRUNED')).toBe(false);
    expect(isWorldStateError(undefined)).toBe(false);
  });
});
