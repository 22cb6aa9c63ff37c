/** Generated gossip messages and txs for the peer-to-peer tests (fast-check arbitraries and fixed samples). */
import fc from 'fast-check';
import type { BlockProposalMessage, GossipMessage } from '../../core/ports.js';
import type { Hex } from '../../spec/chain.js';
import { buildTx } from '../../spec/txBuilder.js';
import type { TxValue } from '../../spec/wire/tx.js';

const hexOf = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString('hex')}`;

export const bytesHex = (size: number) => fc.uint8Array({ minLength: size, maxLength: size }).map(hexOf);
/** 32 bytes below the field modulus: the first byte is 0. */
export const fieldHex = fc.uint8Array({ minLength: 31, maxLength: 31 }).map((b) => `0x00${hexOf(b).slice(2)}` as Hex);
const anyHex = fc.uint8Array({ maxLength: 64 }).map(hexOf);
const uint = fc.nat({ max: Number.MAX_SAFE_INTEGER });

/** A valid tx whose first nullifier is `nullifier` (so two calls with different nullifiers give different hashes). */
export function sampleTx(nullifier: Hex): TxValue {
  return buildTx({
    chainId: 31_337,
    version: 1,
    anchorBlockHash: `0x${'ab'.repeat(32)}`,
    feePayer: `0x${'00'.repeat(31)}01`,
    nullifier,
    minFees: { feePerDaGas: 1n, feePerL2Gas: 2n },
    expirationTimestamp: 2n ** 40n,
  });
}

export const txArbitrary = fieldHex.map(sampleTx);

const checkpointPayload = fc.record({
  l1ChainId: uint,
  rollupVersion: uint,
  slot: uint,
  checkpointNumber: uint,
  archiveRoot: bytesHex(32),
  checkpointHeaderHash: bytesHex(32),
});

const blockPayload = fc.record({
  l1ChainId: uint,
  rollupVersion: uint,
  slot: uint,
  blockNumber: uint,
  indexWithinCheckpoint: uint,
  archiveRoot: bytesHex(32),
  txHashes: fc.array(bytesHex(32), { maxLength: 4 }),
});

export const blockProposalArbitrary: fc.Arbitrary<BlockProposalMessage> = fc.record({
  kind: fc.constant('blockProposal' as const),
  payload: blockPayload,
  header: anyHex,
  body: anyHex,
  proposer: bytesHex(20),
  signature: bytesHex(96),
});

export const gossipMessageArbitrary: fc.Arbitrary<GossipMessage> = fc.oneof(
  txArbitrary.map((tx) => ({ kind: 'tx' as const, tx })),
  blockProposalArbitrary,
  fc.record({
    kind: fc.constant('checkpointProposal' as const),
    payload: checkpointPayload,
    header: anyHex,
    proposer: bytesHex(20),
    signature: bytesHex(96),
  }),
  fc.record({
    kind: fc.constant('checkpointAttestation' as const),
    payload: checkpointPayload,
    attester: bytesHex(20),
    signature: bytesHex(96),
  }),
);

/** One fixed message of each kind, distinct per `seed`. */
export function sampleMessages(seed: number): GossipMessage[] {
  const byte = (seed % 256).toString(16).padStart(2, '0');
  const payload = {
    l1ChainId: 31_337,
    rollupVersion: 1,
    slot: seed,
    checkpointNumber: 1,
    archiveRoot: `0x${byte.repeat(32)}`,
    checkpointHeaderHash: `0x${'22'.repeat(32)}`,
  } as const;
  return [
    { kind: 'tx', tx: sampleTx(`0x00${byte.repeat(31)}`) },
    sampleBlockProposal(seed, 0),
    {
      kind: 'checkpointProposal',
      payload,
      header: `0x${byte}01`,
      proposer: `0x${'33'.repeat(20)}`,
      signature: `0x${'44'.repeat(96)}`,
    },
    { kind: 'checkpointAttestation', payload, attester: `0x${'33'.repeat(20)}`, signature: `0x${'55'.repeat(96)}` },
  ];
}

export function sampleBlockProposal(slot: number, indexWithinCheckpoint: number): BlockProposalMessage {
  return {
    kind: 'blockProposal',
    payload: {
      l1ChainId: 31_337,
      rollupVersion: 1,
      slot,
      blockNumber: slot * 2 + indexWithinCheckpoint,
      indexWithinCheckpoint,
      archiveRoot: `0x${'66'.repeat(32)}`,
      txHashes: [`0x${'77'.repeat(32)}`],
    },
    header: '0x0102',
    body: '0x0304',
    proposer: `0x${'33'.repeat(20)}`,
    signature: `0x${'88'.repeat(96)}`,
  };
}
