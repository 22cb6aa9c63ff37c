import { NodeError } from '../../../core/errors.js';
import type { MethodHandler } from '../methodHandler.js';

/** A patch the node refuses (unknown key, bad value) is -32602 naming the `config` param, as every bad param is. */
export const svcAdmin_setConfig: MethodHandler<'svcAdmin_setConfig'> = async (node, [config]) => {
  try {
    await node.admin.setConfig(config);
  } catch (error) {
    if (!(error instanceof NodeError) || error.code !== 'INVALID_PARAMS') throw error;
    throw new NodeError(
      'INVALID_PARAMS',
      `Invalid params: params[0] (config): ${error.message}`,
      { ...error.details, position: 0, name: 'config' },
      { cause: error },
    );
  }
};
