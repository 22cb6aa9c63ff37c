/**
 * Expected failures of the core, each with a stable string code and a typed payload. Only adapters/rpc maps codes to
 * JSON-RPC numbers.
 */
import { CodedError, type CodedErrorOptions } from '../spec/errors.js';

export type NodeErrorCode =
  | 'STATE_NOT_AVAILABLE'
  | 'SUBSYSTEM_DISABLED'
  | 'OPERATION_REFUSED'
  | 'LIMIT_EXCEEDED'
  | 'INVALID_PARAMS'
  | 'DATA_DIRECTORY_CHAIN_MISMATCH'
  | 'GENESIS_MISMATCH'
  | 'CHECKPOINT_INVALID'
  | 'SYNC_FAILED';

export class NodeError<Details extends Record<string, unknown> = Record<string, unknown>> extends CodedError<
  NodeErrorCode,
  Details
> {
  constructor(
    code: NodeErrorCode,
    shortMessage: string,
    details: Details = {} as Details,
    options?: CodedErrorOptions,
  ) {
    super(code, shortMessage, details, options);
    this.name = 'NodeError';
  }
}

/** Subsystems a method may need; a method whose subsystem is missing answers SUBSYSTEM_DISABLED naming it. */
export const SUBSYSTEM_NAMES = {
  txPool: 'transaction pool',
  worldState: 'world state',
  publicExecution: 'public execution (simulator)',
  fees: 'fee oracle',
  contracts: 'contract registry',
  logs: 'log index',
  messages: 'cross-chain message index',
  p2p: 'peer-to-peer network',
  validator: 'validator',
  prover: 'prover',
  sequencer: 'sequencer',
  slashing: 'slashing detector',
  snapshots: 'snapshot uploader',
  keystore: 'keystore',
} as const;
export type Subsystem = keyof typeof SUBSYSTEM_NAMES;

/**
 * The error for a method whose subsystem this node lacks: `notBuilt` when this version of the node does not have it
 * yet, `notEnabled` when it exists but this node was started without it.
 */
export function subsystemUnavailable(
  subsystem: Subsystem,
  reason: 'notBuilt' | 'notEnabled',
): NodeError<{ subsystem: Subsystem; reason: string }> {
  const name = SUBSYSTEM_NAMES[subsystem];
  const why = reason === 'notBuilt' ? 'is not part of this node version yet' : 'is not enabled on this node';
  return new NodeError('SUBSYSTEM_DISABLED', `the ${name} ${why}`, { subsystem, reason });
}
