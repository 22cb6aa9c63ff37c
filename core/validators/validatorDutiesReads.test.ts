/**
 * ValidatorDuties as the client uses it: the validator set read at L1's head at most once per slot, duties of a
 * prepared epoch answered without reading again, committees drawn from the validators active by the epoch and drawn
 * again when the set or seed changes, and the committee cache bounded to the latest epochs.
 */
import { describe, expect, it } from 'vitest';
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { COMMITTEE_CACHE_EPOCHS_MAX } from '../../spec/validators/constants.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import { hex32, testAddress, testSecretKey } from '../../test/validators/validatorFixtures.js';
import type { Chain } from '../chain/chain.js';
import type { L1ReaderPort, L1Validator } from '../ports.js';
import { signProofOfPossession } from './bls.js';
import { ValidatorDuties } from './validatorDuties.js';

const EPOCH = 32;

function registered(n: number, activeFromEpoch = 0): L1Validator {
  const key = testSecretKey(n);
  return {
    address: testAddress(n),
    blsPublicKey: key.publicKey,
    proofOfPossession: signProofOfPossession(key, testAddress(n)),
    activeFromEpoch,
  };
}

/** An L1 whose head and validator set the test moves; `down` makes every read fail. */
class FakeL1 {
  head = 10n;
  set: L1Validator[] = [registered(0), registered(1)];
  down = false;
  reads = 0;

  port(): L1ReaderPort {
    return {
      getBlock: async () => {
        if (this.down) throw new Error('L1 unreachable');
        return { number: this.head, hash: hex32(this.head), parentHash: hex32(0), timestamp: 0n };
      },
      getValidators: async () => {
        if (this.down) throw new Error('L1 unreachable');
        this.reads++;
        return this.set.map((v) => ({ ...v }));
      },
    } as unknown as L1ReaderPort;
  }
}

/** A chain whose checkpoints the test sets (slot and archive root of each, by number from 1). */
function chainOf(
  checkpoints: { slot: number; archiveRoot: Hex }[],
  tip = checkpoints.length,
  down = () => false,
): Chain {
  return {
    tips: { checkpointed: { checkpoint: { number: tip } } },
    store: {
      getCheckpoint: async (n: number) => {
        if (down()) throw new Error('store closed');
        const c = checkpoints[n - 1];
        return c === undefined ? undefined : { header: { slotNumber: c.slot }, archiveRoot: c.archiveRoot };
      },
    },
  } as unknown as Chain;
}

function dutiesOn(l1: FakeL1, chain: Chain = chainOf([])) {
  const logs: LogLine[] = [];
  const duties = new ValidatorDuties({
    l1: l1.port(),
    chain,
    constants: { epochDuration: EPOCH, genesisArchiveRoot: hex32(7) } as L1RollupConstants,
    logger: capturingLogger((line) => logs.push(line)),
  });
  return { duties, logs };
}

const membersOf = async (duties: ValidatorDuties, epoch: number) =>
  (await duties.committeeOf(epoch)).members.map((m) => m.address);

describe("ValidatorDuties reading the set at L1's head", () => {
  it('reads at most once per slot, again for a new slot, and every time without a slot', async () => {
    const l1 = new FakeL1();
    const { duties } = dutiesOn(l1);
    await duties.refreshAtHead(5);
    l1.head = 11n;
    await duties.refreshAtHead(5);
    expect(l1.reads).toBe(1);
    await duties.refreshAtHead(6);
    expect(l1.reads).toBe(2);
    l1.head = 12n;
    await duties.refreshAtHead();
    l1.head = 13n;
    await duties.refreshAtHead();
    expect(l1.reads).toBe(4);
  });

  it('has validators only once a non-empty set was read', async () => {
    const l1 = new FakeL1();
    const { duties } = dutiesOn(l1);
    expect(duties.hasValidators).toBe(false);
    l1.set = [];
    await duties.refreshAtHead();
    expect(duties.hasValidators).toBe(false);
    l1.set = [registered(0)];
    l1.head = 11n;
    await duties.refreshAtHead();
    expect(duties.hasValidators).toBe(true);
  });

  it('warns which validators it leaves out for a bad proof of possession', async () => {
    const l1 = new FakeL1();
    l1.set = [registered(0), { ...registered(1), proofOfPossession: registered(0).proofOfPossession }];
    const { duties, logs } = dutiesOn(l1);
    await duties.refreshAtHead();
    expect(logs).toMatchObject([
      {
        level: 'warn',
        message: 'validators left out of committees: their proof of possession does not verify',
        fields: { validators: [testAddress(1)], l1Block: 10n },
      },
    ]);
  });
});

describe('ValidatorDuties preparing the duties of a slot', () => {
  it('reads the set first when it never did, and answers a prepared epoch without reading again', async () => {
    const l1 = new FakeL1();
    const { duties } = dutiesOn(
      l1,
      chainOf([{ slot: 1, archiveRoot: hex32(1) }], 1, () => l1.down),
    );
    const prepared = await duties.prepareDuties(3);
    expect(prepared?.committee.members).toHaveLength(2);
    l1.down = true;
    expect(await duties.prepareDuties(4)).toEqual(duties.cachedDuties(4));
    expect(await duties.prepareDuties(4)).toBeDefined();
    // Another epoch needs no new read of the set either: its committee is drawn from the set already read.
    l1.down = false;
    l1.head = 11n;
    const reads = l1.reads;
    expect((await duties.prepareDuties(EPOCH + 1))?.slot).toBe(EPOCH + 1);
    expect(l1.reads).toBe(reads);
  });

  it('answers undefined, logged, while L1 cannot be read', async () => {
    const l1 = new FakeL1();
    l1.down = true;
    const { duties, logs } = dutiesOn(l1);
    expect(await duties.prepareDuties(3)).toBeUndefined();
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'debug',
        message: 'duties of a slot not known yet',
        fields: { slot: 3, error: 'L1 unreachable' },
      }),
    ]);
  });
});

describe('ValidatorDuties drawing committees', () => {
  it('asserts the set was read before a committee is drawn', async () => {
    const { duties } = dutiesOn(new FakeL1());
    await expect(duties.committeeOf(0)).rejects.toThrow('the validator set is read before a committee is drawn');
  });

  it('draws from the validators active by the epoch, and again when the set grows', async () => {
    const l1 = new FakeL1();
    l1.set = [registered(0), registered(1), registered(2, 3)];
    const { duties } = dutiesOn(l1);
    await duties.refreshAtHead();
    expect(await membersOf(duties, 2)).not.toContain(testAddress(2));
    expect(await membersOf(duties, 3)).toContain(testAddress(2));
    l1.set = [...l1.set, registered(3)];
    l1.head = 11n;
    await duties.refreshAtHead();
    expect(await membersOf(duties, 2)).toContain(testAddress(3));
  });

  it('asserts every checkpoint below the tip is stored when it looks for the seed source', async () => {
    const l1 = new FakeL1();
    const { duties } = dutiesOn(l1, chainOf([{ slot: 40, archiveRoot: hex32(1) }], 2));
    await duties.refreshAtHead();
    await expect(duties.dutiesOf(3 * EPOCH)).rejects.toThrow('checkpoint 2 below the checkpointed tip is stored');
  });

  it(`keeps the committees of the latest ${COMMITTEE_CACHE_EPOCHS_MAX} epochs drawn, whatever order they came in`, async () => {
    const l1 = new FakeL1();
    const { duties } = dutiesOn(l1);
    await duties.refreshAtHead();
    for (let epoch = COMMITTEE_CACHE_EPOCHS_MAX - 1; epoch >= 0; epoch--) await duties.dutiesOf(epoch * EPOCH);
    const cached = () =>
      Array.from({ length: COMMITTEE_CACHE_EPOCHS_MAX + 2 }, (_, epoch) => epoch).filter(
        (epoch) => duties.cachedDuties(epoch * EPOCH) !== undefined,
      );
    expect(cached()).toEqual(Array.from({ length: COMMITTEE_CACHE_EPOCHS_MAX }, (_, epoch) => epoch));
    await duties.dutiesOf(COMMITTEE_CACHE_EPOCHS_MAX * EPOCH);
    expect(cached()).toEqual(Array.from({ length: COMMITTEE_CACHE_EPOCHS_MAX }, (_, epoch) => epoch + 1));
  });
});
