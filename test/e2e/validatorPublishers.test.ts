/**
 * The keystore's publishers on a real L1 (anvil): one node runs four registered validators, two naming one publisher
 * account and two another (a further key, SEQ_PUBLISHER_PRIVATE_KEYS). Each checkpoint's L1 transaction comes from
 * the account its proposer names (the checkpoint's coinbase is its proposer's own address here). After a reload that
 * moves one validator to the second pair's publisher and another to its attester address, for which the node holds no
 * key, the later slots follow the new file: the moved validator's checkpoints come from its new publisher, and the
 * keyless one's slots are skipped as `noPublisher` while the others keep publishing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPublicClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, describe, expect, it } from 'vitest';
import { overrideConfig } from '../../adapters/config/resolveConfig.js';
import { writeKeystoreFile } from '../../adapters/keystore/fileKeystore.js';
import { createInProcessBus } from '../../adapters/network/inProcessBus.js';
import {
  LOCAL_PROVER_PRIVATE_KEY,
  LOCAL_PUBLISHER_PRIVATE_KEY,
  sequencerTimingForSlot,
  startLocalL1,
  type LocalL1,
} from '../../adapters/node/localNetwork.js';
import { configFromSettings } from '../../adapters/node/nodeConfig.js';
import { runNode, type RunningNode } from '../../adapters/node/runNode.js';
import type { SlotOutcome } from '../../core/sequencer/sequencerMachine.js';
import { devValidators } from '../../core/validators/devValidators.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex, zeroHex } from '../../spec/codec/bytes.js';
import { KEYSTORE_SCHEMA_VERSION } from '../../spec/validators/constants.js';
import { capturingLogger, type LogLine } from '../helpers/testLogger.js';
import { quietNodeOptions } from './quietNodeOptions.js';
import { rpc, waitFor } from './rpc.js';

const SLOT_SECONDS = 4;
const L1_BLOCK_SECONDS = 1;
/** Anvil's development account 3 (a public test key, funded on every fresh anvil): the second publisher. */
const SECOND_PUBLISHER_PRIVATE_KEY: Hex = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const addressOf = (key: Hex) => privateKeyToAccount(key).address.toLowerCase() as Hex;
const FIRST_PUBLISHER = addressOf(LOCAL_PUBLISHER_PRIVATE_KEY);
const SECOND_PUBLISHER = addressOf(SECOND_PUBLISHER_PRIVATE_KEY);
const validators = devValidators('publishers-e2e', 4);

/** The keystore file: validator i names `publishers[i]` (undefined: falls back to its attester address). */
function keystoreFile(publishers: readonly (Hex | undefined)[]): Uint8Array {
  const file = {
    schemaVersion: KEYSTORE_SCHEMA_VERSION,
    validators: validators.map((v, i) => ({
      attester: { address: v.address, blsSecretKey: bytesToHex(v.secretKey.exportBytes()) },
      coinbase: v.address,
      feeRecipient: zeroHex(32),
      ...(publishers[i] !== undefined ? { publisher: publishers[i] } : {}),
    })),
  };
  return new TextEncoder().encode(JSON.stringify(file));
}

interface PublishedCheckpoint {
  readonly number: number;
  readonly slot: number;
  readonly proposer: Hex;
  readonly from: Hex;
}

describe("validators' checkpoints go out from their keystore publishers", () => {
  let l1: LocalL1 | undefined;
  let node: RunningNode | undefined;
  let root = '';
  afterAll(async () => {
    await node?.stop().catch(() => undefined);
    await l1?.anvil.stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("sends each slot from its proposer's publisher, and follows a reload from the next slot", async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-publishers-'));
    const keystorePath = path.join(root, 'keystore.json');
    await writeKeystoreFile(
      keystorePath,
      keystoreFile([FIRST_PUBLISHER, FIRST_PUBLISHER, SECOND_PUBLISHER, SECOND_PUBLISHER]),
    );
    const base = configFromSettings(quietNodeOptions, {
      localNetworkL1Port: 0,
      localNetworkSlotDurationSeconds: SLOT_SECONDS,
      localNetworkL1BlockTimeSeconds: L1_BLOCK_SECONDS,
    });
    l1 = await startLocalL1(
      {},
      base,
      validators.map((v) => v.registration),
    );
    const timing = sequencerTimingForSlot(SLOT_SECONDS, L1_BLOCK_SECONDS);
    const config = overrideConfig(
      base,
      {
        l1RpcUrls: [l1.anvil.url],
        l1ConsensusHostUrls: [l1.anvil.url],
        rollupAddress: l1.rollupAddress,
        dataDirectory: path.join(root, 'data'),
        validatorKeystorePath: keystorePath,
        sequencerEnabled: true,
        sequencerPublisherPrivateKey: LOCAL_PUBLISHER_PRIVATE_KEY,
        sequencerPublisherPrivateKeys: [SECOND_PUBLISHER_PRIVATE_KEY],
        // The prover proves the short epochs, so that L1 never prunes the checkpoints under the test.
        proverNode: true,
        proverPublisherPrivateKey: LOCAL_PROVER_PRIVATE_KEY,
        sequencerBlockDurationMs: timing.blockDurationMs,
        sequencerL1PublishingTimeAllowanceInSlotSeconds: timing.l1PublishingTimeAllowanceInSlotSeconds,
      },
      'programmatic',
    );
    const warnings: LogLine[] = [];
    const logger = capturingLogger((line) => {
      if (line.level === 'warn') warnings.push(line);
    });
    node = await runNode({ ...quietNodeOptions, logger, config, network: createInProcessBus().connect() });
    const outcomes: SlotOutcome[] = [];
    node.node.onActivity((activity) => {
      if (activity.kind === 'slot') outcomes.push(activity.outcome);
    });
    const { publicUrl, adminUrl } = node;
    const client = createPublicClient({ transport: http(l1.anvil.url) });
    const seen = new Map<number, PublishedCheckpoint>();
    /** Every checkpoint L1 holds so far, with the account its transaction came from. */
    const published = async (): Promise<PublishedCheckpoint[]> => {
      const tips = await rpc<{ checkpointed: { checkpoint: { number: number } } }>(publicUrl, 'svc_getChainTips');
      for (let n = 1; n <= tips.checkpointed.checkpoint.number; n++) {
        if (seen.has(n)) continue;
        const checkpoint = await rpc<{ header: { slotNumber: string; coinbase: Hex }; l1: { txHash: Hex } }>(
          publicUrl,
          'svc_getCheckpoint',
          [n],
        );
        const tx = await client.getTransaction({ hash: checkpoint.l1.txHash });
        seen.set(n, {
          number: n,
          slot: Number(checkpoint.header.slotNumber),
          proposer: checkpoint.header.coinbase.toLowerCase() as Hex,
          from: tx.from.toLowerCase() as Hex,
        });
      }
      return [...seen.values()];
    };
    const publisherOf = (proposer: Hex, assignment: readonly (Hex | undefined)[]) =>
      assignment[validators.findIndex((v) => v.address.toLowerCase() === proposer)];

    // Before the reload: validators 0 and 1 publish from the first account, 2 and 3 from the second.
    const before = [FIRST_PUBLISHER, FIRST_PUBLISHER, SECOND_PUBLISHER, SECOND_PUBLISHER];
    await waitFor(
      'checkpoints from both publishers',
      async () => new Set((await published()).map((c) => c.from)).size === 2,
      120_000,
    );
    for (const checkpoint of await published()) expect(checkpoint.from).toBe(publisherOf(checkpoint.proposer, before));

    // The reload: validator 1 moves to the second account, validator 3 falls back to its attester address (no key).
    const after = [FIRST_PUBLISHER, SECOND_PUBLISHER, SECOND_PUBLISHER, undefined];
    await writeKeystoreFile(keystorePath, keystoreFile(after));
    expect(await rpc(adminUrl, 'svcAdmin_reloadKeystore')).toBeNull();
    const constants = await rpc<{ l1GenesisTime: string; slotDuration: number }>(publicUrl, 'svc_getL1Constants');
    // Slots planned after the reload start after this one.
    const reloadSlot = Math.floor((Date.now() / 1000 - Number(constants.l1GenesisTime)) / constants.slotDuration);
    const laterCheckpoints = async () => (await published()).filter((c) => c.slot > reloadSlot);
    await waitFor(
      "three checkpoints after the reload and a slot skipped for validator 3's missing key",
      async () =>
        (await laterCheckpoints()).length >= 3 &&
        outcomes.some((o) => o.kind === 'skipped' && o.reason === 'noPublisher' && o.slot > reloadSlot),
      150_000,
    );
    for (const checkpoint of await laterCheckpoints()) {
      expect(checkpoint.proposer).not.toBe(validators[3]!.address.toLowerCase());
      expect(checkpoint.from).toBe(publisherOf(checkpoint.proposer, after));
    }
    // The operator was told: at the reload, which account has no key; at each skipped slot, which one it lacked.
    const keyless = validators[3]!.address.toLowerCase();
    expect(warnings.map((w) => w.fields?.['publishersWithoutSigner'])).toContainEqual([keyless]);
    expect(
      warnings.filter((w) => w.message.startsWith('skipping the slot')).map((w) => w.fields?.['publisher']),
    ).toContain(keyless);
  }, 330_000);
});
