import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/** The block and checkpoint proposals of a slot the attestation pool still holds. */
export const svc_getProposalsForSlot: MethodHandler<'svc_getProposalsForSlot'> = (node, [slot]) => {
  if (node.validators === undefined) throw subsystemUnavailable('p2p', 'notEnabled');
  return node.validators.getProposalsForSlot(slot);
};
