import type { Block, BlockHeader, StateReference } from '../../spec/chain.js';
import { zeroHex } from '../../spec/codec/bytes.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import { ARCHIVE_HEIGHT } from '../../spec/constants.js';
import type { AppendOnlyTree } from '../merkle/appendOnlyTree.js';
import { appendLeaves, createAppendOnlyTree, treeSnapshot } from '../merkle/appendOnlyTree.js';
import { emptyRoot } from '../merkle/emptyRoots.js';
import { prefilledStateReference } from './genesisState.js';

/** The protocol's genesis state, computed once: it never changes. */
let genesisState: StateReference | undefined;

/**
 * The state before any block: the nullifier tree holds its 64 genesis leaves and the public data tree its one genesis
 * leaf (core/worldState/genesisState.ts), the note hash and L1-to-L2 message trees are empty.
 */
export function genesisStateReference(): StateReference {
  genesisState ??= prefilledStateReference();
  return genesisState;
}

export interface Genesis {
  readonly block: Block;
  /** The archive tree holding block 0's hash as leaf 0. */
  readonly archiveTree: AppendOnlyTree;
}

/** Block 0 of a rollup with this L1 chain id and rollup version; its archive root is deployed with the contract. */
export function createGenesis(chainId: number, version: number): Genesis {
  const header: BlockHeader = {
    lastArchive: { root: emptyRoot(ARCHIVE_HEIGHT), nextAvailableLeafIndex: 0 },
    state: genesisStateReference(),
    globalVariables: {
      chainId,
      version,
      blockNumber: 0,
      slotNumber: 0,
      timestamp: 0n,
      coinbase: zeroHex(20),
      feeRecipient: zeroHex(32),
      gasFees: { feePerDaGas: 0n, feePerL2Gas: 0n },
    },
    contentCommitment: { txsEffectsHash: zeroHex(32), inHash: zeroHex(32), outHash: zeroHex(32) },
    totalFees: 0n,
    totalManaUsed: 0n,
  };
  const hash = blockHash(header);
  const archiveTree = appendLeaves(createAppendOnlyTree(ARCHIVE_HEIGHT), [hash]);
  const block: Block = {
    header,
    hash,
    archive: treeSnapshot(archiveTree),
    body: { txEffects: [] },
    checkpointNumber: 0,
    indexWithinCheckpoint: 0,
  };
  return { block, archiveTree };
}
