/**
 * This node's requests to its peers, on top of sendRequest: the peers to try (the preferred one, then the
 * best-scored connected ones, at most REQUEST_PEERS_TRIED_MAX), and what each answer costs the peer that gave it:
 * a timeout or failure a little (low), a wrong answer (a tx not asked for, a hash that does not match, a proposal of
 * another slot) more (mid), garbage the most (high). Never rejects.
 */
import type { Libp2p } from '@libp2p/interface';
import type { BlockProposalMessage, LoggerPort, NetworkAnswer, NetworkStatus } from '../../../core/ports.js';
import type { Hex } from '../../../spec/chain.js';
import { CodecError } from '../../../spec/codec/bytes.js';
import { computeTxHash } from '../../../spec/codec/tx.js';
import { REQUEST_PEERS_TRIED_MAX, TXS_BY_HASH_REQUEST_HASHES_MAX } from '../../../spec/p2p/constants.js';
import { decodeResponse, encodeGoodbye, encodeRequest, type GoodbyeReason } from '../../../spec/p2p/reqRespCodec.js';
import type { TxValue } from '../../../spec/wire/tx.js';
import type { PeerManager } from './peerManager.js';
import { sendRequest } from './requestSender.js';

export interface RequestsContext {
  readonly node: Libp2p;
  readonly peers: PeerManager;
  readonly logger: LoggerPort;
  /** Aborted when the node stops. */
  readonly signal: AbortSignal;
}

/** The peers a request tries, in order. */
export function peersToTry(peers: PeerManager, preferredPeer: string | undefined): string[] {
  const ranked = peers.rankedConnectedPeers();
  const first = preferredPeer !== undefined && ranked.includes(preferredPeer) ? [preferredPeer] : [];
  return [...first, ...ranked.filter((peer) => peer !== preferredPeer)].slice(0, REQUEST_PEERS_TRIED_MAX);
}

/** Penalizes a failed request by what went wrong: garbage is high, anything else (timeouts, resets) low. */
function blameFailure(context: RequestsContext, peer: string, what: string, error: unknown): void {
  if (context.signal.aborted) return;
  const severity = error instanceof CodecError ? 'high' : 'low';
  context.peers.penalize(peer, severity, `${what} failed: ${String(error)}`);
}

export async function requestTxs(
  context: RequestsContext,
  hashes: readonly Hex[],
  preferredPeer: string | undefined,
): Promise<NetworkAnswer<TxValue>[]> {
  const wanted = new Set(hashes.map((hash) => hash.toLowerCase() as Hex));
  const found: NetworkAnswer<TxValue>[] = [];
  for (const peer of peersToTry(context.peers, preferredPeer)) {
    if (wanted.size === 0) break;
    const pending = [...wanted];
    for (let start = 0; start < pending.length; start += TXS_BY_HASH_REQUEST_HASHES_MAX) {
      const txs = await askTxs(context, peer, pending.slice(start, start + TXS_BY_HASH_REQUEST_HASHES_MAX));
      if (txs === undefined) break;
      for (const tx of txs) {
        const hash = computeTxHash(tx).toLowerCase() as Hex;
        if (hash !== tx.txHash.toLowerCase() || !wanted.has(hash)) {
          context.peers.penalize(peer, 'mid', 'answered a tx that was not asked for or does not match its hash');
          continue;
        }
        wanted.delete(hash);
        found.push({ value: tx, from: peer });
      }
    }
  }
  return found;
}

async function askTxs(context: RequestsContext, peer: string, hashes: Hex[]): Promise<readonly TxValue[] | undefined> {
  try {
    const response = await sendRequest(context.node, peer, 'txs_by_hash', encodeRequest('txs_by_hash', { hashes }), {
      signal: context.signal,
    });
    if (response.status !== 'success') return undefined;
    return decodeResponse('txs_by_hash', response.payload).txs;
  } catch (error) {
    blameFailure(context, peer, 'txs_by_hash request', error);
    return undefined;
  }
}

export async function requestBlockProposal(
  context: RequestsContext,
  slot: number,
  indexWithinCheckpoint: number,
  preferredPeer: string | undefined,
): Promise<NetworkAnswer<BlockProposalMessage> | undefined> {
  for (const peer of peersToTry(context.peers, preferredPeer)) {
    try {
      const request = encodeRequest('block_proposal', { slot, indexWithinCheckpoint });
      const response = await sendRequest(context.node, peer, 'block_proposal', request, { signal: context.signal });
      if (response.status !== 'success') continue;
      const body = decodeResponse('block_proposal', response.payload);
      if (body.payload.slot === slot && body.payload.indexWithinCheckpoint === indexWithinCheckpoint) {
        return { value: { kind: 'blockProposal', ...body }, from: peer };
      }
      context.peers.penalize(peer, 'mid', 'answered a block proposal of another slot or index');
    } catch (error) {
      blameFailure(context, peer, 'block_proposal request', error);
    }
  }
  return undefined;
}

/** Sends our status and returns the peer's; throws on failure. */
export async function exchangeStatus(
  context: RequestsContext,
  peer: string,
  status: NetworkStatus,
): Promise<NetworkStatus> {
  const response = await sendRequest(context.node, peer, 'status', encodeRequest('status', status), {
    signal: context.signal,
  });
  if (response.status !== 'success') throw new Error(`status refused: ${response.status}`);
  return decodeResponse('status', response.payload);
}

export async function sendGoodbye(
  context: Pick<RequestsContext, 'node'>,
  peer: string,
  reason: GoodbyeReason,
  timeoutMs: number,
): Promise<void> {
  await sendRequest(context.node, peer, 'goodbye', encodeGoodbye(reason), { timeoutMs });
}
