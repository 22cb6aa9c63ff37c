/**
 * Validator scenarios on the simulator, each on a fixed seed: an equivocating proposer and a double-attesting
 * validator are detected as offenses by the honest nodes, and a checkpoint published without its committee's quorum
 * is refused by every node until L1 prunes it.
 */
import { describe, expect, it } from 'vitest';
import type { NodeActivity } from '../../core/node/node.js';
import { signCheckpointAttestation, signCheckpointProposal } from '../../core/validators/bls.js';
import type { DevValidator } from '../../core/validators/devValidators.js';
import { drawOptions, runSimulation, type SimOptions, type SimWorld } from '../../sim/runSimulation.js';
import { buildSimProposal } from '../../sim/simProposal.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import type { CheckpointProposalPayload } from '../../spec/validators/signingPayloads.js';

const options = (seed: bigint, seconds: number, extra: Partial<SimOptions> = {}): SimOptions => ({
  ...drawOptions(seed, seconds),
  followerCount: 2,
  inclusionDelay: { probability: 0, blocksMax: 0 },
  validatorCount: 4,
  ...extra,
});

const fill = (byte: number): Hex => bytesToHex(new Uint8Array(32).fill(byte));

/** The slot the simulated clock is in, from the L1's constants. */
function currentSlot(world: SimWorld): number {
  const { l1GenesisTime, slotDuration } = world.l1.constants;
  return Math.floor((world.scheduler.now() / 1000 - Number(l1GenesisTime)) / slotDuration);
}

function slotStartMs(world: SimWorld, slot: number): number {
  const { l1GenesisTime, slotDuration } = world.l1.constants;
  return (Number(l1GenesisTime) + slot * slotDuration) * 1000;
}

/** A payload of `slot` that no honest proposer built. */
function forgedPayload(world: SimWorld, slot: number, marker: number): CheckpointProposalPayload {
  const { l1ChainId, rollupVersion } = world.l1.constants;
  return {
    l1ChainId,
    rollupVersion,
    slot,
    checkpointNumber: 1_000 + marker,
    archiveRoot: fill(marker),
    checkpointHeaderHash: fill(marker + 1),
  };
}

function keyOf(world: SimWorld, address: Hex | undefined): DevValidator {
  const validator = world.validators.find((v) => v.address === address);
  if (validator === undefined) throw new Error(`no simulated validator ${address}`);
  return validator;
}

describe('validator offenses in the simulation', () => {
  it('an equivocating proposer and a double-attesting validator are detected on every honest node', async () => {
    const seen: { proposer?: Hex; proposalSlot?: number; attester?: Hex; attestationSlot?: number } = {};
    let world: SimWorld | undefined;
    const result = await runSimulation(options(21n, 360), {
      scenario: (w) => {
        world = w;
        w.at(150_000, async () => {
          const slot = currentSlot(w);
          const duties = await w.node('follower-1').validatorClient!.duties.prepareDuties(slot);
          const proposer = keyOf(w, duties!.proposer!.address);
          // A second proposal for the slot, signed with its proposer's key: the sequencer makes the first.
          const payload = forgedPayload(w, slot, 7);
          const { signature } = signCheckpointProposal(proposer.secretKey, payload);
          w.network!.inject({
            kind: 'checkpointProposal',
            payload,
            header: '0x00',
            proposer: proposer.address,
            signature,
          });
          Object.assign(seen, { proposer: proposer.address, proposalSlot: slot });
        });
        w.at(210_000, async () => {
          const slot = currentSlot(w);
          const duties = await w.node('follower-2').validatorClient!.duties.prepareDuties(slot);
          const member = duties!.committee.members.find((m) => m.address !== duties!.proposer?.address)!;
          const attester = keyOf(w, member.address);
          // Two different payloads of one slot attested with one key.
          for (const marker of [11, 13]) {
            const payload = forgedPayload(w, slot, marker);
            w.network!.inject({
              kind: 'checkpointAttestation',
              payload,
              attester: attester.address,
              signature: signCheckpointAttestation(attester.secretKey, payload).signature,
            });
          }
          Object.assign(seen, { attester: attester.address, attestationSlot: slot });
        });
      },
    });
    expect(result.failures).toEqual([]);
    expect(seen.proposer).toBeDefined();
    expect(seen.attester).toBeDefined();
    for (const name of ['sequencer-0', 'follower-1', 'follower-2']) {
      const offenses = world!.node(name).service.validators!.getSlashOffenses('all');
      expect(offenses, name).toContainEqual({
        validator: seen.proposer,
        offenseType: 'duplicateProposal',
        slot: seen.proposalSlot,
        round: BigInt(Math.floor(seen.proposalSlot! / 128)),
        amount: 0n,
      });
      expect(offenses, name).toContainEqual({
        validator: seen.attester,
        offenseType: 'duplicateAttestation',
        slot: seen.attestationSlot,
        round: BigInt(Math.floor(seen.attestationSlot! / 128)),
        amount: 0n,
      });
      expect(world!.node(name).service.validators!.getSlashOffenses('current').length).toBeGreaterThanOrEqual(
        offenses.filter((o) => o.round === BigInt(Math.floor(currentSlot(world!) / 128))).length,
      );
    }
    // The chain went on: the forged entries changed nothing on L1.
    for (const node of result.nodes) expect(node.checkpoint).toBeGreaterThan(3);
  });

  it('a checkpoint published without its committee quorum is refused by every node, and the chain goes on once L1 prunes it', async () => {
    const refusals: { node: string; checkpointNumber: number }[] = [];
    let rogue: { checkpointNumber: number; archive: Hex } | undefined;
    let world: SimWorld | undefined;
    // A prover proves the honest epochs; nobody can prove the rogue one, so L1 prunes it once its window passes.
    const result = await runSimulation(options(33n, 900, { epochDurationSlots: 2, proverNode: true }), {
      scenario: (w) => {
        world = w;
        const link = w.l1.connect('rogue');
        const publisher = link.createPublisher(`0x${'ee'.repeat(20)}`);
        w.at(120_000, () => {
          // Early in the next slot, so that the rogue proposal lands before the sequencer publishes in that slot.
          const slot = currentSlot(w) + 1;
          w.scheduler.scheduleAt(slotStartMs(w, slot) + 500, () => {
            const count = w.l1.checkpointCount();
            const archive = fill(0x5a);
            rogue = { checkpointNumber: count + 1, archive };
            void publisher.proposeCheckpoint({
              ...buildSimProposal({
                checkpointNumber: count + 1,
                lastArchive: w.l1.archiveOf(count)!,
                archive,
                slotNumber: slot,
                timestamp: BigInt(Math.floor(slotStartMs(w, slot) / 1000)),
                payload: new Uint8Array([1, 2, 3]),
              }),
            });
          });
        });
      },
      onActivity: (node, a: NodeActivity) => {
        if (a.kind === 'validator' && a.event.kind === 'checkpointRefused')
          refusals.push({ node, checkpointNumber: a.event.checkpointNumber });
      },
    });
    expect(result.failures).toEqual([]);
    expect(rogue).toBeDefined();
    for (const name of ['sequencer-0', 'follower-1', 'follower-2', 'prover-1']) {
      expect(refusals, name).toContainEqual({ node: name, checkpointNumber: rogue!.checkpointNumber });
      // No node ever held the rogue archive, and each went on past its number with honest checkpoints.
      const node = world!.node(name);
      const held = await node.chain.store.getCheckpoint(rogue!.checkpointNumber);
      expect(held?.archiveRoot, name).not.toBe(rogue!.archive);
    }
    for (const node of result.nodes) {
      expect(node.checkpoint, node.name).toBeGreaterThan(rogue!.checkpointNumber);
      expect(node.provenBlock, node.name).toBeGreaterThan(0);
    }
  });
});
