import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GossipMessage } from '../../core/ports.js';
import { CodecError } from '../../spec/codec/bytes.js';
import { GOSSIP_MESSAGE_BYTES_MAX } from '../../spec/p2p/constants.js';
import {
  decodeGossipMessage,
  encodeGossipMessage,
  GOSSIP_KINDS,
  gossipKindOfTopic,
  gossipTopic,
} from '../../spec/p2p/gossipCodec.js';
import { decodeGoodbye, decodeRequest, decodeResponse, REQUEST_PROTOCOL_NAMES } from '../../spec/p2p/reqRespCodec.js';
import { gossipMessageArbitrary } from './gossipArbitraries.js';

const topicArbitrary = fc.oneof(fc.constantFrom(...GOSSIP_KINDS.map(gossipTopic)), fc.string({ maxLength: 40 }));

/** Bytes that are mostly JSON-looking, so the decoders get past the parse now and then. */
const garbage = fc.oneof(
  fc.uint8Array({ maxLength: 512 }),
  fc.json({ maxDepth: 4 }).map((text) => new TextEncoder().encode(text)),
  gossipMessageArbitrary.map((m) => {
    const bytes = encodeGossipMessage(m);
    return bytes.subarray(0, Math.floor(bytes.length / 2));
  }),
);

function expectOnlyCodecErrors(decode: () => unknown): void {
  try {
    decode();
  } catch (error) {
    expect(error).toBeInstanceOf(CodecError);
  }
}

describe('gossip codec', () => {
  it('decode(encode(m)) = m for every message kind, on its own topic', () => {
    fc.assert(
      fc.property(gossipMessageArbitrary, (message) => {
        const decoded: GossipMessage = decodeGossipMessage(gossipTopic(message.kind), encodeGossipMessage(message));
        expect(decoded).toEqual(message);
      }),
      { numRuns: 200 },
    );
  });

  it('topics are versioned, one per kind, and only they map back to a kind', () => {
    expect(GOSSIP_KINDS.map(gossipTopic)).toEqual([
      '/svc/tx/1',
      '/svc/block_proposal/1',
      '/svc/checkpoint_proposal/1',
      '/svc/checkpoint_attestation/1',
    ]);
    expect(gossipKindOfTopic('/svc/tx/2')).toBeUndefined();
  });

  it('any bytes on any topic decode to a message or throw CodecError, nothing else', () => {
    fc.assert(
      fc.property(topicArbitrary, garbage, (topic, bytes) => {
        expectOnlyCodecErrors(() => decodeGossipMessage(topic, bytes));
      }),
      { numRuns: 500 },
    );
  });

  it("a message on another kind's topic, an unknown topic or above the size bound is refused", () => {
    fc.assert(
      fc.property(gossipMessageArbitrary, (message) => {
        const bytes = encodeGossipMessage(message);
        const other = GOSSIP_KINDS.find((kind) => kind !== message.kind)!;
        expect(() => decodeGossipMessage(gossipTopic(other), bytes)).toThrow(CodecError);
        expect(() => decodeGossipMessage('/svc/unknown/1', bytes)).toThrow(CodecError);
      }),
      { numRuns: 50 },
    );
    expect(() => decodeGossipMessage('/svc/tx/1', new Uint8Array(GOSSIP_MESSAGE_BYTES_MAX + 1))).toThrow(CodecError);
  });

  it('request and response decoders take any bytes and throw CodecError at worst', () => {
    fc.assert(
      fc.property(fc.constantFrom(...REQUEST_PROTOCOL_NAMES), garbage, (name, bytes) => {
        if (name === 'goodbye') expectOnlyCodecErrors(() => decodeGoodbye(bytes));
        else expectOnlyCodecErrors(() => decodeRequest(name, bytes));
        expectOnlyCodecErrors(() => decodeResponse(name, bytes));
      }),
      { numRuns: 500 },
    );
  });
});
