/**
 * Checker: an admin rollback to block N leaves the node's world state after N exactly as it was before the
 * rollback (all four trees and the archive), and block N itself unchanged, whether the rollback unwound the state or
 * (forced) rebuilt it from the kept blocks. The expectation is taken from the node just before the rollback: its
 * world state at N when still kept, else the roots block N's header commits to. A rollback that is refused or fails
 * changes nothing: the tips, the world state's latest block and roots, and the pool are as before. One allowance: a
 * rollback that arrives while a sync step is in flight waits for that step before it pauses sync and judges the
 * request, so the step may move the node forward first. Changes that are only that (every tip at or past where it
 * was, the blocks it pointed at still in place, the world state not behind and its roots at the old latest block
 * unchanged) are sync's, not the refused rollback's.
 */
import type { BlockRef, BlockTipName, Hex, L2Tips } from '../../spec/chain.js';
import { MerkleTreeId } from '../../spec/constants.js';
import type { RollupNode } from '../../core/node/node.js';
import type { SimFailure } from './simFailure.js';

export interface RollbackExpectation {
  readonly node: string;
  /** The node as a whole before the rollback: tips, and the world state's latest block with its roots. */
  readonly before: Readonly<Record<string, string>>;
  /** The same, as values: the tips, and the world state's latest block with its roots. */
  readonly beforeTips: L2Tips;
  readonly beforeLatest: number;
  readonly beforeLatestRoots: string;
  readonly target: number;
  readonly blockHash: Hex | undefined;
  /** Roots of the four state trees after the target block (the archive only when the state was kept). */
  readonly roots: string;
  readonly archive: string | undefined;
}

function stateRootsOf(node: RollupNode, n: number): { roots: string; archive: string } {
  const worldState = node.chain.worldState;
  return {
    roots: JSON.stringify(worldState.getStateReference(n)),
    archive: JSON.stringify(worldState.getTreeSnapshot(MerkleTreeId.ARCHIVE, n)),
  };
}

function stateKept(node: RollupNode, n: number): boolean {
  const worldState = node.chain.worldState;
  return n >= worldState.oldestBlockNumber && n <= worldState.latestBlockNumber;
}

/** The node's tips, and the world state's latest block with its roots, each as a comparable string. */
function fingerprint(node: RollupNode): Readonly<Record<string, string>> {
  const { tips } = node.chain;
  const latest = node.chain.worldState.latestBlockNumber;
  return {
    tips: `proposed ${tips.proposed.number}, checkpointed ${tips.checkpointed.block.number}, proven ${tips.proven.block.number}, finalized ${tips.finalized.block.number}`,
    tipHashes: JSON.stringify(tips),
    worldStateLatest: String(latest),
    worldStateRoots: stateRootsOf(node, latest).roots,
    pool: `${node.txPool.current.count} txs ${JSON.stringify(node.txPool.current.ordered().map((p) => p.txHash))}`,
  };
}

/** What block `target` looks like on `node` now, before a rollback to it. */
export async function expectRollback(name: string, node: RollupNode, target: number): Promise<RollbackExpectation> {
  const block = await node.chain.store.getBlock(target);
  const latest = node.chain.worldState.latestBlockNumber;
  const before = {
    before: fingerprint(node),
    beforeTips: node.chain.tips,
    beforeLatest: latest,
    beforeLatestRoots: stateRootsOf(node, latest).roots,
  };
  if (stateKept(node, target))
    return { node: name, ...before, target, blockHash: block?.hash, ...stateRootsOf(node, target) };
  const { l1ToL2MessageTree, noteHashTree, nullifierTree, publicDataTree } = block!.header.state;
  const roots = JSON.stringify({ l1ToL2MessageTree, noteHashTree, nullifierTree, publicDataTree });
  return { node: name, ...before, target, blockHash: block?.hash, roots, archive: undefined };
}

/** After a rollback that was refused or failed: the node must be as before, or only ahead of it by sync. */
export async function checkRollbackRefused(
  node: RollupNode,
  expected: RollbackExpectation,
  outcome: string,
): Promise<SimFailure[]> {
  const now = fingerprint(node);
  const changed = Object.keys(now).filter((part) => now[part] !== expected.before[part]);
  if (changed.length === 0) return [];
  const notSync = await changeNotBySync(node, expected);
  if (notSync === undefined && !changed.every((part) => part === 'pool')) return [];
  const brief = (part: string, value: string) => (part === 'pool' ? value.split(' [')[0]! : value);
  const shown = changed
    .filter((part) => part !== 'tipHashes' && part !== 'worldStateRoots')
    .map((part) => `${part} ${brief(part, expected.before[part]!)} -> ${brief(part, now[part]!)}`);
  const why = notSync === undefined ? '' : `: ${notSync}`;
  const detail = `rollback to block ${expected.target} ended with "${outcome}" but changed the node's ${changed.join(', ')}${shown.length > 0 ? ` (${shown.join('; ')})` : ''}${why}`;
  return [{ kind: 'rollbackRootsChanged', node: expected.node, detail }];
}

const BLOCK_TIPS: readonly BlockTipName[] = ['proposed', 'checkpointed', 'proven', 'finalized'];

function tipBlock(tips: L2Tips, name: BlockTipName): BlockRef {
  return name === 'proposed' ? tips.proposed : tips[name].block;
}

/**
 * Why the node's changes since `expected` are not sync moving it forward, or undefined when they are: every tip at or
 * past where it was with the block it pointed at still in place, and the world state not behind, its roots at the
 * old latest block unchanged.
 */
async function changeNotBySync(node: RollupNode, expected: RollbackExpectation): Promise<string | undefined> {
  for (const name of BLOCK_TIPS) {
    const was = tipBlock(expected.beforeTips, name);
    const is = tipBlock(node.chain.tips, name);
    if (is.number < was.number) return `the ${name} tip went back from block ${was.number} to ${is.number}`;
    const block = await node.chain.store.getBlock(was.number);
    if (block !== undefined && block.hash !== was.hash)
      return `block ${was.number}, the ${name} tip before, was replaced`;
  }
  const worldState = node.chain.worldState;
  if (worldState.latestBlockNumber < expected.beforeLatest)
    return `the world state went back from block ${expected.beforeLatest} to ${worldState.latestBlockNumber}`;
  if (
    stateKept(node, expected.beforeLatest) &&
    stateRootsOf(node, expected.beforeLatest).roots !== expected.beforeLatestRoots
  )
    return `the state roots of block ${expected.beforeLatest} changed`;
  return undefined;
}

/** Compares the node after a successful rollback with what it was before. */
export async function checkRollback(node: RollupNode, expected: RollbackExpectation): Promise<SimFailure[]> {
  const { target } = expected;
  const fail = (detail: string): SimFailure[] => [
    { kind: 'rollbackRootsChanged', node: expected.node, detail: `rollback to block ${target}: ${detail}` },
  ];
  const block = await node.chain.store.getBlock(target);
  if (block?.hash !== expected.blockHash) return fail(`block ${target} was ${expected.blockHash}, is ${block?.hash}`);
  if (!stateKept(node, target))
    return fail(
      `the state of block ${target} is not kept after the rollback (kept ${node.chain.worldState.oldestBlockNumber}..${node.chain.worldState.latestBlockNumber})`,
    );
  const now = stateRootsOf(node, target);
  if (now.roots !== expected.roots) return fail(`state roots were ${expected.roots}, are ${now.roots}`);
  if (expected.archive !== undefined && now.archive !== expected.archive)
    return fail(`archive was ${expected.archive}, is ${now.archive}`);
  return [];
}
