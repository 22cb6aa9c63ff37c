import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/**
 * Needs the keystore, which this node version does not have yet: params are checked (by the
 * dispatcher), then the call answers -32004 naming it.
 */
export const svcAdmin_reloadKeystore: MethodHandler<'svcAdmin_reloadKeystore'> = () => {
  throw subsystemUnavailable('keystore', 'notBuilt');
};
