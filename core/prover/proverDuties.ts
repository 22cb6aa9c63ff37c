/**
 * What the prover does, as functions of its ports: find the next epoch L1 can accept a proof for, build its public
 * inputs from the node's own checkpoints, prove it (the commitment proof: spec/proof.ts), check the proof with the
 * node's verifier, and send it to L1.
 */
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { assert } from '../assert.js';
import type { Chain } from '../chain/chain.js';
import type { L1PublisherPort, L1ReaderPort, LoggerPort, VerifierPort } from '../ports.js';
import type { ProofInclusion } from './proverMachine.js';
import {
  encodeEpochProofPublicInputs,
  EPOCH_OUT_HASH_NONE,
  epochProofFor,
  type EpochProofPublicInputs,
} from './epochProof.js';
import { epochOfSlot, proofWindowEndMs, proofWindowStatus } from './proofWindow.js';
import { outTreeRoot } from '../../spec/messages/outbox.js';

export interface ProverConfig {
  /** How often the prover looks for an epoch to prove, and for its proof's inclusion. */
  readonly pollIntervalMs: number;
}

export interface ProverDeps {
  readonly l1: L1ReaderPort;
  readonly publisher: L1PublisherPort;
  readonly verifier: VerifierPort;
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly logger: LoggerPort;
}

/** One epoch's proof, ready to send. */
export interface EpochProofJob {
  readonly inputs: EpochProofPublicInputs;
  readonly proof: Hex;
  /** Unix ms at which L1 stops accepting it (the end of the epoch's proof window). */
  readonly deadlineMs: number;
}

export type ProofWaitReason =
  /** L1 has no unproven checkpoint. */
  | 'nothingToProve'
  /** The first unproven checkpoint's epoch is still running. */
  | 'epochNotOver'
  /** The epoch's window passed: L1 prunes it; nothing to prove until new checkpoints come. */
  | 'windowPassed'
  /** L1 holds checkpoints of the epoch this node has not synced yet. */
  | 'nodeBehindL1'
  /** The node's checkpoints differ from L1's (a reorg the archiver has not unwound yet). */
  | 'archiveMismatch';

export type ProofPlan =
  | { readonly kind: 'ready'; readonly job: EpochProofJob }
  | { readonly kind: 'waiting'; readonly reason: ProofWaitReason };

const waiting = (reason: ProofWaitReason): ProofPlan => ({ kind: 'waiting', reason });

/**
 * The proof of the first unproven epoch, when L1 can take it now: the epoch is over and within its window, and the
 * node holds exactly L1's checkpoints for it. Reads are pinned to L1's head.
 */
export async function planEpochProof(deps: ProverDeps): Promise<ProofPlan> {
  const { l1, chain, constants } = deps;
  const head = await l1.getBlock('latest');
  const [proven, l1Count] = await Promise.all([
    l1.getProvenCheckpoint(head.number),
    l1.getCheckpointCount(head.number),
  ]);
  const from = proven.checkpointNumber + 1;
  if (from > l1Count) return waiting('nothingToProve');
  const first = await chain.store.getCheckpoint(from);
  if (first === undefined) return waiting('nodeBehindL1');
  const epoch = epochOfSlot(constants, first.header.slotNumber);
  const window = proofWindowStatus(constants, epoch, head.timestamp);
  if (window !== 'open') return waiting(window === 'passed' ? 'windowPassed' : 'epochNotOver');
  const to = await lastCheckpointOfEpoch(deps, from, epoch, l1Count);
  if (to === undefined) return waiting('nodeBehindL1');
  const last = await chain.store.getCheckpoint(to);
  assert(last !== undefined, `checkpoint ${to} of epoch ${epoch} is stored`);
  if ((await l1.getArchiveAt(to, head.number)) !== last.archiveRoot) return waiting('archiveMismatch');
  const previousArchive =
    from === 1 ? constants.genesisArchiveRoot : (await chain.store.getCheckpoint(from - 1))?.archiveRoot;
  if (previousArchive === undefined) return waiting('nodeBehindL1');
  const outHash = await epochOutHashOf(deps, from, to);
  const inputs: EpochProofPublicInputs = {
    epoch,
    fromCheckpoint: from,
    toCheckpoint: to,
    previousArchive,
    endArchive: last.archiveRoot,
    outHash,
  };
  return {
    kind: 'ready',
    job: { inputs, proof: epochProofFor(inputs), deadlineMs: proofWindowEndMs(constants, epoch) },
  };
}

/**
 * The root of the epoch's L2-to-L1 messages over checkpoints `from..to` (spec/messages/outbox.ts): the root of their
 * headers' out hashes, which sync checked against their blocks. EPOCH_OUT_HASH_NONE when none has a message.
 */
async function epochOutHashOf(deps: ProverDeps, from: number, to: number): Promise<Hex> {
  const outHashes: Hex[] = [];
  for (let n = from; n <= to; n++) {
    const checkpoint = await deps.chain.store.getCheckpoint(n);
    assert(checkpoint !== undefined, `checkpoint ${n} of the epoch is stored`);
    outHashes.push(checkpoint.header.outHash);
  }
  const root = outTreeRoot(outHashes);
  return root === EPOCH_OUT_HASH_NONE ? EPOCH_OUT_HASH_NONE : root;
}

/**
 * The epoch's last checkpoint: the last of `from`, `from + 1`, ... (up to L1's count) in `epoch`. An epoch has at
 * most one checkpoint per slot, which bounds the walk. Undefined when the node lacks one L1 has.
 */
async function lastCheckpointOfEpoch(
  deps: ProverDeps,
  from: number,
  epoch: number,
  l1Count: number,
): Promise<number | undefined> {
  const { chain, constants } = deps;
  let to = from;
  for (let walked = 1; to < l1Count && walked < constants.epochDuration; walked++) {
    const next = await chain.store.getCheckpoint(to + 1);
    if (next === undefined) return undefined;
    if (epochOfSlot(constants, next.header.slotNumber) !== epoch) break;
    to++;
  }
  return to;
}

/** Checks the proof with the node's verifier (a proof it would refuse is a bug), then sends it to L1. */
export async function submitEpochProof(deps: ProverDeps, job: EpochProofJob): Promise<{ txHash: Hex }> {
  const accepted = await deps.verifier.verify(encodeEpochProofPublicInputs(job.inputs), hexToBytes(job.proof));
  assert(accepted, `the node's verifier accepts its own proof of epoch ${job.inputs.epoch}`);
  const { epoch, fromCheckpoint, toCheckpoint, endArchive, outHash } = job.inputs;
  const { txHash } = await deps.publisher.submitEpochProof({
    epoch,
    fromCheckpoint,
    toCheckpoint,
    endArchive,
    outHash,
    proof: job.proof,
  });
  deps.logger.info('submitted epoch proof', { epoch, fromCheckpoint, toCheckpoint, txHash });
  return { txHash };
}

/**
 * Where a job's proof stands over the transactions sent for it (oldest first, all at one nonce, so at most one is
 * mined): the mined one when there is one; else pending when any still waits; else L1 knows none of them.
 */
export async function checkProofInclusion(deps: ProverDeps, txHashes: readonly Hex[]): Promise<ProofInclusion> {
  assert(txHashes.length > 0, 'a proof was sent before its inclusion is checked');
  const statuses = await Promise.all(txHashes.map((txHash) => deps.publisher.getTxStatus(txHash)));
  const latest = txHashes[txHashes.length - 1]!;
  const mined = statuses.findIndex((status) => status.status === 'included');
  if (mined >= 0) return { txHash: txHashes[mined]!, status: statuses[mined]! };
  const pending = statuses.some((status) => status.status === 'pending');
  return { txHash: latest, status: pending ? { status: 'pending' } : statuses[statuses.length - 1]! };
}
