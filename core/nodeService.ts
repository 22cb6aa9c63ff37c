/**
 * What the node offers to its edges (the JSON-RPC adapter, the CLI, the simulator's checkers), one field per part.
 * Each part is declared and built in one file (`node.txs` in core/txs/txService.ts, and so on), so that going to a
 * method's definition from a caller lands beside the code that implements it. The RPC adapter decodes wire params
 * into these types and encodes the results; nothing here knows about JSON-RPC.
 */
import { createP2pService, type P2pService } from './network/p2pService.js';
import type { BlockTipName, CheckpointTipName, Hex, L1RollupConstants } from '../spec/chain.js';
import type { Chain } from './chain/chain.js';
import { createChainService, type ChainService } from './chain/chainService.js';
import { resolveBlockNumber } from './chain/referenceBlock.js';
import { createFeeService, type FeeService } from './fees/feeService.js';
import { createContractService, type ContractService } from './l2Contracts/contractService.js';
import { createLogService, type LogService } from './logs/logService.js';
import type { InboxStore } from './messages/inboxStore.js';
import { createMessageService, type MessageService } from './messages/messageService.js';
import type { NodeAdmin } from './node/nodeAdmin.js';
import type { NodeHealthService } from './node/nodeHealthService.js';
import { createNodeInfoService, type NodeInfoService } from './node/nodeInfoService.js';
import type { ValidatorService } from './node/validatorSide.js';
import type { NodePorts } from './ports.js';
import type { PublicStateView } from './publicVm/stateView.js';
import type { NodeTxPool } from './txPool/nodeTxPool.js';
import { createTxService, type TxService } from './txs/txService.js';
import { createWorldStateService, type WorldStateService } from './worldState/worldStateService.js';

/** A block as named by a client: number, hash, archive root, or tip (`latest` is the proposed tip). */
export type BlockQuery =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'hash'; readonly hash: Hex }
  | { readonly kind: 'archive'; readonly archive: Hex }
  /** A bare 32-byte hex: a block hash, else an archive root. */
  | { readonly kind: 'hashOrArchive'; readonly value: Hex }
  | { readonly kind: 'tag'; readonly tag: 'latest' | BlockTipName };

/** A checkpoint as named by a client: number, hash or checkpoint tip. */
export type CheckpointQuery =
  | { readonly kind: 'number'; readonly number: number }
  | { readonly kind: 'hash'; readonly hash: Hex }
  | { readonly kind: 'tag'; readonly tag: CheckpointTipName };

export interface NodeService {
  /** Blocks, checkpoints, tips, and how far the node has synced from L1 (core/chain/chainService.ts). */
  readonly chain: ChainService;
  /** State queries as of a reference block (core/worldState/worldStateService.ts). */
  readonly worldState: WorldStateService;
  /** Logs by tag (core/logs/logService.ts). */
  readonly logs: LogService;
  /** Published contract classes and instances (core/l2Contracts/contractService.ts). */
  readonly contracts: ContractService;
  /** Submission, the pool, receipts, validation and simulation (core/txs/txService.ts). */
  readonly txs: TxService;
  /** Cross-chain messages (core/messages/messageService.ts). */
  readonly messages: MessageService;
  /** Minimum fees, now and forecast (core/fees/feeService.ts). */
  readonly fees: FeeService;
  /** Versions, the rollup the node follows, readiness (core/node/nodeInfoService.ts). */
  readonly info: NodeInfoService;
  /** Operator controls, served on the admin port only (core/node/nodeAdmin.ts). */
  readonly admin: NodeAdmin;
  /** Healthy or why not, with the figures behind it, for `GET /status` (core/node/nodeHealthService.ts). */
  readonly health: NodeHealthService;
  /** The validator subsystem's queries (core/node/validatorSide.ts); absent when the node ignores the L1 validator set. */
  readonly validators?: ValidatorService;
  /** Peers and the node's ENR (core/network/p2pService.ts); absent when the node has no network. */
  readonly p2p?: P2pService;
}

export interface NodeServiceDeps {
  /** What svc_getNodeVersion and svc_getNodeInfo answer. */
  readonly nodeVersion: string;
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly rollupAddress: Hex;
  /** The inbox and outbox the rollup deployed, read from L1 at startup. */
  readonly messageBoxAddresses: { readonly inboxAddress: Hex; readonly outboxAddress: Hex };
  readonly txPool: NodeTxPool;
  /** Public state as of the latest block, for simulation. */
  readonly latestPublicState: () => PublicStateView;
  readonly inbox: InboxStore;
  readonly ports: Pick<NodePorts, 'l1' | 'logger' | 'network'>;
  readonly admin: NodeAdmin;
  readonly validators: ValidatorService | undefined;
  readonly health: NodeHealthService;
}

/**
 * Builds the node's service, part by part. The log and contract parts register their indexes on the chain store
 * (logs first), so this runs before the chain syncs.
 */
export function createNodeService(deps: NodeServiceDeps): NodeService {
  const { chain, constants } = deps;
  const txs = createTxService({ chain, pool: deps.txPool, latestPublicState: deps.latestPublicState });
  const messages = createMessageService({
    chain,
    inbox: deps.inbox,
    l1: deps.ports.l1,
    constants,
    logger: deps.ports.logger.child({ module: 'messages' }),
  });
  const resolve = (query: BlockQuery) => resolveBlockNumber(chain, query);
  return {
    chain: createChainService({ chain, constants }),
    worldState: createWorldStateService({ chain, resolveBlockNumber: resolve }),
    logs: createLogService(chain),
    contracts: createContractService(chain, resolve),
    txs,
    messages,
    fees: createFeeService(chain, constants),
    info: createNodeInfoService({
      nodeVersion: deps.nodeVersion,
      constants,
      rollupAddress: deps.rollupAddress,
      messageBoxAddresses: deps.messageBoxAddresses,
      ready: deps.health.ready,
    }),
    admin: deps.admin,
    health: deps.health,
    ...(deps.validators ? { validators: deps.validators } : {}),
    ...(deps.ports.network ? { p2p: createP2pService(deps.ports.network) } : {}),
  };
}
