/**
 * Gossip over gossipsub (docs/protocol.md, Peer-to-peer): one topic per message kind, no signatures on the envelope
 * (StrictNoSign: the messages carry their own), snappy-compressed data, message id sha256(topic ‖ uncompressed data)
 * truncated to 20 bytes, and asynchronous validation: a message is forwarded only once the port's subscribers
 * accepted it (combineVerdicts), and a rejected one counts against the peer that sent it.
 *
 * Before gossipsub sees a peer's messages, each is checked here with the sender known: an unknown topic (mid),
 * data above the compressed bound or declaring more than GOSSIP_MESSAGE_BYTES_MAX (high) cost the sender and are
 * dropped. Data that then fails to decompress or decode costs it too (high).
 */
import { createHash } from 'node:crypto';
import { gossipsub, type GossipSub, type GossipsubMessage } from '@chainsafe/libp2p-gossipsub';
import type { RPC } from '@chainsafe/libp2p-gossipsub/message';
import { TopicValidatorResult, type Message, type PeerId } from '@libp2p/interface';
import { combineVerdicts } from '../../../core/network/peerScores.js';
import type {
  GossipHandler,
  GossipMessage,
  GossipVerdict,
  LoggerPort,
  PeerOffenseSeverity,
} from '../../../core/ports.js';
import { CodecError } from '../../../spec/codec/bytes.js';
import { GOSSIP_MESSAGE_BYTES_MAX } from '../../../spec/p2p/constants.js';
import { decodeGossipMessage, GOSSIP_KINDS, gossipKindOfTopic, gossipTopic } from '../../../spec/p2p/gossipCodec.js';
import { GOSSIP_RPC_OVERHEAD_BYTES, GOSSIP_SEEN_TTL_MS, GOSSIP_VALIDATIONS_IN_FLIGHT_MAX } from './limits.js';
import type { PeerManager } from './peerManager.js';
import { snappyCompress, snappyCompressedBytesMax, snappyDeclaredLength, snappyUncompress } from './snappy.js';

const MESSAGE_ID_BYTES = 20;

export const GOSSIP_TOPICS: readonly string[] = GOSSIP_KINDS.map(gossipTopic);

/** sha256(topic ‖ data)[0..20], data uncompressed. */
export function gossipMessageId(topic: string, data: Uint8Array): Uint8Array {
  return createHash('sha256').update(topic).update(data).digest().subarray(0, MESSAGE_ID_BYTES);
}

/** The sender of each raw message's data, while gossipsub decompresses it (weakly held: gone with the message). */
type DataSenders = WeakMap<Uint8Array, string>;

export function createGossipService(peers: PeerManager, senders: DataSenders) {
  return gossipsub({
    globalSignaturePolicy: 'StrictNoSign',
    allowPublishToZeroTopicPeers: true,
    asyncValidation: true,
    emitSelf: false,
    allowedTopics: [...GOSSIP_TOPICS],
    seenTTL: GOSSIP_SEEN_TTL_MS,
    maxInboundDataLength: snappyCompressedBytesMax(GOSSIP_MESSAGE_BYTES_MAX) + GOSSIP_RPC_OVERHEAD_BYTES,
    msgIdFn: (message: Message) => gossipMessageId(message.topic, message.data),
    dataTransform: {
      inboundTransform(topic: string, data: Uint8Array): Uint8Array {
        try {
          return snappyUncompress(data, GOSSIP_MESSAGE_BYTES_MAX);
        } catch (error) {
          const sender = senders.get(data);
          if (sender !== undefined) peers.penalize(sender, 'high', `gossip on ${topic} does not decompress`);
          throw error;
        }
      },
      outboundTransform: (_topic: string, data: Uint8Array): Uint8Array => snappyCompress(data),
    },
    scoreParams: { appSpecificScore: (peer: string) => peers.score(peer), appSpecificWeight: 1 },
  });
}

export interface GossipContext {
  readonly peers: PeerManager;
  readonly logger: LoggerPort;
  readonly handlers: ReadonlySet<GossipHandler>;
}

/** Screens raw messages with their sender known, then hands the rest to gossipsub's own handling. */
export function screenIncomingRpcs(pubsub: GossipSub, peers: PeerManager, senders: DataSenders): void {
  const target = pubsub as unknown as { handleReceivedRpc(from: PeerId, rpc: RPC): Promise<void> };
  const original = target.handleReceivedRpc.bind(pubsub);
  target.handleReceivedRpc = async (from, rpc) => {
    const peer = from.toString();
    if (peers.isBanned(peer)) return;
    if (rpc.messages.length > 0)
      rpc.messages = rpc.messages.filter((message) => admitRaw(peers, senders, peer, message));
    return original(from, rpc);
  };
}

function admitRaw(peers: PeerManager, senders: DataSenders, peer: string, message: RPC.Message): boolean {
  if (gossipKindOfTopic(message.topic) === undefined) {
    peers.penalize(peer, 'mid', 'gossip on an unknown topic');
    return false;
  }
  const data = message.data ?? new Uint8Array(0);
  const declared = snappyDeclaredLength(data);
  if (
    data.length > snappyCompressedBytesMax(GOSSIP_MESSAGE_BYTES_MAX) ||
    declared === undefined ||
    declared > GOSSIP_MESSAGE_BYTES_MAX
  ) {
    peers.penalize(peer, 'high', 'oversized or headless gossip');
    return false;
  }
  if (message.data !== undefined) senders.set(message.data, peer);
  return true;
}

/** Delivers gossipsub's messages to the subscribers and reports their combined verdict back. */
export function deliverGossip(pubsub: GossipSub, context: GossipContext): void {
  let inFlight = 0;
  pubsub.addEventListener('gossipsub:message', (event) => {
    const { propagationSource, msgId } = event.detail;
    const from = propagationSource.toString();
    if (inFlight >= GOSSIP_VALIDATIONS_IN_FLIGHT_MAX) {
      pubsub.reportMessageValidationResult(msgId, from, TopicValidatorResult.Ignore);
      return;
    }
    inFlight += 1;
    void validate(context, event.detail)
      .then(({ verdict, blame }) => {
        if (blame !== undefined) context.peers.penalize(from, blame.severity, blame.reason);
        pubsub.reportMessageValidationResult(msgId, from, RESULTS[verdict]);
      })
      .finally(() => (inFlight -= 1));
  });
}

const RESULTS: Readonly<Record<GossipVerdict, TopicValidatorResult>> = {
  accept: TopicValidatorResult.Accept,
  ignore: TopicValidatorResult.Ignore,
  reject: TopicValidatorResult.Reject,
};

interface Validation {
  readonly verdict: GossipVerdict;
  readonly blame?: { readonly severity: PeerOffenseSeverity; readonly reason: string };
}

/** The subscribers' combined verdict (a throwing subscriber ignores); undecodable data is rejected, blamed high. */
async function validate(context: GossipContext, detail: GossipsubMessage): Promise<Validation> {
  const from = detail.propagationSource.toString();
  let message: GossipMessage;
  try {
    message = decodeGossipMessage(detail.msg.topic, detail.msg.data);
  } catch (error) {
    const reason = error instanceof CodecError ? error.shortMessage : String(error);
    return { verdict: 'reject', blame: { severity: 'high', reason: `undecodable gossip: ${reason}` } };
  }
  const verdicts: GossipVerdict[] = [];
  for (const handler of [...context.handlers]) {
    try {
      verdicts.push(await handler(message, from));
    } catch (error) {
      context.logger.warn('a gossip subscriber failed', { peer: from, kind: message.kind, error: String(error) });
      verdicts.push('ignore');
    }
  }
  const verdict = combineVerdicts(verdicts);
  return verdict === 'reject'
    ? { verdict, blame: { severity: 'mid', reason: 'gossip rejected by a subscriber' } }
    : { verdict };
}
