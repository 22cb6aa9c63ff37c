import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { hashPair } from '../../spec/hash.js';
import { firstMessageIndexOfCheckpoint } from '../../spec/messages/inbox.js';
import { drawOptions, runSimulation, type SimOptions, type SimWorld } from '../../sim/runSimulation.js';
import type { InboxMessageLog } from '../../core/ports.js';
import type { RollupNode } from '../../core/node/node.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { outTreeRootFromPath } from '../../spec/messages/outbox.js';
import { buildTx } from '../../spec/txBuilder.js';
import { l2ToL1MessageHash } from '../../spec/vm/storageSlots.js';
import type { TxValue } from '../../spec/wire/tx.js';

/**
 * L1-to-L2 messages on a simulated network (a sequencer and two followers, no L1 inclusion delay): a message sent to
 * the simulated inbox is announced for a checkpoint, every node inserts it at that checkpoint's first block, and the
 * node's witness proves it against the block header's L1-to-L2 message tree root.
 */
const NODES = ['sequencer-0', 'follower-1', 'follower-2'];
const SENDER: Hex = '0x00000000000000000000000000000000000051e4';

function options(seed: bigint, simulatedSeconds: number): SimOptions {
  return { ...drawOptions(seed, simulatedSeconds), followerCount: 2, inclusionDelay: { probability: 0, blocksMax: 0 } };
}

const field = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

/** The root an append-only tree witness leads to (sibling nearest the leaf first). */
function rootFromPath(leaf: Hex, index: bigint, siblingPath: readonly Hex[]): Hex {
  let node = leaf;
  let position = index;
  for (const sibling of siblingPath) {
    node = (position & 1n) === 0n ? hashPair(node, sibling) : hashPair(sibling, node);
    position >>= 1n;
  }
  return node;
}

/** What every node must agree on for a message that L1 holds: its checkpoint, and a verifying witness from then on. */
async function expectAvailable(node: RollupNode, log: InboxMessageLog): Promise<void> {
  const service = node.service;
  expect(await service.messages.getL1ToL2MessageCheckpoint(log.leaf)).toBe(log.checkpointNumber);
  const checkpoint = await service.chain.getCheckpoint(log.checkpointNumber);
  expect(checkpoint, `checkpoint ${log.checkpointNumber} reached`).toBeDefined();
  expect(checkpoint!.header.inHash).not.toBe(field(0));
  const first = checkpoint!.firstBlockNumber;
  const before = await service.worldState.getL1ToL2MessageMembershipWitness(
    { kind: 'number', number: first - 1 },
    log.leaf,
  );
  expect(before, 'not available before its checkpoint').toBeUndefined();
  const witness = await service.worldState.getL1ToL2MessageMembershipWitness(
    { kind: 'number', number: first },
    log.leaf,
  );
  expect(witness).toBeDefined();
  const [index, path] = witness!;
  expect(index).toBe(log.index);
  const block = await service.chain.getBlock({ kind: 'number', number: first });
  expect(rootFromPath(log.leaf, index, path.siblingPath)).toBe(block!.block.header.state.l1ToL2MessageTree.root);
  expect(block!.block.header.contentCommitment.inHash).toBe(checkpoint!.header.inHash);
}

describe('L1-to-L2 messages on a simulated network', () => {
  it('messages sent to the inbox are available on every node in the checkpoint the inbox announced, with verifying witnesses', async () => {
    let world: SimWorld | undefined;
    const result = await runSimulation(options(7n, 420), {
      scenario: (w) => {
        world = w;
        w.at(30_000, () => {
          for (let i = 1; i <= 3; i++)
            w.l1.sendL2Message(SENDER, {
              recipient: field(0xa0 + i),
              content: field(0xc0 + i),
              secretHash: field(0x5e + i),
            });
        });
        // A later batch lands in a later tree (the lag of one checkpoint).
        w.at(
          150_000,
          () =>
            void w.l1.sendL2Message(SENDER, { recipient: field(0xb1), content: field(0xd1), secretHash: field(0x61) }),
        );
      },
    });
    expect(result.failures).toEqual([]);
    const logs = world!.l1.inboxMessages();
    expect(logs).toHaveLength(4);
    expect(logs.map((log) => log.index - firstMessageIndexOfCheckpoint(log.checkpointNumber))).toEqual([
      0n,
      1n,
      2n,
      0n,
    ]);
    expect(logs[3]!.checkpointNumber).toBeGreaterThan(logs[0]!.checkpointNumber);
    for (const name of NODES) {
      const node = world!.node(name);
      for (const log of logs) await expectAvailable(node, log);
    }
  });

  it('an L1 reorg that removes an inbox message makes every node forget it; a message sent afterwards becomes available', async () => {
    let world: SimWorld | undefined;
    let lost: InboxMessageLog | undefined;
    let knownBeforeReorg: (number | undefined)[] = [];
    const result = await runSimulation(options(8n, 420), {
      scenario: (w) => {
        world = w;
        w.at(
          30_000,
          () =>
            void w.l1.sendL2Message(SENDER, { recipient: field(0xe1), content: field(0xe2), secretHash: field(0xe3) }),
        );
        w.at(40_000, async () => {
          lost = w.l1.inboxMessages()[0];
          knownBeforeReorg = await Promise.all(
            NODES.map((name) => w.node(name).service.messages.getL1ToL2MessageCheckpoint(lost!.leaf)),
          );
          w.l1.reorg(Number(w.l1.head().number - lost!.l1.blockNumber) + 1);
        });
        w.at(
          60_000,
          () =>
            void w.l1.sendL2Message(SENDER, { recipient: field(0xf1), content: field(0xf2), secretHash: field(0xf3) }),
        );
      },
    });
    expect(result.failures).toEqual([]);
    expect(lost).toBeDefined();
    expect(knownBeforeReorg).toEqual(NODES.map(() => lost!.checkpointNumber));
    const logs = world!.l1.inboxMessages();
    expect(logs).toHaveLength(1);
    expect(logs[0]!.leaf).not.toBe(lost!.leaf);
    for (const name of NODES) {
      const node = world!.node(name);
      expect(await node.service.messages.getL1ToL2MessageCheckpoint(lost!.leaf)).toBeUndefined();
      await expectAvailable(node, logs[0]!);
    }
  });
});

/** A proving network: 24 s slots, 4-slot epochs, a prover node, L1 finality 4 blocks behind. */
function provingOptions(seed: bigint, simulatedSeconds: number): SimOptions {
  return {
    ...options(seed, simulatedSeconds),
    slotDurationSeconds: 24,
    publishingAllowanceSeconds: 12,
    proverNode: true,
    epochDurationSlots: 4,
    proofSubmissionEpochs: 1,
    l1FinalityLagBlocks: 4,
  };
}

const RECIPIENT: Hex = '0x00000000000000000000000000000000000000e1';

async function sendMessageTx(node: RollupNode, nullifier: Hex, contents: readonly Hex[]): Promise<TxValue> {
  const s = node.service;
  const latest = await s.chain.getBlock({ kind: 'tag', tag: 'latest' });
  const tx = buildTx({
    chainId: s.info.getChainId(),
    version: s.info.getVersion(),
    anchorBlockHash: latest!.block.hash,
    feePayer: genesisTestAccounts()[0]!,
    nullifier,
    minFees: await s.fees.getCurrentMinFees(),
    expirationTimestamp: 2n ** 40n,
    sideEffects: { l2ToL1Messages: contents.map((content) => ({ recipient: RECIPIENT, content })) },
  });
  await s.txs.sendTx(tx);
  return tx;
}

describe('L2-to-L1 messages on a simulated network', () => {
  it('once the epoch proof lands, every node answers a witness that verifies against the outbox root on L1; bad input is refused', async () => {
    let world: SimWorld | undefined;
    const txs: TxValue[] = [];
    const beforeProof: unknown[] = [];
    const errors: unknown[] = [];
    const result = await runSimulation(provingOptions(23n, 420), {
      scenario: (w) => {
        world = w;
        w.at(
          30_000,
          async () =>
            void txs.push(
              await sendMessageTx(w.node('sequencer-0'), field(0x7001), [field(0x11), field(0x12), field(0x11)]),
            ),
        );
        w.at(
          54_000,
          async () => void txs.push(await sendMessageTx(w.node('sequencer-0'), field(0x7002), [field(0x21)])),
        );
        // Checkpointed by now, but its epoch (slots 0..3, until 96 s) cannot be proven yet.
        w.at(90_000, async () => {
          try {
            const leaf = l2ToL1MessageHash(RECIPIENT, field(0x21));
            beforeProof.push(
              await w.node('follower-1').service.messages.getL2ToL1MembershipWitness(txs[1]!.txHash, leaf, undefined),
            );
          } catch (error) {
            errors.push(error);
          }
        });
      },
    });
    expect(errors).toEqual([]);
    expect(result.failures).toEqual([]);
    expect(txs).toHaveLength(2);
    expect(beforeProof).toEqual([undefined]);
    const expected = [
      { tx: txs[0]!, content: field(0x11), index: 0 },
      { tx: txs[0]!, content: field(0x12), index: undefined },
      { tx: txs[0]!, content: field(0x11), index: 2 },
      { tx: txs[1]!, content: field(0x21), index: undefined },
    ];
    const l1 = world!.l1;
    for (const name of [...NODES.slice(0, 2), 'prover-1']) {
      const service = world!.node(name).service;
      const positions = new Set<string>();
      for (const { tx, content, index } of expected) {
        const leaf = l2ToL1MessageHash(RECIPIENT, content);
        const witness = await service.messages.getL2ToL1MembershipWitness(tx.txHash, leaf, index);
        expect(witness, `${name}: witness of ${content}`).toBeDefined();
        expect(outTreeRootFromPath(leaf, witness!.leafIndex, witness!.siblingPath)).toBe(witness!.root);
        const onL1 = l1.outboxRootAt(witness!.epochNumber, 1, l1.head().number, l1.head().number);
        expect(onL1?.root).toBe(witness!.root);
        positions.add(`${witness!.leafIndex}:${witness!.siblingPath.length}`);
        const nested = await service.messages.getL2ToL1Messages(witness!.epochNumber);
        expect(nested.flat(3)).toContain(leaf);
      }
      expect(positions.size).toBe(expected.length);
      const duplicate = l2ToL1MessageHash(RECIPIENT, field(0x11));
      await expect(
        service.messages.getL2ToL1MembershipWitness(txs[0]!.txHash, duplicate, undefined),
      ).rejects.toMatchObject({ code: 'INVALID_PARAMS', message: /appears 2 times/ });
      await expect(
        service.messages.getL2ToL1MembershipWitness(txs[0]!.txHash, field(0x99), undefined),
      ).rejects.toMatchObject({ code: 'INVALID_PARAMS', message: /params\[1\] \(message\)/ });
      await expect(service.messages.getL2ToL1MembershipWitness(txs[0]!.txHash, duplicate, 3)).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
        message: /out of range/,
      });
      await expect(service.messages.getL2ToL1MembershipWitness(txs[0]!.txHash, duplicate, 1)).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
        message: /params\[2\] \(messageIndexInTx\)/,
      });
      expect(await service.messages.getL2ToL1MembershipWitness(field(0xdead), duplicate, undefined)).toBeUndefined();
      expect(await service.messages.getL2ToL1Messages(10_000)).toEqual([]);
    }
  });
});

describe('L2-to-L1 witnesses and L1 reorgs', () => {
  it('an L1 reorg that removes the epoch proof takes the witness away until a proof lands again, with the same root', async () => {
    let tx: TxValue | undefined;
    const leaf = l2ToL1MessageHash(RECIPIENT, field(0x31));
    const seen: { atMs: number; root: Hex | undefined }[] = [];
    let reorgAtMs: number | undefined;
    const errors: unknown[] = [];
    const result = await runSimulation(provingOptions(29n, 420), {
      scenario: (w) => {
        w.at(30_000, async () => void (tx = await sendMessageTx(w.node('sequencer-0'), field(0x7003), [field(0x31)])));
        for (let t = 100_000; t <= 400_000; t += 1_000) {
          w.at(t, async () => {
            try {
              const witness = await w
                .node('follower-1')
                .service.messages.getL2ToL1MembershipWitness(tx!.txHash, leaf, undefined);
              seen.push({ atMs: t, root: witness?.root });
              if (witness !== undefined && reorgAtMs === undefined) {
                // Drop the L1 blocks from the proof on: the proof, and the root the outbox got with it, are gone.
                const proofs = w.l1.logsIn('epochProven', 0n, w.l1.head().number, w.l1.head().number);
                const proofBlock = proofs[proofs.length - 1]!.l1.blockNumber;
                w.l1.reorg(Number(w.l1.head().number - proofBlock) + 1);
                reorgAtMs = t;
              }
            } catch (error) {
              errors.push(error);
            }
          });
        }
      },
    });
    expect(errors).toEqual([]);
    expect(result.failures).toEqual([]);
    expect(reorgAtMs).toBeDefined();
    const first = seen.find((s) => s.root !== undefined)!;
    const afterReorg = seen.filter((s) => s.atMs > reorgAtMs!);
    const goneAt = afterReorg.findIndex((s) => s.root === undefined);
    expect(goneAt, 'the witness disappears once the node has synced the reorg').toBeGreaterThanOrEqual(0);
    const back = afterReorg.slice(goneAt).find((s) => s.root !== undefined);
    expect(back?.root, 'a new proof brings the same root back').toBe(first.root);
    expect(seen[seen.length - 1]!.root).toBe(first.root);
  });
});

describe('L1-to-L2 messages under crashes, L1 reorgs and rollbacks', () => {
  it('for any crash, reorg and rollback times, every node serves every message L1 holds, at the checkpoint L1 announced', async () => {
    const applied = { rollbacks: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt({ min: 0n, max: 2n ** 32n }),
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('crash' as const),
              atSeconds: fc.integer({ min: 1, max: 260 }),
              node: fc.constantFrom(...NODES),
            }),
            fc.record({
              kind: fc.constant('reorg' as const),
              atSeconds: fc.integer({ min: 60, max: 260 }),
              depth: fc.integer({ min: 1, max: 4 }),
            }),
            fc.record({
              kind: fc.constant('rollback' as const),
              atSeconds: fc.integer({ min: 1, max: 260 }),
              node: fc.constantFrom(...NODES),
              back: fc.integer({ min: 1, max: 6 }),
              force: fc.boolean(),
            }),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        async (seed, faults) => {
          let world: SimWorld | undefined;
          const result = await runSimulation(options(seed, 420), {
            scenario: (w) => {
              world = w;
              for (let t = 10; t <= 280; t += 15) {
                w.at(
                  t * 1000 + 59,
                  () =>
                    void w.l1.sendL2Message(SENDER, {
                      recipient: field(t),
                      content: field(t + 1),
                      secretHash: field(t + 2),
                    }),
                );
              }
              for (const fault of faults) {
                w.at(fault.atSeconds * 1000 + 137, async () => {
                  if (fault.kind === 'crash') return w.crashAndRestart(fault.node);
                  if (fault.kind === 'reorg') return w.l1.reorg(fault.depth);
                  // A forced rollback rebuilds the world state from the kept blocks and the synced inbox messages.
                  const node = w.node(fault.node).service;
                  const target = Math.max(0, (await node.chain.getBlockNumber()) - fault.back);
                  await node.admin.rollbackTo(target, fault.force, true).then(
                    () => (applied.rollbacks += 1),
                    () => undefined,
                  );
                });
              }
            },
          });
          expect(result.failures).toEqual([]);
          const logs = world!.l1.inboxMessages();
          expect(logs.length).toBeGreaterThan(0);
          for (const name of NODES) {
            const node = world!.node(name);
            const checkpointed = await node.service.chain.getCheckpointNumber('checkpointed');
            for (const log of logs) {
              expect(await node.service.messages.getL1ToL2MessageCheckpoint(log.leaf)).toBe(log.checkpointNumber);
              if (log.checkpointNumber <= checkpointed) await expectAvailable(node, log);
            }
          }
        },
      ),
      { numRuns: 6, seed: 65 },
    );
    expect(applied.rollbacks, 'some rollbacks were not refused').toBeGreaterThan(0);
  });
});
