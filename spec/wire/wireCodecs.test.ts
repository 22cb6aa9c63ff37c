/**
 * Properties of every wire codec in spec/wire: a value the node could produce survives encode -> JSON text -> decode
 * unchanged, and malformed wire values (an Fr at or above the modulus, a hash of the wrong length, a bigint that is
 * not decimal digits) are refused, alone or nested inside the shapes that carry them.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { Hex } from '../chain.js';
import { FR_MODULUS, MerkleTreeId } from '../constants.js';
import * as blockModule from './block.js';
import * as blockParameterModule from './blockParameter.js';
import * as chainInfoModule from './chainInfo.js';
import * as checkpointModule from './checkpoint.js';
import * as contractsModule from './contracts.js';
import * as logsModule from './logs.js';
import * as messagesModule from './messages.js';
import * as p2pModule from './p2p.js';
import { compileResultEncoder } from './resultEncoder.js';
import * as scalarsModule from './scalars.js';
import * as slashingModule from './slashing.js';
import * as txModule from './tx.js';
import * as txEffectModule from './txEffect.js';
import * as validatorModule from './validator.js';
import * as worldStateModule from './worldState.js';

const modules = {
  block: blockModule,
  blockParameter: blockParameterModule,
  chainInfo: chainInfoModule,
  checkpoint: checkpointModule,
  contracts: contractsModule,
  logs: logsModule,
  messages: messagesModule,
  p2p: p2pModule,
  scalars: scalarsModule,
  slashing: slashingModule,
  tx: txModule,
  txEffect: txEffectModule,
  validator: validatorModule,
  worldState: worldStateModule,
} as const;

// Scalars (values as the node holds them, i.e. decoded).
const toHex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`;
const hexOfBytes = (size: number) => fc.uint8Array({ minLength: size, maxLength: size }).map(toHex);
const hex32Of = (value: bigint): Hex => `0x${value.toString(16).padStart(64, '0')}`;
const frArb = fc.bigInt({ min: 0n, max: FR_MODULUS - 1n }).map(hex32Of);
const bytes32Arb = hexOfBytes(32);
const ethAddressArb = hexOfBytes(20);
const uintArb = fc.maxSafeNat();
const slotArb = uintArb;
const blsSignatureArb = hexOfBytes(96);
const bigArb = fc.bigInt({ min: 0n, max: 2n ** 256n - 1n });
const frs = fc.array(frArb, { maxLength: 4 });
const nullable = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });
/** fc.record where every key is optional (absent, not undefined). */
const partial = <T extends Record<string, unknown>>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) =>
  fc.record(model, { requiredKeys: [] });

const blockTipArb = fc.constantFrom('proposed', 'checkpointed', 'proven', 'finalized' as const);
const checkpointTipArb = fc.constantFrom('checkpointed', 'proven', 'finalized' as const);

const contractClassPublic = fc.record({
  id: frArb,
  version: uintArb,
  artifactHash: frArb,
  privateFunctionsRoot: frArb,
  publicBytecodeCommitment: frArb,
  packedBytecode: fc.uint8Array({ maxLength: 40 }).map(toHex),
});
const contractInstance = fc.record({
  address: frArb,
  version: uintArb,
  salt: frArb,
  deployer: frArb,
  currentContractClassId: frArb,
  originalContractClassId: frArb,
  initializationHash: frArb,
  publicKeysHash: frArb,
});

const privateLog = fc.record({ tag: frArb, fields: frs });
const publicLog = fc.record({ contractAddress: frArb, tag: frArb, fields: frs });
const publicDataWrite = fc.record({ leafSlot: frArb, value: frArb });
const executionResult = fc.constantFrom(...txEffectModule.EXECUTION_RESULTS);
const txEffect = fc.record({
  txHash: bytes32Arb,
  executionResult,
  transactionFee: bigArb,
  noteHashes: frs,
  nullifiers: frs,
  l2ToL1Messages: frs,
  publicDataWrites: fc.array(publicDataWrite, { maxLength: 2 }),
  privateLogs: fc.array(privateLog, { maxLength: 2 }),
  publicLogs: fc.array(publicLog, { maxLength: 2 }),
  contractClassPublications: fc.array(contractClassPublic, { maxLength: 1 }),
  contractInstancePublications: fc.array(contractInstance, { maxLength: 2 }),
});
const treeSnapshot = fc.record({ root: frArb, nextAvailableLeafIndex: uintArb });
const gasFees = fc.record({ feePerDaGas: bigArb, feePerL2Gas: bigArb });
const stateReference = fc.record({
  noteHashTree: treeSnapshot,
  nullifierTree: treeSnapshot,
  publicDataTree: treeSnapshot,
  l1ToL2MessageTree: treeSnapshot,
});
const globalVariables = fc.record({
  chainId: uintArb,
  version: uintArb,
  blockNumber: uintArb,
  slotNumber: uintArb,
  timestamp: bigArb,
  coinbase: ethAddressArb,
  feeRecipient: bytes32Arb,
  gasFees,
});
const contentCommitment = fc.record({ txsEffectsHash: bytes32Arb, inHash: bytes32Arb, outHash: bytes32Arb });
const blockHeader = fc.record({
  lastArchive: treeSnapshot,
  state: stateReference,
  globalVariables,
  contentCommitment,
  totalFees: bigArb,
  totalManaUsed: bigArb,
});
const l1PublishInfo = fc.record({ blockNumber: bigArb, blockHash: bytes32Arb, timestamp: bigArb, txHash: bytes32Arb });
const blockDataFields = {
  number: uintArb,
  hash: bytes32Arb,
  archive: treeSnapshot,
  checkpointNumber: uintArb,
  header: blockHeader,
};
const checkpointAttestation = fc.record({
  slot: slotArb,
  checkpointNumber: uintArb,
  archiveRoot: frArb,
  proposalPayloadHash: bytes32Arb,
  attester: ethAddressArb,
  signature: blsSignatureArb,
});
const blockResponse = fc.record(
  {
    ...blockDataFields,
    indexWithinCheckpoint: uintArb,
    body: fc.record({ txEffects: fc.array(txEffect, { maxLength: 2 }) }),
    l1: nullable(l1PublishInfo),
    attestations: fc.array(checkpointAttestation, { maxLength: 3 }),
  },
  { requiredKeys: ['number', 'hash', 'archive', 'checkpointNumber', 'header', 'indexWithinCheckpoint'] },
);
const blockIncludeOptions = partial({
  includeTransactions: fc.boolean(),
  includeL1PublishInfo: fc.boolean(),
  includeAttestations: fc.boolean(),
});

const blockRef = fc.record({ number: uintArb, hash: bytes32Arb });
const settledTip = fc.record({ block: blockRef, checkpoint: blockRef });
const l1ContractAddresses = fc.record({
  rollupAddress: ethAddressArb,
  inboxAddress: ethAddressArb,
  outboxAddress: ethAddressArb,
});

const checkpointHeader = fc.record({
  lastArchiveRoot: frArb,
  slotNumber: uintArb,
  timestamp: bigArb,
  coinbase: ethAddressArb,
  feeRecipient: bytes32Arb,
  gasFees,
  blockCount: uintArb,
  blobsHash: bytes32Arb,
  totalManaUsed: bigArb,
  inHash: bytes32Arb,
  outHash: bytes32Arb,
});
const checkpointDataFields = {
  number: uintArb,
  hash: bytes32Arb,
  archiveRoot: frArb,
  firstBlockNumber: uintArb,
  blockCount: uintArb,
  blobVersionedHashes: fc.array(bytes32Arb, { maxLength: 3 }),
  header: checkpointHeader,
  l1: l1PublishInfo,
};

const gas = fc.record({ daGas: uintArb, l2Gas: uintArb });
const l2ToL1Message = fc.record({ recipient: ethAddressArb, content: frArb });
const publicCall = fc.record({ contractAddress: frArb, msgSender: frArb, isStaticCall: fc.boolean(), calldata: frs });
const tx = fc.record({
  txHash: bytes32Arb,
  chainId: uintArb,
  version: uintArb,
  anchorBlockHash: bytes32Arb,
  expirationTimestamp: bigArb,
  feePayer: frArb,
  gasSettings: fc.record({ gasLimits: gas, maxFeesPerGas: gasFees, maxPriorityFeesPerGas: gasFees }),
  sideEffects: fc.record({
    nullifiers: fc.array(frArb, { minLength: 1, maxLength: 3 }),
    noteHashes: frs,
    privateLogs: fc.array(privateLog, { maxLength: 2 }),
    l2ToL1Messages: fc.array(l2ToL1Message, { maxLength: 2 }),
    contractClassPublications: fc.array(contractClassPublic, { maxLength: 1 }),
    contractInstancePublications: fc.array(contractInstance, { maxLength: 1 }),
  }),
  publicCalls: fc.record({
    setup: fc.array(publicCall, { maxLength: 2 }),
    appLogic: fc.array(publicCall, { maxLength: 2 }),
    teardown: nullable(publicCall),
  }),
  proof: fc.uint8Array({ maxLength: 40 }).map(toHex),
});
const allowedElementFlags = {
  selector: hexOfBytes(4),
  onlySelf: fc.boolean(),
  rejectNullMsgSender: fc.boolean(),
  calldataLength: nullable(uintArb),
};

const membershipWitness = fc.record({ leafIndex: bigArb, siblingPath: frs });
const validatorStats = fc.record({
  address: ethAddressArb,
  proposalsMade: uintArb,
  proposalsMissed: uintArb,
  attestationsSent: uintArb,
  attestationsMissed: uintArb,
  lastProposalSlot: nullable(slotArb),
  lastAttestationSlot: nullable(slotArb),
});
const logResult = fc.record(
  {
    txHash: bytes32Arb,
    l2BlockNumber: uintArb,
    l2BlockHash: bytes32Arb,
    txIndexInBlock: uintArb,
    logIndexInTx: uintArb,
    fields: frs,
    noteHashes: frs,
    nullifiers: frs,
  },
  { requiredKeys: ['txHash', 'l2BlockNumber', 'l2BlockHash', 'txIndexInBlock', 'logIndexInTx', 'fields'] },
);
const blockProposal = fc.record({
  blockNumber: uintArb,
  indexWithinCheckpoint: uintArb,
  archiveRoot: frArb,
  txHashes: fc.array(bytes32Arb, { maxLength: 2 }),
  proposer: ethAddressArb,
  signature: blsSignatureArb,
});
const checkpointProposal = fc.record({
  checkpointNumber: uintArb,
  archiveRoot: frArb,
  payloadHash: bytes32Arb,
  proposer: ethAddressArb,
  signature: blsSignatureArb,
});

/** One arbitrary per codec exported by a wire module, keyed `<module>.<export>`. */
const arbitraries: Record<string, fc.Arbitrary<unknown>> = {
  // scalars
  'scalars.safeUint': uintArb,
  'scalars.blockNumber': uintArb,
  'scalars.checkpointNumber': uintArb,
  'scalars.epochNumber': uintArb,
  'scalars.bigUint': bigArb,
  'scalars.slotNumber': slotArb,
  'scalars.hexBytes': fc.uint8Array({ maxLength: 64 }).map(toHex),
  'scalars.fr': frArb,
  'scalars.bytes32': bytes32Arb,
  'scalars.blockHash': bytes32Arb,
  'scalars.txHash': bytes32Arb,
  'scalars.aztecAddress': frArb,
  'scalars.ethAddress': ethAddressArb,
  'scalars.functionSelector': hexOfBytes(4),
  'scalars.blsSignature': blsSignatureArb,
  'scalars.merkleTreeId': fc.constantFrom(...Object.values(MerkleTreeId)),
  'scalars.blockTagWithoutLatest': blockTipArb,
  'scalars.checkpointTag': checkpointTipArb,
  'scalars.blockTag': fc.constantFrom('latest', 'proposed', 'checkpointed', 'proven', 'finalized'),
  'scalars.manaUsageEstimate': fc.constantFrom(...scalarsModule.MANA_USAGE_ESTIMATES),
  'scalars.voidResult': fc.constant(null),
  'scalars.jsonObject': fc.dictionary(
    fc.string().filter((key) => key !== '__proto__'),
    // As JSON carries them: fast-check's JSON values include -0, which JSON text writes as 0.
    fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown),
    { maxKeys: 4 },
  ),
  // blocks
  'block.treeSnapshot': treeSnapshot,
  'block.stateReference': stateReference,
  'block.gasFees': gasFees,
  'block.globalVariables': globalVariables,
  'block.contentCommitment': contentCommitment,
  'block.blockHeader': blockHeader,
  'block.l1PublishInfo': l1PublishInfo,
  'block.blockData': fc.record(blockDataFields),
  'block.blockResponse': blockResponse,
  'block.blockIncludeOptions': blockIncludeOptions,
  'block.blocksIncludeOptions': blockIncludeOptions,
  'blockParameter.blockParameter': fc.oneof(
    uintArb.map((number) => ({ kind: 'number', number })),
    bytes32Arb.map((hash) => ({ kind: 'hash', hash })),
    frArb.map((archive) => ({ kind: 'archive', archive })),
    bytes32Arb.map((value) => ({ kind: 'hashOrArchive', value })),
    fc.constantFrom('latest', 'proposed', 'checkpointed', 'proven', 'finalized').map((tag) => ({ kind: 'tag', tag })),
  ),
  // chain information
  'chainInfo.blockRef': blockRef,
  'chainInfo.checkpointRef': blockRef,
  'chainInfo.l2Tips': fc.record({
    proposed: blockRef,
    checkpointed: settledTip,
    proven: settledTip,
    finalized: settledTip,
  }),
  'chainInfo.l1RollupConstants': fc.record({
    l1ChainId: uintArb,
    rollupVersion: uintArb,
    l1StartBlock: bigArb,
    l1GenesisTime: bigArb,
    ethPerFeeAsset: bigArb,
    slotDuration: uintArb,
    epochDuration: uintArb,
    ethereumSlotDuration: uintArb,
    proofSubmissionEpochs: uintArb,
    genesisArchiveRoot: frArb,
  }),
  'chainInfo.l1ContractAddresses': l1ContractAddresses,
  'chainInfo.nodeInfo': fc.record({
    nodeVersion: fc.string(),
    contractLanguageVersion: fc.string(),
    l1ChainId: uintArb,
    rollupVersion: uintArb,
    protocolVersion: uintArb,
    l1ContractAddresses,
  }),
  // checkpoints
  'checkpoint.checkpointHeader': checkpointHeader,
  'checkpoint.checkpointData': fc.record(checkpointDataFields),
  'checkpoint.checkpointResponse': fc.record(
    { ...checkpointDataFields, blocks: fc.array(blockResponse, { maxLength: 2 }) },
    { requiredKeys: Object.keys(checkpointDataFields) as (keyof typeof checkpointDataFields)[] },
  ),
  'checkpoint.checkpointIncludeOptions': partial({ includeBlocks: fc.boolean(), includeTransactions: fc.boolean() }),
  'checkpoint.checkpointParameter': fc.oneof(
    uintArb.map((number) => ({ kind: 'number', number })),
    bytes32Arb.map((hash) => ({ kind: 'hash', hash })),
    checkpointTipArb.map((tag) => ({ kind: 'tag', tag })),
  ),
  'checkpoint.checkpointsQuery': fc.oneof(fc.record({ from: uintArb, limit: uintArb }), fc.record({ epoch: uintArb })),
  // contracts
  'contracts.contractClassPublic': contractClassPublic,
  'contracts.contractInstanceWithAddress': contractInstance,
  'contracts.protocolContractAddresses': fc.record({ classRegistry: frArb, instanceRegistry: frArb, feeAsset: frArb }),
  // transactions
  'tx.gas': gas,
  'tx.gasSettings': fc.record({ gasLimits: gas, maxFeesPerGas: gasFees, maxPriorityFeesPerGas: gasFees }),
  'txEffect.privateLog': privateLog,
  'txEffect.publicLog': publicLog,
  'tx.l2ToL1Message': l2ToL1Message,
  'tx.publicCall': publicCall,
  'txEffect.publicDataWrite': publicDataWrite,
  'tx.tx': tx,
  'txEffect.executionResult': executionResult,
  'txEffect.txEffect': txEffect,
  'tx.indexedTxEffect': fc.record({
    data: txEffect,
    l2BlockNumber: uintArb,
    l2BlockHash: bytes32Arb,
    txIndexInBlock: uintArb,
  }),
  'tx.txReceipt': fc.oneof(
    fc.record({ txHash: bytes32Arb, status: fc.constant('dropped') }),
    fc.record({ txHash: bytes32Arb, status: fc.constant('pending'), tx }, { requiredKeys: ['txHash', 'status'] }),
    fc.record(
      {
        txHash: bytes32Arb,
        status: fc.constantFrom(...txModule.TX_RECEIPT_MINED_STATUSES),
        blockNumber: uintArb,
        blockHash: bytes32Arb,
        executionResult,
        transactionFee: bigArb,
        txEffect,
      },
      { requiredKeys: ['txHash', 'status', 'blockNumber', 'blockHash', 'executionResult', 'transactionFee'] },
    ),
  ),
  'tx.getTxReceiptOptions': partial({
    includeTxEffect: fc.boolean(),
    includePendingTx: fc.boolean(),
    includeProof: fc.boolean(),
  }),
  'tx.getTxByHashOptions': partial({ includeProof: fc.boolean() }),
  'tx.isValidTxOptions': partial({ isSimulation: fc.boolean(), skipFeeEnforcement: fc.boolean() }),
  'tx.txValidationResult': fc.oneof(
    fc.constant({ valid: true }),
    fc.record({ valid: fc.constant(false), reasons: fc.array(fc.string(), { minLength: 1, maxLength: 3 }) }),
  ),
  'tx.publicSimulationOutput': fc.record({
    executionResult,
    gasUsed: fc.record({ totalGas: gas, publicGas: gas }),
    publicReturnValues: fc.array(frs, { maxLength: 3 }),
  }),
  'tx.simulationOverrides': partial({
    publicStorage: fc.array(fc.record({ contractAddress: frArb, slot: frArb, value: frArb }), { maxLength: 2 }),
    contractInstances: fc.array(contractInstance, { maxLength: 2 }),
  }),
  'tx.allowedElement': fc.oneof(
    fc.record({ kind: fc.constant('instance'), address: frArb, ...allowedElementFlags }),
    fc.record({ kind: fc.constant('class'), classId: frArb, ...allowedElementFlags }),
  ),
  // world state
  'worldState.membershipWitness': membershipWitness,
  'worldState.siblingPath': membershipWitness,
  'worldState.nullifierMembershipWitness': fc.record({
    index: bigArb,
    leafPreimage: fc.record({ nullifier: frArb, nextNullifier: frArb, nextIndex: bigArb }),
    siblingPath: frs,
  }),
  'worldState.publicDataWitness': fc.record({
    index: bigArb,
    leafPreimage: fc.record({ slot: frArb, value: frArb, nextSlot: frArb, nextIndex: bigArb }),
    siblingPath: frs,
  }),
  'worldState.leafIndexInBlock': fc.record({ data: bigArb, l2BlockNumber: uintArb, l2BlockHash: bytes32Arb }),
  'worldState.l1ToL2MessageWitness': fc.tuple(bigArb, membershipWitness),
  'worldState.worldStateSyncStatus': fc.record({
    latestBlockNumber: uintArb,
    latestBlockHash: bytes32Arb,
    finalizedBlockNumber: uintArb,
    oldestHistoricBlockNumber: uintArb,
    treesAreSynced: fc.boolean(),
  }),
  // messages
  'messages.l2ToL1MembershipWitness': fc.record({
    epochNumber: uintArb,
    root: frArb,
    leafIndex: bigArb,
    siblingPath: frs,
  }),
  'messages.messageIndexInTx': fc.record({ index: uintArb }),
  'messages.l2ToL1MessagesOfEpoch': fc.array(fc.array(fc.array(frs, { maxLength: 2 }), { maxLength: 2 }), {
    maxLength: 2,
  }),
  // logs
  'logs.privateLogsQuery': fc.record({ tags: frs, includeEffects: fc.boolean() }, { requiredKeys: ['tags'] }),
  'logs.publicLogsQuery': fc.record(
    { contractAddress: frArb, tags: frs, includeEffects: fc.boolean() },
    { requiredKeys: ['contractAddress', 'tags'] },
  ),
  'logs.logResult': logResult,
  'logs.logResultsByTag': fc.array(fc.array(logResult, { maxLength: 2 }), { maxLength: 2 }),
  // p2p
  'p2p.peerInfo': fc.record({
    id: fc.string({ minLength: 1 }),
    status: fc.constantFrom(...p2pModule.PEER_STATUSES),
    addresses: fc.array(fc.string(), { maxLength: 2 }),
  }),
  'p2p.checkpointAttestation': checkpointAttestation,
  'p2p.blockProposal': blockProposal,
  'p2p.checkpointProposal': checkpointProposal,
  'p2p.proposalsForSlot': fc.record({
    slot: slotArb,
    blockProposals: fc.array(blockProposal, { maxLength: 2 }),
    checkpointProposals: fc.array(checkpointProposal, { maxLength: 2 }),
  }),
  // validators
  'validator.validatorStats': validatorStats,
  'validator.validatorsStats': fc.record({
    slotWindow: uintArb,
    initialSlot: nullable(slotArb),
    lastProcessedSlot: nullable(slotArb),
    validators: fc.array(validatorStats, { maxLength: 2 }),
  }),
  'validator.singleValidatorStats': fc.record({
    validator: validatorStats,
    fromSlot: slotArb,
    toSlot: slotArb,
    history: fc.array(fc.record({ slot: slotArb, duty: fc.constantFrom(...validatorModule.VALIDATOR_DUTIES) }), {
      maxLength: 3,
    }),
  }),
  // slashing
  'slashing.slashRound': fc.oneof(fc.constantFrom('all', 'current'), bigArb),
  'slashing.offense': fc.record({
    validator: ethAddressArb,
    offenseType: fc.constantFrom(...slashingModule.OFFENSE_TYPES),
    slot: slotArb,
    round: bigArb,
    amount: bigArb,
  }),
};

/** Every zod schema a wire module exports, keyed `<module>.<export>`. */
const codecs: [string, z.ZodType][] = Object.entries(modules).flatMap(([moduleName, module]) =>
  Object.entries(module)
    .filter((entry): entry is [string, z.ZodType] => entry[1] instanceof z.ZodType)
    .map(([exportName, schema]): [string, z.ZodType] => [`${moduleName}.${exportName}`, schema]),
);

/** Encode, send as JSON text, decode. */
const roundTrip = (codec: z.ZodType, value: unknown): unknown =>
  codec.parse(JSON.parse(JSON.stringify(z.encode(codec, value))));

describe('every wire codec', () => {
  test('has an arbitrary here, and every arbitrary names an exported codec', () => {
    const names = codecs.map(([name]) => name).sort();
    expect(names.length).toBeGreaterThan(90);
    expect(Object.keys(arbitraries).sort()).toEqual(names);
  });

  test.each(codecs)('%s: decode(encode(x)) = x', (name, codec) => {
    const arbitrary = arbitraries[name];
    expect(arbitrary).toBeDefined();
    fc.assert(
      fc.property(arbitrary!, (value) => {
        expect(roundTrip(codec, value)).toEqual(value);
      }),
      { numRuns: 50 },
    );
  });

  test.each(codecs)('%s: the compiled encoder gives the JSON of zod encode', (name, codec) => {
    const compiled = compileResultEncoder(codec);
    fc.assert(
      fc.property(arbitraries[name]!, (value) => {
        expect(JSON.stringify(compiled(value))).toBe(JSON.stringify(z.encode(codec, value)));
      }),
      { numRuns: 50 },
    );
  });
});

describe('malformed wire values are refused', () => {
  const frAtOrAbove = fc.bigInt({ min: FR_MODULUS, max: 2n ** 256n - 1n }).map(hex32Of);
  const wrongLengthHex = fc
    .integer({ min: 0, max: 64 })
    .filter((size) => size !== 32)
    .chain((size) => hexOfBytes(size));
  const notDecimal = fc.oneof(
    fc.string().filter((text) => !/^[0-9]+$/.test(text)),
    fc.bigInt({ min: 1n, max: 2n ** 64n }).map((value) => `0x${value.toString(16)}`),
    fc.bigInt({ min: 1n, max: 2n ** 64n }).map((value) => `-${value}`),
    fc.nat().map((value) => `${value}.5`),
  );

  test('an Fr at or above the BN254 modulus, as an Fr, an AztecAddress, or nested in a witness or a tx', () => {
    fc.assert(
      fc.property(frAtOrAbove, (bad) => {
        expect(scalarsModule.fr.safeParse(bad).success).toBe(false);
        expect(scalarsModule.aztecAddress.safeParse(bad).success).toBe(false);
        expect(worldStateModule.membershipWitness.safeParse({ leafIndex: '1', siblingPath: [bad] }).success).toBe(
          false,
        );
        expect(logsModule.privateLogsQuery.safeParse({ tags: [hex32Of(1n), bad] }).success).toBe(false);
      }),
    );
  });

  test('a hash or 32-byte value of another length', () => {
    fc.assert(
      fc.property(wrongLengthHex, (bad) => {
        for (const codec of [scalarsModule.txHash, scalarsModule.blockHash, scalarsModule.bytes32, scalarsModule.fr]) {
          expect(codec.safeParse(bad).success).toBe(false);
        }
        expect(checkpointModule.checkpointParameter.safeParse({ hash: bad }).success).toBe(false);
      }),
    );
  });

  test('a bigint or SlotNumber that is not a string of decimal digits', () => {
    fc.assert(
      fc.property(notDecimal, (bad) => {
        expect(scalarsModule.bigUint.safeParse(bad).success).toBe(false);
        expect(scalarsModule.slotNumber.safeParse(bad).success).toBe(false);
        expect(
          worldStateModule.leafIndexInBlock.safeParse({ data: bad, l2BlockNumber: 1, l2BlockHash: hex32Of(1n) })
            .success,
        ).toBe(false);
      }),
    );
    const wire = JSON.parse(JSON.stringify(z.encode(txModule.tx, fc.sample(tx, 1)[0]!))) as Record<string, unknown>;
    expect(txModule.tx.safeParse(wire).success).toBe(true);
    expect(txModule.tx.safeParse({ ...wire, expirationTimestamp: '12e3' }).success).toBe(false);
  });

  test('a tx without a nullifier', () => {
    const wire = JSON.parse(JSON.stringify(z.encode(txModule.tx, fc.sample(tx, 1)[0]!))) as {
      sideEffects: Record<string, unknown>;
    };
    const result = txModule.tx.safeParse({ ...wire, sideEffects: { ...wire.sideEffects, nullifiers: [] } });
    expect(result.error?.issues[0]?.message).toMatch(/at least one nullifier/);
  });

  test('parameter shapes: tree ids, checkpoint parameters and queries, slash rounds, mana usage', () => {
    const message = (codec: z.ZodType, input: unknown): string => {
      const result = codec.safeParse(input);
      expect(result.success).toBe(false);
      return result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ') ?? '';
    };
    expect(message(scalarsModule.merkleTreeId, 5)).toMatch(/expected a tree id/);
    expect(message(scalarsModule.merkleTreeId, '1')).toMatch(/expected a tree id/);
    expect(message(checkpointModule.checkpointParameter, 'proposed')).toMatch(
      /'proposed' is not a valid checkpoint tag/,
    );
    expect(message(checkpointModule.checkpointParameter, { number: 1, tag: 'proven' })).toMatch(/exactly one/);
    expect(message(checkpointModule.checkpointParameter, { hash: '0x12' })).toMatch(/^hash: .*got 1 byte/);
    expect(message(checkpointModule.checkpointParameter, true)).toMatch(/expected a checkpoint number/);
    expect(message(checkpointModule.checkpointsQuery, { from: 1 })).toMatch(
      /limit.*either \{from, limit\} or \{epoch\}/,
    );
    expect(message(checkpointModule.checkpointsQuery, { epoch: 1, from: 2, limit: 3 })).toMatch(/from/);
    expect(message(checkpointModule.checkpointsQuery, { epoch: -1 })).toMatch(
      /^epoch: expected a non-negative safe integer/,
    );
    expect(message(checkpointModule.checkpointsQuery, 3)).toMatch(/either \{from, limit\} or \{epoch\}/);
    expect(message(slashingModule.slashRound, 'latest')).toMatch(/'all', 'current' or a round number/);
    expect(slashingModule.slashRound.parse('7')).toBe(7n);
    expect(slashingModule.slashRound.parse(7)).toBe(7n);
    expect(message(scalarsModule.manaUsageEstimate, 'max')).toMatch(/'none', 'target', 'limit'/);
    expect(message(scalarsModule.jsonObject, [1])).toMatch(/expected a JSON object/);
    expect(z.safeEncode(scalarsModule.jsonObject, { fee: 1n }).success).toBe(false);
    expect(message(scalarsModule.jsonObject, JSON.parse('{"__proto__": {"polluted": true}}'))).toMatch(
      /"__proto__" is not allowed/,
    );
  });
});
