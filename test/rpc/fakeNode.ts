/**
 * A NodeService over a fixed, small chain, for the RPC tests: genesis (block 0), checkpoint 1 holding blocks 1 and 2
 * (published on L1), and block 3 proposed in checkpoint 2, not yet on L1. Any method can be overridden.
 */
import type { BlockQuery, BlockWithContext, NodeService } from '../../core/nodeService.js';
import type { Block, Checkpoint, Hex, L1RollupConstants, L2Tips, NodeInfo } from '../../spec/chain.js';

/** A 32-byte hex whose value is `n` (distinct per role through the high word). */
export const hex32 = (n: number | bigint): Hex => `0x${BigInt(n).toString(16).padStart(64, '0')}`;

export const blockHashOf = (n: number): Hex => hex32(0x1000n * 2n ** 200n + BigInt(n));
export const archiveRootOf = (n: number): Hex => hex32(0x2000n * 2n ** 200n + BigInt(n));
const snapshot = (role: number, n: number) => ({ root: hex32(BigInt(role) * 2n ** 220n + BigInt(n)), nextAvailableLeafIndex: n * 64 });

export const ROLLUP_ADDRESS: Hex = `0x${'ab'.repeat(20)}`;

function makeBlock(n: number, checkpointNumber: number, indexWithinCheckpoint: number): Block {
  return {
    hash: blockHashOf(n),
    archive: { root: archiveRootOf(n), nextAvailableLeafIndex: n + 1 },
    checkpointNumber,
    indexWithinCheckpoint,
    body: { txEffects: n === 1 ? [{ txHash: hex32(0xbeef) }] : [] },
    header: {
      lastArchive: { root: n === 0 ? hex32(0) : archiveRootOf(n - 1), nextAvailableLeafIndex: n },
      state: {
        noteHashTree: snapshot(1, n),
        nullifierTree: snapshot(2, n),
        publicDataTree: snapshot(3, n),
        l1ToL2MessageTree: snapshot(4, n),
      },
      globalVariables: {
        chainId: 31337,
        version: 1,
        blockNumber: n,
        slotNumber: 10 + n,
        timestamp: 1_700_000_000n + BigInt(n) * 36n,
        coinbase: `0x${'cd'.repeat(20)}`,
        feeRecipient: hex32(0xfee),
        gasFees: { feePerDaGas: 0n, feePerL2Gas: 12_345_678_901_234_567_890n },
      },
      contentCommitment: { txsEffectsHash: hex32(0xe1), inHash: hex32(0xe2), outHash: hex32(0xe3) },
      totalFees: 2n ** 70n,
      totalManaUsed: 21_000n,
    },
  };
}

export const blocks: readonly Block[] = [makeBlock(0, 0, 0), makeBlock(1, 1, 0), makeBlock(2, 1, 1), makeBlock(3, 2, 0)];

export const checkpointOne: Checkpoint = {
  number: 1,
  header: {
    lastArchiveRoot: archiveRootOf(0),
    slotNumber: 11,
    timestamp: 1_700_000_036n,
    coinbase: `0x${'cd'.repeat(20)}`,
    feeRecipient: hex32(0xfee),
    gasFees: { feePerDaGas: 0n, feePerL2Gas: 1n },
    blockCount: 2,
    blobsHash: hex32(0xb0),
    totalManaUsed: 42_000n,
  },
  archiveRoot: archiveRootOf(2),
  hash: hex32(0xc1),
  firstBlockNumber: 1,
  blockCount: 2,
  blobVersionedHashes: [hex32(0x01)],
  l1: { blockNumber: 123n, blockHash: hex32(0x7a), timestamp: 1_700_000_048n, txHash: hex32(0x7b) },
};

export const tips: L2Tips = {
  proposed: { number: 3, hash: blockHashOf(3) },
  checkpointed: { block: { number: 2, hash: blockHashOf(2) }, checkpoint: { number: 1, hash: checkpointOne.hash } },
  proven: { block: { number: 0, hash: blockHashOf(0) }, checkpoint: { number: 0, hash: hex32(0) } },
  finalized: { block: { number: 0, hash: blockHashOf(0) }, checkpoint: { number: 0, hash: hex32(0) } },
};

export const l1Constants: L1RollupConstants = {
  l1ChainId: 31337,
  rollupVersion: 1,
  l1StartBlock: 17n,
  l1GenesisTime: 1_700_000_000n,
  slotDuration: 36,
  epochDuration: 32,
  ethereumSlotDuration: 12,
  proofSubmissionEpochs: 1,
  genesisArchiveRoot: archiveRootOf(0),
};

export const nodeInfo: NodeInfo = {
  nodeVersion: '4.0.0-test',
  contractLanguageVersion: '4.0.0',
  l1ChainId: 31337,
  rollupVersion: 1,
  protocolVersion: 4,
  l1ContractAddresses: { rollupAddress: ROLLUP_ADDRESS },
};

function tipBlockNumber(tag: 'latest' | 'proposed' | 'checkpointed' | 'proven' | 'finalized'): number {
  return tag === 'latest' || tag === 'proposed' ? tips.proposed.number : tips[tag].block.number;
}

function findBlock(query: BlockQuery): Block | undefined {
  switch (query.kind) {
    case 'number':
      return blocks[query.number];
    case 'hash':
      return blocks.find((block) => block.hash === query.hash);
    case 'archive':
      return blocks.find((block) => block.archive.root === query.archive);
    case 'hashOrArchive':
      return blocks.find((block) => block.hash === query.value) ?? blocks.find((block) => block.archive.root === query.value);
    case 'tag':
      return blocks[tipBlockNumber(query.tag)];
  }
}

export interface FakeNode extends NodeService {
  /** Every call the RPC layer made, with its arguments as the node received them. */
  readonly calls: { readonly method: string; readonly args: readonly unknown[] }[];
}

export function createFakeNode(overrides: Partial<NodeService> = {}): FakeNode {
  const calls: FakeNode['calls'] = [];
  const base: NodeService = {
    getBlockNumber: async (tip) => tipBlockNumber(tip ?? 'proposed'),
    getCheckpointNumber: async (tip) => tips[tip ?? 'checkpointed'].checkpoint.number,
    getChainTips: async () => tips,
    getBlock: async (query): Promise<BlockWithContext | undefined> => {
      const block = findBlock(query);
      if (block === undefined) return undefined;
      return block.checkpointNumber === 1 ? { block, checkpoint: checkpointOne } : { block };
    },
    getCheckpoint: async (checkpointNumber) => (checkpointNumber === 1 ? checkpointOne : undefined),
    getL1Constants: () => l1Constants,
    getNodeInfo: () => nodeInfo,
    getNodeVersion: () => nodeInfo.nodeVersion,
    getVersion: () => 1,
    getChainId: () => 31337,
    getL1ContractAddresses: () => nodeInfo.l1ContractAddresses,
    isReady: () => true,
  };
  const merged = { ...base, ...overrides };
  const recorded = Object.fromEntries(
    Object.entries(merged).map(([method, implementation]) => [
      method,
      (...args: unknown[]) => {
        calls.push({ method, args });
        return (implementation as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as NodeService;
  return { ...recorded, calls };
}
