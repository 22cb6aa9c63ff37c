import type { MethodHandler } from '../methodHandler.js';

/** A registered contract class with its public bytecode, or null. */
export const svc_getContractClass: MethodHandler<'svc_getContractClass'> = (node, [id]) =>
  node.contracts.getContractClass(id);
