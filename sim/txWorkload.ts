/**
 * The tx workload of a schedule: builds txs the way clients do (spec/txBuilder.ts, fees from the node's current
 * minimum) and sends them to the sequencer's service, as svc_sendTx would. It aims at the pool's rules on purpose:
 * sends pick nullifiers from a small space (conflicts), replacements price themselves just under, at, or over the
 * bump, bursts overflow a small pool, and drains send txs costing most of a payer's balance, so that payers run dry
 * and their other txs stop fitting. One payer was never funded.
 *
 * Every send lands in the ledger with its outcome (accepted, or the rejection's code), which the accounting checker
 * holds the pool to.
 */
import type { Hex } from '../spec/chain.js';
import { PROTOCOL_CONTRACT_ADDRESSES } from '../spec/config/allowList.js';
import { genesisTestAccounts } from '../spec/genesis.js';
import { hashToField } from '../spec/hash.js';
import { BUILD_TX_DA_GAS_DEFAULT, BUILD_TX_L2_GAS_DEFAULT, buildTx } from '../spec/txBuilder.js';
import { feePayerBalanceStorageSlot } from '../spec/vm/storageSlots.js';
import type { TxValue } from '../spec/wire/tx.js';
import { TX_POOL_SETTINGS_DEFAULT, type RollupNode } from '../core/node/node.js';
import { assert } from '../core/assert.js';
import { SIM_TX_PRIORITY_FEE_MAX, type SimStepOf } from './faults.js';
import { minimumReplacementFee } from './checkers/replacementBump.js';

/** Txs one run may send; a schedule cannot ask for more (SIM_SCHEDULE_STEPS_MAX steps of at most a burst each). */
export const SIM_TX_LEDGER_ENTRIES_MAX = 50_000;
/** Expiration of workload txs: far in the future; the salt keeps every built tx distinct. */
const EXPIRATION_BASE_SECONDS = 2n ** 40n;
/** Nullifiers of bursts and drains start here, above the deliberately small space of `tx.send`. */
const FRESH_NULLIFIER_BASE = 0x1_0000_0000n;

export type TxOutcome =
  | { readonly kind: 'accepted' }
  | { readonly kind: 'rejected'; readonly code: string | undefined; readonly message: string };

export interface TxLedgerEntry {
  readonly txHash: Hex;
  readonly atMs: number;
  readonly step: 'tx.send' | 'tx.replace' | 'tx.burst' | 'tx.drain';
  readonly feePayer: Hex;
  readonly nullifier: Hex;
  readonly priorityFee: bigint;
  readonly outcome: TxOutcome;
}

/** What the workload needs from the world. */
export interface TxWorkloadWorld {
  readonly sequencerName: string;
  node(name: string): RollupNode;
  isPaused(name: string): boolean;
  elapsedMs(): number;
}

/** The payers a step's index names: the genesis test accounts, then one account nobody funded. */
export function workloadPayers(): readonly Hex[] {
  return [...genesisTestAccounts(), hashToField(new TextEncoder().encode('svc sim unfunded payer'))];
}

const field = (n: bigint): Hex => `0x${n.toString(16).padStart(64, '0')}`;
/** Nullifier `n` of the small space `tx.send` draws from. */
export const workloadNullifier = (n: number): Hex => field(0xfeed_0000n + BigInt(n));

function rejectionOf(error: unknown): TxOutcome {
  const code =
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
      ? (error as { code: string }).code
      : undefined;
  return { kind: 'rejected', code, message: error instanceof Error ? error.message : String(error) };
}

export class TxWorkload {
  private readonly entries: TxLedgerEntry[] = [];
  private readonly payers = workloadPayers();
  private salt = 0n;
  private freshNullifiers = 0n;

  constructor(private readonly world: TxWorkloadWorld) {}

  get ledger(): readonly TxLedgerEntry[] {
    return this.entries;
  }

  /** Whether the sequencer can take a tx now (a paused process answers nothing; the step is skipped). */
  reachable(): boolean {
    return !this.world.isPaused(this.world.sequencerName);
  }

  async send(step: SimStepOf<'tx.send'>): Promise<TxLedgerEntry> {
    return this.submit(
      'tx.send',
      this.payers[step.payer]!,
      workloadNullifier(step.nullifier),
      BigInt(step.priorityFee),
    );
  }

  /** Undefined when none of the workload's txs is pooled (nothing to replace). */
  async replace(step: SimStepOf<'tx.replace'>): Promise<TxLedgerEntry | undefined> {
    const pool = this.sequencer().txPool.current;
    const pooled = this.entries.filter((entry) => entry.outcome.kind === 'accepted' && pool.has(entry.txHash));
    const target = pooled[step.target % Math.max(1, pooled.length)];
    if (target === undefined) return undefined;
    const least = minimumReplacementFee(target.priorityFee, this.bumpPercentage());
    const fee =
      step.bump === 'under' ? least - 1n : step.bump === 'exact' ? least : least + target.priorityFee / 2n + 1n;
    return this.submit('tx.replace', target.feePayer, target.nullifier, fee);
  }

  async burst(step: SimStepOf<'tx.burst'>): Promise<TxLedgerEntry[]> {
    const sent: TxLedgerEntry[] = [];
    for (let i = 0; i < step.count; i++) {
      const fee = BigInt((step.feeSeed * 7 + i * 13) % (SIM_TX_PRIORITY_FEE_MAX + 1));
      sent.push(await this.submit('tx.burst', this.payers[i % (this.payers.length - 1)]!, this.freshNullifier(), fee));
    }
    return sent;
  }

  /** A tx whose maximum cost is about `sharePercent` of the payer's balance, all of it as priority fee. */
  async drain(step: SimStepOf<'tx.drain'>): Promise<TxLedgerEntry> {
    const payer = this.payers[step.payer]!;
    const service = this.sequencer().service;
    const balance = BigInt(
      await service.worldState.getPublicStorageAt(
        { kind: 'tag', tag: 'latest' },
        PROTOCOL_CONTRACT_ADDRESSES.feeAsset,
        feePayerBalanceStorageSlot(payer),
      ),
    );
    const gas = BigInt(BUILD_TX_DA_GAS_DEFAULT + BUILD_TX_L2_GAS_DEFAULT);
    return this.submit('tx.drain', payer, this.freshNullifier(), (balance * BigInt(step.sharePercent)) / 100n / gas);
  }

  private sequencer(): RollupNode {
    return this.world.node(this.world.sequencerName);
  }

  private bumpPercentage(): number {
    return (this.sequencer().currentConfig().txPool ?? TX_POOL_SETTINGS_DEFAULT).priceBumpPercentage;
  }

  private freshNullifier(): Hex {
    return field(FRESH_NULLIFIER_BASE + this.freshNullifiers++);
  }

  private async build(feePayer: Hex, nullifier: Hex, priorityFee: bigint): Promise<TxValue> {
    const service = this.sequencer().service;
    const latest = await service.chain.getBlock({ kind: 'tag', tag: 'latest' });
    assert(latest !== undefined, 'a node always has a latest block');
    return buildTx({
      chainId: service.info.getChainId(),
      version: service.info.getVersion(),
      anchorBlockHash: latest.block.hash,
      feePayer,
      nullifier,
      minFees: await service.fees.getCurrentMinFees(),
      expirationTimestamp: EXPIRATION_BASE_SECONDS + this.salt++,
      priorityFeePerGas: priorityFee,
    });
  }

  private async submit(
    step: TxLedgerEntry['step'],
    feePayer: Hex,
    nullifier: Hex,
    priorityFee: bigint,
  ): Promise<TxLedgerEntry> {
    assert(
      this.entries.length < SIM_TX_LEDGER_ENTRIES_MAX,
      `the workload sends at most SIM_TX_LEDGER_ENTRIES_MAX (${SIM_TX_LEDGER_ENTRIES_MAX}) txs`,
    );
    const atMs = this.world.elapsedMs();
    const tx = await this.build(feePayer, nullifier, priorityFee);
    const outcome = await this.sequencer()
      .service.txs.sendTx(tx)
      .then((): TxOutcome => ({ kind: 'accepted' }), rejectionOf);
    const entry: TxLedgerEntry = { txHash: tx.txHash, atMs, step, feePayer, nullifier, priorityFee, outcome };
    this.entries.push(entry);
    return entry;
  }
}
