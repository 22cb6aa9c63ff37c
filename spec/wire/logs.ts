/**
 * Wire shapes of log queries (this project's layouts):
 *
 * PrivateLogsQuery = { tags: Fr[], includeEffects? }; PublicLogsQuery = { contractAddress, tags: Fr[], includeEffects? }
 * LogResult = { txHash, l2BlockNumber, l2BlockHash, txIndexInBlock, logIndexInTx, fields: Fr[], noteHashes?,
 *               nullifiers? }
 *   `noteHashes` and `nullifiers` (the emitting tx's) are present only with includeEffects. A query answers one
 *   list of LogResult per tag, in the order of `tags`.
 */
import { z } from 'zod';
import { aztecAddress, blockHash, blockNumber, fr, safeUint, txHash } from './scalars.js';

export const privateLogsQuery = z.strictObject({ tags: z.array(fr), includeEffects: z.boolean().optional() });

export const publicLogsQuery = z.strictObject({
  contractAddress: aztecAddress,
  tags: z.array(fr),
  includeEffects: z.boolean().optional(),
});

export const logResult = z.object({
  txHash,
  l2BlockNumber: blockNumber,
  l2BlockHash: blockHash,
  txIndexInBlock: safeUint,
  logIndexInTx: safeUint,
  fields: z.array(fr),
  noteHashes: z.array(fr).optional(),
  nullifiers: z.array(fr).optional(),
});

/** One list of results per tag of the query. */
export const logResultsByTag = z.array(z.array(logResult));
