/**
 * Connections to the campaign queue's Redis. Exempt from the determinism lint (network, wall clock).
 *
 * Two behaviours on purpose: the first contact is one bounded attempt (a URL that does not answer is a clear error
 * within QUEUE_CONNECT_TIMEOUT_MS, not an endless reconnect loop), and once that worked, a lost connection is waited
 * out: ioredis reconnects with a capped backoff and holds commands until Redis is back, and the loss and the return
 * are each logged once.
 */
import { Redis } from 'ioredis';
import { CampaignQueueError } from './campaignQueueError.js';

/** How long the first contact with Redis may take before the queue is reported unreachable. */
export const QUEUE_CONNECT_TIMEOUT_MS = 5_000;
/** Longest wait between two reconnect attempts once a connection was lost. */
export const QUEUE_RECONNECT_DELAY_MAX_MS = 2_000;
/** First wait between reconnect attempts (doubled each time up to the cap). */
const QUEUE_RECONNECT_DELAY_MIN_MS = 100;

/** Checks that `url` names a Redis server (redis:// or rediss://, optional /db) and returns it. */
export function checkQueueUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new CampaignQueueError('QUEUE_URL_INVALID', `"${url}" is not a URL; give redis://host:6379/0`, { url });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:')
    throw new CampaignQueueError('QUEUE_URL_INVALID', `"${url}" is not a redis:// or rediss:// URL`, { url });
  if (parsed.pathname !== '' && parsed.pathname !== '/' && !/^\/\d+$/.test(parsed.pathname))
    throw new CampaignQueueError('QUEUE_URL_INVALID', `"${url}": the path must be a database number, as /0`, {
      url,
    });
  return url;
}

/** The URL without its password, for messages. */
export function displayQueueUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

/** One connection attempt, bounded by QUEUE_CONNECT_TIMEOUT_MS: resolves when Redis answers PING. */
export async function probeQueue(url: string): Promise<void> {
  checkQueueUrl(url);
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: QUEUE_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let lastError: unknown;
  probe.on('error', (error: unknown) => (lastError = error));
  let timer: NodeJS.Timeout | undefined;
  // connectTimeout ends at the TCP connect: a server that accepts and never answers is bounded here.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer')), QUEUE_CONNECT_TIMEOUT_MS);
  });
  try {
    await Promise.race([(async () => (await probe.connect(), await probe.ping()))(), timeout]);
  } catch (error) {
    const reason = describe(lastError ?? error);
    throw new CampaignQueueError(
      'QUEUE_UNREACHABLE',
      `cannot reach the campaign queue at ${displayQueueUrl(url)} within ${QUEUE_CONNECT_TIMEOUT_MS / 1000} s (${reason}): is Redis running there, and reachable from this machine?`,
      { url: displayQueueUrl(url), reason },
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
    probe.disconnect();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The Redis client name of a campaign connection (CLIENT LIST shows it; no spaces allowed). */
export function queueClientName(queueName: string, role: string): string {
  return `sim-campaign:${queueName}:${role}`.replace(/\s/g, '_');
}

/**
 * A connection that waits out outages: reconnects forever with a capped backoff, holds commands meanwhile
 * (`maxRetriesPerRequest: null`, as BullMQ's workers need), and logs the loss and the return once each.
 */
export function openQueueConnection(url: string, log: (line: string) => void, clientName: string): Redis {
  const redis = new Redis(url, {
    connectTimeout: QUEUE_CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    connectionName: clientName,
    retryStrategy: (attempt) =>
      Math.min(QUEUE_RECONNECT_DELAY_MAX_MS, QUEUE_RECONNECT_DELAY_MIN_MS * 2 ** Math.min(attempt, 10)),
  });
  watchConnection(redis, url, log);
  return redis;
}

/**
 * Logs a lost connection once per outage (when ioredis starts reconnecting, so a deliberate quit is not a loss) and
 * its return once; keeps ioredis's error events from going unhandled.
 */
export function watchConnection(redis: Redis, url: string, log: (line: string) => void): void {
  let down = false;
  let lastReason = 'connection closed';
  redis.on('error', (error: unknown) => (lastReason = describe(error)));
  redis.on('reconnecting', () => {
    if (down) return;
    down = true;
    log(`campaign queue: lost the connection to ${displayQueueUrl(url)} (${lastReason}); waiting for it to return`);
  });
  redis.on('ready', () => {
    if (down) log(`campaign queue: connection to ${displayQueueUrl(url)} is back`);
    down = false;
    lastReason = 'connection closed';
  });
}
