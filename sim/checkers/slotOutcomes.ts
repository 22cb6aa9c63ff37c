/**
 * Every checkpoint proposal a node sent to L1, and what became of it (included, failed on a named contract rule,
 * replaced, reorged out), against what the protocol allows (docs/protocol.md, Sequencer timing and L1 fees), with the
 * rules written here again rather than taken from core/l1 (the simulated L1's mempool prices replacements through
 * core/l1/l1TxFees.ts, so a bug there would be shared by the node and its L1):
 * - a proposal that L1 included without failure landed in an L1 block of its own slot;
 * - a replacement at the same nonce raised every price by the pool's bump over the one it replaced: +100% on the fee
 *   cap, the tip and the blob fee cap of a blob transaction, +10% (and at least 1 wei) on an ordinary one's;
 * - no price exceeds the 1,000 gwei caps;
 * - a proposal still pending when its slot is over is replaced by the publisher's next proposal, never queued behind:
 *   a proposal for a later slot sent at a higher nonce while an earlier slot's proposal of the same account was still
 *   waiting is a duty lost to the stuck one (what an L1 fee spike does to a publisher that does not replace).
 */
import type { L1RollupConstants } from '../../spec/chain.js';
import type { SimL1SentTx } from '../simL1.js';
import type { SimFailure } from './simFailure.js';

/** The most a node offers per gas and per blob gas (docs/protocol.md, L1 fees), in wei. */
const REFERENCE_L1_FEE_CAP_WEI = 1_000n * 10n ** 9n;
/** geth's least raise of every price of a replaced transaction, in percent: blob pool, ordinary pool. */
const REFERENCE_BLOB_BUMP_PERCENT = 100n;
const REFERENCE_PLAIN_BUMP_PERCENT = 10n;

type Prices = SimL1SentTx['fees'];

function leastRaise(old: bigint, percent: bigint): bigint {
  const raised = (old * (100n + percent) + 99n) / 100n;
  return raised > old ? raised : old + 1n;
}

/** The price fields of `next` that fall short of the bump over `old`, by name. */
export function pricesBelowBump(old: Prices, next: Prices): string[] {
  const percent = old.maxFeePerBlobGas === undefined ? REFERENCE_PLAIN_BUMP_PERCENT : REFERENCE_BLOB_BUMP_PERCENT;
  const short: string[] = [];
  if (next.maxFeePerGas < leastRaise(old.maxFeePerGas, percent)) short.push('maxFeePerGas');
  if (next.maxPriorityFeePerGas < leastRaise(old.maxPriorityFeePerGas, percent)) short.push('maxPriorityFeePerGas');
  if (old.maxFeePerBlobGas !== undefined && (next.maxFeePerBlobGas ?? 0n) < leastRaise(old.maxFeePerBlobGas, percent))
    short.push('maxFeePerBlobGas');
  return short;
}

function slotOf(tx: SimL1SentTx): number | undefined {
  return tx.call.kind === 'propose' ? tx.call.request.slotNumber : undefined;
}

function describe(tx: SimL1SentTx): string {
  const slot = slotOf(tx);
  return `${tx.call.kind}${slot === undefined ? '' : ` for slot ${slot}`} ${tx.txHash.slice(0, 10)} (account ${tx.publisher.slice(0, 10)}, nonce ${tx.nonce})`;
}

/** The prices and replacements of every transaction a node sent (inbox messages come from the simulated users). */
function checkPrices(sent: readonly SimL1SentTx[], byHash: ReadonlyMap<string, SimL1SentTx>): SimFailure[] {
  const failures: SimFailure[] = [];
  for (const tx of sent) {
    if (tx.call.kind === 'inboxMessage') continue;
    const { maxFeePerGas, maxFeePerBlobGas } = tx.fees;
    if (maxFeePerGas > REFERENCE_L1_FEE_CAP_WEI || (maxFeePerBlobGas ?? 0n) > REFERENCE_L1_FEE_CAP_WEI)
      failures.push({ kind: 'slotOutcomeWrong', detail: `${describe(tx)} offers more than the 1,000 gwei caps` });
    const by = tx.replacedBy === undefined ? undefined : byHash.get(tx.replacedBy);
    if (by === undefined) continue;
    const short = pricesBelowBump(tx.fees, by.fees);
    if (short.length > 0)
      failures.push({
        kind: 'slotOutcomeWrong',
        detail: `${describe(by)} replaced ${describe(tx)} without the pool's bump on ${short.join(', ')}`,
      });
  }
  return failures;
}

/** Whether `earlier` was still waiting in L1's mempool when `later` (sent after it) was sent. */
function pendingWhenSent(
  earlier: SimL1SentTx,
  later: SimL1SentTx,
  sendOrder: ReadonlyMap<string, number>,
  byHash: ReadonlyMap<string, SimL1SentTx>,
): boolean {
  if (earlier.state === 'pending') return true;
  if (earlier.state === 'reorgedOut') return false;
  if (earlier.state === 'included') return earlier.inclusion!.blockNumber > later.sentAfterBlock;
  const replacer = byHash.get(earlier.replacedBy!);
  return replacer !== undefined && sendOrder.get(replacer.txHash)! > sendOrder.get(later.txHash)!;
}

/** Proposals queued behind a stuck proposal of an earlier slot instead of replacing it. */
function checkQueuedBehind(sent: readonly SimL1SentTx[], byHash: ReadonlyMap<string, SimL1SentTx>): SimFailure[] {
  const sendOrder = new Map(sent.map((tx, index) => [tx.txHash, index]));
  const proposals = sent.filter((tx) => tx.call.kind === 'propose');
  const failures: SimFailure[] = [];
  proposals.forEach((later, index) => {
    const stuck = proposals
      .slice(0, index)
      .find(
        (earlier) =>
          earlier.publisher === later.publisher &&
          earlier.nonce < later.nonce &&
          slotOf(earlier)! < slotOf(later)! &&
          pendingWhenSent(earlier, later, sendOrder, byHash),
      );
    if (stuck !== undefined)
      failures.push({
        kind: 'slotOutcomeWrong',
        detail: `${describe(later)} queued behind ${describe(stuck)}, still pending after its slot, instead of replacing it`,
      });
  });
  return failures;
}

/** Included proposals that landed outside their slot. */
function checkLandingSlots(
  sent: readonly SimL1SentTx[],
  constants: Pick<L1RollupConstants, 'l1GenesisTime' | 'slotDuration'>,
  blockTimestamp: (blockNumber: bigint) => bigint,
): SimFailure[] {
  const failures: SimFailure[] = [];
  for (const tx of sent) {
    const slot = slotOf(tx);
    if (slot === undefined || tx.state !== 'included' || tx.inclusion!.failure !== undefined) continue;
    const timestamp = blockTimestamp(tx.inclusion!.blockNumber);
    const landed = Number((timestamp - constants.l1GenesisTime) / BigInt(constants.slotDuration));
    if (timestamp < constants.l1GenesisTime || landed !== slot)
      failures.push({
        kind: 'slotOutcomeWrong',
        detail: `${describe(tx)} landed in L1 block ${tx.inclusion!.blockNumber} of slot ${landed}`,
      });
  }
  return failures;
}

/** Every rule of the module comment over every transaction L1 was sent. */
export function checkSlotOutcomes(
  sent: readonly SimL1SentTx[],
  constants: Pick<L1RollupConstants, 'l1GenesisTime' | 'slotDuration'>,
  blockTimestamp: (blockNumber: bigint) => bigint,
): SimFailure[] {
  const byHash = new Map(sent.map((tx) => [tx.txHash as string, tx]));
  return [
    ...checkPrices(sent, byHash),
    ...checkQueuedBehind(sent, byHash),
    ...checkLandingSlots(sent, constants, blockTimestamp),
  ];
}
