/**
 * Checker: an admin rollback to block N leaves the node's world state after N exactly as it was before the
 * rollback (all four trees and the archive), and block N itself unchanged, whether the rollback unwound the state or
 * (forced) rebuilt it from the kept blocks. The expectation is taken from the node just before the rollback: its
 * world state at N when still kept, else the roots block N's header commits to. A rollback that is refused or fails
 * changes nothing: the tips, the world state's latest block and roots, and the pool are as before.
 */
import type { Hex } from '../../spec/chain.js';
import { MerkleTreeId } from '../../spec/constants.js';
import type { RollupNode } from '../../core/node/node.js';
import type { SimFailure } from './simFailure.js';

export interface RollbackExpectation {
  readonly node: string;
  /** The node as a whole before the rollback: tips, and the world state's latest block with its roots. */
  readonly before: Readonly<Record<string, string>>;
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
  const before = fingerprint(node);
  if (stateKept(node, target))
    return { node: name, before, target, blockHash: block?.hash, ...stateRootsOf(node, target) };
  const { l1ToL2MessageTree, noteHashTree, nullifierTree, publicDataTree } = block!.header.state;
  const roots = JSON.stringify({ l1ToL2MessageTree, noteHashTree, nullifierTree, publicDataTree });
  return { node: name, before, target, blockHash: block?.hash, roots, archive: undefined };
}

/** After a rollback that was refused or failed: the node must be exactly as before. */
export function checkRollbackRefused(node: RollupNode, expected: RollbackExpectation, outcome: string): SimFailure[] {
  const now = fingerprint(node);
  const changed = Object.keys(now).filter((part) => now[part] !== expected.before[part]);
  if (changed.length === 0) return [];
  const brief = (part: string, value: string) => (part === 'pool' ? value.split(' [')[0]! : value);
  const shown = changed
    .filter((part) => part !== 'tipHashes' && part !== 'worldStateRoots')
    .map((part) => `${part} ${brief(part, expected.before[part]!)} -> ${brief(part, now[part]!)}`);
  const detail = `rollback to block ${expected.target} ended with "${outcome}" but changed the node's ${changed.join(', ')}${shown.length > 0 ? ` (${shown.join('; ')})` : ''}`;
  return [{ kind: 'rollbackRootsChanged', node: expected.node, detail }];
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
