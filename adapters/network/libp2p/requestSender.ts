/**
 * One request to one peer: open the protocol's stream (within DIAL_TIMEOUT_MS), send the request frame, read the
 * response frame, all within REQUEST_TIMEOUT_MS. Fails with an error on timeout, a refused or reset stream, or a
 * malformed response; the caller decides what the peer deserves.
 */
import type { Libp2p } from '@libp2p/interface';
import { peerIdFromString } from '@libp2p/peer-id';
import { DIAL_TIMEOUT_MS, REQUEST_TIMEOUT_MS, RESPONSE_BYTES_MAX } from '../../../spec/p2p/constants.js';
import { requestProtocolId, type RequestProtocolName } from '../../../spec/p2p/reqRespCodec.js';
import {
  abortOnSignal,
  frameBytesMax,
  readFrame,
  requestFrame,
  responseOfFrame,
  writeFrame,
  type DecodedResponse,
} from './frames.js';
import { REQUEST_OUTBOUND_STREAMS_PER_PROTOCOL_MAX } from './limits.js';

export interface RequestOptions {
  /** Ends the request early (the node stopping); the request's own timeout applies anyway. */
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export async function sendRequest(
  node: Libp2p,
  peer: string,
  name: RequestProtocolName,
  payload: Uint8Array,
  options: RequestOptions = {},
): Promise<DecodedResponse> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([timeout, options.signal]);
  const dialSignal = AbortSignal.any([signal, AbortSignal.timeout(DIAL_TIMEOUT_MS)]);
  const stream = await node.dialProtocol(peerIdFromString(peer), requestProtocolId(name), {
    signal: dialSignal,
    maxOutboundStreams: REQUEST_OUTBOUND_STREAMS_PER_PROTOCOL_MAX,
  });
  const stopListening = abortOnSignal(stream, signal);
  try {
    await writeFrame(stream, requestFrame(payload));
    const frame = await readFrame(stream, frameBytesMax(RESPONSE_BYTES_MAX));
    const response = responseOfFrame(frame, RESPONSE_BYTES_MAX);
    await stream.close({ signal }).catch(() => stream.abort(new Error('close failed')));
    return response;
  } catch (error) {
    stream.abort(error instanceof Error ? error : new Error(String(error)));
    if (signal.aborted) throw new Error(`${name} request to ${peer} timed out or was cancelled`, { cause: error });
    throw error;
  } finally {
    stopListening();
  }
}
