/**
 * `--metrics-port` on a running local network (anvil, a sequencer, a prover, validators): `/metrics` serves
 * Prometheus text that promtool accepts, and its figures move as the chain does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runLocalNetwork, type RunningLocalNetwork } from '../../adapters/node/localNetwork.js';
import { configFromSettings, definedValues } from '../../adapters/node/nodeConfig.js';
import { promtoolCheck, sampleValue } from '../metrics/prometheusText.js';
import { quietNodeOptions } from './quietNodeOptions.js';
import { rpc, waitFor } from './rpc.js';

type WireTips = { checkpointed: { checkpoint: { number: number } } };

async function scrape(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
  return response.text();
}

describe('metrics of a running local network', () => {
  let root = '';
  let net: RunningLocalNetwork | undefined;
  afterAll(async () => {
    await net?.stop();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it('serves Prometheus text whose figures follow the chain and the JSON-RPC calls', async () => {
    root = await mkdtemp(path.join(tmpdir(), 'svc-metrics-'));
    const { logger, print } = quietNodeOptions;
    const config = configFromSettings(
      { ...quietNodeOptions, dataDirectory: path.join(root, 'local') },
      definedValues({
        localNetworkL1Port: 0,
        localNetworkSlotDurationSeconds: 4,
        localNetworkL1BlockTimeSeconds: 1,
        metricsPort: 0,
      }),
    );
    net = await runLocalNetwork({ config, logger, print });
    const metricsUrl = net.metricsUrl;
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const before = await scrape(metricsUrl!);
    const proposedBefore = sampleValue(before, 'svc_chain_tip_block_number', { tip: 'proposed' }) ?? -1;

    const publicUrl = net.publicUrl;
    await waitFor(
      'two checkpoints',
      async () => (await rpc<WireTips>(publicUrl, 'svc_getChainTips')).checkpointed.checkpoint.number >= 2,
      90_000,
    );
    const afterSync = await scrape(metricsUrl!);
    const tipsCallsBefore = sampleValue(afterSync, 'svc_rpc_requests_total', { method: 'svc_getChainTips' }) ?? 0;
    expect(tipsCallsBefore).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) await rpc(publicUrl, 'svc_getChainTips');
    await expect(rpc(publicUrl, 'svc_noSuchMethod')).rejects.toThrow(/Method not found/);
    const after = await scrape(metricsUrl!);

    // The chain moved, and the metrics with it.
    expect(sampleValue(after, 'svc_chain_tip_block_number', { tip: 'proposed' })).toBeGreaterThan(proposedBefore);
    expect(sampleValue(after, 'svc_chain_tip_checkpoint_number', { tip: 'checkpointed' })).toBeGreaterThanOrEqual(2);
    expect(sampleValue(after, 'svc_checkpoints_synced_total')).toBeGreaterThanOrEqual(2);
    expect(sampleValue(after, 'svc_blocks_synced_total')).toBeGreaterThan(0);
    expect(sampleValue(after, 'svc_l1_synced_block_number')).toBeGreaterThan(0);
    expect(sampleValue(after, 'svc_l1_head_block_number')).toBeGreaterThanOrEqual(
      sampleValue(after, 'svc_l1_synced_block_number')!,
    );
    expect(sampleValue(after, 'svc_block_build_duration_seconds_count')).toBeGreaterThan(0);
    expect(sampleValue(after, 'svc_world_state_applied_blocks_total')).toBeGreaterThan(0);
    expect(sampleValue(after, 'svc_l1_txs_sent_total', { what: 'propose' })).toBeGreaterThanOrEqual(2);
    expect(sampleValue(after, 'svc_l1_tx_max_fee_per_gas_wei', { what: 'propose' })).toBeGreaterThan(0);
    expect(sampleValue(after, 'svc_attestations_required')).toBeGreaterThan(0);
    expect(sampleValue(after, 'svc_attestations_collected')).toBeGreaterThanOrEqual(
      sampleValue(after, 'svc_attestations_required')!,
    );
    expect(sampleValue(after, 'svc_blob_source_blobs_served_total')).toBeGreaterThan(0);
    expect(sampleValue(after, 'svc_tx_pool_txs')).toBe(0);
    // The local network's keys stay under the default bound: in memory, counted.
    expect(sampleValue(after, 'svc_world_state_key_index_in_storage')).toBe(0);
    expect(sampleValue(after, 'svc_world_state_key_index_memory_keys')).toBeGreaterThan(0);

    // JSON-RPC: our three calls counted under their method, the unknown name under `unknown`, with its error code.
    expect(sampleValue(after, 'svc_rpc_requests_total', { method: 'svc_getChainTips' })).toBe(tipsCallsBefore + 3);
    expect(sampleValue(after, 'svc_rpc_errors_total', { method: 'unknown', code: '-32601' })).toBe(1);
    expect(after).not.toContain('svc_noSuchMethod');
    expect(sampleValue(after, 'svc_rpc_request_duration_seconds_count', { method: 'svc_getChainTips' })).toBe(
      tipsCallsBefore + 3,
    );

    // The runtime.
    expect(sampleValue(after, 'nodejs_memory_bytes', { kind: 'heap_used' })).toBeGreaterThan(0);
    expect(after).toContain('# TYPE nodejs_eventloop_delay_p99_seconds gauge');

    // Only /metrics is served.
    expect((await fetch(metricsUrl!.replace('/metrics', '/other'))).status).toBe(404);

    const complaints = await promtoolCheck(after);
    if (complaints === undefined) {
      console.warn('promtool is not on PATH: `promtool check metrics` skipped (apt-get install prometheus)');
    } else {
      expect(complaints).toBe('');
    }
  }, 180_000);
});
