/**
 * The contract index: classes and instances made public by mined tx effects, kept in the chain store's batches
 * (core/chain/blockIndexer.ts), so entries appear and leave with their blocks. Key layout: contractKeys.ts.
 *
 * Publication rules (a publication in a mined effect is the registry's record of it; the effect keeps its
 * publications whatever its execution result, as they are part of the tx's non-revertible side effects):
 * - Class registration: the earliest registration of an id wins (earliest block, then earliest in the block). Later
 *   registrations of the same id change nothing. The class's bytecode is stored with its registration entry only.
 * - Instance publication: the earliest publication of an address is the instance; every field of the answer comes
 *   from it except the current class.
 * - Class update: a later publication for the same address whose `originalContractClassId` equals the first
 *   publication's sets the current class to its `currentContractClassId` from its block on (the last such
 *   publication in a block wins within the block). Any other republication (another original class id) is ignored.
 *
 * An indexer sees one block and cannot read the store, so it cannot know whether a publication is the first one.
 * It therefore writes every block's candidates and the reader applies the rules (contractStore.ts):
 * - `class` and `instance` entries: the first registration of an id, and the first publication of an address, in
 *   this block. The reader takes the earliest block's entry.
 * - `currentClass` entries: per (address, original class id), the class of the last publication in this block. The
 *   reader looks only under the first publication's original class id, so republications with another one are
 *   never read.
 * Because a prune removes whole blocks above a height, the earliest kept entry is always the earliest on the chain.
 */
import type { Block, ContractClassPublication, ContractInstancePublication, Hex } from '../../spec/chain.js';
import { TXS_PER_BLOCK_MAX } from '../../spec/constants.js';
import { assert } from '../assert.js';
import type { BlockIndexer, IndexOp } from '../chain/blockIndexer.js';
import { toStoredJson } from '../chain/serde.js';
import { canonicalField, classKey, CONTRACT_KEY_PREFIX, currentClassKey, instanceKey } from './contractKeys.js';

interface IndexEntry {
  readonly key: string;
  readonly value: string;
}

function canonical(value: Hex, what: string): Hex {
  const field = canonicalField(value);
  assert(field !== undefined, `a mined ${what} is a field element, not ${value}`);
  return field;
}

const HEX_BYTES = /^0x([0-9a-fA-F]{2})*$/;

/** The class with its hex in canonical form (as the wire and the keys write it). */
export function canonicalClass(publication: ContractClassPublication): ContractClassPublication {
  assert(HEX_BYTES.test(publication.packedBytecode), `the bytecode of class ${publication.id} is hex bytes`);
  return {
    id: canonical(publication.id, 'class id'),
    version: publication.version,
    artifactHash: canonical(publication.artifactHash, 'artifact hash'),
    privateFunctionsRoot: canonical(publication.privateFunctionsRoot, 'private functions root'),
    publicBytecodeCommitment: canonical(publication.publicBytecodeCommitment, 'bytecode commitment'),
    packedBytecode: publication.packedBytecode.toLowerCase() as Hex,
  };
}

/** The instance with its hex in canonical form. */
export function canonicalInstance(publication: ContractInstancePublication): ContractInstancePublication {
  return {
    address: canonical(publication.address, 'contract address'),
    version: publication.version,
    salt: canonical(publication.salt, 'salt'),
    deployer: canonical(publication.deployer, 'deployer'),
    currentContractClassId: canonical(publication.currentContractClassId, 'current class id'),
    originalContractClassId: canonical(publication.originalContractClassId, 'original class id'),
    initializationHash: canonical(publication.initializationHash, 'initialization hash'),
    publicKeysHash: canonical(publication.publicKeysHash, 'public keys hash'),
  };
}

/** The block's publications in chain order (txs in block order, publications in effect order), canonical. */
function publicationsOf(block: Block): {
  classes: ContractClassPublication[];
  instances: ContractInstancePublication[];
} {
  const effects = block.body.txEffects;
  assert(
    effects.length <= TXS_PER_BLOCK_MAX,
    `block ${block.header.globalVariables.blockNumber} holds at most ${TXS_PER_BLOCK_MAX} txs`,
  );
  return {
    classes: effects.flatMap((effect) => effect.contractClassPublications.map(canonicalClass)),
    instances: effects.flatMap((effect) => effect.contractInstancePublications.map(canonicalInstance)),
  };
}

/** Every entry the block contributes; a pure function of the block, so its removal deletes exactly these keys. */
export function contractEntriesOf(block: Block): IndexEntry[] {
  const blockNumber = block.header.globalVariables.blockNumber;
  const { classes, instances } = publicationsOf(block);
  const entries = new Map<string, string>();
  for (const publication of classes) {
    const key = classKey(publication.id, blockNumber);
    if (!entries.has(key)) entries.set(key, toStoredJson(publication));
  }
  for (const publication of instances) {
    const key = instanceKey(publication.address, blockNumber);
    if (!entries.has(key)) entries.set(key, toStoredJson(publication));
    // Last wins: a later publication in the block with the same original class id is the newer version.
    entries.set(
      currentClassKey(publication.address, publication.originalContractClassId, blockNumber),
      publication.currentContractClassId,
    );
  }
  return [...entries].map(([key, value]) => ({ key, value }));
}

export const contractIndexer: BlockIndexer = {
  keyPrefix: CONTRACT_KEY_PREFIX,
  blockAdded: (block): IndexOp[] => contractEntriesOf(block).map(({ key, value }) => ({ type: 'put', key, value })),
  blockRemoved: (block): IndexOp[] => contractEntriesOf(block).map(({ key }) => ({ type: 'del', key })),
};
