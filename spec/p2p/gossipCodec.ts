/**
 * The wire form of gossip messages (docs/protocol.md, Peer-to-peer): one topic per message kind, versioned
 * (`/svc/<kind>/<P2P_PROTOCOL_VERSION>`), and one encoding per kind: the message without its `kind` (the topic says
 * it) as JSON of the wire schemas of spec/wire/ (bigints as decimal strings, hex in lowercase), UTF-8. The transport
 * compresses it (snappy) and bounds it (GOSSIP_MESSAGE_BYTES_MAX); this file bounds it again before parsing.
 *
 * Decoding takes untrusted bytes: whatever they are, it returns a message or throws CodecError, nothing else.
 */
import { z } from 'zod';
import { CodecError } from '../codec/bytes.js';
import { BLOCK_PROPOSAL_TX_HASHES_MAX } from '../validators/constants.js';
import { blsSignature, bytes32, ethAddress, hexBytes, safeUint, txHash } from '../wire/scalars.js';
import { tx } from '../wire/tx.js';
import { GOSSIP_MESSAGE_BYTES_MAX, P2P_PROTOCOL_VERSION } from './constants.js';

const signingChain = { l1ChainId: safeUint, rollupVersion: safeUint };

const checkpointProposalPayload = z.object({
  ...signingChain,
  slot: safeUint,
  checkpointNumber: safeUint,
  archiveRoot: bytes32,
  checkpointHeaderHash: bytes32,
});

const blockProposalPayload = z.object({
  ...signingChain,
  slot: safeUint,
  blockNumber: safeUint,
  indexWithinCheckpoint: safeUint,
  archiveRoot: bytes32,
  txHashes: z.array(txHash).max(BLOCK_PROPOSAL_TX_HASHES_MAX).readonly(),
});

/** Each kind's schema, without `kind`: the topic carries it. */
export const gossipBodySchemas = {
  tx: z.object({ tx }),
  blockProposal: z.object({
    payload: blockProposalPayload,
    header: hexBytes,
    body: hexBytes,
    proposer: ethAddress,
    signature: blsSignature,
  }),
  checkpointProposal: z.object({
    payload: checkpointProposalPayload,
    header: hexBytes,
    proposer: ethAddress,
    signature: blsSignature,
  }),
  checkpointAttestation: z.object({
    payload: checkpointProposalPayload,
    attester: ethAddress,
    signature: blsSignature,
  }),
} as const;

export type WireGossipKind = keyof typeof gossipBodySchemas;

/** A gossip message as the wire knows it; core/ports.ts's GossipMessage is the same shape. */
export type WireGossipMessage = {
  [K in WireGossipKind]: { readonly kind: K } & z.output<(typeof gossipBodySchemas)[K]>;
}[WireGossipKind];

export const GOSSIP_KINDS: readonly WireGossipKind[] = [
  'tx',
  'blockProposal',
  'checkpointProposal',
  'checkpointAttestation',
];

/** The topic's name of each kind: snake_case, as Ethereum's and Aztec's topics are written. */
const TOPIC_NAMES: Readonly<Record<WireGossipKind, string>> = {
  tx: 'tx',
  blockProposal: 'block_proposal',
  checkpointProposal: 'checkpoint_proposal',
  checkpointAttestation: 'checkpoint_attestation',
};

/** `/svc/<kind>/<P2P_PROTOCOL_VERSION>`, e.g. `/svc/block_proposal/1`. */
export function gossipTopic(kind: WireGossipKind): string {
  return `/svc/${TOPIC_NAMES[kind]}/${P2P_PROTOCOL_VERSION}`;
}

const KIND_BY_TOPIC: ReadonlyMap<string, WireGossipKind> = new Map(
  GOSSIP_KINDS.map((kind) => [gossipTopic(kind), kind]),
);

/** The kind a topic carries, or undefined for a topic this version does not know. */
export function gossipKindOfTopic(topic: string): WireGossipKind | undefined {
  return KIND_BY_TOPIC.get(topic);
}

/** The message's bytes (uncompressed); CodecError when the message does not fit its schema or the size bound. */
export function encodeGossipMessage(message: WireGossipMessage): Uint8Array {
  const { kind, ...body } = message;
  const schema: z.ZodType = gossipBodySchemas[kind];
  const result = schema.safeEncode(body as never);
  if (!result.success) throw new CodecError(`cannot encode a ${kind} message: ${firstIssue(result.error)}`);
  const bytes = new TextEncoder().encode(JSON.stringify(result.data));
  if (bytes.length > GOSSIP_MESSAGE_BYTES_MAX) {
    throw new CodecError(`a ${kind} message has ${bytes.length} bytes, above ${GOSSIP_MESSAGE_BYTES_MAX}`);
  }
  return bytes;
}

/** The message a topic's bytes carry; CodecError for an unknown topic, oversized, non-JSON or ill-formed bytes. */
export function decodeGossipMessage(topic: string, bytes: Uint8Array): WireGossipMessage {
  const kind = gossipKindOfTopic(topic);
  if (kind === undefined) throw new CodecError(`unknown gossip topic ${JSON.stringify(topic.slice(0, 64))}`);
  const body = decodeJsonWith(gossipBodySchemas[kind], bytes, GOSSIP_MESSAGE_BYTES_MAX, `${kind} message`);
  return { kind, ...body } as WireGossipMessage;
}

/**
 * Parses at most `bytesMax` bytes of UTF-8 JSON with `schema`; every failure (size, UTF-8, JSON, schema) is a
 * CodecError. Shared with the request/response codecs.
 */
export function decodeJsonWith<T extends z.ZodType>(
  schema: T,
  bytes: Uint8Array,
  bytesMax: number,
  what: string,
): z.output<T> {
  if (bytes.length > bytesMax) throw new CodecError(`a ${what} has ${bytes.length} bytes, above ${bytesMax}`);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new CodecError(`a ${what} is not UTF-8 JSON`);
  }
  let result: z.ZodSafeParseResult<unknown>;
  try {
    result = (schema as z.ZodType).safeDecode(json as never);
  } catch {
    throw new CodecError(`a ${what} could not be checked`);
  }
  if (!result.success) throw new CodecError(`a ${what} is ill-formed: ${firstIssue(result.error)}`);
  return result.data as z.output<T>;
}

/** The JSON of `value` encoded with `schema`; CodecError when the value does not fit it. */
export function encodeJsonWith<T extends z.ZodType>(schema: T, value: z.output<T>, what: string): Uint8Array {
  const result = (schema as z.ZodType).safeEncode(value as never);
  if (!result.success) throw new CodecError(`cannot encode a ${what}: ${firstIssue(result.error)}`);
  return new TextEncoder().encode(JSON.stringify(result.data));
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  return `${issue.path.join('.') || '(root)'}: ${issue.message}`;
}
