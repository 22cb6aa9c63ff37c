import type { MethodHandler } from '../methodHandler.js';

/** A published contract instance with its class as of the reference block, or null if never published by then. */
export const svc_getContract: MethodHandler<'svc_getContract'> = (node, [address, reference]) =>
  node.contracts.getContract(address, reference ?? { kind: 'tag', tag: 'latest' });
