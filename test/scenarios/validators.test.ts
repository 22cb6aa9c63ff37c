import { describe, expect, it } from 'vitest';
import { createRpcDispatcher } from '../../adapters/rpc/dispatcher.js';
import { rpcHandlers } from '../../adapters/rpc/handlers.js';
import { silentLogger } from '../../adapters/rpc/jsonRpcServer.js';
import type { NodeActivity } from '../../core/node/node.js';
import { epochOfSlot } from '../../core/validators/committee.js';
import { checkQuorum } from '../../core/validators/quorum.js';
import { payloadOfLog } from '../../core/validators/syncQuorum.js';
import { drawOptions, runSimulation, type SimOptions, type SimWorld } from '../../sim/runSimulation.js';
import { safetyEndMs } from '../../sim/schedule.js';
import { slotAtTimestamp } from '../../sim/simL1Contract.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { decodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { PUBLIC_RPC_LIMITS_DEFAULT, RPC_BLOCKS_PER_CALL_MAX, RPC_LIST_LIMITS_DEFAULT } from '../../spec/rpc/limits.js';
import { decodeCheckpointAttestations } from '../../spec/validators/checkpointAttestations.js';
import { blockResponse } from '../../spec/wire/block.js';

const baseOptions = (seed: bigint, seconds: number): SimOptions => ({
  ...drawOptions(seed, seconds),
  followerCount: 2,
  inclusionDelay: { probability: 0, blocksMax: 0 },
  validatorCount: 4,
});

describe('validators in the simulation', () => {
  it('the sequencer collects its committee quorum and every node accepts the attested checkpoints', async () => {
    const activities: { node: string; activity: NodeActivity }[] = [];
    let world: SimWorld | undefined;
    const result = await runSimulation(baseOptions(5n, 300), {
      scenario: (w) => (world = w),
      onActivity: (node, activity) => activities.push({ node, activity }),
    });
    expect(result.failures).toEqual([]);
    expect(result.l1Checkpoints).toBeGreaterThan(2);
    for (const node of result.nodes) expect(node.checkpoint).toBeGreaterThan(2);
    const refused = activities.filter(
      (a) => a.activity.kind === 'validator' && a.activity.event.kind === 'checkpointRefused',
    );
    expect(refused).toEqual([]);
    // Every checkpoint on L1 carries at least the quorum of a committee of 4: floor(8 / 3) + 1 = 3 distinct seats.
    const l1 = world!.l1;
    const logs = l1.logsIn('checkpointProposed', 0n, l1.head().number, l1.head().number);
    expect(logs.length).toBeGreaterThan(2);
    const duties = world!.node('follower-1').validatorClient!.duties;
    for (const log of logs) {
      const seats = decodeCheckpointAttestations(hexToBytes(log.attestations)).map((a) => a.committeeIndex);
      expect(new Set(seats).size).toBeGreaterThanOrEqual(3);
      // The slot's proposer is credited: its keystore coinbase (its own address here) is the checkpoint's.
      const proposer = (await duties.prepareDuties(log.slotNumber))!.proposer!.address;
      expect(decodeCheckpointHeader(hexToBytes(log.header)).coinbase).toBe(proposer);
    }
    // The followers' validator queries answer from what they heard: the last checkpoint's proposal and attestations,
    // and statistics in which the committee proposed and attested.
    const last = logs.at(-1)!;
    for (const name of ['follower-1', 'follower-2']) {
      const validators = world!.node(name).service.validators!;
      const proposals = validators.getProposalsForSlot(last.slotNumber);
      expect(proposals.checkpointProposals.map((p) => p.archiveRoot)).toEqual([last.archive]);
      expect(proposals.blockProposals.length).toBeGreaterThan(0);
      const payloadHash = proposals.checkpointProposals[0]!.payloadHash;
      const attestations = validators.getCheckpointAttestationsForSlot(last.slotNumber, payloadHash);
      expect(attestations.length).toBe(4);
      expect(validators.getCheckpointAttestationsForSlot(last.slotNumber, `0x${'00'.repeat(32)}`)).toEqual([]);
      const stats = await validators.getValidatorsStats();
      expect(stats.validators.map((v) => v.address).sort()).toEqual(world!.validators.map((v) => v.address).sort());
      expect(stats.validators.reduce((sum, v) => sum + v.proposalsMade, 0)).toBeGreaterThan(0);
      expect(stats.validators.every((v) => v.attestationsSent > 0)).toBe(true);
      const one = await validators.getValidatorStats(world!.validators[0]!.address);
      expect(one?.history.length).toBeGreaterThan(0);
      expect(await validators.getValidatorStats(`0x${'12'.repeat(20)}`)).toBeUndefined();
    }
  });

  it('svc_getBlock with includeAttestations answers, for every checkpointed block, the attestations L1 published, which carry its committee quorum', async () => {
    let world: SimWorld | undefined;
    // While the run goes on: the sequencer's blocks not yet in an L1 checkpoint answer an empty list.
    const proposedOnly: { number: number; attestations: unknown }[] = [];
    const result = await runSimulation(baseOptions(5n, 200), {
      scenario: (w) => {
        world = w;
        for (let atMs = 30_000; atMs <= 180_000; atMs += 5_000) {
          w.at(atMs, async () => {
            const sequencer = w.node('sequencer-0');
            const { proposed, checkpointed } = sequencer.chain.tips;
            for (let n = checkpointed.block.number + 1; n <= proposed.number; n++) {
              const answer = await rpcHandlers.svc_getBlock(
                sequencer.service,
                [{ kind: 'number', number: n }, { includeAttestations: true }],
                { limits: RPC_LIST_LIMITS_DEFAULT },
              );
              proposedOnly.push({ number: n, attestations: answer?.attestations });
            }
          });
        }
      },
    });
    expect(result.failures).toEqual([]);
    expect(proposedOnly.length).toBeGreaterThan(0);
    for (const entry of proposedOnly) expect(entry.attestations).toEqual([]);
    const follower = world!.node('follower-1');
    const { constants } = follower;
    const duties = follower.validatorClient!.duties;
    const dispatch = createRpcDispatcher({
      node: follower.service,
      namespace: 'public',
      limits: PUBLIC_RPC_LIMITS_DEFAULT,
      logger: silentLogger,
    });
    const call = async (method: string, params: unknown[]): Promise<unknown> => {
      const reply = (await dispatch({ jsonrpc: '2.0', id: 1, method, params })) as {
        result?: unknown;
        error?: unknown;
      };
      expect(reply.error).toBeUndefined();
      return reply.result;
    };
    const l1 = world!.l1;
    const logs = l1.logsIn('checkpointProposed', 0n, l1.head().number, l1.head().number);
    const tips = follower.chain.tips;
    expect(tips.checkpointed.checkpoint.number).toBeGreaterThan(1);
    const options = { includeAttestations: true };
    for (let n = 1; n <= tips.checkpointed.block.number; n++) {
      const block = blockResponse.parse(await call('svc_getBlock', [n, options]));
      const log = logs.find(
        (l) => l.checkpointNumber === block.checkpointNumber && l.archive === block.attestations![0]?.archiveRoot,
      );
      expect(log, `block ${n}: its attestations name its checkpoint's archive`).toBeDefined();
      const committee = await duties.committeeOf(epochOfSlot(log!.slotNumber, constants.epochDuration));
      // Each entry names its signer by address: back to seats, they are the list L1 published, in committee order.
      const published = decodeCheckpointAttestations(hexToBytes(log!.attestations));
      const served = block.attestations!.map((a) => ({
        committeeIndex: committee.seatByAddress.get(a.attester)!,
        signature: a.signature,
      }));
      expect(served).toEqual([...published].sort((a, b) => a.committeeIndex - b.committeeIndex));
      const verdict = checkQuorum(committee, payloadOfLog(constants, log!), served, constants.epochDuration);
      expect(verdict.valid).toBe(true);
      for (const attestation of block.attestations!) {
        expect(attestation).toMatchObject({
          slot: log!.slotNumber,
          checkpointNumber: log!.checkpointNumber,
          proposalPayloadHash: verdict.payloadHash,
        });
      }
    }
    // svc_getBlocks answers each block as svc_getBlock does.
    const count = Math.min(tips.checkpointed.block.number, RPC_BLOCKS_PER_CALL_MAX);
    const range = await call('svc_getBlocks', [1, count, options]);
    expect(range).toEqual(
      await Promise.all(Array.from({ length: count }, (_, i) => call('svc_getBlock', [i + 1, options]))),
    );
  });

  it('a run with validators, gossip loss and a partition replays to the same trace hash', async () => {
    const run = () =>
      runSimulation(
        { ...baseOptions(9n, 200), network: { lossProbability: 0.1, latencyMs: { min: 5, max: 400 } } },
        {
          scenario: (w) => {
            w.at(60_000, () => w.network!.partition([['sequencer-0'], ['follower-1', 'follower-2']]));
            w.at(120_000, () => w.network!.heal());
          },
        },
      );
    const [first, second] = [await run(), await run()];
    expect(first.failures).toEqual([]);
    expect(second.traceHash).toBe(first.traceHash);
  });

  it('with half the keys on the followers, the sequencer needs their attestations, and their proposer slots are missed', async () => {
    const attestedBy = new Map<string, number>();
    let world: SimWorld | undefined;
    const result = await runSimulation(
      { ...baseOptions(6n, 420), validatorKeysOnSequencer: 2 },
      {
        scenario: (w) => (world = w),
        onActivity: (node, a) => {
          if (a.kind === 'validator' && a.event.kind === 'attested')
            attestedBy.set(node, (attestedBy.get(node) ?? 0) + 1);
        },
      },
    );
    expect(result.failures).toEqual([]);
    expect(attestedBy.get('follower-1')).toBeGreaterThan(0);
    expect(attestedBy.get('follower-2')).toBeGreaterThan(0);
    const l1 = world!.l1;
    const logs = l1.logsIn('checkpointProposed', 0n, l1.head().number, l1.head().number);
    expect(logs.length).toBeGreaterThan(1);
    // The sequencer holds two of the four seats: every quorum of three includes a follower's attestation.
    const followerKeys = new Set(world!.validators.slice(2).map((v) => v.address));
    const stats = await world!.node('follower-1').service.validators!.getValidatorsStats();
    const byAddress = new Map(stats.validators.map((v) => [v.address, v]));
    expect([...followerKeys].some((address) => (byAddress.get(address)?.proposalsMissed ?? 0) > 0)).toBe(true);
    expect([...followerKeys].every((address) => (byAddress.get(address)?.proposalsMade ?? 0) === 0)).toBe(true);
    for (const node of result.nodes) expect(node.checkpoint).toBeGreaterThan(1);
  });

  it('the partition fault cuts a follower validator off and heals; the sequencer keeps its quorum from the others', async () => {
    const options = { ...baseOptions(8n, 420), validatorKeysOnSequencer: 2 };
    const steps = [{ atMs: 60_000, kind: 'network.partition', node: 'follower-1', durationMs: 60_000 } as const];
    const result = await runSimulation({ ...options, schedule: { safetyEndMs: safetyEndMs(options), steps } });
    expect(result.failures).toEqual([]);
    const partition = result.events.find((e) => e.kind === 'network.partition');
    expect(partition?.detail).toMatch(/follower-1 cut off from gossip/);
    expect(result.events.some((e) => e.kind === 'network.partition.end')).toBe(true);
    for (const node of result.nodes) expect(node.checkpoint).toBeGreaterThan(1);
  });

  it('the swarm layout: every node proposes; the sequencer cut off from gossip misses its slots, the others keep the chain, and all converge after the heal', async () => {
    // 1/1/1/1 keys over the sequencer and three proposing followers: a quorum of 3 without the isolated one.
    const options: SimOptions = {
      ...baseOptions(11n, 420),
      slotDurationSeconds: 24,
      publishingAllowanceSeconds: 12,
      blockDurationMs: 4_000,
      followerCount: 3,
      validatorKeysOnSequencer: 1,
      followersPropose: true,
      network: { lossProbability: 0.01, latencyMs: { min: 20, max: 500 } },
    };
    const partition = { atMs: 60_000, durationMs: 150_000 };
    const steps = [{ kind: 'network.partition', node: 'sequencer-0', ...partition } as const];
    let world: SimWorld | undefined;
    const slotsCut: number[] = [];
    const l1Checkpoints: number[] = [];
    const result = await runSimulation(
      { ...options, schedule: { safetyEndMs: safetyEndMs(options), steps } },
      {
        scenario: (w) => {
          world = w;
          for (const atMs of [partition.atMs, partition.atMs + partition.durationMs]) {
            w.at(atMs, () => {
              slotsCut.push(slotAtTimestamp(w.l1.head().timestamp, w.l1.constants)!);
              l1Checkpoints.push(w.l1.checkpointCount());
            });
          }
        },
      },
    );
    expect(result.failures).toEqual([]);
    expect(result.nodes.map((n) => n.role)).toEqual(['sequencer', 'proposer', 'proposer', 'proposer']);
    const healed = result.events.find((e) => e.kind === 'network.partition.end')!;
    const converged = result.events.find((e) => e.kind === 'sim.converged')!;
    expect(healed.atMs).toBe(partition.atMs + partition.durationMs);
    expect(converged.atMs).toBeGreaterThan(healed.atMs);
    // The three others hold the quorum: checkpoints kept landing while the sequencer was cut off...
    expect(l1Checkpoints[1]! - l1Checkpoints[0]!).toBeGreaterThanOrEqual(2);
    // ...and none of those whose slot lies wholly inside the partition was the sequencer's: it had no quorum.
    const l1 = world!.l1;
    const sequencerKey = world!.validators[0]!.address;
    const logs = l1.logsIn('checkpointProposed', 0n, l1.head().number, l1.head().number);
    const coinbaseOf = (log: (typeof logs)[number]) => decodeCheckpointHeader(hexToBytes(log.header)).coinbase;
    const inside = logs.filter((log) => log.slotNumber > slotsCut[0]! && log.slotNumber < slotsCut[1]!);
    expect(inside.length).toBeGreaterThanOrEqual(2);
    expect(inside.map(coinbaseOf)).not.toContain(sequencerKey);
    // Before and after, the sequencer's own slots do get proposed: every node's keys propose over the run.
    expect(new Set(logs.map(coinbaseOf)).size).toBeGreaterThanOrEqual(3);
    expect(logs.filter((log) => log.slotNumber >= slotsCut[1]!).map(coinbaseOf)).toContain(sequencerKey);
  });
});
