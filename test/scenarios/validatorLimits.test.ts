/**
 * The committee's VALIDATOR_MAX_DA_BLOCK_GAS in a simulated network: a proposer whose own SEQ_ limits let it put a tx
 * in a block gossips the block's body with its proposal; every committee member measures the block's DA gas from
 * that body, refuses to attest, and the checkpoint never reaches a quorum nor L1. Empty blocks (no DA gas) still
 * checkpoint, so the chain itself keeps going.
 */
import { expect, it } from 'vitest';
import type { NodeActivity } from '../../core/node/node.js';
import type { Hex } from '../../spec/chain.js';
import { txEffectsDaGas } from '../../spec/codec/txEffect.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx } from '../../spec/txBuilder.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { drawOptions, runSimulation, type SimOptions, type SimWorld } from '../../sim/runSimulation.js';

const options = (validatorLimits: SimOptions['validatorLimits']): SimOptions => ({
  ...drawOptions(6n, 300),
  followerCount: 2,
  inclusionDelay: { probability: 0, blocksMax: 0 },
  validatorCount: 4,
  // Two of the four seats on the followers: a quorum of three always needs one of them.
  validatorKeysOnSequencer: 2,
  ...(validatorLimits ? { validatorLimits } : {}),
});

interface Observed {
  readonly tx: TxValue;
  readonly world: SimWorld;
  readonly activities: readonly { readonly node: string; readonly activity: NodeActivity }[];
  readonly failures: readonly unknown[];
  readonly traceHash: string;
}

/** Runs the network with `limits` on every node's validators and sends one tx at 60 s. */
async function runWithOneTx(limits: SimOptions['validatorLimits'], network?: SimOptions['network']): Promise<Observed> {
  const activities: { node: string; activity: NodeActivity }[] = [];
  let world: SimWorld | undefined;
  let tx: TxValue | undefined;
  const result = await runSimulation(
    { ...options(limits), ...(network ? { network } : {}) },
    {
      scenario: (w) => {
        world = w;
        w.at(60_000, async () => {
          const s = w.node('sequencer-0').service;
          const latest = await s.chain.getBlock({ kind: 'tag', tag: 'latest' });
          tx = buildTx({
            chainId: s.info.getChainId(),
            version: s.info.getVersion(),
            anchorBlockHash: latest!.block.hash,
            feePayer: genesisTestAccounts()[0]!,
            nullifier: `0x${'00'.repeat(28)}0000beef` as Hex,
            minFees: await s.fees.getCurrentMinFees(),
            expirationTimestamp: 2n ** 40n,
          });
          await s.txs.sendTx(tx);
        });
      },
      onActivity: (node, activity) => activities.push({ node, activity }),
    },
  );
  return { tx: tx!, world: world!, activities, failures: result.failures, traceHash: result.traceHash };
}

const refusalsOf = (observed: Observed, node: string) =>
  observed.activities.flatMap(({ node: n, activity }) =>
    n === node && activity.kind === 'validator' && activity.event.kind === 'attestationRefused' ? [activity.event] : [],
  );

it('a committee with a low VALIDATOR_MAX_DA_BLOCK_GAS refuses the blocks that exceed it, and their checkpoint gets no quorum', async () => {
  // An empty block uses no DA gas; the tx's effect alone is over a hundred bytes, 16 DA gas each.
  const observed = await runWithOneTx({ maxDABlockGas: 1 });
  const { tx, world } = observed;
  const refusedSlots = new Set<number>();
  for (const follower of ['follower-1', 'follower-2']) {
    const refusals = refusalsOf(observed, follower);
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.every((r) => r.reason === 'tooMuchDAGas')).toBe(true);
    for (const r of refusals) refusedSlots.add(r.slot);
  }
  // The proposer's own limits (SEQ_, unset here) let it build the tx into the blocks it gossiped.
  const heard = world.node('follower-1').service.validators!;
  for (const slot of refusedSlots)
    expect(heard.getProposalsForSlot(slot).blockProposals.some((b) => b.txHashes.includes(tx.txHash))).toBe(true);
  // Without a quorum the sequencer does not publish those checkpoints; L1 has none for the refused slots.
  const publishFailures = observed.activities.flatMap(({ node, activity }) =>
    node === 'sequencer-0' &&
    activity.kind === 'slot' &&
    activity.outcome.kind === 'failed' &&
    activity.outcome.stage === 'publish'
      ? [activity.outcome]
      : [],
  );
  expect(publishFailures.map((f) => f.slot)).toEqual(expect.arrayContaining([...refusedSlots]));
  expect(publishFailures.every((f) => /attestations by the deadline/.test(f.error))).toBe(true);
  const l1 = world.l1;
  const logs = l1.logsIn('checkpointProposed', 0n, l1.head().number, l1.head().number);
  expect(logs.length).toBeGreaterThan(0);
  expect(logs.some((log) => refusedSlots.has(log.slotNumber))).toBe(false);
  expect((await world.node('follower-1').service.txs.getTxReceipt(tx.txHash, {})).status).not.toBe('checkpointed');
});

it("with the limit at the block's DA gas exactly, the same block is attested and checkpointed; one unit less refuses it", async () => {
  // The block holding the tx holds nothing else: its DA gas is the tx effect's, measured on a run without limits.
  const free = await runWithOneTx(undefined);
  expect(free.failures).toEqual([]);
  const effect = await free.world.node('follower-1').service.txs.getTxEffect(free.tx.txHash);
  expect(effect).toBeDefined();
  const blockDaGas = txEffectsDaGas([effect!.data]);

  const atLimit = await runWithOneTx({ maxDABlockGas: blockDaGas });
  expect(atLimit.tx.txHash).toBe(free.tx.txHash);
  expect(atLimit.failures).toEqual([]);
  expect((await atLimit.world.node('follower-2').service.txs.getTxReceipt(atLimit.tx.txHash, {})).status).toBe(
    'checkpointed',
  );
  expect([...refusalsOf(atLimit, 'follower-1'), ...refusalsOf(atLimit, 'follower-2')]).toEqual([]);

  const overLimit = await runWithOneTx({ maxDABlockGas: blockDaGas - 1 });
  expect((await overLimit.world.node('follower-2').service.txs.getTxReceipt(overLimit.tx.txHash, {})).status).not.toBe(
    'checkpointed',
  );
  expect(refusalsOf(overLimit, 'follower-1').map((r) => r.reason)).toContain('tooMuchDAGas');
});

it('a run whose committee refuses over-limit blocks replays to the same trace hash', async () => {
  const run = () => runWithOneTx({ maxDABlockGas: 1 }, { lossProbability: 0.05, latencyMs: { min: 5, max: 300 } });
  const [first, second] = [await run(), await run()];
  expect(refusalsOf(first, 'follower-1').length).toBeGreaterThan(0);
  expect(second.traceHash).toBe(first.traceHash);
});
