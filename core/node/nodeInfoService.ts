/** The info part of NodeService: what the node says about itself (versions, the rollup it follows, readiness). */
import type { Hex, L1ContractAddresses, L1RollupConstants, NodeInfo } from '../../spec/chain.js';
import { CONTRACT_LANGUAGE_VERSION, PROTOCOL_VERSION } from '../../spec/constants.js';

export interface NodeInfoService {
  getL1Constants(): L1RollupConstants;
  getNodeInfo(): NodeInfo;
  getNodeVersion(): string;
  /** The rollup version. */
  getVersion(): number;
  /** The L1 chain id. */
  getChainId(): number;
  getL1ContractAddresses(): L1ContractAddresses;
  /** Ready to accept transactions: started, and synced to the L1 head seen at the last sync step. */
  isReady(): boolean;
}

export interface NodeInfoServiceDeps {
  /** The node's release, given by its host (production: the package's version). */
  readonly nodeVersion: string;
  readonly constants: L1RollupConstants;
  readonly rollupAddress: Hex;
  /** The inbox and outbox the rollup deployed, read from L1 at startup. */
  readonly messageBoxAddresses: { readonly inboxAddress: Hex; readonly outboxAddress: Hex };
  readonly ready: () => boolean;
}

export function createNodeInfoService(deps: NodeInfoServiceDeps): NodeInfoService {
  const { constants } = deps;
  const l1ContractAddresses = { rollupAddress: deps.rollupAddress, ...deps.messageBoxAddresses };
  return {
    getL1Constants: () => constants,
    getNodeInfo: () => ({
      nodeVersion: deps.nodeVersion,
      contractLanguageVersion: CONTRACT_LANGUAGE_VERSION,
      l1ChainId: constants.l1ChainId,
      rollupVersion: constants.rollupVersion,
      protocolVersion: PROTOCOL_VERSION,
      l1ContractAddresses,
    }),
    getNodeVersion: () => deps.nodeVersion,
    getVersion: () => constants.rollupVersion,
    getChainId: () => constants.l1ChainId,
    getL1ContractAddresses: () => l1ContractAddresses,
    isReady: deps.ready,
  };
}
