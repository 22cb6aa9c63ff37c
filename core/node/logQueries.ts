/** Logs by tag: not built in this version of the node yet (see the logs issue work in progress). */
import type { Chain } from '../chain/chain.js';
import { subsystemUnavailable } from '../errors.js';
import type { LogService } from '../nodeService.js';

export function createLogQueries(_chain: Chain): LogService {
  return {
    getPrivateLogsByTags: async () => {
      throw subsystemUnavailable('logs', 'notBuilt');
    },
    getPublicLogsByTags: async () => {
      throw subsystemUnavailable('logs', 'notBuilt');
    },
  };
}
