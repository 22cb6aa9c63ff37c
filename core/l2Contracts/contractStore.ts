/**
 * Reads of the contract index (contractIndexer.ts states the rules, contractKeys.ts the layout): a class by id, an
 * instance with its current class as of a block, and the reader public execution uses.
 */
import type { ContractClassPublication, ContractInstancePublication, Hex, L2Tips } from '../../spec/chain.js';
import { hexToBytes } from '../../spec/codec/bytes.js';
import { fromStoredJson } from '../chain/serde.js';
import { NodeError } from '../errors.js';
import type { PublicStateView } from '../publicVm/stateView.js';
import { CONTRACT_READ_ATTEMPTS_MAX } from './contractConstants.js';
import {
  blockOfAscendingKey,
  blockOfDescendingKey,
  canonicalField,
  classPrefix,
  currentClassPrefix,
  descendingBlock,
  instancePrefix,
} from './contractKeys.js';
import { firstEntry, firstEntryAtOrAfter, type ContractIndexStore } from './indexSeek.js';

/**
 * The class registered under `classId` (any case), from its first registration; undefined when never registered,
 * or, with `asOfBlock`, not registered by the end of that block.
 */
export async function findContractClass(
  store: ContractIndexStore,
  classId: string,
  asOfBlock?: number,
): Promise<ContractClassPublication | undefined> {
  const id = canonicalField(classId);
  if (id === undefined) return undefined;
  const first = await firstEntry(store, classPrefix(id));
  if (first === undefined || (asOfBlock !== undefined && blockOfAscendingKey(first[0]) > asOfBlock)) return undefined;
  return fromStoredJson<ContractClassPublication>(first[1]);
}

/** One attempt at an instance lookup; unsettled when a prune removed what the first read found before the second. */
type InstanceRead =
  { readonly settled: true; readonly instance: ContractInstancePublication | undefined } | { readonly settled: false };

async function readInstance(store: ContractIndexStore, address: Hex, asOfBlock: number): Promise<InstanceRead> {
  const first = await firstEntry(store, instancePrefix(address));
  if (first === undefined || blockOfAscendingKey(first[0]) > asOfBlock) return { settled: true, instance: undefined };
  const published = fromStoredJson<ContractInstancePublication>(first[1]);
  const versions = currentClassPrefix(address, published.originalContractClassId);
  const version = await firstEntryAtOrAfter(store, versions, descendingBlock(asOfBlock));
  // The first publication wrote a version in its own block, which is at or before `asOfBlock`.
  if (version === undefined || blockOfDescendingKey(version[0]) < blockOfAscendingKey(first[0]))
    return { settled: false };
  return { settled: true, instance: { ...published, currentContractClassId: version[1] as Hex } };
}

/**
 * The instance at `address` (any case) with its current class as of the end of block `asOfBlock`; undefined when
 * no instance was published there by then. STATE_NOT_AVAILABLE when prunes kept removing the entries being read.
 */
export async function findContractInstance(
  store: ContractIndexStore,
  address: string,
  asOfBlock: number,
): Promise<ContractInstancePublication | undefined> {
  const canonical = canonicalField(address);
  if (canonical === undefined) return undefined;
  for (let attempt = 1; attempt <= CONTRACT_READ_ATTEMPTS_MAX; attempt++) {
    const read = await readInstance(store, canonical, asOfBlock);
    if (read.settled) return read.instance;
  }
  throw new NodeError(
    'STATE_NOT_AVAILABLE',
    `block ${asOfBlock} left the chain while the contract at ${canonical} was being read`,
    {
      blockNumber: asOfBlock,
      reason: 'unknown',
    },
  );
}

/** What public execution reads of contracts (the contract half of PublicStateView). */
export type ContractReader = Pick<PublicStateView, 'contractClassId' | 'contractClassBytecode'>;

/**
 * Contracts as of the end of block `blockNumber`, for public execution (a block builder passes the block it builds
 * on). Class ids come back canonical (lowercase), as PublicStateOverlay keys are.
 */
export function contractReaderAt(chain: { readonly store: ContractIndexStore }, blockNumber: number): ContractReader {
  return {
    contractClassId: async (address) =>
      (await findContractInstance(chain.store, address, blockNumber))?.currentContractClassId,
    async contractClassBytecode(classId) {
      const found = await findContractClass(chain.store, classId, blockNumber);
      return found === undefined ? undefined : hexToBytes(found.packedBytecode);
    },
  };
}

/** Contracts as of the chain's proposed tip at the time of each read (for simulation and building on the tip). */
export function latestContractReader(chain: {
  readonly store: ContractIndexStore;
  readonly tips: L2Tips;
}): ContractReader {
  return {
    contractClassId: (address) => contractReaderAt(chain, chain.tips.proposed.number).contractClassId(address),
    contractClassBytecode: (classId) =>
      contractReaderAt(chain, chain.tips.proposed.number).contractClassBytecode(classId),
  };
}
