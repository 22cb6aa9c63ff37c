/**
 * The rollup contract's state on the simulated L1 (its recorded checkpoints, proven checkpoint, validator set, inbox
 * and outbox) and the transitions an included transaction makes to it, applying the rules of ../simL1Contract.ts. A
 * state is never mutated, so every block keeps the contract as it stood after it, and a reorg goes back to one.
 */
import { assert } from '../../core/assert.js';
import type {
  EpochProvenLog,
  InboxMessageLog,
  L1BlockRef,
  L1Validator,
  ProposeCheckpointRequest,
  ProvenCheckpoint,
  SubmitEpochProofRequest,
} from '../../core/ports.js';
import { L1Error } from '../../core/l1/l1Error.js';
import type { Hex, L1RollupConstants } from '../../spec/chain.js';
import { INITIAL_ETH_PER_FEE_ASSET_DEFAULT } from '../../spec/config/schema.js';
import { isHex } from '../../spec/codec/bytes.js';
import {
  EPOCH_DURATION_SLOTS_DEFAULT,
  L1_CHAIN_ID_LOCAL_NETWORK,
  L1_SLOT_DURATION_SECONDS,
  L2_SLOT_DURATION_SECONDS_DEFAULT,
  PROOF_SUBMISSION_EPOCHS_DEFAULT,
  ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT,
} from '../../spec/constants.js';
import { VALIDATOR_SET_SIZE_MAX } from '../../spec/validators/constants.js';
import {
  canPrune,
  checkEpochProof,
  checkProposal,
  consumeInbox,
  sendInboxMessage,
  SIM_INBOX_DEPLOYED,
  type SimInboxState,
  type SimL1ContractState,
  type SimL1EpochProofFailure,
  type SimL1ProofState,
  type SimL1ProposeFailure,
} from '../simL1Contract.js';
import type { Trace } from '../trace.js';
import type { MinedBlock, SimL1Log } from './chain.js';
import { checkedCount } from './checks.js';

/** Where the simulated rollup's inbox and outbox live (no code runs there; the addresses are for clients to read). */
export const SIM_INBOX_ADDRESS: Hex = '0x00000000000000000000000000000000000001b0';
export const SIM_OUTBOX_ADDRESS: Hex = '0x00000000000000000000000000000000000000b0';

/** The rule a failed transaction broke. */
export type SimL1TxFailure = SimL1ProposeFailure | SimL1EpochProofFailure;

/** An L1-to-L2 message as a sender hands it to the inbox (Inbox.sendL2Message). */
export interface SimL1ToL2Message {
  readonly recipient: Hex;
  readonly content: Hex;
  readonly secretHash: Hex;
}

/** One recorded checkpoint, linked to the one before it (genesis is number 0, slot 0). Never mutated, so every
 * block can keep the chain as it stood after it, prunes included. */
interface CheckpointEntry {
  readonly number: number;
  readonly archive: Hex;
  readonly slot: number;
  readonly previous: CheckpointEntry | undefined;
}

/** Outbox roots by epoch, then by the number of checkpoints they cover (replaced, never mutated). */
type SimOutboxRoots = ReadonlyMap<number, ReadonlyMap<number, Hex>>;

/** The rollup contract's storage after some block: the recorded chain's last checkpoint and the proven one, and its
 * inbox's and outbox's. */
export interface ContractState {
  readonly tip: CheckpointEntry;
  readonly proven: ProvenCheckpoint;
  /** The validator set (fixed at deployment in the simulator). */
  readonly validators: readonly L1Validator[];
  readonly inbox: SimInboxState;
  readonly outbox: SimOutboxRoots;
}

/** What the deployment needs: the genesis archive and the validator set registered with it. */
export interface ContractDeployment {
  readonly genesisArchiveRoot: Hex;
  readonly validators?: readonly Omit<L1Validator, 'activeFromEpoch'>[];
}

/** The contract as deployed: genesis recorded and proven, the validator set registered (active from epoch 0). */
export function deployedContract(genesisArchive: Hex, deployment: ContractDeployment): ContractState {
  const validators = (deployment.validators ?? []).map((v) =>
    Object.freeze({ ...v, address: v.address.toLowerCase() as Hex, activeFromEpoch: 0 }),
  );
  assert(
    new Set(validators.map((v) => v.address)).size === validators.length,
    'the rollup contract registers each validator address once',
  );
  assert(
    validators.length <= VALIDATOR_SET_SIZE_MAX,
    `the rollup contract caps its validator set at ${VALIDATOR_SET_SIZE_MAX}`,
  );
  return {
    tip: { number: 0, archive: genesisArchive, slot: 0, previous: undefined },
    proven: { checkpointNumber: 0, l1BlockNumber: 0n },
    inbox: SIM_INBOX_DEPLOYED,
    outbox: new Map(),
    validators: Object.freeze(validators),
  };
}

/** The genesis archive root of a deployment, checked and lowercased. */
export function genesisArchiveOf(deployment: ContractDeployment): Hex {
  assert(
    isHex(deployment.genesisArchiveRoot) && deployment.genesisArchiveRoot.length === 66,
    'genesisArchiveRoot must be 32 bytes of hex',
  );
  return deployment.genesisArchiveRoot.toLowerCase() as Hex;
}

/** The rollup's constants the contract answers with (getRollupConstants), from the L1's options. */
export interface RollupConstantOptions {
  /** Unix seconds of L2 slot 0 (default: the timestamp of the deployment block, which is mined at the current time). */
  readonly l1GenesisTime?: bigint;
  readonly slotDuration?: number;
  readonly epochDuration?: number;
  readonly proofSubmissionEpochs?: number;
  readonly rollupVersion?: number;
  /** The rollup contract's fee-asset rate (`--initialEthPerFeeAsset`); default INITIAL_ETH_PER_FEE_ASSET_DEFAULT. */
  readonly ethPerFeeAsset?: bigint;
  readonly l1ChainId?: number;
}

export function rollupConstants(
  options: RollupConstantOptions,
  l1StartBlock: bigint,
  nowSeconds: bigint,
  genesisArchiveRoot: Hex,
): L1RollupConstants {
  const slotDuration = options.slotDuration ?? L2_SLOT_DURATION_SECONDS_DEFAULT;
  const epochDuration = options.epochDuration ?? EPOCH_DURATION_SLOTS_DEFAULT;
  assert(
    Number.isSafeInteger(slotDuration) && slotDuration > 0,
    `slotDuration ${slotDuration} must be a positive integer`,
  );
  assert(
    Number.isSafeInteger(epochDuration) && epochDuration > 0,
    `epochDuration ${epochDuration} must be a positive integer`,
  );
  return Object.freeze({
    l1ChainId: options.l1ChainId ?? L1_CHAIN_ID_LOCAL_NETWORK,
    rollupVersion: options.rollupVersion ?? ROLLUP_VERSION_LOCAL_NETWORK_DEFAULT,
    l1StartBlock,
    l1GenesisTime: options.l1GenesisTime ?? nowSeconds,
    slotDuration,
    epochDuration,
    ethereumSlotDuration: L1_SLOT_DURATION_SECONDS,
    proofSubmissionEpochs: checkedCount(
      options.proofSubmissionEpochs ?? PROOF_SUBMISSION_EPOCHS_DEFAULT,
      'proofSubmissionEpochs',
    ),
    genesisArchiveRoot,
    ethPerFeeAsset: options.ethPerFeeAsset ?? INITIAL_ETH_PER_FEE_ASSET_DEFAULT,
  });
}

/** Checkpoint `n` of the chain ending at `tip` (walks back at most tip.number - n entries). */
export function entryAt(tip: CheckpointEntry, checkpointNumber: number): CheckpointEntry {
  assert(
    Number.isSafeInteger(checkpointNumber) && checkpointNumber >= 0 && checkpointNumber <= tip.number,
    `checkpoint ${checkpointNumber} is on a chain of ${tip.number}`,
  );
  let entry = tip;
  while (entry.number > checkpointNumber) entry = entry.previous!;
  return entry;
}

function proofStateOf(contract: ContractState): SimL1ProofState {
  return {
    checkpointCount: contract.tip.number,
    provenCheckpoint: contract.proven.checkpointNumber,
    // Methods, not arrow properties: under tsx every arrow property is renamed on each call, and this runs per block.
    slotOf(n) {
      return entryAt(contract.tip, n).slot;
    },
    archiveOf(n) {
      return entryAt(contract.tip, n).archive;
    },
  };
}

/** Outbox.insert after an accepted proof (nothing for an epoch without messages: outHash zero). */
function withOutboxRoot(outbox: SimOutboxRoots, request: SubmitEpochProofRequest): SimOutboxRoots {
  const root = request.outHash.toLowerCase() as Hex;
  if (/^0x0*$/.test(root)) return outbox;
  const next = new Map(outbox);
  next.set(
    request.epoch,
    new Map(outbox.get(request.epoch) ?? []).set(request.toCheckpoint - request.fromCheckpoint + 1, root),
  );
  return next;
}

/** The rollup contract (with its inbox and outbox) after the head block, and its transitions. */
export class SimRollupContract {
  constructor(
    /** The contract after the head block. */
    public state: ContractState,
    private readonly constants: L1RollupConstants,
    private readonly trace: Trace | undefined,
  ) {}

  /** The contract after block `block`, as its views answer: a prunable chain counts as pruned. */
  viewAt(block: MinedBlock, atBlock: bigint): ContractState {
    if (block.contract === undefined)
      throw new L1Error('L1_NO_ROLLUP_CONTRACT', `no rollup contract at L1 block ${atBlock}`);
    return this.prunedView(block.contract, block.ref.timestamp);
  }

  /** `contract` as a proposal in a block with this timestamp sees it: pruned back to the proven checkpoint if prunable. */
  prunedView(contract: ContractState, timestamp: bigint): ContractState {
    if (!canPrune(proofStateOf(contract), timestamp, this.constants)) return contract;
    return { ...contract, tip: entryAt(contract.tip, contract.proven.checkpointNumber) };
  }

  /** Rollup.propose: prunes a prunable chain, then records the checkpoint if every rule holds (else changes nothing). */
  applyProposal(
    request: ProposeCheckpointRequest,
    versionedHashes: readonly Hex[],
    txHash: Hex,
    block: L1BlockRef,
    logs: SimL1Log[],
  ): SimL1ProposeFailure | undefined {
    const before = this.state;
    const view = this.prunedView(before, block.timestamp);
    const state: SimL1ContractState = {
      checkpointCount: view.tip.number,
      lastArchive: view.tip.archive,
      lastCheckpointSlot: view.tip.slot,
    };
    const failure = checkProposal(state, request, versionedHashes, block.timestamp, this.constants, view.inbox);
    if (failure !== undefined) return failure;
    const at = (logIndex: number) =>
      Object.freeze({ blockNumber: block.number, blockHash: block.hash, txHash, logIndex });
    if (view !== before) {
      const pruned = {
        provenCheckpointNumber: view.proven.checkpointNumber,
        pendingCheckpointCount: before.tip.number,
        l1: at(logs.length),
      };
      logs.push({ kind: 'chainPruned', log: Object.freeze(pruned) });
      this.trace?.record('l1.chainPruned', {
        blockNumber: block.number,
        provenCheckpointNumber: pruned.provenCheckpointNumber,
        pendingCheckpointCount: pruned.pendingCheckpointCount,
      });
    }
    const archive = request.archive.toLowerCase() as Hex;
    this.state = {
      ...view,
      tip: { number: request.checkpointNumber, archive, slot: request.slotNumber, previous: view.tip },
      inbox: consumeInbox(view.inbox, request.checkpointNumber),
    };
    const log = {
      checkpointNumber: request.checkpointNumber,
      archive,
      slotNumber: request.slotNumber,
      header: request.header.toLowerCase() as Hex,
      blobVersionedHashes: Object.freeze([...versionedHashes]),
      attestations: request.attestations.toLowerCase() as Hex,
      l1: at(logs.length),
    };
    logs.push({ kind: 'checkpointProposed', log: Object.freeze(log) });
    return undefined;
  }

  /** Rollup.submitEpochProof: moves the proven checkpoint when every rule holds. */
  applyEpochProof(
    request: SubmitEpochProofRequest,
    txHash: Hex,
    block: L1BlockRef,
    logs: SimL1Log[],
  ): SimL1EpochProofFailure | undefined {
    const before = this.state;
    const failure = checkEpochProof(proofStateOf(before), request, block.timestamp, this.constants);
    if (failure !== undefined) return failure;
    this.state = {
      ...before,
      proven: { checkpointNumber: request.toCheckpoint, l1BlockNumber: block.number },
      outbox: withOutboxRoot(before.outbox, request),
    };
    const log: EpochProvenLog = {
      epoch: request.epoch,
      fromCheckpoint: request.fromCheckpoint,
      toCheckpoint: request.toCheckpoint,
      endArchive: request.endArchive.toLowerCase() as Hex,
      outHash: request.outHash.toLowerCase() as Hex,
      l1: Object.freeze({ blockNumber: block.number, blockHash: block.hash, txHash, logIndex: logs.length }),
    };
    logs.push({ kind: 'epochProven', log: Object.freeze(log) });
    this.trace?.record('l1.epochProven', {
      blockNumber: block.number,
      epoch: log.epoch,
      toCheckpoint: log.toCheckpoint,
    });
    return undefined;
  }

  /** Inbox.sendL2Message: always succeeds for field-sized inputs (the wire types guarantee 32 bytes). */
  applyInboxMessage(
    sender: Hex,
    message: SimL1ToL2Message,
    txHash: Hex,
    block: L1BlockRef,
    logs: SimL1Log[],
  ): undefined {
    const sent = sendInboxMessage(this.state.inbox, { sender, ...message });
    this.state = { ...this.state, inbox: sent.inbox };
    const log: InboxMessageLog = {
      checkpointNumber: sent.tree,
      index: sent.index,
      leaf: sent.leaf,
      treeHash: sent.treeHash,
      l1: Object.freeze({ blockNumber: block.number, blockHash: block.hash, txHash, logIndex: logs.length }),
    };
    logs.push({ kind: 'messageSent', log: Object.freeze(log) });
    this.trace?.record('l1.messageSent', {
      blockNumber: block.number,
      checkpointNumber: sent.tree,
      index: sent.index,
      leaf: sent.leaf,
    });
    return undefined;
  }
}
