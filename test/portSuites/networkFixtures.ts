/** Messages and request handlers the network tests share: well-formed shapes, no valid signatures. */
import type {
  BlockProposalMessage,
  CheckpointAttestationMessage,
  NetworkRequestHandlers,
  TxMessage,
} from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { computeTxHash } from '../../spec/codec/tx.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { makeTx } from '../txPool/txFixtures.js';

export const bytes32 = (byte: string): Hex => `0x${byte.repeat(32)}`;

export function attestation(slot: number): CheckpointAttestationMessage {
  return {
    kind: 'checkpointAttestation',
    payload: {
      l1ChainId: 31337,
      rollupVersion: 1,
      slot,
      checkpointNumber: 1,
      archiveRoot: bytes32('11'),
      checkpointHeaderHash: bytes32('22'),
    },
    attester: `0x${'33'.repeat(20)}`,
    signature: `0x${'44'.repeat(96)}`,
  };
}

export function txMessage(n: number): TxMessage {
  return { kind: 'tx', tx: hashedTx(n) };
}

export function hashedTx(n: number): TxValue {
  const tx = makeTx({ hash: n, priorityFee: 5n + BigInt(n) });
  return { ...tx, txHash: computeTxHash(tx) };
}

export function blockProposal(slot: number, index: number): BlockProposalMessage {
  return {
    kind: 'blockProposal',
    payload: {
      l1ChainId: 31337,
      rollupVersion: 1,
      slot,
      blockNumber: 7 + index,
      indexWithinCheckpoint: index,
      archiveRoot: bytes32('55'),
      txHashes: [bytes32('66')],
    },
    header: '0x0102',
    body: '0x0304',
    proposer: `0x${'77'.repeat(20)}`,
    signature: `0x${'88'.repeat(96)}`,
  };
}

/** Serves nothing but what a test gives it. */
export function handlers(overrides: Partial<NetworkRequestHandlers>): NetworkRequestHandlers {
  return {
    status: () => ({
      l1ChainId: 31337,
      rollupVersion: 1,
      proposedBlock: { number: 0, hash: bytes32('00') },
      checkpointedBlock: { number: 0, hash: bytes32('00') },
    }),
    txsByHash: async () => [],
    blockProposal: async () => undefined,
    ...overrides,
  };
}
