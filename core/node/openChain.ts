import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { Chain } from '../chain/chain.js';
import { ChainStore } from '../chain/chainStore.js';
import { genesisTips } from '../chain/tips.js';
import { txIndexer } from '../chain/txIndex.js';
import { NodeError } from '../errors.js';
import { InboxStore } from '../messages/inboxStore.js';
import type { NodePorts } from '../ports.js';
import { createGenesis } from '../worldState/genesis.js';
import { WorldState } from '../worldState/worldState.js';
import type { WorldStateOptions } from '../worldState/worldStateConfig.js';
import { reconcileWorldState } from './reconcileWorldState.js';

/** The node's chain and what it was opened with. */
export interface OpenedChain {
  readonly constants: L1RollupConstants;
  /** The inbox and outbox the rollup deployed, read from L1 at startup. */
  readonly messageBoxAddresses: { readonly inboxAddress: Hex; readonly outboxAddress: Hex };
  readonly store: ChainStore;
  readonly worldState: WorldState;
  readonly inbox: InboxStore;
  readonly chain: Chain;
}

/**
 * Reads the rollup's constants from L1, then opens the chain store (with the tx index), the world state (brought in
 * step with the store) and the inbox over the node's storage. Fails with a clear NodeError when the L1 contract's
 * genesis is not this node's or the storage holds another chain.
 */
export async function openChain(
  ports: NodePorts,
  rollupAddress: Hex,
  worldStateOptions: Pick<WorldStateOptions, 'keyIndexMemoryKeysMax'> = {},
): Promise<OpenedChain> {
  const constants = await ports.l1.getRollupConstants();
  const messageBoxAddresses = await ports.l1.getMessageBoxAddresses();
  const genesis = createGenesis(constants.l1ChainId, constants.rollupVersion);
  if (genesis.block.archive.root !== constants.genesisArchiveRoot) {
    throw new NodeError(
      'GENESIS_MISMATCH',
      `the rollup contract's genesis archive ${constants.genesisArchiveRoot} is not this node's genesis ${genesis.block.archive.root}`,
    );
  }
  const genesisRef = { number: 0, hash: genesis.block.hash };
  const store = await ChainStore.open(
    ports.storage,
    {
      l1ChainId: constants.l1ChainId,
      rollupAddress: rollupAddress.toLowerCase() as Hex,
      rollupVersion: constants.rollupVersion,
      genesisArchiveRoot: constants.genesisArchiveRoot,
    },
    genesis,
    genesisTips(genesisRef, genesisRef),
  );
  store.registerIndexer(txIndexer);
  const worldState = await WorldState.open(ports.storage, {
    ...worldStateOptions,
    genesisBlockHash: genesis.block.hash,
  });
  const inbox = new InboxStore(ports.storage);
  await reconcileWorldState(store, worldState, inbox, ports.logger.child({ module: 'worldState' }));
  const chain = new Chain(store, worldState, ports.clock, ports.metrics);
  return { constants, messageBoxAddresses, store, worldState, inbox, chain };
}
