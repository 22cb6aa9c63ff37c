/** Starting and stopping a node's machines, in a fixed order (the simulator's traces depend on it). */
import type { L1RollupConstants } from '../../spec/chain.js';
import type { ArchiverActor } from '../archiver/archiverActor.js';
import type { Chain } from '../chain/chain.js';
import type { LoggerPort } from '../ports.js';
import type { ProverActor } from '../prover/proverActor.js';
import type { SequencerActor } from '../sequencer/sequencerActor.js';
import type { ValidatorClient } from '../validators/validatorClient.js';
import type { RollupNode } from './node.js';

/** A part that listens to the network from start() until stop(). */
export interface GossipPart {
  start(): void;
  stop(): void;
}

export interface NodeLifecycleParts {
  readonly constants: L1RollupConstants;
  readonly chain: Chain;
  readonly logger: LoggerPort;
  readonly validatorClient: ValidatorClient | undefined;
  /** Started after the validator client, in this order. */
  readonly gossip: readonly GossipPart[];
  readonly archiverActor: ArchiverActor;
  readonly sequencerActor: SequencerActor | undefined;
  readonly proverActor: ProverActor | undefined;
}

export interface NodeLifecycle extends Pick<RollupNode, 'start' | 'stop' | 'machineStates'> {
  /** Between start() and stop(). */
  readonly started: boolean;
}

export function createNodeLifecycle(parts: NodeLifecycleParts): NodeLifecycle {
  const { constants, chain, logger, validatorClient, gossip, archiverActor, sequencerActor, proverActor } = parts;
  let started = false;
  return {
    get started() {
      return started;
    },
    start() {
      started = true;
      validatorClient?.start();
      for (const part of gossip) part.start();
      archiverActor.start();
      sequencerActor?.start();
      proverActor?.start();
      logger.info('node started', {
        rollupVersion: constants.rollupVersion,
        l1ChainId: constants.l1ChainId,
        sequencer: sequencerActor !== undefined,
        prover: proverActor !== undefined,
      });
    },
    async stop() {
      started = false;
      validatorClient?.stop();
      for (const part of gossip) part.stop();
      sequencerActor?.stop();
      proverActor?.stop();
      archiverActor.stop();
      // Let a commit in flight finish before the caller closes storage.
      await chain.update(async () => undefined);
      await validatorClient?.recordsWritten();
      chain.stop();
    },
    machineStates() {
      return {
        archiver: String(archiverActor.getSnapshot().value),
        sequencer: sequencerActor ? String(sequencerActor.getSnapshot().value) : undefined,
        ...(proverActor ? { prover: String(proverActor.getSnapshot().value) } : {}),
        chainTips: chain.tipsState,
      };
    },
  };
}
