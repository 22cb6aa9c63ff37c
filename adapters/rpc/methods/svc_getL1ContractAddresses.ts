import type { MethodHandler } from '../methodHandler.js';

export const svc_getL1ContractAddresses: MethodHandler<'svc_getL1ContractAddresses'> = (node) =>
  node.info.getL1ContractAddresses();
