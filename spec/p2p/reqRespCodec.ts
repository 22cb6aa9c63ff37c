/**
 * Request/response between peers (docs/protocol.md, Peer-to-peer): protocol ids, the status byte that opens every
 * response, goodbye reasons, and the codec of each protocol's request and response payload. Payloads are JSON of the
 * wire schemas (goodbye: one reason byte); the transport frames and compresses them and bounds them
 * (REQUEST_BYTES_MAX, RESPONSE_BYTES_MAX) before they reach these decoders, which bound them again.
 *
 * Decoding takes untrusted bytes: it returns a value or throws CodecError, nothing else.
 */
import { z } from 'zod';
import { CodecError } from '../codec/bytes.js';
import { blockHash, safeUint, txHash } from '../wire/scalars.js';
import { tx } from '../wire/tx.js';
import {
  P2P_PROTOCOL_VERSION,
  REQUEST_BYTES_MAX,
  RESPONSE_BYTES_MAX,
  TXS_BY_HASH_REQUEST_HASHES_MAX,
} from './constants.js';
import { decodeJsonWith, encodeJsonWith, gossipBodySchemas } from './gossipCodec.js';

export const REQUEST_PROTOCOL_NAMES = ['status', 'ping', 'goodbye', 'txs_by_hash', 'block_proposal'] as const;
export type RequestProtocolName = (typeof REQUEST_PROTOCOL_NAMES)[number];

/** `/svc/req/<name>/<P2P_PROTOCOL_VERSION>`, e.g. `/svc/req/txs_by_hash/1`. */
export function requestProtocolId(name: RequestProtocolName): string {
  return `/svc/req/${name}/${P2P_PROTOCOL_VERSION}`;
}

/** The first byte of every response. */
export const RESPONSE_STATUS = { success: 0, rateLimited: 1, badRequest: 2, internalError: 3, notFound: 4 } as const;
export type ResponseStatus = keyof typeof RESPONSE_STATUS;

/** Why a peer is leaving: the one byte of a goodbye request. */
export const GOODBYE_REASON = { shutdown: 1, disconnected: 2, lowScore: 3, banned: 4, wrongNetwork: 5 } as const;
export type GoodbyeReason = keyof typeof GOODBYE_REASON;

const STATUS_BY_BYTE = new Map(Object.entries(RESPONSE_STATUS).map(([name, byte]) => [byte as number, name]));
const REASON_BY_BYTE = new Map(Object.entries(GOODBYE_REASON).map(([name, byte]) => [byte as number, name]));

/** The status a response byte stands for; CodecError for any other byte. */
export function responseStatusOfByte(byte: number): ResponseStatus {
  const status = STATUS_BY_BYTE.get(byte);
  if (status === undefined) throw new CodecError(`unknown response status byte ${byte}`);
  return status as ResponseStatus;
}

export function encodeGoodbye(reason: GoodbyeReason): Uint8Array {
  return Uint8Array.of(GOODBYE_REASON[reason]);
}

export function decodeGoodbye(bytes: Uint8Array): GoodbyeReason {
  const reason = bytes.length === 1 ? REASON_BY_BYTE.get(bytes[0]!) : undefined;
  if (reason === undefined) throw new CodecError('a goodbye is one known reason byte');
  return reason as GoodbyeReason;
}

export const networkStatus = z.object({
  l1ChainId: safeUint,
  rollupVersion: safeUint,
  proposedBlock: z.object({ number: safeUint, hash: blockHash }),
  checkpointedBlock: z.object({ number: safeUint, hash: blockHash }),
});

/** The JSON schemas of each protocol's request and (successful) response payloads; goodbye is bytes. */
export const requestSchemas = {
  status: networkStatus,
  ping: z.object({ sequence: safeUint }),
  txs_by_hash: z.object({ hashes: z.array(txHash).max(TXS_BY_HASH_REQUEST_HASHES_MAX) }),
  block_proposal: z.object({ slot: safeUint, indexWithinCheckpoint: safeUint }),
} as const;

export const responseSchemas = {
  status: networkStatus,
  ping: z.object({ sequence: safeUint }),
  goodbye: z.object({}),
  txs_by_hash: z.object({ txs: z.array(tx).max(TXS_BY_HASH_REQUEST_HASHES_MAX) }),
  block_proposal: gossipBodySchemas.blockProposal,
} as const;

export type JsonRequestName = keyof typeof requestSchemas;
export type RequestValue<N extends JsonRequestName> = z.output<(typeof requestSchemas)[N]>;
export type ResponseValue<N extends keyof typeof responseSchemas> = z.output<(typeof responseSchemas)[N]>;

export function encodeRequest<N extends JsonRequestName>(name: N, value: RequestValue<N>): Uint8Array {
  const bytes = encodeJsonWith(requestSchemas[name], value, `${name} request`);
  if (bytes.length > REQUEST_BYTES_MAX) throw new CodecError(`a ${name} request is above ${REQUEST_BYTES_MAX} bytes`);
  return bytes;
}

export function decodeRequest<N extends JsonRequestName>(name: N, bytes: Uint8Array): RequestValue<N> {
  return decodeJsonWith(requestSchemas[name], bytes, REQUEST_BYTES_MAX, `${name} request`) as RequestValue<N>;
}

export function encodeResponse<N extends keyof typeof responseSchemas>(name: N, value: ResponseValue<N>): Uint8Array {
  const bytes = encodeJsonWith(responseSchemas[name], value, `${name} response`);
  if (bytes.length > RESPONSE_BYTES_MAX)
    throw new CodecError(`a ${name} response is above ${RESPONSE_BYTES_MAX} bytes`);
  return bytes;
}

export function decodeResponse<N extends keyof typeof responseSchemas>(name: N, bytes: Uint8Array): ResponseValue<N> {
  return decodeJsonWith(responseSchemas[name], bytes, RESPONSE_BYTES_MAX, `${name} response`) as ResponseValue<N>;
}
