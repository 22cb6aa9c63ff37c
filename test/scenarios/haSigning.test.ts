/**
 * HA signing in the simulator: a redundant sequencer holding the same validator keys as sequencer-0. Without a shared
 * guard the two sign conflicting proposals and the nodes record duplicate-signing offenses; with one shared in-memory
 * guard only one of them signs each slot, no offense is recorded, and the chain goes on.
 */
import { describe, expect, it } from 'vitest';
import { drawOptions, runSimulation, type SimOptions, type SimWorld } from '../../sim/runSimulation.js';
import type { Hex } from '../../spec/chain.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx } from '../../spec/txBuilder.js';

const options = (seed: bigint, haSigning: boolean): SimOptions => ({
  ...drawOptions(seed, 400),
  followerCount: 2,
  inclusionDelay: { probability: 0, blocksMax: 0 },
  validatorCount: 4,
  redundantSequencer: { haSigning },
});

async function sendTxTo(world: SimWorld, name: string, nullifier: number, expirationTimestamp = 2n ** 40n) {
  const node = world.node(name).service;
  const latest = await node.chain.getBlock({ kind: 'tag', tag: 'latest' });
  const tx = buildTx({
    chainId: node.info.getChainId(),
    version: node.info.getVersion(),
    anchorBlockHash: latest!.block.hash,
    feePayer: genesisTestAccounts()[0]!,
    nullifier: `0x${(0x4a000 + nullifier).toString(16).padStart(64, '0')}` as Hex,
    minFees: await node.fees.getCurrentMinFees(),
    expirationTimestamp,
  });
  await node.txs.sendTx(tx);
}

async function offensesOfRun(haSigning: boolean) {
  let world: SimWorld | undefined;
  /** Slots each sequencer gave up at publishing because the HA signing guard refused it. */
  const refusedSlots = new Map<string, number[]>();
  const result = await runSimulation(options(41n, haSigning), {
    onActivity: (node, activity) => {
      if (
        activity.kind !== 'slot' ||
        activity.outcome.kind !== 'failed' ||
        !activity.outcome.error.includes('HA signing guard')
      )
        return;
      refusedSlots.set(node, [...(refusedSlots.get(node) ?? []), activity.outcome.slot]);
    },
    scenario: (w) => {
      world = w;
      // One a minute, two txs spending the same nullifier, one sent to each sequencer: gossip brings each the other's,
      // which its pool refuses (no fee bump), so the blocks the two build for a slot differ.
      for (let minute = 1; minute <= 5; minute++) {
        w.at(minute * 60_000, () => sendTxTo(w, 'sequencer-0', minute));
        w.at(minute * 60_000, () => sendTxTo(w, 'sequencer-1', minute, 2n ** 40n + 1n));
      }
    },
  });
  const offenses = world!.nodeNames().flatMap((name) =>
    world!
      .node(name)
      .service.validators!.getSlashOffenses('all')
      .map((o) => ({ node: name, ...o })),
  );
  return { result, offenses, refusedSlots };
}

describe('HA signing in the simulation', () => {
  it('without a shared guard, two sequencers with the same keys sign conflicting proposals: the offenses are recorded', async () => {
    const { offenses, refusedSlots } = await offensesOfRun(false);
    expect(offenses.map((o) => o.offenseType)).toContain('duplicateProposal');
    expect(offenses.map((o) => o.offenseType)).toContain('duplicateAttestation');
    expect(refusedSlots.size).toBe(0);
  });

  it('with one shared guard only one of them signs each duty: no offense anywhere, and the chain goes on', async () => {
    const { offenses, result, refusedSlots } = await offensesOfRun(true);
    expect(offenses).toEqual([]);
    // Both sequencers competed: each slot's loser was refused (never both in one slot).
    const refused = [...refusedSlots.values()].flat();
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused).size).toBe(refused.length);
    expect(result.failures).toEqual([]);
    for (const node of result.nodes) expect(node.checkpoint, node.name).toBeGreaterThan(2);
  });
});
