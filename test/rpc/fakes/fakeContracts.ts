/**
 * Fake contract answers of the fake node: one registered class, and one instance published in block 1 with that
 * class and updated in block 3 to a second class, so the wire shapes and the reference-block resolution show.
 * Reference blocks resolve over the fake chain (blocks 0 to 3); any other is STATE_NOT_AVAILABLE.
 */
import { NodeError } from '../../../core/errors.js';
import type { ContractService } from '../../../core/l2Contracts/contractService.js';
import type { BlockQuery } from '../../../core/nodeService.js';
import { PROTOCOL_CONTRACTS } from '../../../core/l2Contracts/contractConstants.js';
import type { ContractClassPublication, ContractInstancePublication, Hex } from '../../../spec/chain.js';
// Read only when a method runs: fakeNode.ts imports this file too.
import { blocks, tips } from '../fakeNode.js';

const field = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;

export const fakeClass: ContractClassPublication = {
  id: field(0xc1a55),
  version: 1,
  artifactHash: field(0xa27),
  privateFunctionsRoot: field(0x9f),
  publicBytecodeCommitment: field(0xb0c),
  packedBytecode: '0x0a0b0c0d',
};
export const fakeUpdatedClassId = field(0xc1a56);
/** Published in block 1 with `fakeClass`; from block 3 on its current class is `fakeUpdatedClassId`. */
export const fakeInstance: ContractInstancePublication = {
  address: field(0xc0de),
  version: 1,
  salt: field(0x5a17),
  deployer: field(0xde9),
  currentContractClassId: fakeClass.id,
  originalContractClassId: fakeClass.id,
  initializationHash: field(0x1417),
  publicKeysHash: field(0x9eb),
};
export const FAKE_INSTANCE_PUBLISHED_BLOCK = 1;
export const FAKE_CLASS_UPDATE_BLOCK = 3;

function blockNumberOf(query: BlockQuery): number | undefined {
  const numbers = blocks.map((block) => block.header.globalVariables.blockNumber);
  switch (query.kind) {
    case 'number':
      return numbers.includes(query.number) ? query.number : undefined;
    case 'tag':
      return query.tag === 'latest' || query.tag === 'proposed' ? tips.proposed.number : tips[query.tag].block.number;
    case 'hash':
      return blocks.find((block) => block.hash === query.hash)?.header.globalVariables.blockNumber;
    case 'archive':
      return blocks.find((block) => block.archive.root === query.archive)?.header.globalVariables.blockNumber;
    case 'hashOrArchive':
      return blocks.find((block) => block.hash === query.value || block.archive.root === query.value)?.header
        .globalVariables.blockNumber;
  }
}

function instanceAt(blockNumber: number): ContractInstancePublication | undefined {
  if (blockNumber < FAKE_INSTANCE_PUBLISHED_BLOCK) return undefined;
  return blockNumber < FAKE_CLASS_UPDATE_BLOCK
    ? fakeInstance
    : { ...fakeInstance, currentContractClassId: fakeUpdatedClassId };
}

export const fakeContracts: ContractService = {
  getContractClass: async (id) => (id.toLowerCase() === fakeClass.id ? fakeClass : undefined),
  async getContract(address, query) {
    const blockNumber = blockNumberOf(query);
    if (blockNumber === undefined)
      throw new NodeError('STATE_NOT_AVAILABLE', 'the reference block is not known to this node', {
        reason: 'unknown',
      });
    return address.toLowerCase() === fakeInstance.address ? instanceAt(blockNumber) : undefined;
  },
  getProtocolContractAddresses: () => PROTOCOL_CONTRACTS,
};
