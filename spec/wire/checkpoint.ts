/**
 * Wire shapes of checkpoints and of the parameters that name them. Layouts (this project's; the spec leaves them
 * opaque):
 *
 * CheckpointData = { number, hash, archiveRoot, firstBlockNumber, blockCount, blobVersionedHashes,
 *                    header: { lastArchiveRoot, slotNumber, timestamp, coinbase, feeRecipient, gasFees, blockCount,
 *                              blobsHash, totalManaUsed, inHash, outHash },
 *                    l1: L1PublishInfo }
 * CheckpointResponse = CheckpointData + { blocks?: BlockResponse[] }, the blocks present only with `includeBlocks`
 *                      (their bodies only with `includeTransactions` too).
 *
 * CheckpointParameter: a checkpoint number, a checkpoint tag ('checkpointed', 'proven', 'finalized'; not
 * 'proposed'), or an object with exactly one key `{number}`, `{hash}` or `{tag}`; it decodes into
 * `CheckpointQueryValue`, structurally the core's `CheckpointQuery`.
 * CheckpointsQuery: `{from, limit}` (a contiguous range) or `{epoch}` (every checkpoint of the epoch).
 */
import { z } from 'zod';
import type { Checkpoint } from '../chain.js';
import { blockResponse, gasFees, l1PublishInfo, type BlockResponseValue } from './block.js';
import { jsonTypeUnionError } from './jsonTypeUnion.js';
import {
  bigUint,
  blockNumber,
  bytes32,
  checkpointNumber,
  checkpointTag,
  CHECKPOINT_TIP_NAMES,
  describeInput,
  epochNumber,
  ethAddress,
  fr,
  safeUint,
  slotNumber,
} from './scalars.js';

export const checkpointHeader = z.object({
  lastArchiveRoot: fr,
  slotNumber,
  timestamp: bigUint,
  coinbase: ethAddress,
  feeRecipient: bytes32,
  gasFees,
  blockCount: safeUint,
  blobsHash: bytes32,
  totalManaUsed: bigUint,
  inHash: bytes32,
  outHash: bytes32,
});

const checkpointDataFields = {
  number: checkpointNumber,
  hash: bytes32,
  archiveRoot: fr,
  firstBlockNumber: blockNumber,
  blockCount: safeUint,
  blobVersionedHashes: z.array(bytes32),
  header: checkpointHeader,
  l1: l1PublishInfo,
};

/** Metadata of one checkpoint: its header, block range, blobs and where it landed on L1. */
export const checkpointData = z.object(checkpointDataFields);

export const checkpointResponse = z.object({
  ...checkpointDataFields,
  /** Present only with `includeBlocks`. */
  blocks: z.array(blockResponse).optional(),
});

/** `CheckpointIncludeOptions`: what a checkpoint answer adds to its metadata; unknown keys are refused. */
export const checkpointIncludeOptions = z.strictObject({
  /** Add the checkpoint's blocks (BlockData fields and indexWithinCheckpoint). */
  includeBlocks: z.boolean().optional(),
  /** With includeBlocks: the blocks carry their tx effects. Ignored without it. */
  includeTransactions: z.boolean().optional(),
});

export type CheckpointDataValue = z.output<typeof checkpointData>;
export type CheckpointResponseValue = z.output<typeof checkpointResponse>;
export type CheckpointIncludeOptionsValue = z.output<typeof checkpointIncludeOptions>;

/** The CheckpointData of a core checkpoint. */
export function checkpointDataOf(checkpoint: Checkpoint): CheckpointDataValue {
  return {
    number: checkpoint.number,
    hash: checkpoint.hash,
    archiveRoot: checkpoint.archiveRoot,
    firstBlockNumber: checkpoint.firstBlockNumber,
    blockCount: checkpoint.blockCount,
    blobVersionedHashes: [...checkpoint.blobVersionedHashes],
    header: checkpoint.header,
    l1: checkpoint.l1,
  };
}

/** The CheckpointResponse of a core checkpoint; `blocks` is given exactly when the options ask for them. */
export function checkpointResponseOf(
  checkpoint: Checkpoint,
  blocks: readonly BlockResponseValue[] | undefined,
): CheckpointResponseValue {
  return { ...checkpointDataOf(checkpoint), ...(blocks === undefined ? {} : { blocks: [...blocks] }) };
}

const CHECKPOINT_PARAMETER_SHAPES =
  `a checkpoint number, one of ${CHECKPOINT_TIP_NAMES.map((name) => `'${name}'`).join(', ')}, ` +
  `or an object {number} | {hash} | {tag}`;

const checkpointObjectForm = z
  .strictObject({ number: checkpointNumber.optional(), hash: bytes32.optional(), tag: checkpointTag.optional() })
  .refine((fields) => Object.values(fields).filter((value) => value !== undefined).length === 1, {
    error: 'a checkpoint parameter object must carry exactly one of number, hash, tag',
  });

const checkpointParameterWire = z.union([checkpointNumber, checkpointTag, checkpointObjectForm], {
  error: jsonTypeUnionError(['number', 'string', 'object'], CHECKPOINT_PARAMETER_SHAPES),
});

const lowerHex32 = bytes32.out;

const checkpointQuery = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('number'), number: checkpointNumber }),
  z.object({ kind: z.literal('hash'), hash: lowerHex32 }),
  z.object({ kind: z.literal('tag'), tag: checkpointTag }),
]);

/** A decoded checkpoint parameter: a number, a hash or a checkpoint tag. */
export type CheckpointQueryValue = z.output<typeof checkpointQuery>;

/** `CheckpointParameter`: wire form in, `CheckpointQuery` out; encodes into the shortest wire form. */
export const checkpointParameter = z.codec(checkpointParameterWire, checkpointQuery, {
  decode: (value): CheckpointQueryValue => {
    if (typeof value === 'number') return { kind: 'number', number: value };
    if (typeof value === 'string') return { kind: 'tag', tag: value };
    if (value.number !== undefined) return { kind: 'number', number: value.number };
    if (value.hash !== undefined) return { kind: 'hash', hash: value.hash };
    return { kind: 'tag', tag: value.tag ?? 'checkpointed' };
  },
  encode: (query) => {
    switch (query.kind) {
      case 'number':
        return query.number;
      case 'hash':
        return { hash: query.hash };
      case 'tag':
        return query.tag;
    }
  },
});

const CHECKPOINTS_QUERY_SHAPES = 'either {from, limit} or {epoch}';

/** The message of the form the object's keys point at ('epoch' present: the epoch form), else the two forms. */
function checkpointsQueryError(issue: unknown): string {
  const { input, errors } = issue as { input?: unknown; errors?: readonly (readonly z.core.$ZodIssue[])[] };
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return `expected ${CHECKPOINTS_QUERY_SHAPES}; got ${describeInput(input)}`;
  }
  const first = errors?.[Object.hasOwn(input, 'epoch') ? 1 : 0]?.[0];
  if (first === undefined) return `expected ${CHECKPOINTS_QUERY_SHAPES}`;
  const where = first.path.length > 0 ? `${first.path.map(String).join('.')}: ` : '';
  return `${where}${first.message} (expected ${CHECKPOINTS_QUERY_SHAPES})`;
}

/** `CheckpointsQuery`: `{from, limit}` or `{epoch}`; any other key is refused. */
export const checkpointsQuery = z.union(
  [z.strictObject({ from: checkpointNumber, limit: safeUint }), z.strictObject({ epoch: epochNumber })],
  { error: checkpointsQueryError },
);

export type CheckpointsQueryValue = z.output<typeof checkpointsQuery>;
