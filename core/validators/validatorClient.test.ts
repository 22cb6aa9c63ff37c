import { describe, expect, it } from 'vitest';
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { encodeTxEffects, txEffectsDaGas } from '../../spec/codec/txEffect.js';
import { checkpointProposalPayloadOf } from '../../spec/validators/signingPayloads.js';
import { ManualClock } from '../../test/helpers/manualClock.js';
import { silentLogger } from '../../test/helpers/testLogger.js';
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
import type { BlockProposalMessage, NetworkAnswer, NetworkPort, PeerOffenseSeverity } from '../ports.js';
import { treeRoot } from '../merkle/appendOnlyTree.js';
import { signBlockProposal, signCheckpointProposal } from './bls.js';
import type { KeystoreValidator } from './keystore.js';
import { ValidatorClient, type ValidatorEvent, type ValidatorGossip } from './validatorClient.js';
import type { ValidatorDuties } from './validatorDuties.js';
import type { ValidatorLimits } from './validatorLimits.js';

const validators = testValidatorSet(4);
const dutiesOf = testDuties(validators);
const duties = dutiesOf(FIXTURE_SLOT);
const proposer = duties.proposer!.address;
const member = duties.committee.members.find((m) => m.address !== proposer)!.address;

const constants = { ...TEST_CHAIN } as unknown as L1RollupConstants;

/** A committee member's validator client whose node has checkpointed exactly the fixture's previous archive. */
function memberClient(
  fixture: ProposedCheckpointFixture,
  limits: ValidatorLimits,
  network?: NetworkPort,
): { client: ValidatorClient; events: ValidatorEvent[] } {
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
    prepareDuties: async (slot: number) => dutiesOf(slot),
    refreshAtHead: async () => {},
    dutiesOf: async (slot: number) => dutiesOf(slot),
  } as unknown as ValidatorDuties;
  const ours = {
    attester: member,
    blsSecretKey: secretKeyOf(member),
    coinbase: member,
    feeRecipient: hex32(0),
    publisher: member,
  } as unknown as KeystoreValidator;
  const client = new ValidatorClient({
    chain,
    constants,
    clock: new ManualClock(),
    logger: silentLogger,
    duties: fakeDuties,
    network,
    keystore: () => ({ validators: [ours] }),
    limits: () => limits,
    slotAt: () => FIXTURE_SLOT,
  });
  const events: ValidatorEvent[] = [];
  client.onEvent((event) => events.push(event));
  return { client, events };
}

const blockMessages = (fixture: ProposedCheckpointFixture): BlockProposalMessage[] =>
  fixture.blocks.map((b) => ({
    kind: 'blockProposal',
    payload: b.payload,
    header: b.header,
    body: b.body,
    proposer,
    signature: signBlockProposal(secretKeyOf(proposer), b.payload).signature,
  }));

function checkpointMessage(fixture: ProposedCheckpointFixture): ValidatorGossip {
  const payload = checkpointProposalPayloadOf(TEST_CHAIN, {
    number: 1,
    header: fixture.checkpointHeader,
    archiveRoot: fixture.blocks.at(-1)!.payload.archiveRoot,
  });
  return {
    kind: 'checkpointProposal',
    payload,
    header: bytesToHex(encodeCheckpointHeader(fixture.checkpointHeader)),
    proposer,
    signature: signCheckpointProposal(secretKeyOf(proposer), payload).signature,
  };
}

const fixture = proposedCheckpoint([
  { txEffects: [sizedTxEffect(1, 2), sizedTxEffect(2)], manaUsed: 300n },
  { txEffects: [sizedTxEffect(3)], manaUsed: 50n },
]);
const largestDaGas = Math.max(...fixture.blocks.map((b) => txEffectsDaGas(b.content.txEffects)));

async function deliver(client: ValidatorClient, messages: readonly ValidatorGossip[]): Promise<void> {
  for (const message of messages) await client.receive(message);
}

describe('a committee member measuring gossiped blocks', () => {
  it('attests blocks exactly at its DA gas limit, and refuses them one unit under', async () => {
    const at = memberClient(fixture, { maxDABlockGas: largestDaGas });
    await deliver(at.client, [...blockMessages(fixture), checkpointMessage(fixture)]);
    expect(at.events).toEqual([{ kind: 'attested', slot: FIXTURE_SLOT, attesters: [member] }]);
    const over = memberClient(fixture, { maxDABlockGas: largestDaGas - 1 });
    // The checkpoint proposal first: held until its blocks arrive, then refused.
    await deliver(over.client, [checkpointMessage(fixture), ...blockMessages(fixture)]);
    expect(over.events).toEqual([{ kind: 'attestationRefused', slot: FIXTURE_SLOT, reason: 'tooMuchDAGas' }]);
  });

  it('refuses a block whose body does not match its signed tx hashes, and attests once a good copy arrives', async () => {
    const { client, events } = memberClient(fixture, {});
    const [first, second] = blockMessages(fixture);
    const forged: BlockProposalMessage = {
      ...first!,
      body: bytesToHex(encodeTxEffects([...fixture.blocks[0]!.content.txEffects].reverse())),
    };
    await deliver(client, [forged, second!, checkpointMessage(fixture)]);
    expect(events).toEqual([{ kind: 'attestationRefused', slot: FIXTURE_SLOT, reason: 'blockBodyMismatch' }]);
    await client.receive(first!);
    expect(events.at(-1)).toEqual({ kind: 'attested', slot: FIXTURE_SLOT, attesters: [member] });
  });

  it('survives an oversized or undecodable body and refuses the proposal', async () => {
    const [first, second] = blockMessages(fixture);
    for (const body of [`0x${'00'.repeat(800_000)}`, '0x01', 'not hex'] as Hex[]) {
      const { client, events } = memberClient(fixture, {});
      await deliver(client, [{ ...first!, body }, second!, checkpointMessage(fixture)]);
      expect(events).toEqual([{ kind: 'attestationRefused', slot: FIXTURE_SLOT, reason: 'blockBodyMismatch' }]);
    }
  });

  it("measures L2 gas on each block's header", async () => {
    const over = memberClient(fixture, { maxL2BlockGas: 299 });
    await deliver(over.client, [...blockMessages(fixture), checkpointMessage(fixture)]);
    expect(over.events).toEqual([{ kind: 'attestationRefused', slot: FIXTURE_SLOT, reason: 'tooMuchL2Gas' }]);
    const at = memberClient(fixture, { maxL2BlockGas: 300, maxTxsPerBlock: 2, maxTxsPerCheckpoint: 3 });
    await deliver(at.client, [...blockMessages(fixture), checkpointMessage(fixture)]);
    expect(at.events.map((e) => e.kind)).toEqual(['attested']);
  });
});

describe('a node serving block proposals to peers that missed them', () => {
  it('answers the held proposal at each index with the content it checked, and nothing for others', async () => {
    const { client } = memberClient(fixture, {});
    const messages = blockMessages(fixture);
    await deliver(client, messages);
    expect(client.heldBlockProposal(FIXTURE_SLOT, 0)).toEqual(messages[0]);
    expect(client.heldBlockProposal(FIXTURE_SLOT, 1)).toEqual(messages[1]);
    expect(client.heldBlockProposal(FIXTURE_SLOT, 2)).toBeUndefined();
    expect(client.heldBlockProposal(FIXTURE_SLOT + 1, 0)).toBeUndefined();
  });
});

/** A network whose block proposal requests wait until the test answers them. */
function requestingNetwork() {
  const requests: {
    slot: number;
    index: number;
    preferredPeer: string | undefined;
    answer: (answer: NetworkAnswer<BlockProposalMessage> | undefined) => void;
  }[] = [];
  const penalties: { peer: string; severity: PeerOffenseSeverity }[] = [];
  const network = {
    publish: () => undefined,
    requestBlockProposal: (slot: number, index: number, preferredPeer?: string) =>
      new Promise<NetworkAnswer<BlockProposalMessage> | undefined>((resolve) =>
        requests.push({ slot, index, preferredPeer, answer: resolve }),
      ),
    penalize: (peer: string, severity: PeerOffenseSeverity) => penalties.push({ peer, severity }),
  } as unknown as NetworkPort;
  return { network, requests, penalties };
}

/** Lets the client's request callbacks run. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a committee member missing block proposals asks its peers for them', () => {
  it('asks the sender of the proposal for each missing block once, feeds the answers in, and attests', async () => {
    const { network, requests, penalties } = requestingNetwork();
    const { client, events } = memberClient(fixture, {}, network);
    const [first, second] = blockMessages(fixture);
    await client.receive(checkpointMessage(fixture), 'peer-p');
    expect(requests.map(({ slot, index, preferredPeer }) => ({ slot, index, preferredPeer }))).toEqual([
      { slot: FIXTURE_SLOT, index: 0, preferredPeer: 'peer-p' },
      { slot: FIXTURE_SLOT, index: 1, preferredPeer: 'peer-p' },
    ]);
    // The first block comes by gossip meanwhile: the second is still asked for, not asked again.
    await client.receive(first!, 'peer-q');
    expect(requests).toHaveLength(2);
    expect(events).toEqual([]);
    requests[1]!.answer({ value: second!, from: 'peer-r' });
    requests[0]!.answer({ value: first!, from: 'peer-r' });
    await settled();
    expect(events).toEqual([{ kind: 'attested', slot: FIXTURE_SLOT, attesters: [member] }]);
    expect(penalties).toEqual([]);
  });

  it('scores down a peer whose answer the pool rejects, and asks again when the next block arrives', async () => {
    const { network, requests, penalties } = requestingNetwork();
    const { client, events } = memberClient(fixture, {}, network);
    const [first, second] = blockMessages(fixture);
    await client.receive(first!, 'peer-p');
    await client.receive(checkpointMessage(fixture), 'peer-p');
    expect(requests.map((r) => r.index)).toEqual([1]);
    const forged = { ...second!, signature: first!.signature };
    requests[0]!.answer({ value: forged, from: 'peer-f' });
    await settled();
    expect(penalties).toEqual([{ peer: 'peer-f', severity: 'mid' }]);
    expect(events).toEqual([]);
    // The good copy then comes by gossip.
    await client.receive(second!, 'peer-p');
    expect(events).toEqual([{ kind: 'attested', slot: FIXTURE_SLOT, attesters: [member] }]);
  });
});
