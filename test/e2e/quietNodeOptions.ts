import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';

/**
 * What every end-to-end node of a test shares: ports the system picks, the admin port on loopback without an API
 * key, and no logs or printed lines, so the test's output is its own.
 */
export const quietNodeOptions = {
  port: 0,
  adminPort: 0,
  adminHost: '127.0.0.1',
  adminApiKey: { disabled: true, reset: false },
  logger: createPinoLogger({ level: 'silent' }),
  print: () => undefined,
} as const;
