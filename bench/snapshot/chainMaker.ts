/**
 * Puts a long chain on anvil fast, for the snapshot benchmark: a proposer that builds every slot's blocks with the
 * sequencer's block builder (core/sequencer/blockBuilder.ts) over its own in-memory chain, publishes each slot as
 * one checkpoint in a blob transaction through the node's L1 publisher, marks it checkpointed from the L1 log as the
 * archiver does (core/archiver/checkpointDecoding.ts), and proves each epoch once it is over with the prover's own
 * planning (core/prover/proverDuties.ts). Slots are not waited for: anvil starts in the past and each L1 transaction
 * is mined at the timestamp of its slot (`evm_setNextBlockTimestamp`), so 625 slots of 36 s take minutes, not hours.
 *
 * The blocks carry synthetic tx effects (unique note hashes and nullifiers, public data writes to a bounded set of
 * slots, a private and a public log each), not executed txs: sync and snapshots never execute txs, they apply
 * effects, and these give the world state and the archive the content a busy chain has.
 */
import { createHash } from 'node:crypto';
import { TransactionReceiptNotFoundError, type PublicClient, type TransactionReceipt } from 'viem';
import { createL1PublicClient } from '../../adapters/l1/l1Rpc.js';
import { createViemL1Publisher } from '../../adapters/l1/viemL1Publisher.js';
import { createViemL1Reader } from '../../adapters/l1/viemL1Reader.js';
import { createMemoryStorage } from '../../adapters/storage/memoryStorage.js';
import { decodeCheckpoint } from '../../core/archiver/checkpointDecoding.js';
import { Chain } from '../../core/chain/chain.js';
import { ChainStore } from '../../core/chain/chainStore.js';
import { genesisTips } from '../../core/chain/tips.js';
import { checkpointedFeeBasis } from '../../core/fees/feeBasis.js';
import { feeFloor, nextGasFees } from '../../core/fees/minFees.js';
import type { L1PublisherPort, L1ReaderPort, LoggerPort } from '../../core/ports.js';
import { planEpochProof, submitEpochProof } from '../../core/prover/proverDuties.js';
import { buildBlock } from '../../core/sequencer/blockBuilder.js';
import { commitmentVerifier } from '../../core/verifier/commitmentVerifier.js';
import { createGenesis } from '../../core/worldState/genesis.js';
import { WorldState } from '../../core/worldState/worldState.js';
import type { Block, CheckpointHeader, Hex, L1RollupConstants, TxEffect } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { encodeCheckpointPayload, payloadToBlobs } from '../../spec/codec/checkpointBlobs.js';
import { blobsHash, encodeCheckpointHeader } from '../../spec/codec/checkpointHeader.js';
import { outTreeRoot } from '../../spec/messages/outbox.js';
import { inboxTreeHash } from '../../spec/messages/inbox.js';
import { EMPTY_CHECKPOINT_ATTESTATIONS } from '../../spec/validators/checkpointAttestations.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../spec/config/allowList.js';
import { feePayerBalanceSlot } from '../../spec/vm/storageSlots.js';

export interface ChainShape {
  /** Checkpoints (one per slot, from slot 1). */
  readonly checkpoints: number;
  readonly blocksPerCheckpoint: number;
  readonly txsPerBlock: number;
  /** Public data writes go to this many distinct slots, so that later blocks update earlier leaves. */
  readonly publicDataSlots: number;
  /**
   * Fee payers the chain funds (fee-asset balances written by the first blocks' txs, `writesPerTx` each), so that a
   * node synced from it accepts txs they pay for; absent: none (the genesis test accounts only).
   */
  readonly feePayerFunding?: { readonly payers: number; readonly writesPerTx: number; readonly balance: bigint };
  /** Each tx's public log carries a tag of its own (`publicLogTag`); absent: one tag per index in the block. */
  readonly uniquePublicLogTags?: boolean;
}

export interface ChainMakerOptions {
  readonly l1RpcUrl: string;
  readonly rollupAddress: Hex;
  readonly publisherPrivateKey: Hex;
  readonly proverPrivateKey: Hex;
  readonly logger: LoggerPort;
}

export interface ChainMaker {
  readonly constants: L1RollupConstants;
  /** Publishes the next `count` checkpoints (proving every epoch that ends on the way); resolves with the last. */
  publish(count: number, onCheckpoint?: (checkpointNumber: number) => void): Promise<PublishedTip>;
}

export interface PublishedTip {
  readonly checkpointNumber: number;
  readonly blockNumber: number;
  readonly blockHash: Hex;
}

const COINBASE: Hex = `0x${'c0'.repeat(20)}`;
const FEE_RECIPIENT: Hex = `0x${'00'.repeat(31)}fe`;
/** Seconds into its slot at which a checkpoint's L1 transaction is mined (then the proof's, one second later). */
const PROPOSAL_OFFSET_IN_SLOT_SECONDS = 20n;
const MANA_PER_TX = 120_000n;
const RECEIPT_POLL_INTERVAL_MS = 20;
const RECEIPT_TIMEOUT_MS = 120_000;
/** The node's L1 requests give up after 10 s; the maker is set-up, not measured, so it waits out a loaded machine. */
const MAKER_L1_REQUEST_TIMEOUT_MS = 60_000;

/** A field element (a leading zero byte) derived from `label`. */
function field(label: string): Hex {
  const digest = createHash('sha256').update(label).digest();
  digest[0] = 0;
  return bytesToHex(digest);
}

/** The address of funded fee payer `n` (see ChainShape.feePayerFunding). */
export const fundedFeePayer = (n: number): Hex => field(`payer/${n}`);

/** The synthetic tx's hash, nullifiers, public data slots and public log tag, as the load of a bench asks for them. */
export const syntheticTxHash = (blockNumber: number, index: number): Hex => field(`tx/${blockNumber}/${index}`);
export const syntheticNullifier = (blockNumber: number, index: number, n: 0 | 1): Hex =>
  field(`nullifier/${blockNumber}/${index}/${n}`);
export const syntheticPublicDataSlot = (slot: number): Hex => field(`slot/${slot}`);
export const syntheticContractAddress = (): Hex => field('contract');
export const publicLogTag = (blockNumber: number, index: number, unique: boolean): Hex =>
  field(unique ? `ptag/${blockNumber}/${index}` : `ptag/${index}`);

/** The fee-asset balance writes of the payers tx (`blockNumber`, `index`) funds, if any. */
function fundingWrites(blockNumber: number, index: number, shape: ChainShape): { leafSlot: Hex; value: Hex }[] {
  const funding = shape.feePayerFunding;
  if (funding === undefined) return [];
  const first = ((blockNumber - 1) * shape.txsPerBlock + index) * funding.writesPerTx;
  const value = `0x${funding.balance.toString(16).padStart(64, '0')}` as Hex;
  const writes: { leafSlot: Hex; value: Hex }[] = [];
  for (let n = first; n < Math.min(first + funding.writesPerTx, funding.payers); n++)
    writes.push({ leafSlot: feePayerBalanceSlot(PROTOCOL_CONTRACT_ADDRESSES.feeAsset, fundedFeePayer(n)), value });
  return writes;
}

export function syntheticTxEffect(blockNumber: number, index: number, shape: ChainShape): TxEffect {
  const id = `${blockNumber}/${index}`;
  const slot = (blockNumber * shape.txsPerBlock + index) % shape.publicDataSlots;
  const tag = publicLogTag(blockNumber, index, shape.uniquePublicLogTags === true);
  return {
    txHash: field(`tx/${id}`),
    executionResult: 'success',
    transactionFee: 0n,
    noteHashes: [field(`note/${id}/0`), field(`note/${id}/1`)],
    nullifiers: [field(`nullifier/${id}/0`), field(`nullifier/${id}/1`)],
    l2ToL1Messages: [],
    publicDataWrites: [
      { leafSlot: field(`slot/${slot}`), value: field(`value/${id}`) },
      ...fundingWrites(blockNumber, index, shape),
    ],
    privateLogs: [{ tag: field(`tag/${id}`), fields: [field(`p/${id}/0`), field(`p/${id}/1`), field(`p/${id}/2`)] }],
    publicLogs: [{ contractAddress: field('contract'), tag, fields: [field(`v/${id}`)] }],
    contractClassPublications: [],
    contractInstancePublications: [],
  };
}

export async function createChainMaker(options: ChainMakerOptions, shape: ChainShape): Promise<ChainMaker> {
  const requestTimeoutMs = MAKER_L1_REQUEST_TIMEOUT_MS;
  const l1 = createViemL1Reader({ l1RpcUrl: options.l1RpcUrl, rollupAddress: options.rollupAddress, requestTimeoutMs });
  const client = createL1PublicClient(options.l1RpcUrl, { requestTimeoutMs });
  const publisher = createViemL1Publisher({
    l1RpcUrl: options.l1RpcUrl,
    rollupAddress: options.rollupAddress,
    publisherPrivateKey: options.publisherPrivateKey,
    requestTimeoutMs,
  });
  const prover = createViemL1Publisher({
    l1RpcUrl: options.l1RpcUrl,
    rollupAddress: options.rollupAddress,
    publisherPrivateKey: options.proverPrivateKey,
    requestTimeoutMs,
  });
  const constants = await l1.getRollupConstants();
  const chain = await openMakerChain(constants, options.rollupAddress);
  const context: MakerContext = { l1, client, publisher, prover, chain, constants, shape, logger: options.logger };
  return {
    constants,
    async publish(count, onCheckpoint) {
      for (let i = 0; i < count; i++) {
        const checkpointNumber = await publishNextCheckpoint(context);
        onCheckpoint?.(checkpointNumber);
      }
      const tip = chain.tips.checkpointed;
      return { checkpointNumber: tip.checkpoint.number, blockNumber: tip.block.number, blockHash: tip.block.hash };
    },
  };
}

interface MakerContext {
  readonly l1: L1ReaderPort;
  readonly client: PublicClient;
  readonly publisher: L1PublisherPort;
  readonly prover: L1PublisherPort;
  readonly chain: Chain;
  readonly constants: L1RollupConstants;
  readonly shape: ChainShape;
  readonly logger: LoggerPort;
}

async function openMakerChain(constants: L1RollupConstants, rollupAddress: Hex): Promise<Chain> {
  const storage = createMemoryStorage();
  const genesis = createGenesis(constants.l1ChainId, constants.rollupVersion);
  const identity = {
    l1ChainId: constants.l1ChainId,
    rollupAddress,
    rollupVersion: constants.rollupVersion,
    genesisArchiveRoot: genesis.block.archive.root,
  };
  const genesisRef = { number: 0, hash: genesis.block.hash };
  const store = await ChainStore.open(storage, identity, genesis, genesisTips(genesisRef, genesisRef));
  const worldState = await WorldState.open(storage, { genesisBlockHash: genesis.block.hash });
  const clock = { now: () => 0, setTimeout: () => 0, clearTimeout: () => undefined };
  return new Chain(store, worldState, clock);
}

/** Builds, publishes and marks the next checkpoint in the slot after the last one's; proves the epoch it closed. */
async function publishNextCheckpoint(ctx: MakerContext): Promise<number> {
  const { chain, constants } = ctx;
  const checkpointNumber = chain.tips.checkpointed.checkpoint.number + 1;
  const slot = checkpointNumber;
  const slotStart = constants.l1GenesisTime + BigInt(slot * constants.slotDuration);
  const blocks: Block[] = [];
  for (let index = 0; index < ctx.shape.blocksPerCheckpoint; index++) {
    blocks.push(await buildSyntheticBlock(ctx, slot, index, slotStart));
  }
  const blobs = payloadToBlobs(
    encodeCheckpointPayload(blocks.map((b) => ({ header: b.header, txEffects: b.body.txEffects }))),
  );
  const header = await checkpointHeaderOf(ctx, slot, slotStart, blocks, blobs);
  const lastArchive = (await chain.store.getBlock(chain.tips.checkpointed.block.number))!.archive.root;
  await setNextL1Timestamp(ctx.client, slotStart + PROPOSAL_OFFSET_IN_SLOT_SECONDS);
  const { txHash } = await ctx.publisher.proposeCheckpoint({
    checkpointNumber,
    archive: blocks[blocks.length - 1]!.archive.root,
    lastArchive,
    slotNumber: slot,
    header: bytesToHex(encodeCheckpointHeader(header)),
    blobs,
    attestations: EMPTY_CHECKPOINT_ATTESTATIONS,
  });
  const receipt = await receiptOf(ctx.client, txHash);
  if (receipt.status !== 'success') throw new Error(`checkpoint ${checkpointNumber} reverted on L1 (${txHash})`);
  await markCheckpointed(ctx, receipt.blockNumber, blobs);
  await proveClosedEpoch(ctx, slotStart + PROPOSAL_OFFSET_IN_SLOT_SECONDS + 1n);
  return checkpointNumber;
}

async function buildSyntheticBlock(ctx: MakerContext, slot: number, index: number, slotStart: bigint): Promise<Block> {
  const floor = feeFloor(ctx.constants.ethPerFeeAsset);
  return ctx.chain.update(async (u) => {
    const parent = (await u.getBlock(u.tips.proposed.number))!;
    const blockNumber = parent.header.globalVariables.blockNumber + 1;
    const txEffects = Array.from({ length: ctx.shape.txsPerBlock }, (_, i) =>
      syntheticTxEffect(blockNumber, i, ctx.shape),
    );
    const built = await buildBlock(
      {
        parent,
        parentArchiveTree: await u.getArchiveTree(u.tips.proposed.number),
        checkpointNumber: u.tips.checkpointed.checkpoint.number + 1,
        indexWithinCheckpoint: index,
        slotNumber: slot,
        timestamp: slotStart + BigInt(index),
        coinbase: COINBASE,
        feeRecipient: FEE_RECIPIENT,
        gasFees: nextGasFees(await checkpointedFeeBasis(u, floor), floor),
        txEffects,
        totalFees: 0n,
        totalManaUsed: MANA_PER_TX * BigInt(txEffects.length),
      },
      u.worldState,
    );
    u.addBlock(built.block, built.archiveTree, built.prepared, 'proposed');
    return built.block;
  });
}

/** The checkpoint header as the sequencer writes it (core/sequencer/sequencerDuties.ts, publishCheckpoint). */
async function checkpointHeaderOf(
  ctx: MakerContext,
  slot: number,
  slotStart: bigint,
  blocks: readonly Block[],
  blobs: readonly Uint8Array[],
): Promise<CheckpointHeader> {
  const last = blocks[blocks.length - 1]!;
  const lastArchive = await ctx.chain.store.getBlock(ctx.chain.tips.checkpointed.block.number);
  return {
    lastArchiveRoot: lastArchive!.archive.root,
    slotNumber: slot,
    timestamp: slotStart,
    coinbase: COINBASE,
    feeRecipient: FEE_RECIPIENT,
    gasFees: last.header.globalVariables.gasFees,
    blockCount: blocks.length,
    blobsHash: blobsHash(await ctx.publisher.blobVersionedHashes(blobs)),
    totalManaUsed: blocks.reduce((sum, b) => sum + b.header.totalManaUsed, 0n),
    inHash: blocks[0]!.header.contentCommitment.inHash,
    outHash: outTreeRoot(blocks.map((b) => b.header.contentCommitment.outHash)),
  };
}

/** Reads the checkpoint's log back from L1 and marks it checkpointed as the archiver would. */
async function markCheckpointed(ctx: MakerContext, l1Block: bigint, blobs: readonly Uint8Array[]): Promise<void> {
  const [log] = await ctx.l1.getCheckpointProposedLogs(l1Block, l1Block);
  if (log === undefined) throw new Error(`no CheckpointProposed log in L1 block ${l1Block}`);
  const floor = feeFloor(ctx.constants.ethPerFeeAsset);
  const l1Timestamp = (await ctx.client.getBlock({ blockNumber: l1Block })).timestamp;
  await ctx.chain.update(async (u) => {
    const decoded = decodeCheckpoint(log, blobs, {
      previousArchiveTree: await u.getArchiveTree(u.tips.checkpointed.block.number),
      chainId: ctx.constants.l1ChainId,
      rollupVersion: ctx.constants.rollupVersion,
      l1BlockTimestamp: l1Timestamp,
      expectedGasFees: nextGasFees(await checkpointedFeeBasis(u, floor), floor),
      expectedInHash: inboxTreeHash([]),
      attestations: [],
    });
    if (!decoded.ok) throw new Error(`checkpoint ${log.checkpointNumber} does not decode: ${decoded.reason}`);
    const last = decoded.value.blocks[decoded.value.blocks.length - 1]!.block;
    u.markCheckpointed(decoded.value.checkpoint, { number: last.header.globalVariables.blockNumber, hash: last.hash });
  });
}

/** Sends the proof of the epoch the last checkpoint closed, if L1 can take one now (mined at `timestamp`). */
async function proveClosedEpoch(ctx: MakerContext, timestamp: bigint): Promise<void> {
  const deps = {
    l1: ctx.l1,
    publisher: ctx.prover,
    verifier: commitmentVerifier,
    chain: ctx.chain,
    constants: ctx.constants,
    logger: ctx.logger,
  };
  const plan = await planEpochProof(deps);
  if (plan.kind !== 'ready') return;
  await setNextL1Timestamp(ctx.client, timestamp);
  const { txHash } = await submitEpochProof(deps, plan.job);
  const receipt = await receiptOf(ctx.client, txHash);
  if (receipt.status !== 'success') throw new Error(`the proof of epoch ${plan.job.inputs.epoch} reverted (${txHash})`);
}

/**
 * The receipt of a transaction anvil mines on arrival, polled for. Not viem's waitForTransactionReceipt: that waits for
 * the next block once a first look finds no receipt, and under load anvil can answer that look before it has mined
 * the block, after which no other block comes.
 */
async function receiptOf(client: PublicClient, hash: Hex): Promise<TransactionReceipt> {
  const deadline = Date.now() + RECEIPT_TIMEOUT_MS;
  for (;;) {
    const receipt = await client.getTransactionReceipt({ hash }).catch((error: unknown) => {
      if (error instanceof TransactionReceiptNotFoundError) return undefined;
      throw error;
    });
    if (receipt !== undefined) return receipt;
    if (Date.now() > deadline) throw new Error(`no receipt of ${hash} after ${RECEIPT_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_INTERVAL_MS));
  }
}

async function setNextL1Timestamp(client: PublicClient, timestamp: bigint): Promise<void> {
  await client.request({ method: 'evm_setNextBlockTimestamp' as never, params: [Number(timestamp)] as never });
}
