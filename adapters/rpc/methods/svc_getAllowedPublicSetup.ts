import type { MethodHandler } from '../methodHandler.js';

/** The setup allow list in force, one element per `I:`/`C:` entry (calldataLength null when the entry leaves it free). */
export const svc_getAllowedPublicSetup: MethodHandler<'svc_getAllowedPublicSetup'> = (node) =>
  node.txs
    .getAllowedPublicSetup()
    .map(({ calldataLength, ...entry }) => ({ ...entry, calldataLength: calldataLength ?? null }));
