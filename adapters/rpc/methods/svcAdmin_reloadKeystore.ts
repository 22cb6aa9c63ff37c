import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/** Rereads the keystore file; -32007 (nothing changes) when it is invalid or names a publisher the node lacks. */
export const svcAdmin_reloadKeystore: MethodHandler<'svcAdmin_reloadKeystore'> = async (node) => {
  if (node.validators === undefined) throw subsystemUnavailable('keystore', 'notEnabled');
  await node.validators.reloadKeystore();
};
