/**
 * Wire shapes of the peer-to-peer answers (this project's layouts):
 *
 * PeerInfo = { id, status: 'connected' | 'dialing' | 'cached' | 'pending', addresses: string[] }
 *   `id` is the peer's id as the p2p layer prints it, `addresses` its multiaddresses.
 * CheckpointAttestation = { slot, checkpointNumber, archiveRoot, proposalPayloadHash, attester, signature }
 *   `proposalPayloadHash` is keccak256 of the signed proposal payload; `signature` a BLS12-381 signature over it.
 * ProposalsForSlot = { slot, blockProposals: BlockProposal[], checkpointProposals: CheckpointProposal[] }
 *   BlockProposal = { blockNumber, indexWithinCheckpoint, archiveRoot, txHashes, proposer, signature }
 *   CheckpointProposal = { checkpointNumber, archiveRoot, payloadHash, proposer, signature }
 */
import { z } from 'zod';
import {
  blockNumber,
  blsSignature,
  bytes32,
  checkpointNumber,
  ethAddress,
  fr,
  safeUint,
  slotNumber,
  txHash,
} from './scalars.js';

export const PEER_STATUSES = ['connected', 'dialing', 'cached', 'pending'] as const;

export const peerInfo = z.object({
  id: z.string().min(1),
  status: z.enum(PEER_STATUSES),
  addresses: z.array(z.string()),
});

export const checkpointAttestation = z.object({
  slot: slotNumber,
  checkpointNumber,
  archiveRoot: fr,
  proposalPayloadHash: bytes32,
  attester: ethAddress,
  signature: blsSignature,
});

export type CheckpointAttestationValue = z.output<typeof checkpointAttestation>;

export const blockProposal = z.object({
  blockNumber,
  indexWithinCheckpoint: safeUint,
  archiveRoot: fr,
  txHashes: z.array(txHash),
  proposer: ethAddress,
  signature: blsSignature,
});

export const checkpointProposal = z.object({
  checkpointNumber,
  archiveRoot: fr,
  payloadHash: bytes32,
  proposer: ethAddress,
  signature: blsSignature,
});

export const proposalsForSlot = z.object({
  slot: slotNumber,
  blockProposals: z.array(blockProposal),
  checkpointProposals: z.array(checkpointProposal),
});
