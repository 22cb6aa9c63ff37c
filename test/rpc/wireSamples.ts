/** Well-formed wire values for the RPC tests: params as a client would send them. */
import { blockHashOf, checkpointOne, hex32 } from './fakeNode.js';

export const sampleFr = hex32(0x5eed);
export const sampleAztecAddress = hex32(0xc0de);
export const sampleEthAddress = `0x${'ab'.repeat(20)}`;
export const sampleTxHash = hex32(0x7a11);

/** A Tx as sent on the wire (spec/wire/tx.ts layout). */
export const sampleTx = {
  txHash: sampleTxHash,
  chainId: 31337,
  version: 1,
  anchorBlockHash: blockHashOf(2),
  expirationTimestamp: '1700003600',
  feePayer: sampleAztecAddress,
  gasSettings: {
    gasLimits: { daGas: 1_000_000, l2Gas: 2_000_000 },
    maxFeesPerGas: { feePerDaGas: '10', feePerL2Gas: '20' },
    maxPriorityFeesPerGas: { feePerDaGas: '1', feePerL2Gas: '2' },
  },
  sideEffects: {
    nullifiers: [hex32(0x111)],
    noteHashes: [hex32(0x222)],
    privateLogs: [{ tag: hex32(0x333), fields: [hex32(1), hex32(2)] }],
    l2ToL1Messages: [{ recipient: sampleEthAddress, content: hex32(0x444) }],
    contractClassPublications: [],
    contractInstancePublications: [],
  },
  publicCalls: {
    setup: [],
    appLogic: [
      { contractAddress: sampleAztecAddress, msgSender: hex32(0x5e), isStaticCall: false, calldata: [hex32(0x1234)] },
    ],
    teardown: null,
  },
  proof: '0x00ff',
};

export const checkpointOneHash = checkpointOne.hash;
