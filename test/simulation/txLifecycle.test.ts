/**
 * A tx's life on a simulated network: sent to the sequencer, pooled, mined with its fee taken from the payer's
 * balance, checkpointed on L1, and known to a follower that learned the block from L1 alone.
 */
import { expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../spec/config/allowList.js';
import { GENESIS_TEST_ACCOUNT_BALANCE, genesisTestAccounts } from '../../spec/genesis.js';
import { buildTx } from '../../spec/txBuilder.js';
import { feePayerBalanceStorageSlot } from '../../spec/vm/storageSlots.js';
import type { TxValue } from '../../spec/wire/tx.js';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';

const h = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;

it('sends, mines, charges, checkpoints and serves a tx; its nullifier cannot be spent twice', async () => {
  const errors: unknown[] = [];
  const payer = genesisTestAccounts()[0]!;
  let tx: TxValue | undefined;
  let checked = false;
  await runSimulation(
    { ...drawOptions(11n, 300), followerCount: 1, inclusionDelay: { probability: 0, blocksMax: 0 } },
    {
      scenario: (world) => {
        world.at(60_000, async () => {
          try {
            const s = world.node('sequencer-0').service;
            const latest = await s.getBlock({ kind: 'tag', tag: 'latest' });
            tx = buildTx({
              chainId: s.getChainId(),
              version: s.getVersion(),
              anchorBlockHash: latest!.block.hash,
              feePayer: payer,
              nullifier: h(0xabcdef12345n),
              minFees: await s.getCurrentMinFees(),
              expirationTimestamp: 2n ** 40n,
            });
            expect(await s.isValidTx(tx, {})).toEqual({ valid: true });
            await s.sendTx(tx);
            expect(await s.getPendingTxCount()).toBe(1);
            expect(await s.getTxReceipt(tx.txHash, {})).toEqual({ txHash: tx.txHash, status: 'pending' });
          } catch (error) {
            errors.push(error);
          }
        });
        world.at(280_000, async () => {
          try {
            const sequencer = world.node('sequencer-0').service;
            const follower = world.node('follower-1').service;
            const receipt = await sequencer.getTxReceipt(tx!.txHash, { includeTxEffect: true });
            expect(receipt).toMatchObject({ status: 'checkpointed', executionResult: 'success' });
            const fee = (receipt as { transactionFee: bigint }).transactionFee;
            expect(fee).toBeGreaterThan(0n);
            const balance = await follower.getPublicStorageAt({ kind: 'tag', tag: 'latest' }, PROTOCOL_CONTRACT_ADDRESSES.feeAsset, feePayerBalanceStorageSlot(payer));
            expect(BigInt(balance)).toBe(GENESIS_TEST_ACCOUNT_BALANCE - fee);
            expect(await follower.getTxReceipt(tx!.txHash, {})).toMatchObject({ status: 'checkpointed', transactionFee: fee });
            expect((await follower.getTxEffect(tx!.txHash))?.data.nullifiers).toContain(h(0xabcdef12345n));
            expect(await sequencer.getPendingTxCount()).toBe(0);
            const again = buildTx({
              chainId: tx!.chainId,
              version: tx!.version,
              anchorBlockHash: tx!.anchorBlockHash,
              feePayer: payer,
              nullifier: h(0xabcdef12345n),
              minFees: await sequencer.getCurrentMinFees(),
              expirationTimestamp: 2n ** 41n,
            });
            await expect(sequencer.sendTx(again)).rejects.toMatchObject({ code: 'INVALID_PARAMS', message: expect.stringMatching(/already spent/) });
            checked = true;
          } catch (error) {
            errors.push(error);
          }
        });
      },
    },
  );
  if (errors.length > 0) throw errors[0];
  expect(checked).toBe(true);
});
