/**
 * How this node answers its peers' requests: one stream handler per protocol. Each reads one request frame (bounded),
 * takes a token from the peer's and the global rate limits (refused with `rateLimited`, the peer penalized), decodes
 * it (malformed: `badRequest`, the peer penalized), asks the served handlers, and writes one response frame; the whole
 * exchange within REQUEST_TIMEOUT_MS. Nothing a peer sends escapes a handler: every failure is logged and the stream
 * reset.
 */
import type { Libp2p, Stream } from '@libp2p/interface';
import type { RequestRateLimiter } from '../../../core/network/rateLimiter.js';
import type { ClockPort, LoggerPort, NetworkRequestHandlers, NetworkStatus } from '../../../core/ports.js';
import { CodecError } from '../../../spec/codec/bytes.js';
import { REQUEST_BYTES_MAX, REQUEST_TIMEOUT_MS } from '../../../spec/p2p/constants.js';
import {
  decodeGoodbye,
  decodeRequest,
  encodeResponse,
  REQUEST_PROTOCOL_NAMES,
  requestProtocolId,
  type GoodbyeReason,
  type RequestProtocolName,
  type ResponseStatus,
} from '../../../spec/p2p/reqRespCodec.js';
import type { TxValue } from '../../../spec/wire/tx.js';
import { abortOnSignal, frameBytesMax, readFrame, requestPayloadOfFrame, responseFrame, writeFrame } from './frames.js';
import { REQUEST_INBOUND_STREAMS_PER_PROTOCOL_MAX, REQUEST_OUTBOUND_STREAMS_PER_PROTOCOL_MAX } from './limits.js';
import type { PeerManager } from './peerManager.js';

export interface RequestServerContext {
  readonly clock: ClockPort;
  readonly logger: LoggerPort;
  readonly peers: PeerManager;
  readonly rateLimiter: RequestRateLimiter;
  served(): NetworkRequestHandlers | undefined;
  localStatus(): NetworkStatus;
  /** A peer told its status (in its status request); the context checks its network. */
  onPeerStatus(peer: string, status: NetworkStatus): void;
  onGoodbye(peer: string, reason: GoodbyeReason): void;
}

interface Answer {
  readonly status: ResponseStatus;
  readonly payload?: Uint8Array;
  /** Runs once the response is written (a goodbye after answering a wrong network's status). */
  readonly after?: () => void;
}

export async function serveRequests(node: Libp2p, context: RequestServerContext): Promise<void> {
  for (const name of REQUEST_PROTOCOL_NAMES) {
    await node.handle(
      requestProtocolId(name),
      ({ stream, connection }) => void serveStream(context, name, stream, connection.remotePeer.toString()),
      {
        maxInboundStreams: REQUEST_INBOUND_STREAMS_PER_PROTOCOL_MAX,
        maxOutboundStreams: REQUEST_OUTBOUND_STREAMS_PER_PROTOCOL_MAX,
      },
    );
  }
}

async function serveStream(
  context: RequestServerContext,
  name: RequestProtocolName,
  stream: Stream,
  peer: string,
): Promise<void> {
  const stopListening = abortOnSignal(stream, AbortSignal.timeout(REQUEST_TIMEOUT_MS));
  try {
    const frame = await readFrame(stream, frameBytesMax(REQUEST_BYTES_MAX));
    const decision = context.rateLimiter.take(peer, context.clock.now());
    const answer =
      decision === 'allowed' ? await answerFrame(context, name, peer, frame) : refuseForRate(context, peer, decision);
    await writeFrame(stream, responseFrame(answer.status, answer.payload));
    await stream.close().catch(() => undefined);
    answer.after?.();
  } catch (error) {
    if (error instanceof CodecError) context.peers.penalize(peer, 'high', `malformed ${name} request frame`);
    context.logger.debug('request not served', { peer, protocol: name, error: String(error) });
    stream.abort(error instanceof Error ? error : new Error(String(error)));
  } finally {
    stopListening();
  }
}

function refuseForRate(context: RequestServerContext, peer: string, decision: 'peerLimited' | 'globalLimited'): Answer {
  if (decision === 'peerLimited') context.peers.penalize(peer, 'low', 'requests above the per-peer rate');
  return { status: 'rateLimited' };
}

async function answerFrame(
  context: RequestServerContext,
  name: RequestProtocolName,
  peer: string,
  frame: Uint8Array,
): Promise<Answer> {
  let request: Uint8Array;
  try {
    request = requestPayloadOfFrame(frame, REQUEST_BYTES_MAX);
    return await answerRequest(context, name, peer, request);
  } catch (error) {
    if (error instanceof CodecError) {
      context.peers.penalize(peer, 'high', `malformed ${name} request: ${error.shortMessage}`);
      return { status: 'badRequest' };
    }
    context.logger.warn('a request handler failed', { peer, protocol: name, error: String(error) });
    return { status: 'internalError' };
  }
}

async function answerRequest(
  context: RequestServerContext,
  name: RequestProtocolName,
  peer: string,
  request: Uint8Array,
): Promise<Answer> {
  switch (name) {
    case 'status': {
      const theirs = decodeRequest('status', request);
      return {
        status: 'success',
        payload: own(() => encodeResponse('status', context.localStatus())),
        after: () => context.onPeerStatus(peer, theirs),
      };
    }
    case 'ping': {
      const ping = decodeRequest('ping', request);
      return { status: 'success', payload: own(() => encodeResponse('ping', ping)) };
    }
    case 'goodbye': {
      const reason = decodeGoodbye(request);
      return {
        status: 'success',
        payload: encodeResponse('goodbye', {}),
        after: () => context.onGoodbye(peer, reason),
      };
    }
    case 'txs_by_hash': {
      const { hashes } = decodeRequest('txs_by_hash', request);
      const held = (await context.served()?.txsByHash(hashes)) ?? [];
      return { status: 'success', payload: own(() => encodeTxsFitting(held)) };
    }
    case 'block_proposal': {
      const { slot, indexWithinCheckpoint } = decodeRequest('block_proposal', request);
      const proposal = await context.served()?.blockProposal(slot, indexWithinCheckpoint);
      if (proposal === undefined) return { status: 'notFound' };
      const { kind: _kind, ...body } = proposal;
      return { status: 'success', payload: own(() => encodeResponse('block_proposal', body)) };
    }
  }
}

/** Runs an encoding of this node's own answer: its failure is ours (internalError), not the peer's (badRequest). */
function own<T>(encode: () => T): T {
  try {
    return encode();
  } catch (error) {
    throw new Error('this node could not encode its own answer', { cause: error });
  }
}

/** The txs as one response, halving the list until it fits RESPONSE_BYTES_MAX (the peer asks again for the rest). */
function encodeTxsFitting(txs: readonly TxValue[]): Uint8Array {
  let count = txs.length;
  for (;;) {
    try {
      return encodeResponse('txs_by_hash', { txs: txs.slice(0, count) });
    } catch (error) {
      if (count === 0 || !(error instanceof CodecError)) throw error;
      count = Math.floor(count / 2);
    }
  }
}
