/**
 * The validator client's checks before attesting, how it treats repeated and stray gossip, how it asks peers for the
 * block proposals it misses, and the proposer's wait for its committee's quorum.
 */
import { describe, expect, it } from 'vitest';
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { bytesToHex, hexToBytes } from '../../spec/codec/bytes.js';
import { encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import {
  decodeCheckpointAttestations,
  encodeCheckpointAttestations,
} from '../../spec/validators/checkpointAttestations.js';
import {
  ATTESTATION_POOL_SLOTS_KEPT,
  ATTESTATION_WAIT_POLL_MS,
  VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX,
} from '../../spec/validators/constants.js';
import { checkpointProposalPayloadOf, type CheckpointProposalPayload } from '../../spec/validators/signingPayloads.js';
import { ManualClock, settle } from '../../test/helpers/manualClock.js';
import { capturingLogger, type LogLine } from '../../test/helpers/testLogger.js';
import {
  FIXTURE_SLOT,
  proposedCheckpoint,
  sizedTxEffect,
  type ProposedCheckpointFixture,
} from '../../test/validators/proposedBlocksFixture.js';
import {
  TEST_CHAIN,
  hex32,
  secretKeyOf,
  testDuties,
  testValidatorSet,
} from '../../test/validators/validatorFixtures.js';
import type { Chain } from '../chain/chain.js';
import type {
  BlockProposalMessage,
  GossipMessage,
  GossipVerdict,
  MetricsEvent,
  NetworkAnswer,
  NetworkPort,
  SigningGuardPort,
} from '../ports.js';
import { treeRoot } from '../merkle/appendOnlyTree.js';
import { signBlockProposal, signCheckpointAttestation, signCheckpointProposal } from './bls.js';
import type { SlotDuties } from './committee.js';
import type { KeystoreValidator } from './keystore.js';
import {
  ValidatorClient,
  gossipVerdictOf,
  type CheckpointToAttest,
  type KeptBlockProposal,
  type ValidatorEvent,
  type ValidatorGossip,
} from './validatorClient.js';
import type { ValidatorDuties } from './validatorDuties.js';
import type { ValidatorLimits } from './validatorLimits.js';

const validators = testValidatorSet(4);
const allDuties = testDuties(validators);
const duties = allDuties(FIXTURE_SLOT);
const proposer = duties.proposer!.address;
const member = duties.committee.members.find((m) => m.address !== proposer)!.address;
const constants = { ...TEST_CHAIN } as unknown as L1RollupConstants;
const SLOT_MS = 1000;

const fixture = proposedCheckpoint([
  { txEffects: [sizedTxEffect(1, 2), sizedTxEffect(2)], manaUsed: 300n },
  { txEffects: [sizedTxEffect(3)], manaUsed: 50n },
]);

interface ClientOptions {
  readonly keys?: readonly Hex[];
  readonly limits?: ValidatorLimits;
  readonly network?: NetworkPort;
  readonly dutiesOf?: (slot: number) => SlotDuties;
  readonly signingGuard?: SigningGuardPort;
  readonly metrics?: MetricsEvent[];
  readonly prepareDuties?: (slot: number) => Promise<void>;
  readonly startSlot?: number;
}

const keystoreEntry = (address: Hex): KeystoreValidator =>
  ({
    attester: address,
    blsSecretKey: secretKeyOf(address),
    coinbase: address,
    feeRecipient: hex32(0),
    publisher: address,
  }) as unknown as KeystoreValidator;

/** A client whose node has checkpointed exactly the fixture's previous archive; the clock's slot is now / SLOT_MS. */
function clientOf(options: ClientOptions = {}) {
  const dutiesOf = options.dutiesOf ?? allDuties;
  const chain = {
    tips: { checkpointed: { checkpoint: { number: 0 }, block: { number: 0 } } },
    store: {
      getBlock: async (n: number) => (n === 0 ? { archive: { root: treeRoot(fixture.previousArchive) } } : undefined),
      getArchiveTree: async (n: number) => (n === 0 ? fixture.previousArchive : undefined),
      getCheckpoint: async () => undefined,
    },
  } as unknown as Chain;
  const fakeDuties = {
    cachedDuties: dutiesOf,
    prepareDuties: options.prepareDuties ?? (async () => {}),
    refreshAtHead: async () => {},
    dutiesOf: async (slot: number) => dutiesOf(slot),
  } as unknown as ValidatorDuties;
  const logs: LogLine[] = [];
  const clock = new ManualClock((options.startSlot ?? FIXTURE_SLOT) * SLOT_MS);
  const metrics = options.metrics;
  const client = new ValidatorClient({
    chain,
    constants,
    clock,
    logger: capturingLogger((line) => logs.push(line)),
    duties: fakeDuties,
    network: options.network,
    keystore: () => ({ validators: (options.keys ?? [member]).map(keystoreEntry) }),
    limits: () => options.limits ?? {},
    slotAt: (nowMs) => Math.floor(nowMs / SLOT_MS),
    ...(options.signingGuard !== undefined ? { signingGuard: options.signingGuard } : {}),
    ...(metrics !== undefined ? { metrics: { report: (event: MetricsEvent) => metrics.push(event) } } : {}),
  });
  const events: ValidatorEvent[] = [];
  client.onEvent((event) => events.push(event));
  const kept: KeptBlockProposal[] = [];
  client.onBlockProposalKept((k) => kept.push(k));
  return { client, events, kept, logs, clock };
}

const blockMessages = (f: ProposedCheckpointFixture = fixture): BlockProposalMessage[] =>
  f.blocks.map((b) => {
    const signer = allDuties(b.payload.slot).proposer!.address;
    return {
      kind: 'blockProposal',
      payload: b.payload,
      header: b.header,
      body: b.body,
      proposer: signer,
      signature: signBlockProposal(secretKeyOf(signer), b.payload).signature,
    };
  });

function payloadOf(f: ProposedCheckpointFixture, change: Partial<CheckpointProposalPayload> = {}) {
  return {
    ...checkpointProposalPayloadOf(TEST_CHAIN, {
      number: 1,
      header: f.checkpointHeader,
      archiveRoot: f.blocks.at(-1)!.payload.archiveRoot,
    }),
    ...change,
  };
}

const headerOf = (f: ProposedCheckpointFixture): Hex => bytesToHex(encodeCheckpointHeader(f.checkpointHeader));

function checkpointMessage(f: ProposedCheckpointFixture = fixture, change: Partial<CheckpointProposalPayload> = {}) {
  const payload = payloadOf(f, change);
  const signer = allDuties(payload.slot).proposer!.address;
  return {
    kind: 'checkpointProposal',
    payload,
    header: headerOf(f),
    proposer: signer,
    signature: signCheckpointProposal(secretKeyOf(signer), payload).signature,
  } as const satisfies ValidatorGossip;
}

function attestationBy(attester: Hex, payload: CheckpointProposalPayload): ValidatorGossip {
  const { signature } = signCheckpointAttestation(secretKeyOf(attester), payload);
  return { kind: 'checkpointAttestation', payload, attester, signature };
}

async function deliver(client: ValidatorClient, messages: readonly ValidatorGossip[], from?: string): Promise<void> {
  for (const message of messages) await client.receive(message, from);
}

/** A copy of the first block whose body does not match its signed tx hashes (same payload, same signature). */
const forgedFirst = (): BlockProposalMessage => {
  const first = blockMessages()[0]!;
  return { ...first, body: blockMessages()[1]!.body };
};

describe('the gossip verdict of a pool outcome', () => {
  it('forwards new entries and offenses, ignores duplicates and untimely ones, rejects forged ones', () => {
    const payloadHash = hex32(1);
    const offense = {} as never;
    expect(gossipVerdictOf({ kind: 'added', payloadHash })).toBe('accept');
    expect(gossipVerdictOf({ kind: 'offense', payloadHash, offense })).toBe('accept');
    expect(gossipVerdictOf({ kind: 'known', payloadHash })).toBe('ignore');
    expect(gossipVerdictOf({ kind: 'rejected', reason: 'badSignature' })).toBe('reject');
    expect(gossipVerdictOf({ kind: 'rejected', reason: 'slotTooOld' })).toBe('ignore');
  });
});

describe('a committee member checking a proposal before attesting', () => {
  const [first, second] = blockMessages() as [BlockProposalMessage, BlockProposalMessage];

  it('refuses a proposal for another slot than the current one', async () => {
    const { client } = clientOf();
    await deliver(client, [first, second]);
    const payload = payloadOf(fixture, { slot: FIXTURE_SLOT - 1 });
    expect(await client.attestationRefusal(payload, headerOf(fixture))).toBe('notCurrentSlot');
    expect(await client.attestationRefusal(payloadOf(fixture), headerOf(fixture))).toBeUndefined();
  });

  it('refuses a header that is not the one the payload commits to, or is for another slot', async () => {
    const { client } = clientOf();
    await deliver(client, [first, second]);
    const otherHash = payloadOf(fixture, { checkpointHeaderHash: hex32(5) });
    expect(await client.attestationRefusal(otherHash, headerOf(fixture))).toBe('headerMismatch');
    const otherSlot = { ...fixture, checkpointHeader: { ...fixture.checkpointHeader, slotNumber: FIXTURE_SLOT + 1 } };
    const committed = payloadOf(otherSlot, { slot: FIXTURE_SLOT });
    expect(await client.attestationRefusal(committed, headerOf(otherSlot))).toBe('headerMismatch');
  });

  it('refuses a proposal that is not the next checkpoint or does not build on our checkpointed archive', async () => {
    const { client } = clientOf();
    await deliver(client, [first, second]);
    const skipping = payloadOf(fixture, { checkpointNumber: 2 });
    expect(await client.attestationRefusal(skipping, headerOf(fixture))).toBe('notOnOurCheckpointedChain');
    const elsewhere = {
      ...fixture,
      checkpointHeader: { ...fixture.checkpointHeader, lastArchiveRoot: hex32(9) },
    };
    expect(await client.attestationRefusal(payloadOf(elsewhere), headerOf(elsewhere))).toBe(
      'notOnOurCheckpointedChain',
    );
  });

  it("refuses a proposal whose archive root is not its last block's", async () => {
    const { client } = clientOf();
    await deliver(client, [first, second]);
    const payload = payloadOf(fixture, { archiveRoot: hex32(77) });
    expect(await client.attestationRefusal(payload, headerOf(fixture))).toBe('archiveMismatch');
  });

  it('counts two proposals for one block index as a missing block, and logs the equivocation', async () => {
    const { client, logs, events } = clientOf();
    const twinPayload = { ...first.payload, archiveRoot: hex32(78) };
    const twin: BlockProposalMessage = {
      ...first,
      payload: twinPayload,
      signature: signBlockProposal(secretKeyOf(proposer), twinPayload).signature,
    };
    await deliver(client, [first, twin]);
    expect(await client.attestationRefusal(payloadOf(fixture), headerOf(fixture))).toBe('blockProposalsMissing');
    await deliver(client, [second]);
    expect(await client.attestationRefusal(payloadOf(fixture), headerOf(fixture))).toBe('blockProposalsMissing');
    const offense = logs.find((l) => l.message === 'offense detected');
    expect(offense?.level).toBe('warn');
    expect(offense?.fields).toMatchObject({ round: expect.any(String), amount: expect.any(String) });
    expect(events.map((e) => e.kind)).toEqual(['offense']);
  });
});

describe('a committee member hearing the same gossip again', () => {
  it('checks a held proposal again only when a block newly arrives', async () => {
    const { client, events, logs } = clientOf();
    const [first, second] = blockMessages() as [BlockProposalMessage, BlockProposalMessage];
    await deliver(client, [checkpointMessage(), second, forgedFirst()]);
    const refused = { kind: 'attestationRefused', slot: FIXTURE_SLOT, reason: 'blockBodyMismatch' };
    expect(events).toEqual([refused]);
    expect(logs.find((l) => l.message === 'block proposal content refused')).toMatchObject({
      level: 'warn',
      fields: { slot: FIXTURE_SLOT, block: first.payload.blockNumber, reason: expect.any(String) },
    });
    // Repeats, a bad copy again, and a forged signature bring nothing new: the proposal is not checked again.
    const badSignature = { ...second, payload: { ...second.payload, archiveRoot: hex32(79) } };
    await deliver(client, [forgedFirst(), second, badSignature, checkpointMessage()]);
    expect(events).toEqual([refused]);
    await deliver(client, [first]);
    expect(events).toEqual([refused, { kind: 'attested', slot: FIXTURE_SLOT, attesters: [member] }]);
  });

  it('does not hold a proposal refused for a reason other than its blocks', async () => {
    const { client, events, logs } = clientOf();
    await deliver(client, [checkpointMessage(fixture, { checkpointNumber: 2 })]);
    await deliver(client, blockMessages());
    expect(events).toEqual([{ kind: 'attestationRefused', slot: FIXTURE_SLOT, reason: 'notOnOurCheckpointedChain' }]);
    expect(logs.filter((l) => l.message === 'not attesting a checkpoint proposal')).toMatchObject([
      { level: 'info', fields: { slot: FIXTURE_SLOT, reason: 'notOnOurCheckpointedChain' } },
    ]);
  });

  it("drops an earlier slot's held proposal once the next slot's proposal is held", async () => {
    const { client, events, clock } = clientOf();
    const next = proposedCheckpoint([{ txEffects: [sizedTxEffect(4)], manaUsed: 1n }], FIXTURE_SLOT + 1);
    const nextKeys = allDuties(FIXTURE_SLOT + 1).committee.members.map((m) => m.address);
    expect(nextKeys).toContain(member);
    await deliver(client, [checkpointMessage()]);
    await clock.advance(SLOT_MS);
    await deliver(client, [checkpointMessage(next)]);
    await deliver(client, blockMessages());
    expect(events).toEqual([]);
  });

  it('does not attest again when its own attestation already came back by gossip', async () => {
    const published: GossipMessage[] = [];
    const network = { publish: (m: GossipMessage) => published.push(m) } as unknown as NetworkPort;
    const { client, events } = clientOf({ network });
    await deliver(client, [attestationBy(member, payloadOf(fixture)), ...blockMessages(), checkpointMessage()]);
    expect(events).toEqual([]);
    expect(published).toEqual([]);
  });

  it('keeps and reports each block content once, and not for a slot already over', async () => {
    const { client, kept } = clientOf();
    const messages = blockMessages();
    await deliver(client, messages, 'peer-a');
    await deliver(client, messages, 'peer-b');
    expect(kept.map((k) => [k.payload.indexWithinCheckpoint, k.from])).toEqual([
      [0, 'peer-a'],
      [1, 'peer-a'],
    ]);
    const late = clientOf();
    await late.clock.advance(SLOT_MS);
    await deliver(late.client, messages);
    expect(late.client.pool.signedBlockProposals(FIXTURE_SLOT)).toHaveLength(2);
    expect(late.kept).toEqual([]);
    expect(late.client.heldBlockProposal(FIXTURE_SLOT, 0)).toBeUndefined();
  });

  it('does not check proposals when none of its validators sits on the committee', async () => {
    const outsider = hex32(999).slice(0, 42) as Hex;
    const { client, events } = clientOf({ keys: [outsider] });
    await deliver(client, [checkpointMessage(fixture, { checkpointNumber: 2 })]);
    expect(events).toEqual([]);
  });
});

/** A network whose block proposal requests wait until the test answers (or fails) them. */
function requestingNetwork() {
  type Answer = NetworkAnswer<BlockProposalMessage> | undefined;
  const requests: { index: number; answer: (a: Answer) => void; fail: (e: Error) => void }[] = [];
  const penalties: { peer: string; reason: string }[] = [];
  const network = {
    publish: () => undefined,
    requestBlockProposal: (_slot: number, index: number) =>
      new Promise<Answer>((answer, fail) => requests.push({ index, answer, fail })),
    penalize: (peer: string, _severity: string, reason: string) => penalties.push({ peer, reason }),
  } as unknown as NetworkPort;
  return { network, requests, penalties };
}

describe('a committee member asking peers for missing block proposals', () => {
  it('logs a block no peer has, and asks for it again when the proposal is checked next', async () => {
    const { network, requests } = requestingNetwork();
    const { client, logs } = clientOf({ network });
    await client.receive(checkpointMessage(), 'peer-p');
    expect(requests.map((r) => r.index)).toEqual([0, 1]);
    for (const request of requests) request.answer(undefined);
    await settle();
    expect(logs.filter((l) => l.message === 'missing block proposal not found on the network')).toMatchObject([
      { level: 'info', fields: { slot: FIXTURE_SLOT, index: 0 } },
      { level: 'info', fields: { slot: FIXTURE_SLOT, index: 1 } },
    ]);
    await client.receive(blockMessages()[0]!, 'peer-q');
    expect(requests.map((r) => r.index)).toEqual([0, 1, 1]);
  });

  it('logs a request that fails, and names the refusal when it scores down a peer', async () => {
    const { network, requests, penalties } = requestingNetwork();
    const { client, logs } = clientOf({ network });
    await client.receive(checkpointMessage(), 'peer-p');
    requests[0]!.fail(new Error('stream reset'));
    const second = blockMessages()[1]!;
    requests[1]!.answer({ value: { ...second, signature: blockMessages()[0]!.signature }, from: 'peer-f' });
    await settle();
    expect(logs.filter((l) => l.message === 'requested block proposal not processed')).toMatchObject([
      { level: 'warn', fields: { slot: FIXTURE_SLOT, index: 0, error: 'Error: stream reset' } },
    ]);
    expect(penalties).toEqual([{ peer: 'peer-f', reason: 'requested block proposal refused: badSignature' }]);
  });

  it('drops the answers that arrive after it stopped', async () => {
    const { network, requests } = requestingNetwork();
    const { client, events } = clientOf({ network });
    await client.receive(checkpointMessage(), 'peer-p');
    client.stop();
    const messages = blockMessages();
    requests.forEach((request, i) => request.answer({ value: messages[i]!, from: 'peer-r' }));
    await settle();
    expect(events).toEqual([]);
    expect(client.pool.signedBlockProposals(FIXTURE_SLOT)).toEqual([]);
  });
});

describe('a validator client recording statistics', () => {
  it("does not record a slot its pool's window no longer holds, though it heard attestations in it", async () => {
    const { client, clock } = clientOf();
    await deliver(client, [attestationBy(member, payloadOf(fixture))]);
    await clock.advance(ATTESTATION_POOL_SLOTS_KEPT * SLOT_MS);
    await client.refreshStats();
    expect(client.stats.keptSlots[0]).toBe(FIXTURE_SLOT + 1);
    expect(client.stats.validatorStats(member)?.history.filter((h) => h.slot === FIXTURE_SLOT)).toEqual([]);
  });

  it('records every slot from the first one when started at genesis', async () => {
    const { client, clock } = clientOf({ startSlot: 0 });
    await clock.advance((VALIDATOR_STATS_SYNC_WAIT_SLOTS_MAX + 3) * SLOT_MS);
    await client.refreshStats();
    expect(client.stats.keptSlots).toEqual([0, 1, 2]);
  });
});

describe('a validator client subscribed to gossip', () => {
  function subscribingNetwork() {
    const handlers: ((message: GossipMessage, from: string) => Promise<GossipVerdict>)[] = [];
    const network = {
      publish: () => undefined,
      subscribe: (handler: (message: GossipMessage, from: string) => Promise<GossipVerdict>) => {
        handlers.push(handler);
        return () => handlers.splice(handlers.indexOf(handler), 1);
      },
    } as unknown as NetworkPort;
    return { network, handlers };
  }

  it('ignores a message it fails to process, and logs why', async () => {
    const { network, handlers } = subscribingNetwork();
    const prepareDuties = async () => {
      throw new Error('L1 unreachable');
    };
    const { client, logs } = clientOf({ network, prepareDuties });
    client.start();
    expect(await handlers[0]!(checkpointMessage(), 'peer-p')).toBe('ignore');
    expect(logs.filter((l) => l.message === 'gossip message not processed')).toEqual([
      expect.objectContaining({
        level: 'warn',
        fields: { kind: 'checkpointProposal', error: 'Error: L1 unreachable' },
      }),
    ]);
  });

  it('judges each message by its pool outcome, and unsubscribes when stopped', async () => {
    const { network, handlers } = subscribingNetwork();
    const { client } = clientOf({ network });
    client.start();
    const [first] = blockMessages();
    expect(await handlers[0]!(first!, 'peer-p')).toBe('accept');
    expect(await handlers[0]!(first!, 'peer-p')).toBe('ignore');
    client.stop();
    expect(handlers).toEqual([]);
  });
});

describe("a proposer collecting its committee's attestations", () => {
  const checkpoint: CheckpointToAttest = {
    payload: payloadOf(fixture),
    header: headerOf(fixture),
    blocks: fixture.blocks.map((b) => ({ payload: b.payload, content: b.content })),
  };
  const quorum = duties.committee.quorum;
  /** The other members, highest seat first. */
  const others = [...duties.committee.members]
    .sort((a, b) => b.committeeIndex - a.committeeIndex)
    .map((m) => m.address)
    .filter((address) => address !== proposer);

  type Outcome<T> = { value: T } | { error: unknown } | 'pending';

  /** Watches a promise: the returned function reads its outcome so far. */
  function watch<T>(promise: Promise<T>): () => Outcome<T> {
    let outcome: Outcome<T> = 'pending';
    promise.then(
      (value) => (outcome = { value }),
      (error: unknown) => (outcome = { error }),
    );
    return () => outcome;
  }

  /** The promise's outcome once pending work has run, or 'pending'. */
  async function outcomeOf<T>(promise: Promise<T>): Promise<Outcome<T>> {
    const outcome = watch(promise);
    await settle();
    return outcome();
  }

  const seatsOf = (list: Hex): number[] => decodeCheckpointAttestations(hexToBytes(list)).map((a) => a.committeeIndex);

  it('returns the quorum in seat order as soon as gossip brings it, and reports it', async () => {
    expect(quorum).toBeGreaterThan(2);
    const metrics: MetricsEvent[] = [];
    const { client, clock } = clientOf({ keys: [proposer], metrics });
    const collecting = client.collectAttestations(checkpoint, clock.now() + 60_000);
    expect(await outcomeOf(collecting)).toBe('pending');
    await deliver(
      client,
      others.slice(0, quorum - 1).map((a) => attestationBy(a, checkpoint.payload)),
    );
    const outcome = await outcomeOf(collecting);
    expect(outcome).toEqual({ value: expect.any(String) });
    const seats = seatsOf((outcome as { value: Hex }).value);
    expect(seats).toEqual([...seats].sort((a, b) => a - b));
    expect(seats).toHaveLength(quorum);
    expect(metrics).toEqual([
      { kind: 'attestationsCollected', collected: quorum, required: quorum, quorumReached: true },
    ]);
  });

  it('wakes when a member that attested another payload too brings the quorum', async () => {
    const { client, clock } = clientOf({ keys: [proposer] });
    const outcome = watch(client.collectAttestations(checkpoint, clock.now() + 60_000));
    const [first, second] = others as [Hex, Hex];
    const elsewhere = payloadOf(fixture, { archiveRoot: hex32(55) });
    await deliver(client, [attestationBy(first, checkpoint.payload), attestationBy(second, elsewhere)]);
    await settle();
    expect(outcome()).toBe('pending');
    expect(await client.receive(attestationBy(second, checkpoint.payload))).toMatchObject({ kind: 'offense' });
    await settle();
    expect(outcome()).toEqual({ value: expect.any(String) });
  });

  it('notices attestations the pool got without gossip at its next poll', async () => {
    const { client, clock } = clientOf({ keys: [proposer] });
    const collecting = client.collectAttestations(checkpoint, clock.now() + 60_000);
    await settle();
    for (const attester of others) {
      const { signature } = signCheckpointAttestation(secretKeyOf(attester), checkpoint.payload);
      client.pool.addCheckpointAttestation({ payload: checkpoint.payload, attester, signature });
    }
    await clock.advance(ATTESTATION_WAIT_POLL_MS);
    expect(await outcomeOf(collecting)).toEqual({ value: expect.any(String) });
  });

  it('refuses at the deadline itself, naming what it had, and reports the miss', async () => {
    const metrics: MetricsEvent[] = [];
    const { client, clock } = clientOf({ keys: [proposer], metrics });
    const outcome = await outcomeOf(client.collectAttestations(checkpoint, clock.now()));
    expect(outcome).toEqual({
      error: expect.objectContaining({
        code: 'OPERATION_REFUSED',
        message: `slot ${FIXTURE_SLOT}: 1 attestations by the deadline, the committee of 4 needs ${quorum}`,
        details: { slot: FIXTURE_SLOT, attestations: 1, quorum },
      }),
    });
    expect(metrics).toEqual([{ kind: 'attestationsCollected', collected: 1, required: quorum, quorumReached: false }]);
  });

  it('waits no longer than a deadline nearer than its poll', async () => {
    const { client, clock } = clientOf({ keys: [proposer] });
    const outcome = watch(client.collectAttestations(checkpoint, clock.now() + 10));
    await clock.advance(10);
    expect(outcome()).toEqual({ error: expect.objectContaining({ code: 'OPERATION_REFUSED' }) });
  });

  it('stops waiting when the client stops', async () => {
    const { client, clock } = clientOf({ keys: [proposer] });
    const collecting = client.collectAttestations(checkpoint, clock.now() + 60_000);
    await settle();
    client.stop();
    expect(await outcomeOf(collecting)).toEqual({ error: expect.objectContaining({ code: 'OPERATION_REFUSED' }) });
  });

  it('answers an empty list when the epoch has no committee, proposer or not', async () => {
    const { client, clock } = clientOf({ keys: [member], dutiesOf: testDuties([]) });
    expect(await client.collectAttestations(checkpoint, clock.now())).toBe(
      bytesToHex(encodeCheckpointAttestations([])),
    );
  });

  it("refuses a slot whose proposer is not in the node's keystore", async () => {
    const { client, clock } = clientOf({ keys: [member] });
    await expect(client.collectAttestations(checkpoint, clock.now())).rejects.toMatchObject({
      code: 'OPERATION_REFUSED',
      message: `slot ${FIXTURE_SLOT}'s proposer is not in this node's keystore`,
      details: { slot: FIXTURE_SLOT },
    });
  });

  it('fails loudly when the pool refuses its own proposal', async () => {
    const { client, clock } = clientOf({ keys: [proposer] });
    const foreign = { ...checkpoint, payload: { ...checkpoint.payload, l1ChainId: 1 } };
    await expect(client.collectAttestations(foreign, clock.now())).rejects.toThrow(
      'assertion failed: our own checkpoint proposal enters the pool (wrongChain)',
    );
  });

  it('names the duty the HA signing guard refused', async () => {
    const signingGuard: SigningGuardPort = {
      claim: async () => ({ kind: 'refused', holderNodeId: 'node-b', holderPayloadHash: hex32(1) }),
      pruneBelow: async () => 0,
    };
    const { client, clock } = clientOf({ keys: [proposer], signingGuard });
    await expect(client.collectAttestations(checkpoint, clock.now())).rejects.toMatchObject({
      code: 'OPERATION_REFUSED',
      details: { slot: FIXTURE_SLOT, duty: 'blockProposal' },
    });
  });
});

describe('gossip for a slot outside the pool window', () => {
  it("is refused without preparing that slot's duties (no committee draw, no L1 read)", async () => {
    const prepared: number[] = [];
    const prepareDuties = async (slot: number) => {
      prepared.push(slot);
    };
    const { client } = clientOf({ prepareDuties });
    const ahead = checkpointMessage(fixture, { slot: FIXTURE_SLOT + 2 });
    expect(await client.receive(ahead)).toEqual({ kind: 'rejected', reason: 'slotTooFarAhead' });
    expect(prepared).toEqual([]);
    expect(await client.receive(checkpointMessage())).toMatchObject({ kind: 'added' });
    expect(prepared).toEqual([FIXTURE_SLOT]);
  });

  it('is refused as too old once the window has moved past it', async () => {
    const prepared: number[] = [];
    const prepareDuties = async (slot: number) => {
      prepared.push(slot);
    };
    const { client } = clientOf({ prepareDuties, startSlot: FIXTURE_SLOT + ATTESTATION_POOL_SLOTS_KEPT });
    expect(await client.receive(checkpointMessage())).toEqual({ kind: 'rejected', reason: 'slotTooOld' });
    expect(prepared).toEqual([]);
  });
});
