import { describe, expect, test } from 'vitest';
import { NodeError } from '../../core/errors.js';
import { txRejectedError } from '../../core/txPool/txRejection.js';
import { RpcErrorCode } from '../../spec/rpc/errorCodes.js';
import { capturingLogger } from '../../test/helpers/testLogger.js';
import { toRpcErrorObject } from './errors.js';

const logged: string[] = [];
const logger = capturingLogger(({ level, message }) => {
  if (level === 'error') logged.push(message);
});
const h = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as const;

describe('core errors as JSON-RPC errors', () => {
  test('a pool rejection is -32003 carrying its code and the figures that decided it', () => {
    const error = txRejectedError({
      code: 'NULLIFIER_CONFLICT',
      details: {
        txHash: h(1),
        priorityFee: 10n,
        nullifier: h(2),
        conflictingTxHash: h(3),
        conflictingPriorityFee: 10n,
        conflictingTxCount: 1,
        minimumPriorityFee: 11n,
        priceBumpPercentage: 10,
      },
    });
    const answer = toRpcErrorObject(error, logger, 'svc_sendTx');
    expect(answer.code).toBe(RpcErrorCode.TX_REJECTED);
    expect(answer.message).toMatch(/at least 11/);
    expect(answer.data).toMatchObject({
      code: 'NULLIFIER_CONFLICT',
      minimumPriorityFee: '11',
      conflictingTxHash: h(3),
    });
    expect(logged).toEqual([]);
  });

  test('an unknown code is a fault: -32603 without detail, logged', () => {
    const fault = Object.assign(new Error('disk on fire'), { code: 'EIO' });
    expect(toRpcErrorObject(fault, logger, 'svc_getBlock')).toEqual({
      code: RpcErrorCode.INTERNAL_ERROR,
      message: 'Internal error',
    });
    expect(logged).toEqual(['rpc call failed']);
  });

  test('a startup-only core code never reaches a client as itself', () => {
    const error = new NodeError('SYNC_FAILED', 'boom');
    expect(toRpcErrorObject(error, logger, 'svc_getBlock').code).toBe(RpcErrorCode.INTERNAL_ERROR);
  });
});
