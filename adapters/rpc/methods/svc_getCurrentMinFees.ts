import type { MethodHandler } from '../methodHandler.js';

/** The minimum fees per gas a tx must offer to enter the next checkpoint. */
export const svc_getCurrentMinFees: MethodHandler<'svc_getCurrentMinFees'> = (node) => node.fees.getCurrentMinFees();
