/**
 * The node's L1 reader over its configured endpoints: one viem reader per URL (viemL1Reader.ts) behind the failover
 * reader (failoverL1Reader.ts), each endpoint named in logs and errors by its redacted URL.
 */
import type { L1ReaderPort, LoggerPort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { redactUrl } from '../config/redactConfig.js';
import { createFailoverL1Reader } from './failoverL1Reader.js';
import { createViemL1Reader } from './viemL1Reader.js';

export function createL1Reader(urls: readonly string[], rollupAddress: Hex, logger: LoggerPort): L1ReaderPort {
  const names = l1EndpointNames(urls);
  return createFailoverL1Reader(
    urls.map((url, i) => ({ name: names[i]!, reader: createViemL1Reader({ l1RpcUrl: url, rollupAddress }) })),
    { logger: logger.child({ component: 'l1Endpoints' }) },
  );
}

/** The URLs redacted, each told apart by its position (`#2`) when redaction leaves two alike. */
export function l1EndpointNames(urls: readonly string[]): string[] {
  const redacted = urls.map(redactUrl);
  return redacted.map((name, i) =>
    redacted.indexOf(name) === redacted.lastIndexOf(name) ? name : `${name} #${i + 1}`,
  );
}
