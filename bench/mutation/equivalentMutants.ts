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

export const EQUIVALENT_MUTANTS: readonly EquivalentMutant[] = [];

/** Whether a mutant, as the summary prints it, is listed as equivalent. */
export function isEquivalent(mutant: string, equivalents: readonly EquivalentMutant[]): boolean {
  return equivalents.some((entry) => entry.mutant === mutant);
}
