import type { MethodHandler } from '../methodHandler.js';

/** Addresses of the protocol's own contracts (class registry, instance registry, fee asset). */
export const svc_getProtocolContractAddresses: MethodHandler<'svc_getProtocolContractAddresses'> = (node) =>
  node.contracts.getProtocolContractAddresses();
