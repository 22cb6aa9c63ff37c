/**
 * The node's blob sources in production: built from the configuration, checked at startup (the node refuses to start
 * when none answers, unless --blob.allowEmptySources), and their counts of blobs served, missed and failed logged
 * every BLOB_SOURCE_STATS_LOG_INTERVAL_MS when they changed.
 */
import type { BlobSourceChain, BlobSourceStats } from '../../core/blobs/blobSourceChain.js';
import type { BlobsPort, L1ReaderPort, LoggerPort } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import type { ConfigValues } from '../../spec/config/schema.js';
import { configSchema } from '../../spec/config/schema.js';
import { createBlobPorts } from '../blobs/blobPorts.js';

/** How often the per-source blob counts are logged (when they changed since the last time). */
export const BLOB_SOURCE_STATS_LOG_INTERVAL_MS = 10 * 60_000;

/** The blob ports the configuration names, keyed by the L1 chain and rollup the node follows. */
export async function openNodeBlobPorts(
  values: ConfigValues,
  l1: L1ReaderPort,
  rollupAddress: Hex,
  logger: LoggerPort,
): Promise<BlobsPort> {
  const constants = await l1.getRollupConstants();
  return createBlobPorts({
    consensusHostUrls: values.l1ConsensusHostUrls,
    ...(values.l1ConsensusHostApiKeys !== undefined ? { consensusHostApiKeys: values.l1ConsensusHostApiKeys } : {}),
    consensusHostApiKeyHeaders: values.l1ConsensusHostApiKeyHeaders,
    fileStoreUrls: values.blobFileStoreUrls,
    ...(values.blobFileStoreUploadUrl !== undefined ? { fileStoreUploadUrl: values.blobFileStoreUploadUrl } : {}),
    ...(values.blobArchiveApiUrl !== undefined ? { archiveApiUrl: values.blobArchiveApiUrl } : {}),
    chain: { l1ChainId: constants.l1ChainId, rollupVersion: constants.rollupVersion, rollupAddress },
    logger,
  });
}

/**
 * Asks every blob source and the upload store whether it answers and logs what each said. Throws when no source
 * answers, unless `allowEmpty`: then sync starts and waits for one.
 */
export async function checkNodeBlobSources(
  chain: BlobSourceChain,
  allowEmpty: boolean,
  logger: LoggerPort,
): Promise<void> {
  const checks = await chain.checkSources();
  for (const check of checks) {
    if (check.ok) logger.info('blob source answers', { kind: check.kind, source: check.name });
    else logger.warn('blob source does not answer', { kind: check.kind, source: check.name, reason: check.reason });
  }
  const sources = checks.filter((c) => c.kind !== 'upload');
  if (sources.some((c) => c.ok)) return;
  const why =
    sources.length === 0
      ? `none is configured (${configSchema.l1ConsensusHostUrls.flag}, ${configSchema.blobFileStoreUrls.env}, ${configSchema.blobArchiveApiUrl.env})`
      : `none of the ${sources.length} configured answers`;
  if (allowEmpty) {
    logger.warn(`no blob source answers: ${why}; starting anyway, sync waits for one`);
    return;
  }
  throw new Error(
    `no blob source answers: ${why}, so the node could not sync a checkpoint; ${configSchema.blobAllowEmptySources.flag} starts it anyway`,
  );
}

/** Logs the per-source counts every interval when they changed; returns the function that stops it. */
export function logBlobSourceStats(
  chain: BlobSourceChain,
  logger: LoggerPort,
  intervalMs = BLOB_SOURCE_STATS_LOG_INTERVAL_MS,
): () => void {
  let last = '';
  const timer = setInterval(() => {
    const stats: BlobSourceStats[] = chain.stats();
    const text = JSON.stringify(stats);
    if (text === last) return;
    last = text;
    logger.info('blob sources: blobs served, missed and failed since start', { sources: stats });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
