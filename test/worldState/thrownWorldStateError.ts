import { expect } from 'vitest';
import { WorldStateError } from '../../core/worldState/worldStateError.js';

/** The WorldStateError a call throws (the test fails when it returns or throws something else). */
export function thrownWorldStateError(call: () => unknown): WorldStateError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(WorldStateError);
    return error as WorldStateError;
  }
  throw new Error('expected an error');
}
