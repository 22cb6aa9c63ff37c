/**
 * Wire shapes of blocks (docs/protocol.md, Block data, fixes `BlockData.number`, `hash`,
 * `checkpointNumber`, `header.lastArchive` and `header.state`; the rest is this project's layout):
 *
 * BlockData = { number, hash, archive: TreeSnapshot, checkpointNumber,
 *               header: { lastArchive, state: { noteHashTree, nullifierTree, publicDataTree, l1ToL2MessageTree },
 *                         globalVariables, contentCommitment, totalFees, totalManaUsed } }
 * BlockResponse = BlockData + { indexWithinCheckpoint, body?: { txEffects: TxEffect[] }, l1?: L1PublishInfo | null,
 *                               attestations?: CheckpointAttestation[] }, the optional parts present only when asked for.
 *   `attestations`: the committee's attestations published on L1 with the block's checkpoint, one per member that
 *   signed, in committee order, in the shape of svc_getCheckpointAttestationsForSlot (spec/wire/p2p.ts); empty while
 *   the block is in no L1 checkpoint (proposed only), and for a checkpoint the node keeps none of (see Checkpoint).
 * GasFees = { feePerDaGas, feePerL2Gas } (bigints): fees per unit of DA gas and of L2 gas.
 *
 * `bigint` fields travel as decimal strings, and so does `globalVariables.slotNumber` (SlotNumber: docs/protocol.md,
 * Wire encoding); every other number is a JSON number.
 */
import { z } from 'zod';
import type { Block, Checkpoint } from '../chain.js';
import {
  checkpointProposalPayloadHash,
  checkpointProposalPayloadOf,
  type SigningChain,
} from '../validators/signingPayloads.js';
import { checkpointAttestation, type CheckpointAttestationValue } from './p2p.js';
import {
  bigUint,
  blockHash,
  blockNumber,
  bytes32,
  checkpointNumber,
  ethAddress,
  fr,
  safeUint,
  slotNumber,
} from './scalars.js';
import { txEffect, txEffectValueOf } from './txEffect.js';

/** A tree as it stood at some point: its root and the index its next leaf would take. */
export const treeSnapshot = z.object({ root: fr, nextAvailableLeafIndex: safeUint });

export const stateReference = z.object({
  noteHashTree: treeSnapshot,
  nullifierTree: treeSnapshot,
  publicDataTree: treeSnapshot,
  l1ToL2MessageTree: treeSnapshot,
});

export const gasFees = z.object({ feePerDaGas: bigUint, feePerL2Gas: bigUint });

export const globalVariables = z.object({
  chainId: safeUint,
  version: safeUint,
  blockNumber,
  slotNumber,
  timestamp: bigUint,
  coinbase: ethAddress,
  feeRecipient: bytes32,
  gasFees,
});

export const contentCommitment = z.object({ txsEffectsHash: bytes32, inHash: bytes32, outHash: bytes32 });

export const blockHeader = z.object({
  lastArchive: treeSnapshot,
  state: stateReference,
  globalVariables,
  contentCommitment,
  totalFees: bigUint,
  totalManaUsed: bigUint,
});

/** Where on L1 a block's checkpoint was published. */
export const l1PublishInfo = z.object({
  blockNumber: bigUint,
  blockHash: bytes32,
  timestamp: bigUint,
  txHash: bytes32,
});

const blockDataFields = {
  number: blockNumber,
  hash: blockHash,
  archive: treeSnapshot,
  checkpointNumber,
  header: blockHeader,
};

/** Header-level metadata of a block, no transaction bodies. */
export const blockData = z.object(blockDataFields);

export const blockResponse = z.object({
  ...blockDataFields,
  indexWithinCheckpoint: safeUint,
  /** Present only with `includeTransactions`. */
  body: z.object({ txEffects: z.array(txEffect) }).optional(),
  /** Present only with `includeL1PublishInfo`; null while the block is not in an L1 checkpoint. */
  l1: l1PublishInfo.nullable().optional(),
  /** Present only with `includeAttestations`; empty while the block is in no L1 checkpoint. */
  attestations: z.array(checkpointAttestation).optional(),
});

/** `BlockIncludeOptions`: narrowing flags of svc_getBlock; unknown keys are refused. */
export const blockIncludeOptions = z.strictObject({
  includeTransactions: z.boolean().optional(),
  includeL1PublishInfo: z.boolean().optional(),
  includeAttestations: z.boolean().optional(),
});

/** `BlocksIncludeOptions`: the same narrowing flags, applied to every block of a list. */
export const blocksIncludeOptions = blockIncludeOptions;

export type BlockDataValue = z.output<typeof blockData>;
export type BlockResponseValue = z.output<typeof blockResponse>;
export type BlockIncludeOptionsValue = z.output<typeof blockIncludeOptions>;

/** The BlockData of a core block. */
export function blockDataOf(block: Block): BlockDataValue {
  return {
    number: block.header.globalVariables.blockNumber,
    hash: block.hash,
    archive: block.archive,
    checkpointNumber: block.checkpointNumber,
    header: block.header,
  };
}

/**
 * The BlockResponse of a core block, with the parts the options ask for; `checkpoint` is the L1 checkpoint holding
 * the block, undefined while it is proposed only.
 */
export function blockResponseOf(
  block: Block,
  checkpoint: Checkpoint | undefined,
  options: BlockIncludeOptionsValue = {},
): BlockResponseValue {
  const { chainId, version } = block.header.globalVariables;
  return {
    ...blockDataOf(block),
    indexWithinCheckpoint: block.indexWithinCheckpoint,
    ...(options.includeTransactions === true ? { body: { txEffects: block.body.txEffects.map(txEffectValueOf) } } : {}),
    ...(options.includeL1PublishInfo === true ? { l1: checkpoint?.l1 ?? null } : {}),
    ...(options.includeAttestations === true
      ? {
          attestations:
            checkpoint === undefined
              ? []
              : checkpointAttestationsOf(checkpoint, { l1ChainId: chainId, rollupVersion: version }),
        }
      : {}),
  };
}

/**
 * A checkpoint's attestations in the wire's CheckpointAttestation shape. Each signs the checkpoint's proposal
 * payload hash, which is rebuilt from the checkpoint and `chain` (a block's chain id and version are the chain's: the
 * archiver checks them), so a client can verify every signature against the committee's public keys.
 */
export function checkpointAttestationsOf(checkpoint: Checkpoint, chain: SigningChain): CheckpointAttestationValue[] {
  if (checkpoint.attestations.length === 0) return [];
  const proposalPayloadHash = checkpointProposalPayloadHash(checkpointProposalPayloadOf(chain, checkpoint));
  return checkpoint.attestations.map(({ attester, signature }) => ({
    slot: checkpoint.header.slotNumber,
    checkpointNumber: checkpoint.number,
    archiveRoot: checkpoint.archiveRoot,
    proposalPayloadHash,
    attester,
    signature,
  }));
}
