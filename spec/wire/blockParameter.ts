/**
 * The block parameter (`param`, `referenceBlock`): how a client names one block. Decisions (the spec leaves the
 * object variants open):
 * - a JSON number: the block number;
 * - a 32-byte hex string: a block hash, else an archive root (the node tries the hash first);
 * - 'latest' (the proposed tip) or a tip name: 'proposed', 'checkpointed', 'proven', 'finalized';
 * - an object with exactly one key: `{ number }`, `{ hash }`, `{ archive }` (an Fr) or `{ tag }`.
 * It decodes into `BlockQueryValue`, structurally the core's `BlockQuery` (core/nodeService.ts; spec/ does not import
 * core/), and encodes back into the shortest wire form of that query.
 */
import { z } from 'zod';
import type { Hex } from '../chain.js';
import { jsonTypeUnionError } from './jsonTypeUnion.js';
import { blockHash, blockNumber, blockTag, BLOCK_TIP_NAMES, bytes32, describeInput, fr } from './scalars.js';

const BLOCK_PARAMETER_SHAPES =
  `a block number, a 32-byte 0x-prefixed hex block hash or archive root, 'latest', one of ` +
  `${BLOCK_TIP_NAMES.map((name) => `'${name}'`).join(', ')}, or an object {number} | {hash} | {archive} | {tag}`;

type BlockTag = z.output<typeof blockTag>;

const isBlockTag = (text: string): text is BlockTag => blockTag.safeParse(text).success;
const isHex32 = (text: string): boolean => bytes32.safeParse(text).success;

const tagOrHex = z.string().refine((text) => isBlockTag(text) || isHex32(text), {
  error: (issue) => `expected ${BLOCK_PARAMETER_SHAPES}; got ${describeInput(issue.input)}`,
});

const objectForm = z
  .strictObject({
    number: blockNumber.optional(),
    hash: blockHash.optional(),
    archive: fr.optional(),
    tag: blockTag.optional(),
  })
  .refine((fields) => Object.values(fields).filter((value) => value !== undefined).length === 1, {
    error: 'a block parameter object must carry exactly one of number, hash, archive, tag',
  });

const wire = z.union([blockNumber, tagOrHex, objectForm], {
  error: jsonTypeUnionError(['number', 'string', 'object'], BLOCK_PARAMETER_SHAPES),
});

const lowerHex32 = z.custom<Hex>((value) => typeof value === 'string' && /^0x[0-9a-f]{64}$/.test(value));

const blockQuery = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('number'), number: blockNumber }),
  z.object({ kind: z.literal('hash'), hash: lowerHex32 }),
  z.object({ kind: z.literal('archive'), archive: lowerHex32 }),
  z.object({ kind: z.literal('hashOrArchive'), value: lowerHex32 }),
  z.object({ kind: z.literal('tag'), tag: blockTag }),
]);

type WireBlockParameter = z.output<typeof wire>;

/** A decoded block parameter: a block number, hash, archive root, hash-or-archive, or tag. */
export type BlockQueryValue = z.output<typeof blockQuery>;

function decodeBlockParameter(value: WireBlockParameter): BlockQueryValue {
  if (typeof value === 'number') return { kind: 'number', number: value };
  if (typeof value === 'string') {
    return isBlockTag(value)
      ? { kind: 'tag', tag: value }
      : { kind: 'hashOrArchive', value: value.toLowerCase() as Hex };
  }
  if (value.number !== undefined) return { kind: 'number', number: value.number };
  if (value.hash !== undefined) return { kind: 'hash', hash: value.hash };
  if (value.archive !== undefined) return { kind: 'archive', archive: value.archive };
  return { kind: 'tag', tag: value.tag ?? 'latest' };
}

function encodeBlockParameter(query: BlockQueryValue): WireBlockParameter {
  switch (query.kind) {
    case 'number':
      return query.number;
    case 'hash':
      return { hash: query.hash };
    case 'archive':
      return { archive: query.archive };
    case 'hashOrArchive':
      return query.value;
    case 'tag':
      return query.tag;
  }
}

/** The block parameter codec: wire form in, `BlockQuery` out. */
export const blockParameter = z.codec(wire, blockQuery, {
  decode: decodeBlockParameter,
  encode: encodeBlockParameter,
});
