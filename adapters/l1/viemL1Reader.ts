/**
 * L1ReaderPort over viem's public client (HTTP). Every contract read is pinned to an explicit L1 block; the client
 * never caches (cacheTime 0) so reorg handling upstream sees fresh values.
 */
import {
  BlockNotFoundError,
  ContractFunctionExecutionError,
  ContractFunctionZeroDataError,
  type PublicClient,
} from 'viem';
import { inboxAbi, outboxAbi, rollupAbi } from '../../contracts/artifacts/rollup.js';
import {
  type ChainPrunedLog,
  type CheckpointProposedLog,
  type EpochProvenLog,
  type InboxMessageLog,
  type L1BlockRef,
  type L1BlockTag,
  type L1LogPosition,
  type L1ReaderPort,
  type L1Validator,
} from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import { redactUrl } from '../config/redactConfig.js';
import { VALIDATOR_SET_SIZE_MAX } from '../../spec/validators/constants.js';
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { L1_SLOT_DURATION_SECONDS } from '../../spec/constants.js';
import { callL1, createL1PublicClient, isBlockNotFound } from './l1Rpc.js';

export interface ViemL1ReaderOptions {
  readonly l1RpcUrl: string;
  readonly rollupAddress: Hex;
  /** When given, the L1 node must report this chain id (else L1Error('L1_NO_ROLLUP_CONTRACT')). */
  readonly chainId?: number;
  readonly requestTimeoutMs?: number;
}

const checkpointProposedEvent = rollupAbi.find(
  (item): item is Extract<(typeof rollupAbi)[number], { type: 'event'; name: 'CheckpointProposed' }> =>
    item.type === 'event' && item.name === 'CheckpointProposed',
)!;

const epochProvenEvent = rollupAbi.find(
  (item): item is Extract<(typeof rollupAbi)[number], { type: 'event'; name: 'EpochProven' }> =>
    item.type === 'event' && item.name === 'EpochProven',
)!;

const chainPrunedEvent = rollupAbi.find(
  (item): item is Extract<(typeof rollupAbi)[number], { type: 'event'; name: 'ChainPruned' }> =>
    item.type === 'event' && item.name === 'ChainPruned',
)!;

const messageSentEvent = inboxAbi.find(
  (item): item is Extract<(typeof inboxAbi)[number], { type: 'event'; name: 'MessageSent' }> =>
    item.type === 'event' && item.name === 'MessageSent',
)!;

/** Where a (mined, strictly decoded) log was emitted. */
function positionOf(log: {
  blockNumber: bigint;
  blockHash: Hex;
  transactionHash: Hex;
  logIndex: number;
}): L1LogPosition {
  return {
    blockNumber: log.blockNumber,
    blockHash: log.blockHash,
    txHash: log.transactionHash,
    logIndex: log.logIndex,
  };
}

/** A uint256 from L1 that the port carries as a number: must be a safe integer. */
function toSafeNumber(value: bigint, what: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER))
    throw new L1Error('L1_NO_ROLLUP_CONTRACT', `${what} ${value} is not a safe integer`);
  return Number(value);
}

export function createViemL1Reader(options: ViemL1ReaderOptions): L1ReaderPort {
  // Messages name the endpoint redacted: its URL may carry an API key.
  const url = redactUrl(options.l1RpcUrl);
  const address = options.rollupAddress;
  const client = createL1PublicClient(options.l1RpcUrl, { requestTimeoutMs: options.requestTimeoutMs });
  /** Contract reads pinned to `atBlock`; a block past the head is L1_BLOCK_NOT_FOUND, no code is L1_NO_ROLLUP_CONTRACT. */
  const pinnedRead = <T>(what: string, atBlock: bigint, read: () => Promise<T>) =>
    callL1(url, what, async () => {
      try {
        return await read();
      } catch (error) {
        throw mapReadError(error, what, atBlock);
      }
    });

  const mapReadError = (error: unknown, what: string, atBlock: bigint): unknown => {
    if (isBlockNotFound(error)) {
      return new L1Error('L1_BLOCK_NOT_FOUND', `L1 block ${atBlock} not found on ${url} (${what})`, { cause: error });
    }
    const zeroData =
      error instanceof ContractFunctionExecutionError && error.cause instanceof ContractFunctionZeroDataError;
    if (zeroData || error instanceof ContractFunctionZeroDataError) {
      return new L1Error(
        'L1_NO_ROLLUP_CONTRACT',
        `no rollup contract at ${address} on ${url} at L1 block ${atBlock} (${what})`,
        {
          cause: error,
        },
      );
    }
    return error;
  };

  const readUint = (functionName: RollupUintGetter, atBlock: bigint) =>
    pinnedRead(functionName, atBlock, () =>
      client.readContract({ address, abi: rollupAbi, functionName, blockNumber: atBlock }),
    ) as Promise<bigint>;

  const getChainId = () => callL1(url, 'eth_chainId', () => client.getChainId());

  /** The rollup deploys its inbox and outbox in its constructor: their addresses never change, so read them once. */
  let messageBoxes: Promise<{ inbox: Hex; outbox: Hex }> | undefined;
  const getMessageBoxes = (atBlock: bigint) => {
    messageBoxes ??= Promise.all([
      pinnedRead('getInbox', atBlock, () =>
        client.readContract({ address, abi: rollupAbi, functionName: 'getInbox', blockNumber: atBlock }),
      ),
      pinnedRead('getOutbox', atBlock, () =>
        client.readContract({ address, abi: rollupAbi, functionName: 'getOutbox', blockNumber: atBlock }),
      ),
    ]).then(([inbox, outbox]) => ({ inbox: inbox as Hex, outbox: outbox as Hex }));
    messageBoxes.catch(() => (messageBoxes = undefined));
    return messageBoxes;
  };

  return {
    async getChainId() {
      const chainId = await getChainId();
      assertExpectedChain(chainId, options.chainId, url);
      return chainId;
    },

    getBlock: (tag) => readBlock(client, url, tag),

    async getRollupConstants() {
      const chainId = await getChainId();
      assertExpectedChain(chainId, options.chainId, url);
      const atBlock = await callL1(url, 'eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 }));
      const code = await callL1(url, 'eth_getCode', () => client.getCode({ address, blockNumber: atBlock }));
      if (code === undefined || code === '0x') {
        throw new L1Error(
          'L1_NO_ROLLUP_CONTRACT',
          `no contract code at ${address} on ${url} (chain ${chainId}, L1 block ${atBlock})`,
        );
      }
      const [
        genesisTime,
        slotDuration,
        epochDuration,
        proofSubmissionEpochs,
        l1StartBlock,
        version,
        genesisArchiveRoot,
        ethPerFeeAsset,
      ] = await Promise.all([
        readUint('getGenesisTime', atBlock),
        readUint('getSlotDuration', atBlock),
        readUint('getEpochDuration', atBlock),
        readUint('getProofSubmissionEpochs', atBlock),
        readUint('getL1StartBlock', atBlock),
        readUint('getVersion', atBlock),
        readArchive(0, atBlock),
        readUint('getEthPerFeeAsset', atBlock),
      ]);
      const constants: L1RollupConstants = {
        l1ChainId: chainId,
        rollupVersion: toSafeNumber(version, 'rollup version'),
        l1StartBlock,
        l1GenesisTime: genesisTime,
        slotDuration: toSafeNumber(slotDuration, 'slot duration'),
        epochDuration: toSafeNumber(epochDuration, 'epoch duration'),
        ethereumSlotDuration: L1_SLOT_DURATION_SECONDS,
        proofSubmissionEpochs: toSafeNumber(proofSubmissionEpochs, 'proof submission epochs'),
        genesisArchiveRoot,
        ethPerFeeAsset,
      };
      return constants;
    },

    async getCheckpointCount(atBlock) {
      return toSafeNumber(await readUint('getCheckpointCount', atBlock), 'checkpoint count');
    },

    getArchiveAt: (checkpointNumber, atBlock) => readArchive(checkpointNumber, atBlock),

    async getCheckpointProposedLogs(fromBlock, toBlock) {
      if (fromBlock > toBlock) return [];
      const logs = await callL1(url, 'eth_getLogs', () =>
        client.getLogs({ address, event: checkpointProposedEvent, fromBlock, toBlock, strict: true }),
      );
      return logs
        .filter((log) => !log.removed)
        .map((log): CheckpointProposedLog => ({
          checkpointNumber: toSafeNumber(log.args.checkpointNumber, 'checkpoint number'),
          archive: log.args.archive,
          slotNumber: toSafeNumber(log.args.slotNumber, 'slot number'),
          header: log.args.header,
          blobVersionedHashes: [...log.args.blobHashes],
          attestations: log.args.attestations,
          l1: positionOf(log),
        }));
    },

    async getProvenCheckpoint(atBlock) {
      const [checkpointNumber, l1BlockNumber] = await pinnedRead('getProvenCheckpoint', atBlock, () =>
        client.readContract({ address, abi: rollupAbi, functionName: 'getProvenCheckpoint', blockNumber: atBlock }),
      );
      return { checkpointNumber: toSafeNumber(checkpointNumber, 'proven checkpoint number'), l1BlockNumber };
    },

    async getEpochProvenLogs(fromBlock, toBlock) {
      if (fromBlock > toBlock) return [];
      const logs = await callL1(url, 'eth_getLogs(EpochProven)', () =>
        client.getLogs({ address, event: epochProvenEvent, fromBlock, toBlock, strict: true }),
      );
      return logs
        .filter((log) => !log.removed)
        .map((log): EpochProvenLog => ({
          epoch: toSafeNumber(log.args.epoch, 'epoch'),
          fromCheckpoint: toSafeNumber(log.args.fromCheckpoint, 'checkpoint number'),
          toCheckpoint: toSafeNumber(log.args.toCheckpoint, 'checkpoint number'),
          endArchive: log.args.endArchive,
          outHash: log.args.outHash,
          l1: positionOf(log),
        }));
    },

    async getChainPrunedLogs(fromBlock, toBlock) {
      if (fromBlock > toBlock) return [];
      const logs = await callL1(url, 'eth_getLogs(ChainPruned)', () =>
        client.getLogs({ address, event: chainPrunedEvent, fromBlock, toBlock, strict: true }),
      );
      return logs
        .filter((log) => !log.removed)
        .map((log): ChainPrunedLog => ({
          provenCheckpointNumber: toSafeNumber(log.args.provenCheckpointNumber, 'checkpoint number'),
          pendingCheckpointCount: toSafeNumber(log.args.pendingCheckpointCount, 'checkpoint count'),
          l1: positionOf(log),
        }));
    },

    async getValidators(atBlock) {
      const count = toSafeNumber(await readUint('getValidatorCount', atBlock), 'validator count');
      assertValidatorSetSize(count);
      const validators: L1Validator[] = [];
      // One read per entry; the set is read again only when its count changes (core/validators/validatorDuties.ts).
      for (let index = 0; index < count; index++) {
        const [attester, blsPublicKey, proofOfPossession, activeFromEpoch] = await pinnedRead(
          `getValidator(${index})`,
          atBlock,
          () =>
            client.readContract({
              address,
              abi: rollupAbi,
              functionName: 'getValidator',
              args: [BigInt(index)],
              blockNumber: atBlock,
            }),
        );
        validators.push({
          address: attester.toLowerCase() as Hex,
          blsPublicKey,
          proofOfPossession,
          activeFromEpoch: toSafeNumber(activeFromEpoch, 'activation epoch'),
        });
      }
      return validators;
    },

    async getInboxMessageLogs(fromBlock, toBlock) {
      if (fromBlock > toBlock) return [];
      const { inbox } = await getMessageBoxes(toBlock);
      const logs = await callL1(url, 'eth_getLogs(MessageSent)', () =>
        client.getLogs({ address: inbox, event: messageSentEvent, fromBlock, toBlock, strict: true }),
      );
      return logs
        .filter((log) => !log.removed)
        .map((log): InboxMessageLog => ({
          checkpointNumber: toSafeNumber(log.args.checkpointNumber, 'inbox tree number'),
          index: log.args.index,
          leaf: log.args.leaf,
          treeHash: log.args.treeHash,
          l1: positionOf(log),
        }));
    },

    async getOutboxRoot(epoch, checkpointsNeeded, atBlock) {
      const { outbox } = await getMessageBoxes(atBlock);
      const [covered, root] = await pinnedRead('smallestCoveringRoot', atBlock, () =>
        client.readContract({
          address: outbox,
          abi: outboxAbi,
          functionName: 'smallestCoveringRoot',
          args: [BigInt(epoch), BigInt(checkpointsNeeded)],
          blockNumber: atBlock,
        }),
      );
      return covered === 0n ? undefined : { checkpointsCovered: toSafeNumber(covered, 'checkpoints covered'), root };
    },

    async getMessageBoxAddresses() {
      const atBlock = await callL1(url, 'eth_blockNumber', () => client.getBlockNumber({ cacheTime: 0 }));
      const { inbox, outbox } = await getMessageBoxes(atBlock);
      return { inboxAddress: inbox.toLowerCase() as Hex, outboxAddress: outbox.toLowerCase() as Hex };
    },
  };

  function readArchive(checkpointNumber: number, atBlock: bigint): Promise<Hex> {
    const what = `getArchive(${checkpointNumber})`;
    return pinnedRead(what, atBlock, () =>
      client.readContract({
        address,
        abi: rollupAbi,
        functionName: 'getArchive',
        args: [BigInt(checkpointNumber)],
        blockNumber: atBlock,
      }),
    ) as Promise<Hex>;
  }
}

type RollupUintGetter =
  | 'getEthPerFeeAsset'
  | 'getGenesisTime'
  | 'getSlotDuration'
  | 'getEpochDuration'
  | 'getProofSubmissionEpochs'
  | 'getL1StartBlock'
  | 'getVersion'
  | 'getCheckpointCount'
  | 'getValidatorCount';

function assertValidatorSetSize(count: number): void {
  if (count > VALIDATOR_SET_SIZE_MAX)
    throw new L1Error(
      'L1_NO_ROLLUP_CONTRACT',
      `the rollup contract reports ${count} validators, above VALIDATOR_SET_SIZE_MAX ${VALIDATOR_SET_SIZE_MAX}`,
    );
}

function assertExpectedChain(actual: number, expected: number | undefined, url: string): void {
  if (expected !== undefined && actual !== expected) {
    throw new L1Error(
      'L1_NO_ROLLUP_CONTRACT',
      `L1 node at ${url} is on chain ${actual}, configured for chain ${expected}`,
    );
  }
}

/** A block by tag, number or hash. */
async function readBlock(client: PublicClient, url: string, tag: L1BlockTag | Hex): Promise<L1BlockRef> {
  const block = await callL1(url, `eth_getBlock(${tag})`, async () => {
    try {
      if (typeof tag === 'bigint') return await client.getBlock({ blockNumber: tag });
      if (tag === 'latest' || tag === 'finalized') return await client.getBlock({ blockTag: tag });
      return await client.getBlock({ blockHash: tag });
    } catch (error) {
      if (error instanceof BlockNotFoundError || isBlockNotFound(error)) {
        throw new L1Error('L1_BLOCK_NOT_FOUND', `L1 block ${String(tag)} not found on ${url}`, { cause: error });
      }
      throw error;
    }
  });
  if (block.number === null || block.hash === null) {
    throw new L1Error('L1_BLOCK_NOT_FOUND', `L1 block ${String(tag)} on ${url} is still pending`);
  }
  return { number: block.number, hash: block.hash, parentHash: block.parentHash, timestamp: block.timestamp };
}
