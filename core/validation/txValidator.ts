/**
 * Whether a transaction may enter the pool and a block (shared by svc_isValidTx and svc_sendTx). Every rule is
 * checked and every failing one reported, so a client learns all it must fix at once. The checks that need state
 * (anchor, nullifiers, balance, proof, setup calls) go through the context, read as of the node's latest block.
 */
import type { GasFees, Hex } from '../../spec/chain.js';
import type { AllowListEntry } from '../../spec/config/allowList.js';
import { CodecError } from '../../spec/codec/bytes.js';
import { FR_MODULUS } from '../../spec/constants.js';
import { txHashAndSize } from '../../spec/codec/tx.js';
import type { TxValue } from '../../spec/wire/tx.js';

export interface TxValidationContext {
  readonly chainId: number;
  readonly rollupVersion: number;
  /** Unix seconds of the next slot's start: a tx expiring before it can no longer be included. */
  readonly nextSlotTimestamp: bigint;
  /** Largest gas limits one tx may ask for (the network's). */
  readonly txGasLimitsMax: { readonly daGas: number; readonly l2Gas: number };
  /** The current minimum fees per gas; ignored with `skipFeeEnforcement`. */
  readonly minFeesPerGas: GasFees;
  readonly txBytesMax: number;
  readonly setupAllowList: readonly AllowListEntry[];
  /** Whether the anchor block is one the node has and still keeps the state of. */
  isAnchorKept(blockHash: Hex): Promise<boolean>;
  /** For each nullifier, whether it is already in the nullifier tree. */
  nullifiersExist(nullifiers: readonly Hex[]): Promise<readonly boolean[]>;
  feePayerBalance(feePayer: Hex): Promise<bigint>;
  /** The class of a deployed contract instance, for `C:` allow-list entries; undefined when not deployed. */
  contractClassOf(address: Hex): Promise<Hex | undefined>;
  /** The verifier port's answer for the tx's proof. */
  verifyProof(tx: TxValue): Promise<boolean>;
}

export interface TxValidationOptions {
  /** Validate for a simulation: the proof is not checked. */
  readonly isSimulation?: boolean;
  /** Do not require minimum fees or a balance covering the tx's maximum cost. */
  readonly skipFeeEnforcement?: boolean;
}

export type TxValidationResult =
  { readonly valid: true } | { readonly valid: false; readonly reasons: readonly string[] };

/** The most a tx can cost: every unit of gas it allows at its max fees. */
export function txMaxFee(tx: TxValue): bigint {
  const { gasLimits, maxFeesPerGas } = tx.gasSettings;
  return BigInt(gasLimits.daGas) * maxFeesPerGas.feePerDaGas + BigInt(gasLimits.l2Gas) * maxFeesPerGas.feePerL2Gas;
}

type PublicCall = TxValue['publicCalls']['setup'][number];

const sameField = (a: Hex, b: Hex): boolean => BigInt(a) === BigInt(b);

/** Whether an allow-list entry admits a setup call (the class is that of the called instance, when known). */
export function allowListAdmits(entry: AllowListEntry, call: PublicCall, classId: Hex | undefined): boolean {
  const target =
    entry.kind === 'instance'
      ? sameField(entry.address, call.contractAddress)
      : classId !== undefined && sameField(entry.classId, classId);
  if (!target) return false;
  const selector = call.calldata[0];
  if (selector === undefined || !sameField(selector, entry.selector)) return false;
  if (entry.onlySelf && !sameField(call.msgSender, call.contractAddress)) return false;
  if (entry.rejectNullMsgSender && BigInt(call.msgSender) === 0n) return false;
  return entry.calldataLength === undefined || call.calldata.length === entry.calldataLength;
}

function staticReasons(tx: TxValue, context: TxValidationContext, options: TxValidationOptions): string[] {
  const reasons: string[] = [];
  try {
    const { hash, sizeBytes: size } = txHashAndSize(tx);
    if (hash !== tx.txHash.toLowerCase())
      reasons.push(`txHash ${tx.txHash} is not the hash of the tx's contents (${hash})`);
    if (size > context.txBytesMax)
      reasons.push(`the tx is ${size} bytes, more than the limit of ${context.txBytesMax}`);
  } catch (error) {
    if (!(error instanceof CodecError)) throw error;
    reasons.push(`the tx cannot be encoded: ${error.message}`);
  }
  if (tx.chainId !== context.chainId) reasons.push(`chainId ${tx.chainId} is not this network's ${context.chainId}`);
  if (tx.version !== context.rollupVersion)
    reasons.push(`version ${tx.version} is not this rollup's ${context.rollupVersion}`);
  if (tx.expirationTimestamp < context.nextSlotTimestamp) {
    reasons.push(
      `the tx expires at ${tx.expirationTimestamp}, before the next slot starts at ${context.nextSlotTimestamp}`,
    );
  }
  const { gasLimits, maxFeesPerGas } = tx.gasSettings;
  const max = context.txGasLimitsMax;
  if (gasLimits.l2Gas > max.l2Gas)
    reasons.push(`gasLimits.l2Gas ${gasLimits.l2Gas} is above the network limit of ${max.l2Gas}`);
  if (gasLimits.daGas > max.daGas)
    reasons.push(`gasLimits.daGas ${gasLimits.daGas} is above the network limit of ${max.daGas}`);
  if (!options.skipFeeEnforcement) {
    const min = context.minFeesPerGas;
    if (maxFeesPerGas.feePerL2Gas < min.feePerL2Gas)
      reasons.push(
        `maxFeesPerGas.feePerL2Gas ${maxFeesPerGas.feePerL2Gas} is below the current minimum ${min.feePerL2Gas}`,
      );
    if (maxFeesPerGas.feePerDaGas < min.feePerDaGas)
      reasons.push(
        `maxFeesPerGas.feePerDaGas ${maxFeesPerGas.feePerDaGas} is below the current minimum ${min.feePerDaGas}`,
      );
  }
  // A value the world state cannot insert would fail every block that includes the tx.
  for (const [what, values] of [
    ['nullifier', tx.sideEffects.nullifiers],
    ['note hash', tx.sideEffects.noteHashes],
  ] as const) {
    for (const value of values)
      if (BigInt(value) >= FR_MODULUS) reasons.push(`${what} ${value} is not below the BN254 field modulus`);
  }
  const unique = new Set(tx.sideEffects.nullifiers.map((n) => n.toLowerCase()));
  if (unique.size !== tx.sideEffects.nullifiers.length) reasons.push('the tx emits the same nullifier twice');
  return reasons;
}

async function stateReasons(
  tx: TxValue,
  context: TxValidationContext,
  options: TxValidationOptions,
): Promise<string[]> {
  const reasons: string[] = [];
  if (!(await context.isAnchorKept(tx.anchorBlockHash))) {
    reasons.push(`the anchor block ${tx.anchorBlockHash} is not one this node has (or it is no longer kept)`);
  }
  const exist = await context.nullifiersExist(tx.sideEffects.nullifiers);
  tx.sideEffects.nullifiers.forEach((nullifier, i) => {
    if (exist[i]) reasons.push(`nullifier ${nullifier} is already spent (double spend)`);
  });
  if (!options.skipFeeEnforcement) {
    const [balance, maxFee] = [await context.feePayerBalance(tx.feePayer), txMaxFee(tx)];
    if (balance < maxFee)
      reasons.push(`fee payer ${tx.feePayer} has ${balance}, less than the tx's maximum fee ${maxFee}`);
  }
  for (const [i, call] of tx.publicCalls.setup.entries()) {
    const classId = await context.contractClassOf(call.contractAddress);
    if (!context.setupAllowList.some((entry) => allowListAdmits(entry, call, classId))) {
      reasons.push(
        `setup call ${i} (contract ${call.contractAddress}, selector ${call.calldata[0] ?? 'none'}) is not on the setup allow list`,
      );
    }
  }
  if (!options.isSimulation && !(await context.verifyProof(tx))) reasons.push('the proof does not verify');
  return reasons;
}

export async function validateTx(
  tx: TxValue,
  context: TxValidationContext,
  options: TxValidationOptions = {},
): Promise<TxValidationResult> {
  const reasons = [...staticReasons(tx, context, options), ...(await stateReasons(tx, context, options))];
  return reasons.length === 0 ? { valid: true } : { valid: false, reasons };
}
