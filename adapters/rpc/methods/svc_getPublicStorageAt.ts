import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * Needs the world state, which this node version does not have yet: params are checked (by the
 * dispatcher), then the call answers -32004 naming it.
 */
export const svc_getPublicStorageAt: MethodHandler<'svc_getPublicStorageAt'> = () => {
  throw subsystemUnavailable('worldState', 'notBuilt');
};
