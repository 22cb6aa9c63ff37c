/**
 * L1ReaderPort over several L1 execution endpoints of one chain (a viem reader each: adapters/l1/l1Endpoints.ts), so
 * that an endpoint that is down, slow or behind neither stalls sync nor shows the archiver a prune or a reorg that
 * did not happen. The rules:
 *
 * - One current endpoint. Every call goes to the current endpoint (the first, at start). A transport failure (L1Error
 *   L1_UNREACHABLE, which covers timeouts) marks that endpoint down for the cooldown (L1_ENDPOINT_COOLDOWN_MS_DEFAULT)
 *   and the same call goes on to the next endpoint: the current one first, then the others not cooling down in the
 *   configured order, then, as a last resort, those cooling down. Each endpoint is asked at most once per call, and
 *   the one that answers becomes current (unless a concurrent call already moved the current endpoint). When every
 *   endpoint fails, an L1Error('L1_UNREACHABLE') names them (as given: adapters/l1/l1Endpoints.ts names them by their
 *   redacted URLs) with the last failure as its cause. Any other error is the L1's own answer (no rollup contract, an
 *   undecodable event) and is thrown at once.
 * - The head. getBlock('latest') asks every endpoint not cooling down at once, each within the head timeout
 *   (L1_HEAD_POLL_TIMEOUT_MS_DEFAULT; a late answer counts as a transport failure), and answers the highest head. The
 *   endpoint that gave it becomes current; a tie keeps the current one, so two endpoints at one height never make
 *   reads flip-flop. When none of them answers, those cooling down are asked the same way. An endpoint more than
 *   L1_ENDPOINT_LAG_WARN_BLOCKS behind the best is logged once per episode, not once per poll.
 * - Reads pinned to an L1 block (getBlock(n), the contract reads `atBlock`). An endpoint that does not have the block
 *   (L1_BLOCK_NOT_FOUND) is behind, not broken: the call goes on to the next endpoint without a cooldown. When no
 *   endpoint has it: L1_BLOCK_NOT_FOUND, or L1_UNREACHABLE when some endpoint could not be asked.
 * - Range log reads (`[fromBlock, toBlock]`) never return partial results: an endpoint serves one only when it is
 *   known to hold block `toBlock`, from the head it reported last (or a later block it served), else by asking it for
 *   block `toBlock` first; one that lacks it is skipped as behind. The logs alone cannot tell: anvil 1.7.1 answers an
 *   eth_getLogs whose `toBlock` is past its head with the logs up to its head and no error (it refuses only a
 *   `fromBlock` past its head). The head an endpoint reported is trusted until its next report: an endpoint whose
 *   head goes backwards in between (a reorg to a shorter chain) is the archiver's to catch, as with one endpoint
 *   (core/archiver/syncStep.ts checks the hash of its last synced block every step).
 * - Logs: a warning for each switch of the current endpoint, with the reason, and when an endpoint goes down; info
 *   when a down endpoint answers again and when a lagging one catches up.
 *
 * What stays as with one endpoint: the archiver still sees one L1 at a time (reads follow the current endpoint), and a
 * head below its last synced block, which now means every endpoint that answered is stale, holds its position without
 * a prune (settleBelowSyncedBlock). Which of two endpoints is right when they disagree on a block's hash is not
 * decided here: the highest head wins, as a single endpoint's head would.
 *
 * With one endpoint this is the plain reader: the same calls (a range read adds one getBlock(toBlock) only while the
 * endpoint has not reported a head at or past `toBlock`), no head timeout, and its errors thrown unchanged.
 */
import type { ClockPort, L1BlockRef, L1BlockTag, L1ReaderPort, LoggerPort } from '../../core/ports.js';
import { assert } from '../../core/assert.js';
import { L1Error } from '../../core/l1/l1Error.js';
import { createSystemClock } from '../clock/systemClock.js';
import { isBlockNotFound } from './l1Rpc.js';

/** How long an endpoint that failed is asked only as a last resort. */
export const L1_ENDPOINT_COOLDOWN_MS_DEFAULT = 30_000;
/** How long getBlock('latest') waits for each endpoint when there are several. */
export const L1_HEAD_POLL_TIMEOUT_MS_DEFAULT = 2_000;
/** An endpoint further behind the best head than this many blocks is logged as lagging. */
export const L1_ENDPOINT_LAG_WARN_BLOCKS = 4;

export interface L1Endpoint {
  /** How logs and errors name it: never a URL with credentials. */
  readonly name: string;
  readonly reader: L1ReaderPort;
}

export interface FailoverL1ReaderOptions {
  readonly logger: LoggerPort;
  /** Timers and time for the head timeout and the cooldown; the system clock by default. */
  readonly clock?: ClockPort;
  readonly cooldownMs?: number;
  readonly headPollTimeoutMs?: number;
}

export function createFailoverL1Reader(
  endpoints: readonly L1Endpoint[],
  options: FailoverL1ReaderOptions,
): L1ReaderPort {
  assert(endpoints.length > 0, 'a failover L1 reader needs at least one endpoint');
  const f = new L1Failover(endpoints, options);
  const pinned = <T>(what: string, atBlock: bigint, read: (reader: L1ReaderPort) => Promise<T>) =>
    f.call(`${what} at L1 block ${atBlock}`, 'pinned', (e) => read(e.reader));
  const unpinned = <T>(what: string, read: (reader: L1ReaderPort) => Promise<T>) =>
    f.call(what, 'unpinned', (e) => read(e.reader));
  return {
    getChainId: () => unpinned('getChainId', (r) => r.getChainId()),
    getBlock: (tag) => f.getBlock(tag),
    getRollupConstants: () => unpinned('getRollupConstants', (r) => r.getRollupConstants()),
    getCheckpointCount: (atBlock) => pinned('getCheckpointCount', atBlock, (r) => r.getCheckpointCount(atBlock)),
    getArchiveAt: (n, atBlock) => pinned(`getArchiveAt(${n})`, atBlock, (r) => r.getArchiveAt(n, atBlock)),
    getCheckpointProposedLogs: (from, to) =>
      f.range('getCheckpointProposedLogs', from, to, (r) => r.getCheckpointProposedLogs(from, to)),
    getProvenCheckpoint: (atBlock) => pinned('getProvenCheckpoint', atBlock, (r) => r.getProvenCheckpoint(atBlock)),
    getEpochProvenLogs: (from, to) => f.range('getEpochProvenLogs', from, to, (r) => r.getEpochProvenLogs(from, to)),
    getChainPrunedLogs: (from, to) => f.range('getChainPrunedLogs', from, to, (r) => r.getChainPrunedLogs(from, to)),
    getValidators: (atBlock) => pinned('getValidators', atBlock, (r) => r.getValidators(atBlock)),
    getInboxMessageLogs: (from, to) => f.range('getInboxMessageLogs', from, to, (r) => r.getInboxMessageLogs(from, to)),
    getOutboxRoot: (epoch, needed, atBlock) =>
      pinned(`getOutboxRoot(${epoch})`, atBlock, (r) => r.getOutboxRoot(epoch, needed, atBlock)),
    getMessageBoxAddresses: () => unpinned('getMessageBoxAddresses', (r) => r.getMessageBoxAddresses()),
  };
}

/** Whether a call names an L1 block the endpoint may not have yet. */
type ReadKind = 'pinned' | 'unpinned';

interface EndpointState {
  readonly name: string;
  readonly reader: L1ReaderPort;
  /** Asked only as a last resort until this time (Unix ms), after a transport failure. */
  coolingUntilMs: number;
  /** Failed and not answered since: the episode its warning opened. */
  down: boolean;
  /** More than L1_ENDPOINT_LAG_WARN_BLOCKS behind the best head at the last head poll that it answered. */
  lagging: boolean;
  /** It holds every block up to this one: the head it reported last, or a later block it served since. */
  knownHead: bigint | undefined;
}

interface Failure {
  readonly endpoint: EndpointState;
  readonly kind: 'down' | 'behind';
  readonly error: unknown;
}

type HeadAnswer =
  | { readonly endpoint: EndpointState; readonly head: L1BlockRef }
  | { readonly endpoint: EndpointState; readonly error: unknown };

class L1Failover {
  private readonly endpoints: EndpointState[];
  private current: EndpointState;
  private readonly logger: LoggerPort;
  private readonly clock: ClockPort;
  private readonly cooldownMs: number;
  private readonly headPollTimeoutMs: number;

  constructor(endpoints: readonly L1Endpoint[], options: FailoverL1ReaderOptions) {
    this.endpoints = endpoints.map((e) => ({
      name: e.name,
      reader: e.reader,
      coolingUntilMs: 0,
      down: false,
      lagging: false,
      knownHead: undefined,
    }));
    this.current = this.endpoints[0]!;
    this.logger = options.logger;
    this.clock = options.clock ?? createSystemClock();
    this.cooldownMs = options.cooldownMs ?? L1_ENDPOINT_COOLDOWN_MS_DEFAULT;
    this.headPollTimeoutMs = options.headPollTimeoutMs ?? L1_HEAD_POLL_TIMEOUT_MS_DEFAULT;
  }

  getBlock(tag: L1BlockTag): Promise<L1BlockRef> {
    if (tag === 'latest') return this.latestHead();
    if (tag === 'finalized') return this.call('getBlock(finalized)', 'unpinned', (e) => e.reader.getBlock(tag));
    return this.call(`getBlock(${tag})`, 'pinned', async (e) => this.served(e, await e.reader.getBlock(tag)));
  }

  /** A range read from an endpoint known to hold `toBlock` (an empty range asks nothing of the L1 node). */
  range<T>(what: string, fromBlock: bigint, toBlock: bigint, read: (reader: L1ReaderPort) => Promise<T>): Promise<T> {
    if (fromBlock > toBlock) return this.call(what, 'unpinned', (e) => read(e.reader));
    return this.call(`${what}(${fromBlock}..${toBlock})`, 'pinned', async (e) => {
      if (e.knownHead === undefined || e.knownHead < toBlock) this.served(e, await e.reader.getBlock(toBlock));
      return read(e.reader);
    });
  }

  /** One call through the endpoints in call order, each at most once (see the header). */
  async call<T>(what: string, kind: ReadKind, attempt: (endpoint: EndpointState) => Promise<T>): Promise<T> {
    const failures: Failure[] = [];
    for (const endpoint of this.callOrder()) {
      try {
        const value = await attempt(endpoint);
        this.answered(endpoint);
        // A call that began on an endpoint no longer current (another call moved on meanwhile) moves nothing.
        const reason = this.leavingReason(failures);
        if (reason !== undefined) this.makeCurrent(endpoint, reason);
        return value;
      } catch (error) {
        const failure = failureKind(error, kind);
        if (failure === undefined) throw error;
        if (failure === 'down') this.markDown(endpoint, error, what);
        else this.answered(endpoint);
        failures.push({ endpoint, kind: failure, error });
      }
    }
    throw this.exhausted(what, failures);
  }

  /** The highest head of the endpoints not cooling down (else of those cooling down); see the header. */
  private async latestHead(): Promise<L1BlockRef> {
    const now = this.clock.now();
    const fresh = this.endpoints.filter((e) => !this.cooling(e, now));
    let answers = await this.pollHeads(fresh.length > 0 ? fresh : this.endpoints);
    if (!answers.some((a) => 'head' in a) && fresh.length > 0 && fresh.length < this.endpoints.length) {
      answers = [...answers, ...(await this.pollHeads(this.endpoints.filter((e) => !fresh.includes(e))))];
    }
    const heads = answers.filter((a) => 'head' in a);
    const failures = answers.filter((a) => 'error' in a);
    for (const { endpoint, error } of failures) {
      if (failureKind(error, 'unpinned') === 'down') this.markDown(endpoint, error, 'getBlock(latest)');
    }
    const best = bestHead(heads, this.current);
    if (best === undefined) throw this.headPollFailed(failures);
    for (const { endpoint, head } of heads) {
      endpoint.knownHead = head.number;
      this.answered(endpoint);
      this.noteLag(endpoint, head.number, best.head.number);
    }
    this.makeCurrent(best.endpoint, this.headReason(best, answers));
    return best.head;
  }

  private pollHeads(asked: readonly EndpointState[]): Promise<HeadAnswer[]> {
    return Promise.all(
      asked.map(async (endpoint): Promise<HeadAnswer> => {
        try {
          return { endpoint, head: await this.withinHeadTimeout(endpoint, endpoint.reader.getBlock('latest')) };
        } catch (error) {
          return { endpoint, error };
        }
      }),
    );
  }

  /** The head answer, or L1_UNREACHABLE once the head timeout passes (never with a single endpoint). */
  private withinHeadTimeout(endpoint: EndpointState, answer: Promise<L1BlockRef>): Promise<L1BlockRef> {
    if (this.endpoints.length === 1) return answer;
    const ms = this.headPollTimeoutMs;
    return new Promise((resolve, reject) => {
      const timer = this.clock.setTimeout(
        () => reject(new L1Error('L1_UNREACHABLE', `L1 endpoint ${endpoint.name} gave no head within ${ms} ms`)),
        ms,
      );
      answer.then(
        (head) => {
          this.clock.clearTimeout(timer);
          resolve(head);
        },
        (error: unknown) => {
          this.clock.clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  /** The current endpoint first unless it is cooling down, then the others not cooling down, then the rest. */
  private callOrder(): EndpointState[] {
    const now = this.clock.now();
    const fresh = this.endpoints.filter((e) => !this.cooling(e, now));
    const ordered = fresh.includes(this.current) ? [this.current, ...fresh.filter((e) => e !== this.current)] : fresh;
    return [...ordered, ...this.endpoints.filter((e) => this.cooling(e, now))];
  }

  private cooling(endpoint: EndpointState, now: number): boolean {
    return now < endpoint.coolingUntilMs;
  }

  private served(endpoint: EndpointState, block: L1BlockRef): L1BlockRef {
    if (endpoint.knownHead === undefined || block.number > endpoint.knownHead) endpoint.knownHead = block.number;
    return block;
  }

  private markDown(endpoint: EndpointState, error: unknown, what: string): void {
    endpoint.coolingUntilMs = this.clock.now() + this.cooldownMs;
    if (endpoint.down) return;
    endpoint.down = true;
    this.logger.warn('L1 endpoint unreachable; asked only as a last resort while it cools down', {
      endpoint: endpoint.name,
      call: what,
      cooldownMs: this.cooldownMs,
      error: messageOf(error),
    });
  }

  private answered(endpoint: EndpointState): void {
    endpoint.coolingUntilMs = 0;
    if (!endpoint.down) return;
    endpoint.down = false;
    this.logger.info('L1 endpoint answers again', { endpoint: endpoint.name });
  }

  private noteLag(endpoint: EndpointState, head: bigint, best: bigint): void {
    const lagging = best - head > BigInt(L1_ENDPOINT_LAG_WARN_BLOCKS);
    if (lagging && !endpoint.lagging) {
      this.logger.warn('L1 endpoint is behind the best head', { endpoint: endpoint.name, head, bestHead: best });
    } else if (!lagging && endpoint.lagging) {
      this.logger.info('L1 endpoint caught up', { endpoint: endpoint.name, head });
    }
    endpoint.lagging = lagging;
  }

  private makeCurrent(endpoint: EndpointState, reason: string): void {
    if (endpoint === this.current) return;
    this.logger.warn('L1 reads switch to another endpoint', { from: this.current.name, to: endpoint.name, reason });
    this.current = endpoint;
  }

  /** Why a call left the current endpoint: it failed the call, or was cooling down; undefined when neither. */
  private leavingReason(failures: readonly Failure[]): string | undefined {
    const own = failures.find((f) => f.endpoint === this.current);
    if (own !== undefined)
      return own.kind === 'down' ? `it failed: ${messageOf(own.error)}` : `it lacks the block: ${messageOf(own.error)}`;
    return this.cooling(this.current, this.clock.now()) ? 'it is cooling down after a failure' : undefined;
  }

  private headReason(best: { endpoint: EndpointState; head: L1BlockRef }, answers: readonly HeadAnswer[]): string {
    const own = answers.find((a) => a.endpoint === this.current);
    if (own === undefined) return 'it is cooling down after a failure';
    if ('error' in own) return `it gave no head: ${messageOf(own.error)}`;
    return `its head is L1 block ${own.head.number}, ${best.endpoint.name} is at ${best.head.number}`;
  }

  /** No endpoint answered the head: an answer that is not a transport failure says most, else all were unreachable. */
  private headPollFailed(failures: readonly { endpoint: EndpointState; error: unknown }[]): unknown {
    const answer = failures.find((f) => failureKind(f.error, 'unpinned') === undefined);
    if (answer !== undefined) return answer.error;
    return this.exhausted(
      'getBlock(latest)',
      failures.map((f) => ({ ...f, kind: 'down' })),
    );
  }

  /** The error of a call no endpoint served; with a single endpoint, its own. */
  private exhausted(what: string, failures: readonly Failure[]): unknown {
    const last = failures[failures.length - 1];
    assert(last !== undefined, 'a call that no endpoint served was tried on one');
    if (this.endpoints.length === 1) return last.error;
    const lastDown = [...failures].reverse().find((f) => f.kind === 'down');
    const tried = failures.map((f) => `${f.endpoint.name} (${f.kind === 'down' ? 'unreachable' : 'lacks the block'})`);
    const cause = lastDown ?? last;
    return new L1Error(
      lastDown === undefined ? 'L1_BLOCK_NOT_FOUND' : 'L1_UNREACHABLE',
      `no L1 endpoint served ${what}: ${tried.join(', ')}; last: ${messageOf(cause.error)}`,
      { cause: cause.error },
    );
  }
}

/** 'down' for a transport failure, 'behind' for a block the endpoint lacks (pinned reads), else the L1's answer. */
function failureKind(error: unknown, kind: ReadKind): Failure['kind'] | undefined {
  if (error instanceof L1Error) {
    if (error.code === 'L1_UNREACHABLE') return 'down';
    return kind === 'pinned' && error.code === 'L1_BLOCK_NOT_FOUND' ? 'behind' : undefined;
  }
  // eth_getLogs from past the head is refused with the node's raw words (anvil: BlockOutOfRangeError).
  return kind === 'pinned' && isBlockNotFound(error) ? 'behind' : undefined;
}

/** The highest head; a tie goes to the current endpoint, else to the first in configured order. */
function bestHead(
  heads: readonly { endpoint: EndpointState; head: L1BlockRef }[],
  current: EndpointState,
): { endpoint: EndpointState; head: L1BlockRef } | undefined {
  let best: { endpoint: EndpointState; head: L1BlockRef } | undefined;
  for (const answer of heads) {
    if (
      best === undefined ||
      answer.head.number > best.head.number ||
      (answer.head.number === best.head.number && answer.endpoint === current)
    )
      best = answer;
  }
  return best;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
