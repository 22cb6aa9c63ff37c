import { subsystemUnavailable } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/** The attestation pool's checkpoint attestations of a slot, optionally of one proposal payload hash. */
export const svc_getCheckpointAttestationsForSlot: MethodHandler<'svc_getCheckpointAttestationsForSlot'> = (
  node,
  [slot, proposalPayloadHash],
) => {
  if (node.validators === undefined) throw subsystemUnavailable('p2p', 'notEnabled');
  return node.validators.getCheckpointAttestationsForSlot(slot, proposalPayloadHash);
};
