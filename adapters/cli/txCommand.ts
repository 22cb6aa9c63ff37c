/**
 * `svc tx send`: builds a tx with buildTx against a running node (its chain id, version, checkpointed block as anchor and
 * current minimum fees) and submits it with svc_sendTx; prints the tx hash, then the receipt once mined.
 */
import { randomBytes } from 'node:crypto';
import { Command, Option } from 'commander';
import { createSvcClient } from '../client/svcClient.js';
import type { Hex } from '../../spec/chain.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx, txToWire } from '../../spec/txBuilder.js';
import { FR_MODULUS } from '../../spec/constants.js';

/** How long `--wait` waits for the receipt to leave `pending`, and how often it asks. */
const RECEIPT_WAIT_MS_DEFAULT = 120_000;
const RECEIPT_POLL_MS = 1_000;
/** Seconds a sent tx stays valid by default. */
const TX_LIFETIME_SECONDS_DEFAULT = 3_600n;

const isField = (text: string): boolean => /^0x[0-9a-fA-F]{64}$/.test(text) && BigInt(text) < FR_MODULUS;

function randomField(): Hex {
  const bytes = randomBytes(32);
  bytes[0] = 0;
  return `0x${bytes.toString('hex')}`;
}

interface SendOptions {
  readonly rpcUrl: string;
  readonly feePayer?: string;
  readonly nullifier?: string;
  readonly priorityFee?: string;
  readonly wait: boolean;
}

export function txCommand(print: (line: string) => void, usageError: (message: string) => Error): Command {
  const tx = new Command('tx').description('build and send transactions');
  tx.command('send')
    .description('build a tx (a fresh nullifier, paid by a test account unless told) and send it with svc_sendTx')
    .addOption(
      new Option('--rpc-url <url>', 'the node public JSON-RPC URL').default('http://127.0.0.1:8080').env('SVC_RPC_URL'),
    )
    .option('--fee-payer <address>', 'L2 address paying the fee (default: test account 0)')
    .option('--nullifier <fr>', 'the first nullifier (default: random)')
    .option('--priority-fee <n>', 'max priority fee per gas (default 0)')
    .option('--wait', 'wait until the tx is mined and print its receipt', false)
    .action(async (options: SendOptions) => {
      const feePayer = options.feePayer ?? genesisTestAccounts()[0]!;
      if (!isField(feePayer))
        throw usageError(`--fee-payer: expected 0x and 64 hex digits below the field modulus, got ${feePayer}`);
      if (options.nullifier !== undefined && !isField(options.nullifier))
        throw usageError(`--nullifier: expected a field element, got ${options.nullifier}`);
      if (options.priorityFee !== undefined && !/^\d+$/.test(options.priorityFee))
        throw usageError(`--priority-fee: expected a whole number, got ${options.priorityFee}`);
      const client = createSvcClient(options.rpcUrl);
      // Anchored on the checkpointed block: a proposed block may still be dropped, and the tx with it.
      const anchor = await client.svc.getBlockData('checkpointed');
      if (anchor === null) throw new Error('the node has no checkpointed block');
      const built = buildTx({
        chainId: await client.svc.getChainId(),
        version: await client.svc.getVersion(),
        anchorBlockHash: anchor.hash,
        feePayer: feePayer.toLowerCase() as Hex,
        nullifier: (options.nullifier?.toLowerCase() as Hex | undefined) ?? randomField(),
        minFees: await client.svc.getCurrentMinFees(),
        expirationTimestamp: BigInt(Math.floor(Date.now() / 1000)) + TX_LIFETIME_SECONDS_DEFAULT,
        ...(options.priorityFee !== undefined ? { priorityFeePerGas: BigInt(options.priorityFee) } : {}),
      });
      await client.svc.sendTx(txToWire(built));
      print(`sent tx ${built.txHash}`);
      if (!options.wait) return;
      const deadline = Date.now() + RECEIPT_WAIT_MS_DEFAULT;
      for (;;) {
        const receipt = await client.svc.getTxReceipt(built.txHash);
        if (receipt.status !== 'pending') {
          print(
            JSON.stringify(receipt, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)),
          );
          return;
        }
        if (Date.now() > deadline)
          throw new Error(`tx ${built.txHash} is still pending after ${RECEIPT_WAIT_MS_DEFAULT / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
      }
    });
  return tx;
}
