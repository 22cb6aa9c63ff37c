/**
 * What a follower restarted after a kill must show: tips in order, no tip behind what it reported before the kill
 * (the L1 under the soak never reorgs, so a checkpoint once reported is never lost), and every block it holds equal,
 * by hash, to the sequencer's block of that number.
 */
import type { L2Tips } from '../../spec/chain.js';
import { RPC_BLOCKS_PER_CALL_MAX } from '../../spec/rpc/limits.js';
import { rpc } from '../../test/e2e/rpc.js';

/**
 * How long a call to the follower or the sequencer may go unanswered before the soak reports it as a problem (with
 * the follower's output) rather than waiting on it: a wedged node must fail the soak, not hang it.
 */
const SOAK_RPC_TIMEOUT_MS = 20_000;

/**
 * `rpc`, tried again once when the request fails to connect or its connection is reset: a killed follower's port may
 * be given to the next one while the client still holds a kept-alive connection to it.
 */
export async function rpcRetried<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  try {
    return await rpc<T>(url, method, params, SOAK_RPC_TIMEOUT_MS);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return rpc<T>(url, method, params, SOAK_RPC_TIMEOUT_MS);
  }
}

/** The tips whose block numbers must never go down across a kill. */
const DURABLE_TIPS = ['checkpointed', 'proven', 'finalized'] as const;

/** Problems with the order of one set of tips: finalized <= proven <= checkpointed <= proposed. */
export function tipsOrderProblems(tips: L2Tips): string[] {
  const problems: string[] = [];
  const blocks = [tips.finalized.block, tips.proven.block, tips.checkpointed.block, tips.proposed];
  const names = ['finalized', 'proven', 'checkpointed', 'proposed'];
  for (let i = 1; i < blocks.length; i++) {
    if (blocks[i - 1]!.number > blocks[i]!.number)
      problems.push(`${names[i - 1]} block ${blocks[i - 1]!.number} is above ${names[i]} block ${blocks[i]!.number}`);
  }
  const checkpoints = [tips.finalized.checkpoint, tips.proven.checkpoint, tips.checkpointed.checkpoint];
  for (let i = 1; i < checkpoints.length; i++) {
    if (checkpoints[i - 1]!.number > checkpoints[i]!.number)
      problems.push(
        `${names[i - 1]} checkpoint ${checkpoints[i - 1]!.number} is above ${names[i]} checkpoint ${checkpoints[i]!.number}`,
      );
  }
  return problems;
}

/** Problems if a durable tip of `after` is below the same tip of `before` (a lost checkpoint or proof). */
export function tipsRegressionProblems(before: L2Tips | undefined, after: L2Tips): string[] {
  if (before === undefined) return [];
  return DURABLE_TIPS.flatMap((name) =>
    after[name].block.number < before[name].block.number
      ? [`${name} tip went back from block ${before[name].block.number} to ${after[name].block.number}`]
      : [],
  );
}

interface BlockHashOnly {
  readonly number: number;
  readonly hash: string;
}

/** The hashes of blocks `from..to` of the node at `url`, RPC_BLOCKS_PER_CALL_MAX at a time. */
export async function blockHashes(url: string, from: number, to: number): Promise<Map<number, string>> {
  const hashes = new Map<number, string>();
  for (let start = from; start <= to; start += RPC_BLOCKS_PER_CALL_MAX) {
    const limit = Math.min(RPC_BLOCKS_PER_CALL_MAX, to - start + 1);
    const blocks = await rpcRetried<BlockHashOnly[]>(url, 'svc_getBlocks', [start, limit]);
    for (const block of blocks) hashes.set(block.number, block.hash);
  }
  return hashes;
}

/**
 * Problems if a block the follower holds (1..its proposed tip) is missing or differs from the sequencer's block of
 * that number, or if a tip's hash is not its block's.
 */
export async function blockHashProblems(followerUrl: string, sequencerUrl: string, tips: L2Tips): Promise<string[]> {
  const top = tips.proposed.number;
  if (top === 0) return [];
  const [ours, theirs] = await Promise.all([blockHashes(followerUrl, 1, top), blockHashes(sequencerUrl, 1, top)]);
  const problems: string[] = [];
  for (let n = 1; n <= top; n++) {
    if (!ours.has(n)) problems.push(`block ${n} (at or below its proposed tip ${top}) is missing`);
    else if (ours.get(n) !== theirs.get(n))
      problems.push(`block ${n} is ${ours.get(n)}, the sequencer's is ${theirs.get(n) ?? 'missing'}`);
  }
  for (const [name, ref] of tipRefs(tips)) {
    if (ref.number > 0 && ours.get(ref.number) !== ref.hash)
      problems.push(`the ${name} tip says block ${ref.number} is ${ref.hash}, the block is ${ours.get(ref.number)}`);
  }
  return problems.slice(0, 10);
}

function tipRefs(tips: L2Tips): [string, { number: number; hash: string }][] {
  return [
    ['proposed', tips.proposed],
    ['checkpointed', tips.checkpointed.block],
    ['proven', tips.proven.block],
    ['finalized', tips.finalized.block],
  ];
}
