/**
 * End-of-run checkers over every pair of nodes (the first node is the reference):
 * - nodesDiverged: the same block hash at every checkpointed height both hold;
 * - finalizedConflict: the same block hash at every height both have finalized;
 * - stateRootsDiffer: the same world-state roots (all four trees and the archive) at every block both have
 *   checkpointed and still keep the state of, which compares what each node computed, not only what it was told.
 */
import type { RollupNode } from '../../core/node/node.js';
import { MerkleTreeId } from '../../spec/constants.js';
import type { SimFailure } from './simFailure.js';

export interface NamedNode {
  readonly name: string;
  readonly node: RollupNode;
}

export async function checkAgreement(nodes: readonly NamedNode[]): Promise<SimFailure[]> {
  const failures: SimFailure[] = [];
  const reference = nodes[0]!;
  for (const other of nodes.slice(1)) {
    const [a, b] = [reference.node.chain.tips, other.node.chain.tips];
    const height = Math.min(a.checkpointed.block.number, b.checkpointed.block.number);
    const finalizedHeight = Math.min(a.finalized.block.number, b.finalized.block.number);
    for (let n = 0; n <= height; n++) {
      const [blockA, blockB] = await Promise.all([
        reference.node.chain.store.getBlock(n),
        other.node.chain.store.getBlock(n),
      ]);
      if (blockA?.hash !== blockB?.hash) {
        const detail = `block ${n}: ${reference.name} has ${blockA?.hash}, ${other.name} has ${blockB?.hash}`;
        failures.push({ kind: n <= finalizedHeight ? 'finalizedConflict' : 'nodesDiverged', node: other.name, detail });
        break;
      }
    }
  }
  return failures;
}

/** The roots one node's world state holds after block `n`, as one comparable string. */
function rootsAt(node: RollupNode, n: number): string {
  const worldState = node.chain.worldState;
  const state = worldState.getStateReference(n);
  const archive = worldState.getTreeSnapshot(MerkleTreeId.ARCHIVE, n);
  return JSON.stringify({ ...state, archive });
}

/** Blocks whose state both nodes keep and have checkpointed. */
function comparableRange(a: RollupNode, b: RollupNode): readonly [number, number] {
  const low = Math.max(a.chain.worldState.oldestBlockNumber, b.chain.worldState.oldestBlockNumber);
  const high = Math.min(
    a.chain.worldState.latestBlockNumber,
    b.chain.worldState.latestBlockNumber,
    a.chain.tips.checkpointed.block.number,
    b.chain.tips.checkpointed.block.number,
  );
  return [low, high];
}

export function checkStateRoots(nodes: readonly NamedNode[]): SimFailure[] {
  const reference = nodes[0]!;
  for (const other of nodes.slice(1)) {
    const [low, high] = comparableRange(reference.node, other.node);
    for (let n = low; n <= high; n++) {
      const [a, b] = [rootsAt(reference.node, n), rootsAt(other.node, n)];
      if (a !== b)
        return [
          {
            kind: 'stateRootsDiffer',
            node: other.name,
            detail: `world state after block ${n}: ${reference.name} ${a}, ${other.name} ${b}`,
          },
        ];
    }
  }
  return [];
}
