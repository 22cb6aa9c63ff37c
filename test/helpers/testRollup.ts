/**
 * The rollup contract a test deploys on its own anvil: the local network's chain id and rollup version, 36-second
 * slots, 32-slot epochs, one epoch to prove, the default fee-asset rate, from the local deployer account.
 */
import { deployRollup, type DeployedRollup } from '../../adapters/l1/deployRollup.js';
import { LOCAL_DEPLOYER_PRIVATE_KEY } from '../../adapters/node/localNetwork.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import { INITIAL_ETH_PER_FEE_ASSET_DEFAULT } from '../../spec/config/schema.js';
import { L1_CHAIN_ID_LOCAL_NETWORK, ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT } from '../../spec/constants.js';

export function deployTestRollup(l1RpcUrl: string): Promise<DeployedRollup> {
  return deployRollup({
    l1RpcUrl,
    deployerPrivateKey: LOCAL_DEPLOYER_PRIVATE_KEY,
    genesisArchive: createGenesis(L1_CHAIN_ID_LOCAL_NETWORK, ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT).block.archive.root,
    slotDuration: 36,
    epochDuration: 32,
    proofSubmissionEpochs: 1,
    rollupVersion: ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT,
    ethPerFeeAsset: INITIAL_ETH_PER_FEE_ASSET_DEFAULT,
  });
}
