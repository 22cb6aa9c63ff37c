/** Wire shapes of chain-level results: tips, rollup constants, node information. */
import { z } from 'zod';
import { bigUint, blockHash, blockNumber, bytes32, checkpointNumber, ethAddress, fr, safeUint } from './scalars.js';

export const blockRef = z.object({ number: blockNumber, hash: blockHash });
export const checkpointRef = z.object({ number: checkpointNumber, hash: bytes32 });

const settledTip = z.object({ block: blockRef, checkpoint: checkpointRef });

/** L2Tips, the 4.0.0 shape (spec: Resources, Chain tips). */
export const l2Tips = z.object({
  proposed: blockRef,
  checkpointed: settledTip,
  proven: settledTip,
  finalized: settledTip,
});

/** L1RollupConstants (docs/protocol.md, Time): timing, L1 start block and genesis. */
export const l1RollupConstants = z.object({
  l1ChainId: safeUint,
  rollupVersion: safeUint,
  l1StartBlock: bigUint,
  l1GenesisTime: bigUint,
  slotDuration: safeUint,
  epochDuration: safeUint,
  ethereumSlotDuration: safeUint,
  proofSubmissionEpochs: safeUint,
  genesisArchiveRoot: fr,
  ethPerFeeAsset: bigUint,
});

export const l1ContractAddresses = z.object({
  rollupAddress: ethAddress,
  inboxAddress: ethAddress,
  outboxAddress: ethAddress,
});

/** NodeInfo: node version, contract-language version, L1 chain id, rollup and protocol versions, L1 contracts. */
export const nodeInfo = z.object({
  nodeVersion: z.string(),
  contractLanguageVersion: z.string(),
  l1ChainId: safeUint,
  rollupVersion: safeUint,
  protocolVersion: safeUint,
  l1ContractAddresses,
});
