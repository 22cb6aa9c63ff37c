/**
 * Request/response frames over a libp2p stream (docs/protocol.md, Peer-to-peer): one length-prefixed frame each way.
 * A request frame is the snappy-compressed request; a response frame is one status byte, then the snappy-compressed
 * payload. Frame lengths are bounded before a byte of the frame is read, and payloads again before decompression.
 */
import type { Stream } from '@libp2p/interface';
import * as lp from 'it-length-prefixed';
import { CodecError } from '../../../spec/codec/bytes.js';
import { responseStatusOfByte, RESPONSE_STATUS, type ResponseStatus } from '../../../spec/p2p/reqRespCodec.js';
import { snappyCompress, snappyCompressedBytesMax, snappyUncompress } from './snappy.js';

/** Aborts the stream when the signal fires, so a pending read or write ends with an error. */
export function abortOnSignal(stream: Stream, signal: AbortSignal): () => void {
  const onAbort = () => stream.abort(new Error('request timed out'));
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** it-length-prefixed's errors for a frame that is too long, has a bad length prefix or stops short. */
const MALFORMED_FRAME_ERRORS: ReadonlySet<string> = new Set([
  'InvalidMessageLengthError',
  'InvalidDataLengthError',
  'InvalidDataLengthLengthError',
  'UnexpectedEOFError',
]);

/** The stream's first frame, at most `frameBytesMax` long; CodecError when it is missing or longer. */
export async function readFrame(stream: Stream, frameBytesMax: number): Promise<Uint8Array> {
  try {
    for await (const frame of lp.decode(stream.source, { maxDataLength: frameBytesMax })) return frame.subarray();
  } catch (error) {
    if (error instanceof Error && MALFORMED_FRAME_ERRORS.has(error.name)) {
      throw new CodecError(`a frame is above ${frameBytesMax} bytes or malformed`);
    }
    throw error;
  }
  throw new CodecError('the stream ended before a frame');
}

/** Writes one frame and closes the writing side. */
export async function writeFrame(stream: Stream, bytes: Uint8Array): Promise<void> {
  await stream.sink([lp.encode.single(bytes)]);
}

export function requestFrame(payload: Uint8Array): Uint8Array {
  return snappyCompress(payload);
}

export function requestPayloadOfFrame(frame: Uint8Array, payloadBytesMax: number): Uint8Array {
  return snappyUncompress(frame, payloadBytesMax);
}

export function responseFrame(status: ResponseStatus, payload: Uint8Array = new Uint8Array(0)): Uint8Array {
  const compressed = snappyCompress(payload);
  const frame = new Uint8Array(1 + compressed.length);
  frame[0] = RESPONSE_STATUS[status];
  frame.set(compressed, 1);
  return frame;
}

export interface DecodedResponse {
  readonly status: ResponseStatus;
  readonly payload: Uint8Array;
}

export function responseOfFrame(frame: Uint8Array, payloadBytesMax: number): DecodedResponse {
  if (frame.length === 0) throw new CodecError('a response frame is empty');
  const status = responseStatusOfByte(frame[0]!);
  return { status, payload: snappyUncompress(frame.subarray(1), payloadBytesMax) };
}

/** The longest frame carrying a payload of `payloadBytesMax` bytes (plus the status byte of a response). */
export function frameBytesMax(payloadBytesMax: number): number {
  return 1 + snappyCompressedBytesMax(payloadBytesMax);
}
