/**
 * A NodeService over a fixed, small chain, for the RPC tests: genesis (block 0), checkpoint 1 holding blocks 1 and 2
 * (published on L1 with three committee attestations, slot 11, epoch 0), and block 3 proposed in checkpoint 2, not
 * yet on L1. The admin side keeps a small configuration and pause flags, and runs a sequencer. Any method can be
 * overridden, part by part (`{ chain: { getBlocks } }`, `{ admin: { getConfig } }`).
 */
import { createFileStoreSnapshots } from '../../adapters/snapshots/fileStoreSnapshots.js';
import { NodeError } from '../../core/errors.js';
import { minimalTxEffect } from '../../spec/codec/txEffect.js';
import { fakeContracts } from './fakes/fakeContracts.js';
import { fakeLogs } from './fakes/fakeLogs.js';
import { fakeTxs } from './fakes/fakeTxs.js';
import type { P2pService } from '../../core/network/p2pService.js';
import type { NodeHealthService } from '../../core/node/nodeHealthService.js';
import type { BlockWithContext, ChainService } from '../../core/chain/chainService.js';
import type { FeeService } from '../../core/fees/feeService.js';
import type { MessageService } from '../../core/messages/messageService.js';
import type { NodeAdmin } from '../../core/node/nodeAdmin.js';
import type { NodeInfoService } from '../../core/node/nodeInfoService.js';
import type { ValidatorService } from '../../core/node/validatorSide.js';
import type { BlockQuery, CheckpointQuery, NodeService } from '../../core/nodeService.js';
import type { WorldStateService } from '../../core/worldState/worldStateService.js';
import type { Block, Checkpoint, Hex, L1RollupConstants, L2Tips, NodeInfo } from '../../spec/chain.js';

/** A 32-byte hex whose value is `n` (distinct per role through the high word). */
export const hex32 = (n: number | bigint): Hex => `0x${BigInt(n).toString(16).padStart(64, '0')}`;

export const blockHashOf = (n: number): Hex => hex32(0x1000n * 2n ** 200n + BigInt(n));
export const archiveRootOf = (n: number): Hex => hex32(0x2000n * 2n ** 200n + BigInt(n));
const snapshot = (role: number, n: number) => ({
  root: hex32(BigInt(role) * 2n ** 220n + BigInt(n)),
  nextAvailableLeafIndex: n * 64,
});

export const ROLLUP_ADDRESS: Hex = `0x${'ab'.repeat(20)}`;
export const INBOX_ADDRESS: Hex = `0x${'1b'.repeat(20)}`;
export const OUTBOX_ADDRESS: Hex = `0x${'0b'.repeat(20)}`;

/** The one tx of block 1. */
export const blockOneTxEffect = minimalTxEffect(hex32(0xbeef), hex32(0xbeef01));
/** Its wire form. */
export const blockOneTxEffectWire = { ...blockOneTxEffect, transactionFee: '0' };

function makeBlock(n: number, checkpointNumber: number, indexWithinCheckpoint: number): Block {
  return {
    hash: blockHashOf(n),
    archive: { root: archiveRootOf(n), nextAvailableLeafIndex: n + 1 },
    checkpointNumber,
    indexWithinCheckpoint,
    body: { txEffects: n === 1 ? [blockOneTxEffect] : [] },
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

export const blocks: readonly Block[] = [
  makeBlock(0, 0, 0),
  makeBlock(1, 1, 0),
  makeBlock(2, 1, 1),
  makeBlock(3, 2, 0),
];

/** The committee members whose attestations L1 published with checkpoint 1, in committee order. */
export const CHECKPOINT_ONE_ATTESTERS: readonly Hex[] = [
  `0x${'a1'.repeat(20)}`,
  `0x${'a2'.repeat(20)}`,
  `0x${'a3'.repeat(20)}`,
];

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
    inHash: hex32(0xb1),
    outHash: hex32(0xb2),
  },
  archiveRoot: archiveRootOf(2),
  hash: hex32(0xc1),
  firstBlockNumber: 1,
  blockCount: 2,
  blobVersionedHashes: [hex32(0x01)],
  l1: { blockNumber: 123n, blockHash: hex32(0x7a), timestamp: 1_700_000_048n, txHash: hex32(0x7b) },
  attestations: CHECKPOINT_ONE_ATTESTERS.map((attester, seat) => ({
    attester,
    signature: `0x${(seat + 0xa1).toString(16).repeat(96)}` as Hex,
  })),
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
  ethPerFeeAsset: 10_000_000n,
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
  l1ContractAddresses: { rollupAddress: ROLLUP_ADDRESS, inboxAddress: INBOX_ADDRESS, outboxAddress: OUTBOX_ADDRESS },
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
      return (
        blocks.find((block) => block.hash === query.value) ?? blocks.find((block) => block.archive.root === query.value)
      );
    case 'tag':
      return blocks[tipBlockNumber(query.tag)];
  }
}

/** What the fake node has synced from L1: up to slot 13 and the L1 block of that time; no epoch complete yet. */
export const SYNCED_L2_SLOT = 13;
export const SYNCED_L1_TIMESTAMP = 1_700_000_060n;

function withContext(block: Block): BlockWithContext {
  return block.checkpointNumber === 1 ? { block, checkpoint: checkpointOne } : { block };
}

const checkpoints: readonly Checkpoint[] = [checkpointOne];

function findCheckpoint(query: CheckpointQuery): Checkpoint | undefined {
  switch (query.kind) {
    case 'number':
      return checkpoints.find((checkpoint) => checkpoint.number === query.number);
    case 'hash':
      return checkpoints.find((checkpoint) => checkpoint.hash === query.hash);
    case 'tag':
      return checkpoints.find((checkpoint) => checkpoint.number === tips[query.tag].checkpoint.number);
  }
}

/** The configuration the fake admin starts with. */
export const initialAdminConfig = { archiverPollIntervalMs: 1_000, sequencer: { pollIntervalMs: 500 } } as const;

export interface FakeAdminState {
  syncPaused: boolean;
  sequencerPaused: boolean;
  config: Record<string, unknown>;
}

function createFakeAdmin(state: FakeAdminState): NodeAdmin {
  return {
    pauseSync: async () => {
      state.syncPaused = true;
    },
    resumeSync: async () => {
      state.syncPaused = false;
    },
    pauseSequencer: async () => {
      state.sequencerPaused = true;
    },
    resumeSequencer: async () => {
      state.sequencerPaused = false;
    },
    rollbackTo: async (target, force) => {
      if (target > tips.proposed.number)
        throw new NodeError('OPERATION_REFUSED', `block ${target} is above the proposed tip`, { target });
      if (target < tips.finalized.block.number && !force)
        throw new NodeError('OPERATION_REFUSED', `block ${target} is below the finalized block: pass force`, {
          target,
        });
    },
    startSnapshotUpload: async (location) => {
      const problem = createFileStoreSnapshots().locationProblem(location);
      // The problem names the store without credentials; the location itself may hold them, so it is not echoed.
      if (problem !== undefined) throw new NodeError('INVALID_PARAMS', `location: ${problem}`, {});
    },
    operationalState: () => (state.syncPaused ? 'SyncPaused' : 'Syncing'),
    getConfig: () => state.config,
    setConfig: async (patch) => {
      const unknown = Object.keys(patch).filter((key) => !Object.hasOwn(state.config, key));
      if (unknown.length > 0) {
        throw new NodeError('INVALID_PARAMS', `unknown configuration keys: ${unknown.join(', ')}`, { keys: unknown });
      }
      state.config = { ...state.config, ...patch };
    },
  };
}

/** World-state answers of the fake: one known leaf per tree (`knownLeaf`), for blocks the fake has; others absent. */
export const knownLeaf = hex32(0x1eaf);
export const fakeSiblingPath = [hex32(0x51b1), hex32(0x51b2)];
const fakeWitness = { leafIndex: 5n, siblingPath: fakeSiblingPath };
const fakeNullifierWitness = {
  index: 5n,
  leafPreimage: { nullifier: knownLeaf, nextNullifier: hex32(0), nextIndex: 0n },
  siblingPath: fakeSiblingPath,
};

async function atKnownBlock<T>(query: BlockQuery, answer: () => T): Promise<T> {
  if (findBlock(query) === undefined) {
    throw new NodeError('STATE_NOT_AVAILABLE', 'the reference block is not known to this node', { reason: 'unknown' });
  }
  return answer();
}

const fakeWorldState: WorldStateService = {
  getPublicStorageAt: (query, _contract, slot) =>
    atKnownBlock(query, () => (slot === knownLeaf ? hex32(0x7a1) : hex32(0))),
  getWorldStateSyncStatus: async () => ({
    latestBlockNumber: tips.proposed.number,
    latestBlockHash: tips.proposed.hash,
    finalizedBlockNumber: tips.finalized.block.number,
    oldestHistoricBlockNumber: 0,
    treesAreSynced: true,
  }),
  findLeavesIndexes: (query, _treeId, values) =>
    atKnownBlock(query, () =>
      values.map((value) =>
        value === knownLeaf ? { data: 5n, l2BlockNumber: 1, l2BlockHash: blockHashOf(1) } : undefined,
      ),
    ),
  getNullifierMembershipWitness: (query, nullifier) =>
    atKnownBlock(query, () => (nullifier === knownLeaf ? fakeNullifierWitness : undefined)),
  getLowNullifierMembershipWitness: (query, nullifier) =>
    atKnownBlock(query, () => (nullifier === knownLeaf ? undefined : fakeNullifierWitness)),
  getPublicDataWitness: (query, leafSlot) =>
    atKnownBlock(query, () => ({
      index: 0n,
      leafPreimage: { slot: leafSlot, value: hex32(1), nextSlot: hex32(0), nextIndex: 0n },
      siblingPath: fakeSiblingPath,
    })),
  getBlockHashMembershipWitness: (query, hash) =>
    atKnownBlock(query, () => (hash === blockHashOf(1) ? { leafIndex: 1n, siblingPath: fakeSiblingPath } : undefined)),
  getNoteHashMembershipWitness: (query, noteHash) =>
    atKnownBlock(query, () => (noteHash === knownLeaf ? fakeWitness : undefined)),
  getL1ToL2MessageMembershipWitness: (query, message) =>
    atKnownBlock(query, () => (message === knownLeaf ? ([5n, fakeWitness] as const) : undefined)),
};

const fakeMessages: MessageService = {
  getL1ToL2MessageCheckpoint: async (message) => (message === knownLeaf ? 1 : undefined),
  getL2ToL1MembershipWitness: async (_txHash, message) =>
    message === knownLeaf
      ? { epochNumber: 0, root: hex32(0x0e1), leafIndex: 3n, siblingPath: fakeSiblingPath }
      : undefined,
  getL2ToL1Messages: async (epoch) => (epoch === 0 ? [[[[knownLeaf]]]] : []),
};

const fakeChain: ChainService = {
  getBlockNumber: async (tip) => tipBlockNumber(tip ?? 'proposed'),
  getCheckpointNumber: async (tip) => tips[tip ?? 'checkpointed'].checkpoint.number,
  getChainTips: async () => tips,
  getBlock: async (query): Promise<BlockWithContext | undefined> => {
    const block = findBlock(query);
    return block === undefined ? undefined : withContext(block);
  },
  getCheckpoint: async (checkpointNumber) => findCheckpoint({ kind: 'number', number: checkpointNumber }),
  getBlocks: async (from, limit) => blocks.slice(from, from + limit).map(withContext),
  findCheckpoint: async (query) => findCheckpoint(query),
  getCheckpoints: async (from, limit) =>
    checkpoints.filter((checkpoint) => checkpoint.number >= from && checkpoint.number < from + limit),
  getCheckpointsInEpoch: async (epoch) =>
    checkpoints.filter((checkpoint) => Math.floor(checkpoint.header.slotNumber / l1Constants.epochDuration) === epoch),
  getSyncedL2SlotNumber: () => SYNCED_L2_SLOT,
  getSyncedL2EpochNumber: () => undefined,
  getSyncedL1Timestamp: () => SYNCED_L1_TIMESTAMP,
};

const fakeFees: FeeService = {
  getCurrentMinFees: async () => ({ feePerDaGas: 100n, feePerL2Gas: 2n ** 70n }),
  getPredictedMinFees: async (usage) =>
    [0, 1, 2].map((i) => ({ feePerDaGas: 100n, feePerL2Gas: 1000n + BigInt(i * (usage === 'limit' ? 125 : 0)) })),
};

const fakeInfo: NodeInfoService = {
  getL1Constants: () => l1Constants,
  getNodeInfo: () => nodeInfo,
  getNodeVersion: () => nodeInfo.nodeVersion,
  getVersion: () => 1,
  getChainId: () => 31337,
  getL1ContractAddresses: () => nodeInfo.l1ContractAddresses,
  isReady: () => true,
};

/** A healthy node at genesis, alone (no P2P). */
const fakeHealth: NodeHealthService = {
  ready: () => true,
  check: () => ({
    healthy: true,
    reasons: [],
    tips: { proposed: 0, checkpointed: 0, proven: 0, finalized: 0 },
    l1: {
      syncedBlock: undefined,
      syncedBlockHash: undefined,
      syncedSlot: undefined,
      headBlock: undefined,
      headSlot: undefined,
      lagSlots: 0,
    },
    subsystems: { archiver: 'Following', sequencer: undefined, chainTips: 'Genesis' },
  }),
};

/** The parts a test may override method by method (the fake runs no validators unless given some). */
type FakePartName = Exclude<keyof NodeService, 'validators' | 'p2p'>;

export type FakeNodeOverrides = { readonly [Part in FakePartName]?: Partial<NodeService[Part]> } & {
  readonly validators?: ValidatorService;
  readonly p2p?: P2pService;
};

export interface FakeNode extends NodeService {
  /**
   * Every call the RPC layer made, with its arguments as the node received them: by method name (`getBlock`), admin
   * calls as `admin.<name>`.
   */
  readonly calls: { readonly method: string; readonly args: readonly unknown[] }[];
  readonly adminState: FakeAdminState;
}

type Recorder = FakeNode['calls'];

function recorded<T extends object>(target: T, prefix: string, calls: Recorder): T {
  return Object.fromEntries(
    Object.entries(target).map(([method, implementation]) => [
      method,
      (...args: unknown[]) => {
        calls.push({ method: `${prefix}${method}`, args });
        return (implementation as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as T;
}

export function createFakeNode(overrides: FakeNodeOverrides = {}): FakeNode {
  const calls: Recorder = [];
  const adminState: FakeAdminState = {
    syncPaused: false,
    sequencerPaused: false,
    config: structuredClone(initialAdminConfig) as Record<string, unknown>,
  };
  const part = <Name extends FakePartName>(name: Name, base: NodeService[Name]): NodeService[Name] =>
    recorded({ ...base, ...overrides[name] }, name === 'admin' ? 'admin.' : '', calls);
  return {
    chain: part('chain', fakeChain),
    worldState: part('worldState', fakeWorldState),
    logs: part('logs', fakeLogs),
    contracts: part('contracts', fakeContracts),
    txs: part('txs', fakeTxs),
    messages: part('messages', fakeMessages),
    fees: part('fees', fakeFees),
    info: part('info', fakeInfo),
    admin: part('admin', createFakeAdmin(adminState)),
    health: part('health', fakeHealth),
    ...(overrides.validators ? { validators: overrides.validators } : {}),
    ...(overrides.p2p ? { p2p: overrides.p2p } : {}),
    calls,
    adminState,
  };
}
