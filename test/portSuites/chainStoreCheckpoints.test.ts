/**
 * The chain store keeps a checkpoint's attestations through every storage adapter: what the archiver stores comes
 * back the same after the store is reopened (a restart), in the in-memory store, the simulator's store and LevelDB.
 * A checkpoint written before attestations were kept reads back with an empty list.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { ChainStore, type ChainIdentity } from '../../core/chain/chainStore.js';
import { toStoredJson } from '../../core/chain/serde.js';
import { genesisTips } from '../../core/chain/tips.js';
import type { StoragePort } from '../../core/ports.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import { createSimStorage } from '../../sim/simStorage.js';
import type { Checkpoint, CommitteeSignature, Hex, L2Tips } from '../../spec/chain.js';
import { bytesToHex, zeroHex } from '../../spec/codec/bytes.js';
import { COMMITTEE_SIZE } from '../../spec/validators/constants.js';
import {
  reopenableClassicLevelStore,
  reopenableInMemoryStore,
  type ReopenableStore,
} from '../helpers/reopenableStorage.js';

const CHAIN_ID = 31337;
const ROLLUP_VERSION = 1;
const genesis = createGenesis(CHAIN_ID, ROLLUP_VERSION);
const genesisRef = { number: 0, hash: genesis.block.hash };
const identity: ChainIdentity = {
  l1ChainId: CHAIN_ID,
  rollupAddress: `0x${'ab'.repeat(20)}`,
  rollupVersion: ROLLUP_VERSION,
  genesisArchiveRoot: genesis.block.archive.root,
};
/** Property runs per adapter; each reopens the store (LevelDB: closes and opens the directory). */
const ROUND_TRIP_RUNS = 20;

const hexOfBytes = (size: number) => fc.uint8Array({ minLength: size, maxLength: size }).map(bytesToHex);
const committeeSignature: fc.Arbitrary<CommitteeSignature> = fc.record({
  attester: hexOfBytes(20),
  signature: hexOfBytes(96),
});
/** Any list the archiver may keep: empty (no committee) up to one entry per seat of a full committee. */
const attestationLists = fc.array(committeeSignature, { maxLength: COMMITTEE_SIZE });

/** Checkpoint `n`, holding block n alone (the store does not relate the two; the chain does). */
function checkpointOf(n: number, attestations: readonly CommitteeSignature[]): Checkpoint {
  const hash = `0x${n.toString(16).padStart(64, '0')}` as Hex;
  return {
    number: n,
    header: {
      lastArchiveRoot: zeroHex(32),
      slotNumber: 10 + n,
      timestamp: 1_700_000_000n + BigInt(n),
      coinbase: zeroHex(20),
      feeRecipient: zeroHex(32),
      gasFees: { feePerDaGas: 0n, feePerL2Gas: 1n },
      blockCount: 1,
      blobsHash: zeroHex(32),
      totalManaUsed: 0n,
      inHash: zeroHex(32),
      outHash: zeroHex(32),
    },
    archiveRoot: hash,
    hash,
    firstBlockNumber: n,
    blockCount: 1,
    blobVersionedHashes: [],
    l1: { blockNumber: 100n + BigInt(n), blockHash: hash, timestamp: 1_700_000_012n, txHash: hash },
    attestations,
  };
}

/** Tips with checkpoint `n` (and its block) checkpointed; the store reads checkpoints up to the checkpointed tip. */
function tipsAt(n: number): L2Tips {
  const settled = { block: genesisRef, checkpoint: genesisRef };
  const checkpointed = {
    block: { number: n, hash: checkpointOf(n, []).hash },
    checkpoint: { number: n, hash: checkpointOf(n, []).hash },
  };
  return { proposed: checkpointed.block, checkpointed, proven: settled, finalized: settled };
}

const openStore = (storage: StoragePort) =>
  ChainStore.open(storage, identity, genesis, genesisTips(genesisRef, genesisRef));

function describeCheckpointAttestations(name: string, makeHarness: () => Promise<ReopenableStore>): void {
  describe(`chain store checkpoint attestations: ${name}`, () => {
    let harness: ReopenableStore;
    beforeEach(async () => {
      harness = await makeHarness();
    });
    afterEach(async () => {
      await harness.cleanup();
    });

    it('a stored checkpoint reads back with its attestations, in order, after the store is reopened', async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(attestationLists, async (attestations) => {
          n += 1;
          const checkpoint = checkpointOf(n, attestations);
          await (await openStore(harness.store)).commit({ putCheckpoints: [checkpoint], tips: tipsAt(n) });
          const reopened = await openStore(await harness.reopen());
          expect(reopened.tips.checkpointed.checkpoint.number).toBe(n);
          expect(await reopened.getCheckpoint(n)).toEqual(checkpoint);
        }),
        { numRuns: ROUND_TRIP_RUNS },
      );
    });

    it('a checkpoint stored before attestations were kept reads back with an empty list', async () => {
      const store = await openStore(harness.store);
      const { attestations: _dropped, ...legacy } = checkpointOf(1, [
        { attester: `0x${'a1'.repeat(20)}`, signature: `0x${'5e'.repeat(96)}` },
      ]);
      await harness.store.batch([
        { type: 'put', key: `checkpoint:${'1'.padStart(12, '0')}`, value: toStoredJson(legacy) },
      ]);
      await store.commit({ tips: tipsAt(1) });
      const reopened = await openStore(await harness.reopen());
      expect(await reopened.getCheckpoint(1)).toEqual({ ...legacy, attestations: [] });
    });
  });
}

describeCheckpointAttestations('memory-level', () => reopenableInMemoryStore(createMemoryStorage()));

describeCheckpointAttestations('sim storage', () => reopenableInMemoryStore(createSimStorage()));

describeCheckpointAttestations('classic-level', () => reopenableClassicLevelStore('chain-store-attestations-'));
