/**
 * Which account a proposer's checkpoint goes out from, for all keystores and slots: the sequencer plans the slot,
 * builds its block, publishes and asks for inclusion on a real chain in memory, with one recording publisher per key
 * the node holds. The checkpoint is sent by, and its inclusion asked of, exactly the publisher the slot's proposer
 * names in the keystore (its attester address when it names none); when the node holds no key for that account the
 * slot is skipped as `noPublisher` and nothing is sent. A keystore reload applies from the next slot planned.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTimetable } from '../../core/chain/timetable.js';
import type { L1PublisherPort, L1ReaderPort, ProposeCheckpointRequest } from '../../core/ports.js';
import type { PublicStateView } from '../../core/publicVm/stateView.js';
import {
  buildNextBlock,
  checkInclusion,
  planSlot,
  publishCheckpoint,
  type ProposerSettings,
  type SequencerDeps,
} from '../../core/sequencer/sequencerDuties.js';
import { loadKeystore, type KeystoreState } from '../../core/validators/keystore.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { EMPTY_CHECKPOINT_ATTESTATIONS } from '../../spec/validators/checkpointAttestations.js';
import { ManualClock } from '../helpers/manualClock.js';
import { MEMORY_CHAIN_CONSTANTS, memoryGenesis, openMemoryChain } from '../helpers/memoryChain.js';
import { capturingLogger, type LogLine } from '../helpers/testLogger.js';
import { hex32, testAddress, testSecretKey } from './validatorFixtures.js';

const SEQUENCER_ACCOUNT: Hex = `0x${'a1'.repeat(20)}`;
const FURTHER_ACCOUNT: Hex = `0x${'a2'.repeat(20)}`;
/** The accounts the node holds keys for: the sequencer's, a further one, and validator 0's attester address. */
const SIGNERS: readonly Hex[] = [SEQUENCER_ACCOUNT, FURTHER_ACCOUNT, testAddress(0)];
const TX_HASH: Hex = `0x${'77'.repeat(32)}`;

/** A validator number and the publisher its entry names (undefined: falls back to its attester address). */
type Entry = readonly [number, Hex | undefined];
const entryArbitrary = fc.tuple(
  fc.integer({ min: 0, max: 5 }),
  fc.option(fc.constantFrom(SEQUENCER_ACCOUNT, FURTHER_ACCOUNT), { nil: undefined }),
);
const keystoreArbitrary = fc.uniqueArray(entryArbitrary, { minLength: 1, maxLength: 5, selector: ([n]) => n });

function keystoreOf(entries: readonly Entry[]): KeystoreState {
  const file = {
    schemaVersion: 1,
    validators: entries.map(([n, publisher]) => ({
      attester: { address: testAddress(n), blsSecretKey: bytesToHex(testSecretKey(n).exportBytes()) },
      coinbase: testAddress(50 + n),
      feeRecipient: hex32(n),
      ...(publisher === undefined ? {} : { publisher }),
    })),
  };
  const loaded = loadKeystore(new TextEncoder().encode(JSON.stringify(file)), SIGNERS);
  if (loaded.kind !== 'accepted') throw new Error(`fixture keystore rejected: ${loaded.rejection.message}`);
  return loaded.state;
}

interface Sent {
  readonly by: Hex;
  readonly what: 'propose' | 'status';
}

function recordingPublisher(address: Hex, sent: Sent[]): L1PublisherPort {
  return {
    publisherAddress: address,
    blobVersionedHashes: async (blobs) => blobs.map((_, i) => hex32(1000 + i)),
    async proposeCheckpoint(_request: ProposeCheckpointRequest) {
      sent.push({ by: address, what: 'propose' });
      return { txHash: TX_HASH };
    },
    async getTxStatus() {
      sent.push({ by: address, what: 'status' });
      return { status: 'pending' };
    },
    submitEpochProof: () => Promise.reject(new Error('a sequencer submits no proofs')),
  };
}

/** L1 as a fresh rollup shows it: no checkpoint yet, the genesis archive. */
const freshL1 = {
  getBlock: async () => ({ number: 10n, hash: hex32(10), parentHash: hex32(9), timestamp: 0n }),
  getCheckpointCount: async () => 0,
  getArchiveAt: async () => memoryGenesis.block.archive.root,
} as unknown as L1ReaderPort;

const noPublicState = {} as PublicStateView;

/** A sequencer on a chain at genesis whose keystore (read on every plan) holds the proposer of every slot. */
async function sequencerAt(slot: number, keystore: () => KeystoreState) {
  const clock = new ManualClock(slot * MEMORY_CHAIN_CONSTANTS.slotDuration * 1000 + 100);
  const { chain, inbox } = await openMemoryChain(clock);
  const sent: Sent[] = [];
  const warnings: LogLine[] = [];
  const publishers = new Map(SIGNERS.map((address) => [address, recordingPublisher(address, sent)]));
  const proposerOf = (s: number) => keystore().validators[s % keystore().validators.length]!;
  const deps: SequencerDeps = {
    clock,
    l1: freshL1,
    publisher: publishers.get(SEQUENCER_ACCOUNT)!,
    publishers,
    chain,
    constants: MEMORY_CHAIN_CONSTANTS,
    timetable: createTimetable(MEMORY_CHAIN_CONSTANTS),
    config: {
      blockDurationMs: 6_000,
      l1PublishingTimeAllowanceInSlotSeconds: 12,
      pollIntervalMs: 500,
      coinbase: SEQUENCER_ACCOUNT,
      feeRecipient: hex32(0),
    },
    logger: capturingLogger((line) => {
      if (line.level === 'warn') warnings.push(line);
    }),
    pendingTxs: () => [],
    publicState: () => noPublicState,
    inbox,
    validator: {
      proposerRefusal: async () => undefined,
      proposerSettings: (s): ProposerSettings => {
        const v = proposerOf(s);
        return { coinbase: v.coinbase, feeRecipient: v.feeRecipient, publisher: v.publisher };
      },
      collectAttestations: async () => EMPTY_CHECKPOINT_ATTESTATIONS,
    },
  };
  return { deps, sent, proposerOf, warnings };
}

/** Plans the slot and, when planned, builds its block, publishes it and asks once for inclusion. */
async function runSlot(deps: SequencerDeps) {
  const outcome = await planSlot(deps);
  if (outcome.kind !== 'planned') return outcome;
  await buildNextBlock(deps, outcome.plan);
  const { txHash } = await publishCheckpoint(deps, outcome.plan);
  await checkInclusion(deps, outcome.plan, txHash);
  return outcome;
}

describe("a proposer's checkpoint goes out from its keystore publisher", () => {
  it('for any keystore and slot: sent and watched by the proposer publisher, or skipped when it has no key', async () => {
    await fc.assert(
      fc.asyncProperty(keystoreArbitrary, fc.integer({ min: 1, max: 40 }), async (entries, slot) => {
        const keystore = keystoreOf(entries);
        const { deps, sent, proposerOf, warnings } = await sequencerAt(slot, () => keystore);
        const publisher = proposerOf(slot).publisher.toLowerCase() as Hex;
        const outcome = await runSlot(deps);
        if (SIGNERS.includes(publisher)) {
          expect(outcome).toMatchObject({ kind: 'planned', plan: { slot, publisher } });
          expect(sent).toEqual([
            { by: publisher, what: 'propose' },
            { by: publisher, what: 'status' },
          ]);
        } else {
          expect(outcome).toEqual({ kind: 'skipped', slot, reason: 'noPublisher' });
          expect(sent).toEqual([]);
          // The operator learns which account lacks a key.
          expect(warnings.map((w) => w.fields?.['publisher'])).toEqual([publisher]);
        }
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it('applies a reload that moves the proposer to another publisher from the next slot planned', async () => {
    let keystore = keystoreOf([[1, SEQUENCER_ACCOUNT]]);
    const { deps, sent } = await sequencerAt(3, () => keystore);
    const outcome = await planSlot(deps);
    expect(outcome).toMatchObject({ kind: 'planned', plan: { publisher: SEQUENCER_ACCOUNT } });
    if (outcome.kind !== 'planned') return;
    await buildNextBlock(deps, outcome.plan);
    // The reload lands while the slot is being built: this slot's checkpoint stays with the publisher it planned.
    keystore = keystoreOf([[1, FURTHER_ACCOUNT]]);
    const { txHash } = await publishCheckpoint(deps, outcome.plan);
    await checkInclusion(deps, outcome.plan, txHash);
    expect(sent.map((s) => s.by)).toEqual([SEQUENCER_ACCOUNT, SEQUENCER_ACCOUNT]);
    // The next slot, planned after the reload, goes out from the new publisher.
    const next = await sequencerAt(4, () => keystore);
    await runSlot(next.deps);
    expect(next.sent.map((s) => s.by)).toEqual([FURTHER_ACCOUNT, FURTHER_ACCOUNT]);
    // A reload to a fallback address the node holds no key for: the proposer's slots are skipped, nothing is sent.
    keystore = keystoreOf([[1, undefined]]);
    const unsigned = await sequencerAt(5, () => keystore);
    expect(await runSlot(unsigned.deps)).toEqual({ kind: 'skipped', slot: 5, reason: 'noPublisher' });
    expect(unsigned.sent).toEqual([]);
  });
});
