/**
 * Result encoding in the dispatcher: a result the node got wrong is a fault of the node (-32603, nothing of it
 * leaked), logged with the field that does not fit; a good result is sent as its wire JSON, with or without the
 * check against zod that the test suites turn on.
 */
import { describe, expect, test } from 'vitest';
import type { LoggerPort } from '../../core/ports.js';
import type { NodeService } from '../../core/nodeService.js';
import { PUBLIC_RPC_LIMITS_DEFAULT } from '../../spec/rpc/limits.js';
import { createRpcDispatcher } from './dispatcher.js';
import { silentLogger } from './jsonRpcServer.js';

function dispatcherFor(getL1Constants: () => unknown, checkResultEncoding: boolean) {
  const errors: string[] = [];
  const logger: LoggerPort = {
    ...silentLogger,
    error: (message, fields) => errors.push(`${message} ${JSON.stringify(fields)}`),
  };
  const node = { info: { getL1Constants: async () => getL1Constants() } } as unknown as NodeService;
  const dispatch = createRpcDispatcher({
    node,
    namespace: 'public',
    limits: PUBLIC_RPC_LIMITS_DEFAULT,
    logger,
    checkResultEncoding,
  });
  return { dispatch, errors };
}

const constants = {
  l1ChainId: 31337,
  rollupVersion: 1,
  l1StartBlock: 12n,
  l1GenesisTime: 1_700_000_000n,
  slotDuration: 36,
  epochDuration: 32,
  ethereumSlotDuration: 12,
  proofSubmissionEpochs: 1,
  genesisArchiveRoot: `0x${'00'.repeat(31)}01`,
  ethPerFeeAsset: 10n ** 18n,
};
const request = { jsonrpc: '2.0', id: 1, method: 'svc_getL1Constants', params: [] };
const internalError = { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } };

describe('result encoding', () => {
  test.each([false, true])('a good result is sent as its wire JSON (checked against zod: %s)', async (checked) => {
    const { dispatch } = dispatcherFor(() => constants, checked);
    const reply = await dispatch(request);
    expect(reply).toMatchObject({ result: { l1StartBlock: '12', l1GenesisTime: '1700000000', slotDuration: 36 } });
  });

  test('a result of the wrong shape is -32603, logged with what zod says of it', async () => {
    const { dispatch, errors } = dispatcherFor(() => null, false);
    expect(await dispatch(request)).toEqual(internalError);
    expect(errors.join('\n')).toMatch(/svc_getL1Constants does not fit its wire schema.*expected object/s);
  });

  test('with the check on, a field the compiled encoder trusts but zod refuses is -32603 too', async () => {
    const { dispatch, errors } = dispatcherFor(() => ({ ...constants, l1StartBlock: 'twelve' }), true);
    expect(await dispatch(request)).toEqual(internalError);
    expect(errors.join('\n')).toMatch(/svc_getL1Constants does not fit its wire schema/);
  });
});
