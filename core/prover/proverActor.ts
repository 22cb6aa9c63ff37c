import { createActor, type Actor } from 'xstate';
import type { L1RollupConstants } from '../../spec/chain.js';
import { PROVER_PROOF_RESEND_AFTER_L1_SLOTS } from '../../spec/constants.js';
import type { Chain } from '../chain/chain.js';
import { NodeError } from '../errors.js';
import type { LoggerPort, NodePorts } from '../ports.js';
import { commitmentVerifier } from '../verifier/commitmentVerifier.js';
import {
  checkProofInclusion,
  planEpochProof,
  submitEpochProof,
  type ProverConfig,
  type ProverDeps,
} from './proverDuties.js';
import { createProverMachine, type ProofOutcome } from './proverMachine.js';

export type ProverActor = Actor<ReturnType<typeof createProverMachine>>;

export interface ProverActorOptions {
  readonly ports: NodePorts;
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  /** Read on every use, so a configuration change applies to the next wait. */
  readonly config: () => ProverConfig;
  readonly logger: LoggerPort;
  readonly onProofOutcome: (outcome: ProofOutcome) => void;
}

/**
 * The node's prover subsystem (not started): the prover machine bound to the node's chain, its L1 reader, the
 * account it submits proofs from (`l1ProofPublisher`, else the sequencer's `l1Publisher`) and its verifier.
 */
export function createProverActor(options: ProverActorOptions): ProverActor {
  const { ports, config } = options;
  const publisher = ports.l1ProofPublisher ?? ports.l1Publisher;
  if (!publisher)
    throw new NodeError('SUBSYSTEM_DISABLED', 'the prover needs an L1 account to submit proofs from', {
      subsystem: 'prover',
    });
  const deps: ProverDeps = {
    l1: ports.l1,
    publisher,
    verifier: ports.verifier ?? commitmentVerifier,
    chain: options.chain,
    constants: options.constants,
    logger: options.logger,
  };
  const machine = createProverMachine({
    now: () => ports.clock.now(),
    get pollIntervalMs() {
      return config().pollIntervalMs;
    },
    resendAfterMs: PROVER_PROOF_RESEND_AFTER_L1_SLOTS * options.constants.ethereumSlotDuration * 1000,
    planProof: () => planEpochProof(deps),
    submitProof: (job) => submitEpochProof(deps, job),
    checkInclusion: (txHashes) => checkProofInclusion(deps, txHashes),
    clock: ports.clock,
    onProofOutcome: (outcome) => {
      (outcome.kind === 'failed' || outcome.kind === 'resending' ? options.logger.warn : options.logger.info).call(
        options.logger,
        'proof outcome',
        { ...outcome },
      );
      options.onProofOutcome(outcome);
    },
  });
  return createActor(machine, { clock: ports.clock });
}
