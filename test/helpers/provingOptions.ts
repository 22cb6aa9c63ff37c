import { drawOptions, type SimOptions } from '../../sim/runSimulation.js';

/**
 * A small proving network: a sequencer, a follower and a prover node, 24 s slots, epochs of four slots (96 s) with
 * one epoch to land each proof, and L1 finality four blocks (48 s) behind its head.
 */
export function provingOptions(seed: bigint, simulatedSeconds: number): SimOptions {
  return {
    ...drawOptions(seed, simulatedSeconds),
    followerCount: 1,
    slotDurationSeconds: 24,
    publishingAllowanceSeconds: 12,
    inclusionDelay: { probability: 0, blocksMax: 0 },
    proverNode: true,
    epochDurationSlots: 4,
    proofSubmissionEpochs: 1,
    l1FinalityLagBlocks: 4,
  };
}
