/**
 * Mutants that no test can kill because they do not change what the code does (equivalent mutants), each with the
 * reason. A surviving mutant listed here leaves the folder's score (bench/mutation/mutationScopes.ts). An entry names
 * its mutant as the summary prints it, `file:line mutator -> replacement`: when the code moves, the entry stops
 * matching and the mutant shows up as a survivor again, to be judged anew.
 */
export interface EquivalentMutant {
  readonly mutant: string;
  readonly reason: string;
}

export const EQUIVALENT_MUTANTS: readonly EquivalentMutant[] = [
  {
    mutant: 'core/fees/feeBasis.ts:8 ConditionalExpression -> false',
    reason:
      'the chain store holds no checkpoint 0, so fetching it gives undefined: the genesis basis the shortcut gives',
  },
  {
    mutant: 'core/fees/feeBasis.ts:14 ConditionalExpression -> false',
    reason: 'a chain update holds no checkpoint 0 either, so fetching it gives the genesis basis as the shortcut does',
  },
  {
    mutant: 'core/fees/minFees.ts:29 EqualityOperator -> fee <= 1n',
    reason: 'at a fee of exactly 1 both branches give 1',
  },
  {
    mutant: 'core/fees/minFees.ts:29 ConditionalExpression -> false',
    reason: 'the rounded-up fee is below 1 only for a zero cost, and the floors (spec/constants.ts) are positive',
  },
  {
    mutant: 'core/fees/minFees.ts:57 EqualityOperator -> previous.manaUsed >= BigInt(CHECKPOINT_MANA_LIMIT)',
    reason: 'at exactly the limit both branches use the limit',
  },
  {
    mutant: 'core/fees/minFees.ts:63 EqualityOperator -> next <= floor.feePerL2Gas',
    reason: 'at exactly the floor both branches give the floor',
  },
];

/** Whether a mutant, as the summary prints it, is listed as equivalent. */
export function isEquivalent(mutant: string, equivalents: readonly EquivalentMutant[]): boolean {
  return equivalents.some((entry) => entry.mutant === mutant);
}
