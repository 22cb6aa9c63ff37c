/**
 * A contract's life on a simulated network: one tx publishes its class and an instance and calls it in the same
 * tx; a later tx calls it again. Public storage, public logs, the contract queries and the follower's view agree.
 */
import { expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import { genesisTestAccounts } from '../../spec/genesis.js';
import { hashToField } from '../../spec/hash.js';
import { buildTx } from '../../spec/txBuilder.js';
import { assemble } from '../../spec/vm/assembler.js';
import { fieldToHex, shortStringToField } from '../../spec/vm/field.js';
import type { NodeService } from '../../core/nodeService.js';
import { drawOptions, runSimulation } from '../../sim/runSimulation.js';
import { COUNTER_SELECTORS, counterContract } from '../publicVm/vmContracts.js';

const h = (n: bigint): Hex => fieldToHex(n);
const payer = genesisTestAccounts()[1]!;
const bytecode = assemble(counterContract());
const classId = hashToField(bytecode);
const counter = h(0xc0de_0001n);
const incrementCall = {
  contractAddress: counter,
  msgSender: payer,
  isStaticCall: false,
  calldata: [h(COUNTER_SELECTORS.increment)],
};
const logTag = h(shortStringToField('incremented'));

async function send(
  s: NodeService,
  nullifier: bigint,
  extra: Partial<Parameters<typeof buildTx>[0]> = {},
): Promise<Hex> {
  const latest = await s.chain.getBlock({ kind: 'tag', tag: 'latest' });
  const tx = buildTx({
    chainId: s.info.getChainId(),
    version: s.info.getVersion(),
    anchorBlockHash: latest!.block.hash,
    feePayer: payer,
    nullifier: h(nullifier),
    minFees: await s.fees.getCurrentMinFees(),
    expirationTimestamp: 2n ** 40n,
    publicCalls: { appLogic: [incrementCall] },
    ...extra,
  });
  await s.txs.sendTx(tx);
  return tx.txHash;
}

it('publishes a contract and calls it: storage, logs, receipts and contract queries on both nodes', async () => {
  const errors: unknown[] = [];
  let checked = false;
  let firstTx: Hex | undefined;
  await runSimulation(
    { ...drawOptions(12n, 420), followerCount: 1, inclusionDelay: { probability: 0, blocksMax: 0 } },
    {
      scenario: (world) => {
        world.at(50_000, async () => {
          try {
            firstTx = await send(world.node('sequencer-0').service, 0x5eed01n, {
              sideEffects: {
                contractClassPublications: [
                  {
                    id: classId,
                    version: 1,
                    artifactHash: classId,
                    privateFunctionsRoot: h(0n),
                    publicBytecodeCommitment: classId,
                    packedBytecode: bytesToHex(bytecode),
                  },
                ],
                contractInstancePublications: [
                  {
                    address: counter,
                    version: 1,
                    salt: h(7n),
                    deployer: payer,
                    currentContractClassId: classId,
                    originalContractClassId: classId,
                    initializationHash: h(0n),
                    publicKeysHash: h(0n),
                  },
                ],
              },
            });
          } catch (error) {
            errors.push(error);
          }
        });
        world.at(200_000, async () => {
          try {
            await send(world.node('sequencer-0').service, 0x5eed02n);
          } catch (error) {
            errors.push(error);
          }
        });
        world.at(410_000, async () => {
          try {
            for (const name of ['sequencer-0', 'follower-1']) {
              const s = world.node(name).service;
              expect(await s.txs.getTxReceipt(firstTx!, {})).toMatchObject({
                status: 'checkpointed',
                executionResult: 'success',
              });
              expect((await s.contracts.getContractClass(classId))?.packedBytecode).toBe(bytesToHex(bytecode));
              expect(await s.contracts.getContract(counter, { kind: 'tag', tag: 'latest' })).toMatchObject({
                address: counter,
                currentContractClassId: classId,
              });
              expect(
                BigInt(await s.worldState.getPublicStorageAt({ kind: 'tag', tag: 'latest' }, counter, h(0n))),
              ).toBe(2n);
              const [logs] = await s.logs.getPublicLogsByTags(counter, [logTag], false, 20);
              expect(logs!.map((log) => BigInt(log.fields[0]!))).toEqual([1n, 2n]);
            }
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
