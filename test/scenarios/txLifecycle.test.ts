/**
 * A tx's life on a simulated network: sent to the sequencer, pooled, mined with its fee taken from the payer's
 * balance, checkpointed on L1, and known to a follower that learned the block from L1 alone.
 */
import { expect, it } from 'vitest';
import { feeFloor } from '../../core/fees/minFees.js';
import type { GasFees, Hex } from '../../spec/chain.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../../spec/config/allowList.js';
import { INITIAL_ETH_PER_FEE_ASSET_DEFAULT } from '../../spec/config/schema.js';
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
            const latest = await s.chain.getBlock({ kind: 'tag', tag: 'latest' });
            tx = buildTx({
              chainId: s.info.getChainId(),
              version: s.info.getVersion(),
              anchorBlockHash: latest!.block.hash,
              feePayer: payer,
              nullifier: h(0xabcdef12345n),
              minFees: await s.fees.getCurrentMinFees(),
              expirationTimestamp: 2n ** 40n,
            });
            expect(await s.txs.isValidTx(tx, {})).toEqual({ valid: true });
            await s.txs.sendTx(tx);
            expect(await s.txs.getPendingTxCount()).toBe(1);
            expect(await s.txs.getTxReceipt(tx.txHash, {})).toEqual({ txHash: tx.txHash, status: 'pending' });
          } catch (error) {
            errors.push(error);
          }
        });
        world.at(280_000, async () => {
          try {
            const sequencer = world.node('sequencer-0').service;
            const follower = world.node('follower-1').service;
            const receipt = await sequencer.txs.getTxReceipt(tx!.txHash, { includeTxEffect: true });
            expect(receipt).toMatchObject({ status: 'checkpointed', executionResult: 'success' });
            const fee = (receipt as { transactionFee: bigint }).transactionFee;
            expect(fee).toBeGreaterThan(0n);
            const balance = await follower.worldState.getPublicStorageAt(
              { kind: 'tag', tag: 'latest' },
              PROTOCOL_CONTRACT_ADDRESSES.feeAsset,
              feePayerBalanceStorageSlot(payer),
            );
            expect(BigInt(balance)).toBe(GENESIS_TEST_ACCOUNT_BALANCE - fee);
            expect(await follower.txs.getTxReceipt(tx!.txHash, {})).toMatchObject({
              status: 'checkpointed',
              transactionFee: fee,
            });
            expect((await follower.txs.getTxEffect(tx!.txHash))?.data.nullifiers).toContain(h(0xabcdef12345n));
            expect(await sequencer.txs.getPendingTxCount()).toBe(0);
            const again = buildTx({
              chainId: tx!.chainId,
              version: tx!.version,
              anchorBlockHash: tx!.anchorBlockHash,
              feePayer: payer,
              nullifier: h(0xabcdef12345n),
              minFees: await sequencer.fees.getCurrentMinFees(),
              expirationTimestamp: 2n ** 41n,
            });
            await expect(sequencer.txs.sendTx(again)).rejects.toMatchObject({
              code: 'INVALID_PARAMS',
              message: expect.stringMatching(/already spent/),
            });
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

/** Sends one tx at 60 s on a network whose rollup contract has this fee-asset rate; its min fees and charged fee. */
async function feesAtRate(ethPerFeeAsset: number): Promise<{ minFees: GasFees; transactionFee: bigint }> {
  const payer = genesisTestAccounts()[1]!;
  let minFees: GasFees | undefined;
  let transactionFee: bigint | undefined;
  const errors: unknown[] = [];
  await runSimulation(
    { ...drawOptions(12n, 240), followerCount: 0, ethPerFeeAsset, inclusionDelay: { probability: 0, blocksMax: 0 } },
    {
      scenario: (world) => {
        let txHash: Hex | undefined;
        world.at(60_000, async () => {
          try {
            const s = world.node('sequencer-0').service;
            const latest = await s.chain.getBlock({ kind: 'tag', tag: 'latest' });
            minFees = await s.fees.getCurrentMinFees();
            const tx = buildTx({
              chainId: s.info.getChainId(),
              version: s.info.getVersion(),
              anchorBlockHash: latest!.block.hash,
              feePayer: payer,
              nullifier: h(0x5eedn),
              minFees,
              expirationTimestamp: 2n ** 40n,
            });
            txHash = tx.txHash;
            await s.txs.sendTx(tx);
          } catch (error) {
            errors.push(error);
          }
        });
        world.at(230_000, async () => {
          try {
            const receipt = await world.node('sequencer-0').service.txs.getTxReceipt(txHash!, {});
            transactionFee = (receipt as { transactionFee?: bigint }).transactionFee;
          } catch (error) {
            errors.push(error);
          }
        });
      },
    },
  );
  if (errors.length > 0) throw errors[0];
  expect(minFees).toBeDefined();
  expect(transactionFee).toBeDefined();
  return { minFees: minFees!, transactionFee: transactionFee! };
}

it("converts the fee floor with the rollup contract's fee-asset rate: at twice the default rate a tx costs half", async () => {
  const atDefault = await feesAtRate(Number(INITIAL_ETH_PER_FEE_ASSET_DEFAULT));
  const atDouble = await feesAtRate(Number(INITIAL_ETH_PER_FEE_ASSET_DEFAULT) * 2);
  expect(atDefault.minFees).toEqual(feeFloor(INITIAL_ETH_PER_FEE_ASSET_DEFAULT));
  expect(atDouble.minFees).toEqual({
    feePerDaGas: atDefault.minFees.feePerDaGas / 2n,
    feePerL2Gas: atDefault.minFees.feePerL2Gas / 2n,
  });
  expect(atDouble.transactionFee * 2n).toBe(atDefault.transactionFee);
});
