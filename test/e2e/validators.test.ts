/**
 * The local network's validators on a real L1 (anvil): the committee is the four development validators registered
 * at deployment, each checkpoint carries their attestations (which its blocks answer with includeAttestations), the
 * validator methods answer from the node's pool and statistics, and svcAdmin_reloadKeystore rereads the file from
 * disk, refusing one that names an unknown publisher.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { runLocalNetwork, type RunningLocalNetwork } from '../../adapters/node/localNetwork.js';
import { LOCAL_NETWORK_VALIDATOR_COUNT } from '../../spec/validators/constants.js';
import { rpc, waitFor } from './rpc.js';

const logger = createPinoLogger({ level: 'silent' });

interface RpcReply {
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: Record<string, unknown> };
}

async function call(url: string, method: string, params: unknown[] = []): Promise<RpcReply> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as RpcReply;
}

describe('validators on the local network', () => {
  let net: RunningLocalNetwork | undefined;
  let root = '';
  afterAll(async () => {
    await net?.stop().catch(() => undefined);
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('attests every checkpoint with its own committee, answers the validator methods, and reloads its keystore', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-validators-'));
    const dataDirectory = path.join(root, 'local');
    net = await runLocalNetwork({
      port: 0,
      adminPort: 0,
      adminHost: '127.0.0.1',
      adminApiKey: { disabled: true, reset: false },
      logger,
      dataDirectory,
      l1Port: 0,
      slotDurationSeconds: 4,
      l1BlockTimeSeconds: 1,
      print: () => undefined,
    });
    const { publicUrl, adminUrl } = net;
    await waitFor(
      'two checkpoints',
      async () =>
        (await rpc<{ checkpointed: { checkpoint: { number: number } } }>(publicUrl, 'svc_getChainTips')).checkpointed
          .checkpoint.number >= 2,
      60_000,
    );

    const checkpoint = await rpc<{ header: { slotNumber: string }; archiveRoot: string }>(
      publicUrl,
      'svc_getCheckpoint',
      [2],
    );
    const slot = checkpoint.header.slotNumber;
    const proposals = await rpc<{ checkpointProposals: { archiveRoot: string; payloadHash: string }[] }>(
      publicUrl,
      'svc_getProposalsForSlot',
      [slot],
    );
    expect(proposals.checkpointProposals.map((p) => p.archiveRoot)).toEqual([checkpoint.archiveRoot]);
    const payloadHash = proposals.checkpointProposals[0]!.payloadHash;
    const attestations = await rpc<unknown[]>(publicUrl, 'svc_getCheckpointAttestationsForSlot', [slot, payloadHash]);
    expect(attestations).toHaveLength(LOCAL_NETWORK_VALIDATOR_COUNT);
    // The checkpoint's blocks answer the attestations L1 stored with it: a quorum of those the pool heard, same payload.
    const block = await rpc<{ attestations: { attester: string; proposalPayloadHash: string }[] }>(
      publicUrl,
      'svc_getBlock',
      [{ archive: checkpoint.archiveRoot }, { includeAttestations: true }],
    );
    expect(block.attestations.length).toBeGreaterThanOrEqual(Math.floor((2 * LOCAL_NETWORK_VALIDATOR_COUNT) / 3) + 1);
    for (const published of block.attestations) {
      expect(published.proposalPayloadHash).toBe(payloadHash);
      expect(attestations).toContainEqual(published);
    }

    await waitFor(
      'statistics of a finished slot',
      async () =>
        (await rpc<{ lastProcessedSlot: string | null }>(publicUrl, 'svc_getValidatorsStats')).lastProcessedSlot !==
        null,
      20_000,
    );
    const stats = await rpc<{ validators: { address: string; attestationsSent: number }[] }>(
      publicUrl,
      'svc_getValidatorsStats',
    );
    expect(stats.validators).toHaveLength(LOCAL_NETWORK_VALIDATOR_COUNT);
    expect(await rpc(adminUrl, 'svcAdmin_getSlashOffenses', ['all'])).toEqual([]);

    // A keystore naming a publisher the node did not start with is refused whole; the file on disk stays the operator's.
    const keystorePath = path.join(dataDirectory, 'keystore.json');
    const original = JSON.parse(await readFile(keystorePath, 'utf8')) as { validators: { publisher?: string }[] };
    const unknownPublisher = {
      ...original,
      validators: original.validators.map((v, i) => (i === 1 ? { ...v, publisher: `0x${'cd'.repeat(20)}` } : v)),
    };
    await writeFile(keystorePath, JSON.stringify(unknownPublisher));
    const refused = await call(adminUrl, 'svcAdmin_reloadKeystore');
    expect(refused.error).toMatchObject({ code: -32007, data: { reason: 'unknownPublisher', validatorIndex: 1 } });
    expect(refused.error?.message).toMatch(/nothing changed/);

    // Dropping one validator is accepted: the committee still has its quorum (3 of 4) from the other three.
    await writeFile(keystorePath, JSON.stringify({ ...original, validators: original.validators.slice(0, 3) }));
    expect(await call(adminUrl, 'svcAdmin_reloadKeystore')).toMatchObject({ result: null });
    const before = (await rpc<{ checkpointed: { checkpoint: { number: number } } }>(publicUrl, 'svc_getChainTips'))
      .checkpointed.checkpoint.number;
    await waitFor(
      'a checkpoint after the reload',
      async () =>
        (await rpc<{ checkpointed: { checkpoint: { number: number } } }>(publicUrl, 'svc_getChainTips')).checkpointed
          .checkpoint.number > before,
      60_000,
    );
  }, 180_000);
});
