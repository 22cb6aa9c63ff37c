import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { silentLogger } from '../../test/helpers/testLogger.js';
import { createNodePublishers } from './nodePublishers.js';

const key = (byte: string): Hex => `0x${byte.repeat(32)}`;
const addressOf = (privateKey: Hex) => privateKeyToAccount(privateKey).address.toLowerCase();
const where = { l1RpcUrls: ['http://127.0.0.1:1'], rollupAddress: `0x${'01'.repeat(20)}` as Hex };

describe('the L1 publishers a node starts with', () => {
  it('has one publisher per account: the sequencer, each further key, and the prover unless it shares one', () => {
    const [sequencer, first, second, prover] = [key('11'), key('22'), key('33'), key('44')];
    const further = { ...where, sequencerPrivateKey: sequencer, validatorPublisherPrivateKeys: [first, second] };
    const own = createNodePublishers({ ...further, proverPrivateKey: prover }, silentLogger);
    expect(own.l1Publisher?.publisherAddress).toBe(addressOf(sequencer));
    expect(own.l1ValidatorPublishers.map((p) => p.publisherAddress)).toEqual([addressOf(first), addressOf(second)]);
    expect(own.l1ProofPublisher?.publisherAddress).toBe(addressOf(prover));
    // A prover with a key the sequencer or a validator publishes from shares that account's publisher (its nonces).
    expect(createNodePublishers({ ...further, proverPrivateKey: sequencer }, silentLogger).l1ProofPublisher).toBe(
      undefined,
    );
    const sharing = createNodePublishers({ ...further, proverPrivateKey: second }, silentLogger);
    expect(sharing.l1ProofPublisher).toBe(sharing.l1ValidatorPublishers[1]);
    // A prover-only node publishes from its own key alone.
    const proverOnly = createNodePublishers({ ...where, proverPrivateKey: prover }, silentLogger);
    expect([proverOnly.l1Publisher, proverOnly.l1ValidatorPublishers]).toEqual([undefined, []]);
    expect(proverOnly.l1ProofPublisher?.publisherAddress).toBe(addressOf(prover));
  });
});
