import type { MethodHandler } from '../methodHandler.js';

/** A note hash's leaf in the note-hash tree. */
export const svc_getNoteHashMembershipWitness: MethodHandler<'svc_getNoteHashMembershipWitness'> = (
  node,
  [reference, noteHash],
) => node.worldState.getNoteHashMembershipWitness(reference, noteHash);
