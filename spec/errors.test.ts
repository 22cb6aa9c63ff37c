import { describe, expect, it } from 'vitest';
import { AdminApiKeyError } from '../adapters/rpc/adminApiKey.js';
import { RpcError } from '../adapters/rpc/errors.js';
import { UsageError } from '../adapters/cli/usageError.js';
import { AnvilPortInUseError, AnvilStartError } from '../adapters/l1/anvil.js';
import { StorageError } from '../adapters/storage/storageError.js';
import { AssertionError } from '../core/assert.js';
import { NodeError } from '../core/errors.js';
import { L1Error } from '../core/l1/l1Error.js';
import { TxRejectedError } from '../core/txPool/txRejection.js';
import { BlsError } from '../core/validators/bls.js';
import { SigningGuardError } from '../core/validators/signingGuardError.js';
import { WorldStateError } from '../core/worldState/worldStateError.js';
import { CodecError } from './codec/bytes.js';
import { AllowListError } from './config/allowList.js';
import { ConfigError } from './config/configError.js';
import { CodedError } from './errors.js';

class ExampleError extends CodedError<'EXAMPLE_TOO_LARGE' | 'EXAMPLE_GONE', { readonly limit: number }> {
  constructor(
    code: 'EXAMPLE_TOO_LARGE' | 'EXAMPLE_GONE',
    shortMessage: string,
    limit: number,
    options?: { cause?: unknown },
  ) {
    super(code, shortMessage, { limit }, options);
    this.name = 'ExampleError';
  }
}

describe('CodedError', () => {
  it('carries its code, short message (also the message), details and cause', () => {
    const cause = new Error('socket closed');
    const error = new ExampleError('EXAMPLE_TOO_LARGE', 'the batch exceeds 10 calls', 10, { cause });
    expect(error.code).toBe('EXAMPLE_TOO_LARGE');
    expect(error.shortMessage).toBe('the batch exceeds 10 calls');
    expect(error.message).toBe('the batch exceeds 10 calls');
    expect(error.details).toEqual({ limit: 10 });
    expect(error.cause).toBe(cause);
    expect(error.name).toBe('ExampleError');
    expect(error.stack).toMatch(/^ExampleError: the batch exceeds 10 calls/);
  });

  it('has no cause property when none is given, as a plain Error', () => {
    const error = new ExampleError('EXAMPLE_GONE', 'gone', 0);
    expect('cause' in error).toBe(false);
  });

  it('is an Error, and a subclass instance is only its own kind', () => {
    const error = new ExampleError('EXAMPLE_GONE', 'gone', 0);
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(CodedError);
    expect(error).not.toBeInstanceOf(NodeError);
    expect(new NodeError('SYNC_FAILED', 'x')).not.toBeInstanceOf(ExampleError);
  });
});

describe('the coded errors of every layer', () => {
  const rejection = { code: 'LOW_PRIORITY_FEE', details: { txHash: '0x01' } } as unknown as ConstructorParameters<
    typeof TxRejectedError
  >[0];
  const problems = [{ kind: 'missing', name: 'l1RpcUrl', message: 'set L1_RPC_URL' }] as const;
  const storage = { dataDirectory: '/data', location: '/data/db' };
  const cases: readonly (readonly [CodedError, string, string, string, object])[] = [
    [
      new NodeError('LIMIT_EXCEEDED', 'too many', { limit: 'x' }),
      'NodeError',
      'LIMIT_EXCEEDED',
      'too many',
      { limit: 'x' },
    ],
    [new NodeError('SYNC_FAILED', 'sync failed'), 'NodeError', 'SYNC_FAILED', 'sync failed', {}],
    [
      new WorldStateError('WORLD_STATE_TREE_FULL', 'full', { tree: 'note' }),
      'WorldStateError',
      'WORLD_STATE_TREE_FULL',
      'full',
      { tree: 'note' },
    ],
    [new TxRejectedError(rejection, 'outbid'), 'TxRejectedError', 'LOW_PRIORITY_FEE', 'outbid', { txHash: '0x01' }],
    [new L1Error('L1_UNREACHABLE', 'no L1'), 'L1Error', 'L1_UNREACHABLE', 'no L1', {}],
    [
      new SigningGuardError('SIGNING_GUARD_UNAVAILABLE', 'no db'),
      'SigningGuardError',
      'SIGNING_GUARD_UNAVAILABLE',
      'no db',
      {},
    ],
    [new BlsError('BLS_SECRET_KEY_INVALID', 'zero'), 'BlsError', 'BLS_SECRET_KEY_INVALID', 'zero', {}],
    [new CodecError('short'), 'CodecError', 'CODEC_INVALID', 'short', {}],
    [
      new AllowListError(2, 'X:1', 'bad kind'),
      'AllowListError',
      'ALLOW_LIST_INVALID',
      'entry 2 "X:1": bad kind',
      { index: 2, entry: 'X:1', reason: 'bad kind' },
    ],
    [new ConfigError('CONFIG_INVALID', problems), 'ConfigError', 'CONFIG_INVALID', 'set L1_RPC_URL', { problems }],
    [new StorageError('STORAGE_LOCKED', 'locked', storage), 'StorageError', 'STORAGE_LOCKED', 'locked', storage],
    [new AdminApiKeyError('bad hash'), 'AdminApiKeyError', 'ADMIN_API_KEY_INVALID', 'bad hash', {}],
    [new AnvilStartError('no binary'), 'AnvilStartError', 'ANVIL_START_FAILED', 'no binary', {}],
    [new AnvilPortInUseError('port taken'), 'AnvilStartError', 'ANVIL_PORT_IN_USE', 'port taken', {}],
    [new UsageError('choose one'), 'Error', 'USAGE_INVALID', 'choose one', {}],
  ];

  it.each(cases)('%s keeps its name, code, message and details', (error, name, code, message, details) => {
    expect(error).toBeInstanceOf(CodedError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    expect(error.shortMessage).toBe(message);
    expect(error.details).toEqual(details);
  });

  it('keeps the fields callers read besides the base', () => {
    const allowList = new AllowListError(2, 'X:1', 'bad kind');
    expect([allowList.index, allowList.entry, allowList.reason]).toEqual([2, 'X:1', 'bad kind']);
    expect(new ConfigError('INVALID_PARAMS', problems).problems).toBe(problems);
    expect(new AnvilPortInUseError('port taken')).toBeInstanceOf(AnvilStartError);
  });

  it('passes the cause through', () => {
    const cause = new Error('ECONNREFUSED');
    expect(new L1Error('L1_UNREACHABLE', 'no L1', { cause }).cause).toBe(cause);
    expect(new NodeError('SYNC_FAILED', 'x', {}, { cause }).cause).toBe(cause);
    expect(new StorageError('STORAGE_OPEN_FAILED', 'x', storage, { cause }).cause).toBe(cause);
    expect(new AnvilPortInUseError('x', { cause }).cause).toBe(cause);
  });

  it('leaves out the errors that have no string code to branch on', () => {
    expect(new AssertionError('x')).not.toBeInstanceOf(CodedError);
    expect(new RpcError(-32602, 'x')).not.toBeInstanceOf(CodedError);
  });
});
