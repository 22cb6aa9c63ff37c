import { createActor, type Actor } from 'xstate';
import type { Block, L1RollupConstants } from '../../spec/chain.js';
import type { TxValue } from '../../spec/wire/tx.js';
import type { Chain } from '../chain/chain.js';
import type { Timetable } from '../chain/timetable.js';
import { NodeError } from '../errors.js';
import type { InboxStore } from '../messages/inboxStore.js';
import type { Hex } from '../../spec/chain.js';
import { assert } from '../assert.js';
import type { L1PublisherPort, LoggerPort, NodePorts, VerifiedBlob } from '../ports.js';
import type { PublicStateView } from '../publicVm/stateView.js';
import {
  buildNextBlock,
  checkInclusion,
  planSlot,
  publishCheckpoint,
  type SequencerConfig,
  type SequencerDeps,
  type SequencerValidator,
} from './sequencerDuties.js';
import { createSequencerMachine, type SlotOutcome } from './sequencerMachine.js';

export type SequencerActor = Actor<ReturnType<typeof createSequencerMachine>>;

export interface SequencerActorOptions {
  readonly ports: NodePorts;
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly timetable: Timetable;
  /** Read on every use, so a configuration change applies to the next slot, block or wait. */
  readonly config: () => SequencerConfig;
  readonly logger: LoggerPort;
  /** Pending txs, highest priority first. */
  readonly pendingTxs: () => readonly TxValue[];
  /** Public state of the latest block, for executing txs. */
  readonly publicState: () => PublicStateView;
  /** The node's validator side when the L1 validator set is enforced (sequencerDuties.ts, SequencerDeps). */
  readonly validator: SequencerValidator | undefined;
  readonly inbox: InboxStore;
  readonly onSlotOutcome: (outcome: SlotOutcome) => void;
  /** Receives the blobs of each checkpoint the sequencer published (copied to the blob upload store). */
  readonly keepPublishedBlobs?: (blobs: readonly VerifiedBlob[]) => void;
}

/** The node's publishers by lowercase address; one port per account, so each account has one nonce sequence. */
function publishersByAddress(
  own: L1PublisherPort,
  others: readonly L1PublisherPort[],
): ReadonlyMap<Hex, L1PublisherPort> {
  const publishers = new Map<Hex, L1PublisherPort>();
  for (const publisher of [own, ...others]) {
    const address = publisher.publisherAddress.toLowerCase() as Hex;
    assert(!publishers.has(address), `the node holds one publisher per account (${address} is given twice)`);
    publishers.set(address, publisher);
  }
  return publishers;
}

/**
 * The node's sequencer subsystem (not started): the sequencer machine bound to the node's chain, its pool, the L1
 * reader and the accounts it publishes checkpoints from (`l1Publisher`, required, and `l1ValidatorPublishers`).
 */
export function createSequencerActor(options: SequencerActorOptions): SequencerActor {
  const { ports, timetable, config } = options;
  if (!ports.l1Publisher) throw new NodeError('SUBSYSTEM_DISABLED', 'the sequencer needs an L1 publisher account');
  const deps: SequencerDeps = {
    clock: ports.clock,
    l1: ports.l1,
    publisher: ports.l1Publisher,
    publishers: publishersByAddress(ports.l1Publisher, ports.l1ValidatorPublishers ?? []),
    chain: options.chain,
    constants: options.constants,
    timetable,
    get config() {
      return config();
    },
    logger: options.logger,
    pendingTxs: options.pendingTxs,
    publicState: options.publicState,
    ...(options.validator ? { validator: options.validator } : {}),
    inbox: options.inbox,
    ...(options.keepPublishedBlobs ? { keepPublishedBlobs: options.keepPublishedBlobs } : {}),
  };
  const machine = createSequencerMachine({
    now: () => ports.clock.now(),
    slotDurationMs: timetable.slotDurationMs,
    get blockDurationMs() {
      return config().blockDurationMs;
    },
    get pollIntervalMs() {
      return config().pollIntervalMs;
    },
    planSlot: () => planSlot(deps),
    buildBlock: (plan) => buildAndMeasure(ports, () => buildNextBlock(deps, plan)),
    publishCheckpoint: (plan) => publishCheckpoint(deps, plan),
    checkInclusion: (plan, txHash) => checkInclusion(deps, plan, txHash),
    slotStartMs: (slot) => timetable.slotStartMs(slot),
    clock: ports.clock,
    onSlotOutcome: (outcome) => {
      deps.logger.info('slot outcome', { ...outcome });
      options.onSlotOutcome(outcome);
    },
  });
  return createActor(machine, { clock: ports.clock });
}

/** Builds a block and, on a node with metrics, reports how long it took and the mana it holds. */
async function buildAndMeasure(ports: NodePorts, build: () => Promise<Block>): Promise<Block> {
  const { metrics, clock } = ports;
  if (metrics === undefined) return build();
  const startedAtMs = clock.now();
  const block = await build();
  metrics.report({
    kind: 'blockBuilt',
    durationMs: clock.now() - startedAtMs,
    manaUsed: Number(block.header.totalManaUsed),
    txCount: block.body.txEffects.length,
  });
  return block;
}
