/**
 * High-availability signing with two redundant nodes that hold the same validator keys and each build a different
 * checkpoint for the same slot (the classic double-signing setup). An observer node records the offenses it sees on
 * gossip. Without a shared guard both nodes sign and the observer records the duplicates; with one shared guard only
 * the first claimant signs and nothing is recorded; with the guard's database unreachable neither signs.
 */
import { describe, expect, it } from 'vitest';
import { createInProcessBus } from '../../adapters/network/inProcessBus.js';
import { createMemorySigningDatabase } from '../../adapters/signing/memorySigningDatabase.js';
import type { Chain } from '../../core/chain/chain.js';
import type { L1ReaderPort, LoggerPort, NetworkPort, SigningGuardPort } from '../../core/ports.js';
import { devKeystoreFile, devValidators } from '../../core/validators/devValidators.js';
import { loadKeystore, type KeystoreState } from '../../core/validators/keystore.js';
import { ValidatorClient, type CheckpointToAttest } from '../../core/validators/validatorClient.js';
import { ValidatorDuties } from '../../core/validators/validatorDuties.js';
import { appendLeaves, treeRoot, treeSnapshot } from '../../core/merkle/appendOnlyTree.js';
import type { BlockHeader, CheckpointHeader, L1RollupConstants } from '../../spec/chain.js';
import { blockHash } from '../../spec/codec/blockHeader.js';
import { txsEffectsHash } from '../../spec/codec/txEffect.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { checkpointProposalPayloadOf } from '../../spec/validators/signingPayloads.js';
import { ManualClock, settle } from '../helpers/manualClock.js';
import { capturingLogger } from '../helpers/testLogger.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import { hex32 } from './validatorFixtures.js';

const GENESIS_TIME_SECONDS = 1_700_000_000;
const SLOT = 5;
const constants: L1RollupConstants = {
  l1ChainId: 31337,
  rollupVersion: 1,
  l1StartBlock: 1n,
  l1GenesisTime: BigInt(GENESIS_TIME_SECONDS),
  slotDuration: 36,
  epochDuration: 32,
  ethereumSlotDuration: 12,
  proofSubmissionEpochs: 1,
  genesisArchiveRoot: treeRoot(createGenesis(31337, 1).archiveTree),
  ethPerFeeAsset: 1n,
};
const validators = devValidators('ha-signing-test', 4);

/** A logger that keeps the messages of its warnings and errors. */
function recordingLogger(lines: string[]): LoggerPort {
  return capturingLogger(({ level, message }) => {
    if (level === 'warn' || level === 'error') lines.push(message);
  });
}

/** An L1 holding the four validators, active from the start. */
const l1 = {
  getBlock: async () => ({
    number: 10n,
    hash: hex32(10),
    parentHash: hex32(9),
    timestamp: BigInt(GENESIS_TIME_SECONDS),
  }),
  getValidators: async () => validators.map((v) => ({ ...v.registration, activeFromEpoch: 0 })),
} as unknown as L1ReaderPort;

/** A chain at genesis: nothing checkpointed, the genesis archive at block 0. */
const chain = {
  tips: { checkpointed: { checkpoint: { number: 0 }, block: { number: 0 } } },
  store: {
    getCheckpoint: async () => undefined,
    getBlock: async () => ({ archive: { root: constants.genesisArchiveRoot } }),
    getArchiveTree: async (n: number) =>
      n === 0 ? createGenesis(constants.l1ChainId, constants.rollupVersion).archiveTree : undefined,
  },
} as unknown as Chain;

function keystoreOf(count: number): KeystoreState {
  if (count === 0) return { validators: [] };
  const loaded = loadKeystore(devKeystoreFile(validators.slice(0, count), { feeRecipient: hex32(0) }), []);
  if (loaded.kind !== 'accepted') throw new Error(loaded.rejection.message);
  return loaded.state;
}

function clientOf(
  clock: ManualClock,
  network: NetworkPort,
  keystore: KeystoreState,
  logs: string[],
  signingGuard?: SigningGuardPort,
): ValidatorClient {
  const logger = recordingLogger(logs);
  const client = new ValidatorClient({
    chain,
    constants,
    clock,
    logger,
    duties: new ValidatorDuties({ l1, chain, constants, logger }),
    network,
    keystore: () => keystore,
    limits: () => ({}),
    slotAt: (nowMs) => Math.floor((nowMs / 1000 - GENESIS_TIME_SECONDS) / constants.slotDuration),
    ...(signingGuard !== undefined ? { signingGuard } : {}),
  });
  client.start();
  return client;
}

/**
 * Checkpoint 1 of SLOT, one empty block on the genesis archive, as a sequencer builds it (every binding a committee
 * member checks holds); each redundant node builds its own, told apart by the block's timestamp (`variant` s later).
 */
function checkpointOf(variant: number): CheckpointToAttest {
  const genesis = createGenesis(constants.l1ChainId, constants.rollupVersion);
  const timestamp = BigInt(GENESIS_TIME_SECONDS + SLOT * constants.slotDuration + variant);
  const blockHeader: BlockHeader = {
    ...genesis.block.header,
    lastArchive: treeSnapshot(genesis.archiveTree),
    globalVariables: { ...genesis.block.header.globalVariables, blockNumber: 1, slotNumber: SLOT, timestamp },
    contentCommitment: { txsEffectsHash: txsEffectsHash([]), inHash: hex32(0), outHash: hex32(0) },
    totalManaUsed: 0n,
  };
  const archiveRoot = treeRoot(appendLeaves(genesis.archiveTree, [blockHash(blockHeader)]));
  const header: CheckpointHeader = {
    lastArchiveRoot: treeRoot(genesis.archiveTree),
    slotNumber: SLOT,
    timestamp,
    coinbase: validators[0]!.address,
    feeRecipient: hex32(0),
    gasFees: { feePerDaGas: 1n, feePerL2Gas: 1n },
    blockCount: 1,
    blobsHash: hex32(0xb1),
    totalManaUsed: 0n,
    inHash: hex32(0),
    outHash: hex32(0),
  };
  const payload = checkpointProposalPayloadOf(constants, { number: 1, header, archiveRoot });
  const block = {
    l1ChainId: constants.l1ChainId,
    rollupVersion: constants.rollupVersion,
    slot: SLOT,
    blockNumber: 1,
    indexWithinCheckpoint: 0,
    archiveRoot,
    txHashes: [],
  };
  return {
    payload,
    header: bytesToHex(encodeCheckpointHeader(header)),
    blocks: [{ payload: block, content: { header: blockHeader, txEffects: [] } }],
  };
}

/** Both redundant nodes propose their own checkpoint for SLOT at once; the observer's offenses afterwards. */
async function runRedundantProposers(guards: { a?: SigningGuardPort; b?: SigningGuardPort }) {
  const clock = new ManualClock((GENESIS_TIME_SECONDS + SLOT * constants.slotDuration + 1) * 1000);
  const bus = createInProcessBus();
  const logs: string[] = [];
  const nodeA = clientOf(clock, bus.connect(), keystoreOf(4), logs, guards.a);
  const nodeB = clientOf(clock, bus.connect(), keystoreOf(4), logs, guards.b);
  const observer = clientOf(clock, bus.connect(), keystoreOf(0), []);
  const deadlineMs = clock.now() + 10_000;
  const outcomes = await Promise.allSettled([
    nodeA.collectAttestations(checkpointOf(0), deadlineMs),
    nodeB.collectAttestations(checkpointOf(1), deadlineMs),
  ]);
  await settle(20);
  const observed = observer.pool.proposalsForSlot(SLOT);
  for (const client of [nodeA, nodeB, observer]) client.stop();
  return { outcomes, offenses: observer.slashOffenses('all'), observed, logs };
}

describe('high-availability signing with two redundant nodes holding the same keys', () => {
  it('without a shared guard both nodes sign their own checkpoint, and the duplicates are recorded as offenses', async () => {
    const { outcomes, offenses } = await runRedundantProposers({});
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(offenses.map((o) => o.offenseType)).toContain('duplicateProposal');
    expect(offenses.map((o) => o.offenseType)).toContain('duplicateAttestation');
  });

  it('with one shared guard only the first claimant proposes and attests: no offense is recorded', async () => {
    const database = createMemorySigningDatabase();
    const { outcomes, offenses, observed, logs } = await runRedundantProposers({
      a: database.guardFor('node-a'),
      b: database.guardFor('node-b'),
    });
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o) => o.status === 'rejected');
    expect(refused?.reason).toMatchObject({
      code: 'OPERATION_REFUSED',
      message: expect.stringContaining('HA signing guard'),
    });
    expect(offenses).toEqual([]);
    // The observer heard one checkpoint proposal and one block proposal: the winner's.
    expect(observed.checkpointProposals).toHaveLength(1);
    expect(observed.blockProposals).toHaveLength(1);
    expect(
      logs.some((line) => line.startsWith('not signing: another payload or another node already holds this duty')),
    ).toBe(true);
    // Every claim in the database is one node's: the block, the checkpoint and the four attestations.
    expect(new Set(database.claims().map((c) => c.nodeId)).size).toBe(1);
    expect(
      database
        .claims()
        .map((c) => c.duty.kind)
        .sort(),
    ).toEqual([
      'blockProposal',
      'checkpointAttestation',
      'checkpointAttestation',
      'checkpointAttestation',
      'checkpointAttestation',
      'checkpointProposal',
    ]);
  });

  it('with the guard database unreachable neither node signs anything (fail closed), and says why', async () => {
    const database = createMemorySigningDatabase();
    database.setReachable(false);
    const { outcomes, offenses, observed, logs } = await runRedundantProposers({
      a: database.guardFor('node-a'),
      b: database.guardFor('node-b'),
    });
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(offenses).toEqual([]);
    expect(observed.checkpointProposals).toEqual([]);
    expect(observed.blockProposals).toEqual([]);
    expect(
      logs.filter((line) => line.startsWith('not signing: the HA signing database cannot be reached')),
    ).toHaveLength(2);
  });
});
