/**
 * What the node's parts show from outside the core, read at scrape time (observable gauges and counters: tips, the L1
 * positions, the pool's size, where the world state's keys live, peers, blob sources) or counted from the node's
 * activity feed and its pool's (blocks and checkpoints synced, prunes and reorgs, slot and proof outcomes, pool
 * admissions and evictions).
 */
import type { Meter } from '@opentelemetry/api';
import type { RollupNode } from '../../core/node/node.js';
import type { NodeActivity } from '../../core/node/node.js';
import type { TxPoolActivity } from '../../core/txPool/nodeTxPool.js';
import type { ChainEvent } from '../../spec/chain.js';

function observeTips(meter: Meter, node: RollupNode): void {
  meter
    .createObservableGauge('svc_chain_tip_block_number', { description: 'Block number of each chain tip' })
    .addCallback((result) => {
      const { tips } = node.chain;
      result.observe(tips.proposed.number, { tip: 'proposed' });
      result.observe(tips.checkpointed.block.number, { tip: 'checkpointed' });
      result.observe(tips.proven.block.number, { tip: 'proven' });
      result.observe(tips.finalized.block.number, { tip: 'finalized' });
    });
  meter
    .createObservableGauge('svc_chain_tip_checkpoint_number', { description: 'Checkpoint number of each chain tip' })
    .addCallback((result) => {
      const { tips } = node.chain;
      result.observe(tips.checkpointed.checkpoint.number, { tip: 'checkpointed' });
      result.observe(tips.proven.checkpoint.number, { tip: 'proven' });
      result.observe(tips.finalized.checkpoint.number, { tip: 'finalized' });
    });
  meter
    .createObservableGauge('svc_l1_head_block_number', { description: 'The L1 head the archiver saw at its last step' })
    .addCallback((result) => {
      const head = node.archiverActor.getSnapshot().context.lastStep?.l1Head.number;
      if (head !== undefined) result.observe(Number(head));
    });
  meter
    .createObservableGauge('svc_l1_synced_block_number', { description: 'The L1 block the node has synced up to' })
    .addCallback((result) => {
      const synced = node.chain.l1Sync?.blockNumber;
      if (synced !== undefined) result.observe(Number(synced));
    });
}

/** Where the indexed trees' keys live (docs/running.md, Memory and the world state's keys). */
function observeKeyIndex(meter: Meter, node: RollupNode): void {
  meter
    .createObservableGauge('svc_world_state_key_index_memory_keys', {
      description: 'Keys of the indexed trees held in memory (0 once they are in the database)',
    })
    .addCallback((result) => result.observe(node.chain.worldState.keyIndex.memoryKeys));
  meter
    .createObservableGauge('svc_world_state_key_index_in_storage', {
      description: "1 once the indexed trees' keys have moved to the database, else 0",
    })
    .addCallback((result) => result.observe(node.chain.worldState.keyIndex.inStorage ? 1 : 0));
}

function observeParts(meter: Meter, node: RollupNode): void {
  meter
    .createObservableGauge('svc_tx_pool_txs', { description: 'Pending txs in the pool' })
    .addCallback((result) => result.observe(node.txPool.current.count));
  observeKeyIndex(meter, node);
  const p2p = node.service.p2p;
  if (p2p !== undefined) {
    meter
      .createObservableGauge('svc_p2p_peers', { description: 'Peers by status (connected, dialing, cached)' })
      .addCallback((result) => {
        const counts = new Map<string, number>();
        for (const peer of p2p.peers(false)) counts.set(peer.status, (counts.get(peer.status) ?? 0) + 1);
        for (const status of ['connected', 'dialing', 'cached']) result.observe(counts.get(status) ?? 0, { status });
      });
  }
  const blobCounter = (field: 'served' | 'missed' | 'failed', description: string) =>
    meter.createObservableCounter(`svc_blob_source_blobs_${field}_total`, { description }).addCallback((result) => {
      for (const source of node.blobSources.stats())
        result.observe(source[field], { kind: source.kind, source: source.name });
    });
  blobCounter('served', 'Blobs a blob source gave that matched their versioned hash, by source');
  blobCounter('missed', 'Blobs asked of a blob source that its answer did not hold, by source');
  blobCounter('failed', 'Blobs a blob source failed on (an error, or a wrong blob), by source');
}

/** The counters of the activity feeds. */
function activityCounters(meter: Meter) {
  const counter = (name: string, description: string) => meter.createCounter(name, { description });
  return {
    blocks: counter('svc_blocks_synced_total', 'Blocks added to the chain, by origin (proposed: gossip or own; l1)'),
    checkpoints: counter('svc_checkpoints_synced_total', 'Checkpoints the chain adopted'),
    proven: counter('svc_chain_proven_total', 'Times the proven tip moved'),
    prunes: counter('svc_chain_prunes_total', 'Chain prunes, by reason'),
    reorgs: counter('svc_l1_reorgs_total', 'Prunes an L1 reorg caused'),
    slots: counter('svc_sequencer_slots_total', 'Slot outcomes of this node as proposer, by outcome'),
    proofs: counter('svc_prover_proofs_total', 'Epoch proof outcomes of this node as prover, by outcome'),
    admissions: counter('svc_tx_pool_admissions_total', 'Txs the pool admitted'),
    evictions: counter(
      'svc_tx_pool_evictions_total',
      'Txs the pool let go, by reason (mined, replaced, poolFull, ...)',
    ),
  };
}

type ActivityCounters = ReturnType<typeof activityCounters>;

function countChainEvent(counters: ActivityCounters, event: ChainEvent): void {
  switch (event.type) {
    case 'blocksAdded':
      return counters.blocks.add(event.blocks.length, { origin: event.origin });
    case 'chainCheckpointed':
      return counters.checkpoints.add(1);
    case 'chainProven':
      return counters.proven.add(1);
    case 'chainFinalized':
      return;
    case 'chainPruned':
      counters.prunes.add(1, { reason: event.reason });
      if (event.reason === 'l1Reorg') counters.reorgs.add(1);
      return;
  }
}

function countActivity(counters: ActivityCounters, activity: NodeActivity): void {
  if (activity.kind === 'chain') countChainEvent(counters, activity.event);
  else if (activity.kind === 'slot') counters.slots.add(1, { outcome: activity.outcome.kind });
  else if (activity.kind === 'proof') counters.proofs.add(1, { outcome: activity.outcome.kind });
}

function countPoolActivity(counters: ActivityCounters, activity: TxPoolActivity): void {
  if (activity.kind === 'accepted') counters.admissions.add(1);
  if (activity.kind === 'returned') return;
  for (const removal of activity.removed) counters.evictions.add(1, { reason: removal.reason });
}

/** Observes `node` on `meter` from now on; returns the function that stops counting its activity. */
export function observeNode(meter: Meter, node: RollupNode): () => void {
  observeTips(meter, node);
  observeParts(meter, node);
  const counters = activityCounters(meter);
  let observing = true;
  node.onActivity((activity) => observing && countActivity(counters, activity));
  node.txPool.onActivity((activity) => observing && countPoolActivity(counters, activity));
  return () => void (observing = false);
}
