/**
 * The validator client's statistics over its chain: a slot is recorded once the node's L1 sync has passed it (or it
 * waited VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX slots), and counts the attestations the slot's checkpoint carries on L1
 * beside those the pool heard.
 */
import { describe, expect, it } from 'vitest';
import type { Checkpoint, Hex, L1RollupConstants } from '../../spec/chain.js';
import { VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX } from '../../spec/validators/constants.js';
import { ManualClock } from '../../test/helpers/manualClock.js';
import { silentLogger } from '../../test/helpers/testLogger.js';
import {
  TEST_CHAIN,
  TEST_EPOCH_DURATION_SLOTS,
  secretKeyOf,
  testDuties,
  testPayload,
  testValidatorSet,
} from '../../test/validators/validatorFixtures.js';
import type { Chain } from '../chain/chain.js';
import type { L1SyncPosition } from '../chain/chainStore.js';
import { signCheckpointAttestation } from './bls.js';
import { ValidatorClient } from './validatorClient.js';
import type { ValidatorDuties } from './validatorDuties.js';

const SLOT_SECONDS = 36;
const L1_SLOT_SECONDS = 12;
const constants = {
  ...TEST_CHAIN,
  l1GenesisTime: 0n,
  slotDuration: SLOT_SECONDS,
  ethereumSlotDuration: L1_SLOT_SECONDS,
  epochDuration: TEST_EPOCH_DURATION_SLOTS,
} as unknown as L1RollupConstants;
const dutiesOf = testDuties(testValidatorSet(4));
const lower = (hex: Hex): Hex => hex.toLowerCase() as Hex;

/** A node's chain as the client reads it: checkpoints by number, and how far its L1 sync has come. */
class FakeChain {
  checkpoints: Checkpoint[] = [];
  l1Sync: L1SyncPosition | undefined;

  /** The L1 sync has seen every L1 block of `slot` (core/chain/chainService.ts `syncedSlotAt`). */
  syncedThrough(slot: number): void {
    const timestamp = BigInt((slot + 1) * SLOT_SECONDS - L1_SLOT_SECONDS);
    this.l1Sync = { blockNumber: BigInt(slot), blockHash: `0x${'00'.repeat(32)}`, timestamp };
  }

  land(slot: number, attesters: readonly Hex[]): void {
    const checkpoint = {
      number: this.checkpoints.length + 1,
      header: { slotNumber: slot },
      attestations: attesters.map((attester) => ({ attester: lower(attester), signature: '0x' })),
    } as unknown as Checkpoint;
    this.checkpoints.push(checkpoint);
  }

  asChain(): Chain {
    const fake = this as FakeChain;
    return {
      get tips() {
        return { checkpointed: { checkpoint: { number: fake.checkpoints.length } } };
      },
      get l1Sync() {
        return fake.l1Sync;
      },
      store: { getCheckpoint: async (n: number) => fake.checkpoints[n - 1] },
    } as unknown as Chain;
  }
}

function followerClient(chain: FakeChain, startSlot: number): { client: ValidatorClient; clock: ManualClock } {
  const clock = new ManualClock(startSlot * SLOT_SECONDS * 1000);
  const duties = { cachedDuties: dutiesOf } as unknown as ValidatorDuties;
  const client = new ValidatorClient({
    chain: chain.asChain(),
    constants,
    clock,
    logger: silentLogger,
    duties,
    network: undefined,
    keystore: () => ({ validators: [] }),
    limits: () => ({}),
    slotAt: (nowMs) => Math.floor(nowMs / 1000 / SLOT_SECONDS),
  });
  return { client, clock };
}

const toSlot = (clock: ManualClock, slot: number): Promise<void> =>
  clock.advance(slot * SLOT_SECONDS * 1000 - clock.now());

describe('validator statistics over the L1 checkpoints', () => {
  const slot = 10;
  const duties = dutiesOf(slot);
  const proposer = duties.proposer!.address;
  const members = duties.committee.members.map((m) => m.address);
  const [heard, onL1Only, both, unheard] = members as [Hex, Hex, Hex, Hex];

  it('records a slot once the L1 sync passed it, counting the attestations its checkpoint carries', async () => {
    const chain = new FakeChain();
    const { client, clock } = followerClient(chain, slot);
    for (const attester of [heard, both]) {
      const { signature } = signCheckpointAttestation(secretKeyOf(attester), testPayload(slot));
      expect(client.pool.addCheckpointAttestation({ payload: testPayload(slot), attester, signature }).kind).toBe(
        'added',
      );
    }
    // The slot is over, but the node has not synced L1 past it: its checkpoint may still come, so it waits.
    await toSlot(clock, slot + 1);
    chain.syncedThrough(slot - 1);
    await client.refreshStats();
    expect(client.stats.lastProcessedSlot).toBeUndefined();
    // The checkpoint lands (late, as the archiver syncs it) with the signatures of two members, one never heard.
    chain.land(slot, [onL1Only, both]);
    chain.syncedThrough(slot);
    await client.refreshStats();
    expect(client.stats.lastProcessedSlot).toBe(slot);
    const byAddress = new Map(client.stats.validatorsStats().validators.map((v) => [v.address, v]));
    for (const member of [heard, onL1Only, both])
      expect(byAddress.get(lower(member))).toMatchObject({ attestationsSent: 1, attestationsMissed: 0 });
    expect(byAddress.get(lower(unheard))).toMatchObject({ attestationsSent: 0, attestationsMissed: 1 });
    // The pool never heard the proposal, but its checkpoint landed.
    expect(byAddress.get(lower(proposer))).toMatchObject({ proposalsMade: 1, proposalsMissed: 0 });
  });

  it('records a slot whose L1 sync lags once it waited VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX slots, from what is known', async () => {
    const chain = new FakeChain();
    chain.syncedThrough(slot - 1);
    const { client, clock } = followerClient(chain, slot);
    await toSlot(clock, slot + VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX);
    await client.refreshStats();
    expect(client.stats.lastProcessedSlot).toBeUndefined();
    await toSlot(clock, slot + VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX + 1);
    await client.refreshStats();
    expect(client.stats.lastProcessedSlot).toBe(slot);
    // Nothing heard, nothing synced: the slot counts as missed, and stays so when its checkpoint syncs afterwards.
    expect(client.stats.validatorStats(proposer)?.validator).toMatchObject({ proposalsMissed: 1 });
    chain.land(slot, members);
    chain.syncedThrough(slot + VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX);
    await client.refreshStats();
    expect(client.stats.validatorStats(proposer)?.history.filter((h) => h.slot === slot)).toEqual([
      { slot, duty: 'missedProposal' },
      { slot, duty: 'missedAttestation' },
    ]);
    expect(client.stats.lastProcessedSlot).toBe(slot + VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX);
  });
});
