/**
 * 3.x names that 4.x no longer reads (spec: Versioning, breaking changes 1, 3, 4 and 5). A node given one refuses
 * to start and says what replaced it, so an upgraded deployment never runs with a setting silently ignored.
 */

export interface RetiredName {
  readonly kind: 'flag' | 'env';
  /** As written in 3.x: `--maxBlockSizeInBytes`, `SEQ_MAX_TX_PER_BLOCK`. */
  readonly name: string;
  /** The 4.x name, or undefined when the setting was removed. */
  readonly replacement?: string;
  /** What changed besides the name, or why it was removed. */
  readonly note?: string;
}

const GAS_BUDGETS_NOTE =
  'per-block L2 and DA gas budgets derived from the L1 rollup limits replace it (tune them with --maxL2BlockGas, --maxDABlockGas and --perBlockAllocationMultiplier)';
const ALLOW_LIST_NOTE =
  'it now extends the built-in defaults instead of replacing them, and every entry needs a selector';

export const RETIRED_CONFIG_NAMES: readonly RetiredName[] = [
  { kind: 'env', name: 'SEQ_TX_POLLING_INTERVAL_MS', replacement: 'SEQ_POLLING_INTERVAL_MS' },
  {
    kind: 'env',
    name: 'SEQ_MAX_L1_TX_INCLUSION_TIME_INTO_SLOT',
    replacement: 'SEQ_L1_PUBLISHING_TIME_ALLOWANCE_IN_SLOT',
  },
  {
    kind: 'env',
    name: 'SEQ_MAX_TX_PER_BLOCK',
    replacement: 'SEQ_MAX_TX_PER_CHECKPOINT',
    note: 'the limit now counts the transactions of a whole checkpoint',
  },
  { kind: 'env', name: 'SEQ_MAX_BLOCK_SIZE_IN_BYTES', note: GAS_BUDGETS_NOTE },
  { kind: 'flag', name: '--maxBlockSizeInBytes', note: GAS_BUDGETS_NOTE },
  { kind: 'flag', name: '--bot.baseFeePadding', replacement: '--bot.minFeePadding' },
  { kind: 'env', name: 'BOT_BASE_FEE_PADDING', replacement: 'BOT_MIN_FEE_PADDING' },
  {
    kind: 'flag',
    name: '--txPublicSetupAllowList',
    replacement: '--txPublicSetupAllowListExtend',
    note: ALLOW_LIST_NOTE,
  },
];

/** The sentence refusing a retired name. */
export function retiredNameMessage(retired: RetiredName): string {
  const what = retired.kind === 'flag' ? 'flag' : 'environment variable';
  if (retired.replacement === undefined)
    return `the ${what} ${retired.name} was removed in 4.x: ${retired.note ?? 'remove it'}`;
  const note = retired.note === undefined ? '' : ` (${retired.note})`;
  return `the ${what} ${retired.name} was renamed in 4.x: use ${retired.replacement}${note}`;
}
