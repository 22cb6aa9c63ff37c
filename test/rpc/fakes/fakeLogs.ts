/** Fake log answers of the fake node. */
import { subsystemUnavailable } from '../../../core/errors.js';
import type { LogService } from '../../../core/nodeService.js';

const missing = async (): Promise<never> => {
  throw subsystemUnavailable('logs', 'notBuilt');
};

export const fakeLogs: LogService = { getPrivateLogsByTags: missing, getPublicLogsByTags: missing };
