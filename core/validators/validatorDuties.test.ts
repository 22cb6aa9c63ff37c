import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { L1RollupConstants } from '../../spec/chain.js';
import type { Chain } from '../chain/chain.js';
import type { L1ReaderPort, L1Validator } from '../ports.js';
import { capturingLogger } from '../../test/helpers/testLogger.js';
import { testAddress, testSecretKey } from '../../test/validators/validatorFixtures.js';
import * as bls from './bls.js';
import { ValidatorDuties } from './validatorDuties.js';

vi.mock('./bls.js', async (importOriginal) => {
  const actual = await importOriginal<typeof bls>();
  return { ...actual, verifyProofOfPossession: vi.fn(actual.verifyProofOfPossession) };
});

function registered(n: number): L1Validator {
  const key = testSecretKey(n);
  return {
    address: testAddress(n),
    blsPublicKey: key.publicKey,
    proofOfPossession: bls.signProofOfPossession(key, testAddress(n)),
    activeFromEpoch: 0,
  };
}

/** Duties over an L1 whose validator set is whatever `set` holds when read; only the set reads are exercised. */
function dutiesOver(read: () => readonly L1Validator[]): { duties: ValidatorDuties; warnings: unknown[] } {
  const warnings: unknown[] = [];
  const l1 = { getValidators: async () => read().map((v) => ({ ...v })) } as unknown as L1ReaderPort;
  const logger = capturingLogger(({ level, fields }) => {
    if (level === 'warn') warnings.push(fields);
  });
  const duties = new ValidatorDuties({
    l1,
    chain: undefined as unknown as Chain,
    constants: { epochDuration: 32 } as L1RollupConstants,
    logger,
  });
  return { duties, warnings };
}

const verified = () => vi.mocked(bls.verifyProofOfPossession).mock.calls.map(([address]) => address);

describe('validator duties: the validator set', () => {
  beforeEach(() => vi.mocked(bls.verifyProofOfPossession).mockClear());

  it('checks each proof of possession once while the entry stays the same, and checks new or changed entries', async () => {
    let set = [registered(0), registered(1)];
    const { duties, warnings } = dutiesOver(() => set);
    await duties.refreshValidatorSet(10n);
    expect(verified()).toEqual([testAddress(0), testAddress(1)]);
    await duties.refreshValidatorSet(11n);
    await duties.refreshValidatorSet(12n);
    expect(verified()).toHaveLength(2);
    expect(duties.hasValidators).toBe(true);

    // A new validator is checked; one whose proof changed to another's is checked again, fails, and stays out.
    set = [registered(0), { ...registered(1), proofOfPossession: registered(2).proofOfPossession }, registered(3)];
    await duties.refreshValidatorSet(13n);
    expect(verified()).toEqual([testAddress(0), testAddress(1), testAddress(1), testAddress(3)]);
    expect(warnings).toEqual([{ validators: [testAddress(1)], l1Block: 13n }]);
    await duties.refreshValidatorSet(14n);
    expect(verified()).toHaveLength(4);
    expect(warnings).toHaveLength(2);
  });

  it('forgets the verdicts of entries that left the set: one registered again is checked again', async () => {
    let set = [registered(0), registered(1)];
    const { duties } = dutiesOver(() => set);
    await duties.refreshValidatorSet(1n);
    set = [registered(0)];
    await duties.refreshValidatorSet(2n);
    set = [registered(0), registered(1)];
    await duties.refreshValidatorSet(3n);
    expect(verified()).toEqual([testAddress(0), testAddress(1), testAddress(1)]);
  });

  it('does not read again at a block it has read at or past', async () => {
    const read = vi.fn(() => [registered(0)]);
    const { duties } = dutiesOver(read);
    await duties.refreshValidatorSet(5n);
    await duties.refreshValidatorSet(5n);
    await duties.refreshValidatorSet(4n);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
