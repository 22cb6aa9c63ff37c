/**
 * The mana (L2 gas) and instruction budget of one tx's public execution, shared by all its frames and phases. Every
 * instruction is charged before it runs. Running out of mana uses up what was left, so every frame above the one
 * that ran out fails on its next instruction; the instruction budget, once spent, stays spent the same way.
 */
import { assert } from '../assert.js';

export type MeterFailure = 'OUT_OF_GAS' | 'INSTRUCTION_LIMIT_EXCEEDED';

export class ManaMeter {
  private manaSpent = 0;
  private instructionsRun = 0;

  constructor(
    /** Mana the public phases may use (the tx's L2 gas limit minus its base mana). */
    readonly manaLimit: number,
    /** Instructions the tx may execute (INSTRUCTIONS_PER_TX_MAX outside tests). */
    readonly instructionsMax: number,
  ) {
    assert(Number.isSafeInteger(manaLimit) && manaLimit >= 0, `mana limit ${manaLimit} is a safe non-negative integer`);
    assert(
      Number.isSafeInteger(instructionsMax) && instructionsMax >= 0,
      `instruction budget ${instructionsMax} is a safe non-negative integer`,
    );
  }

  get manaUsed(): number {
    return this.manaSpent;
  }

  get instructionsExecuted(): number {
    return this.instructionsRun;
  }

  /** Charges one instruction costing `mana`; answers why it may not run, or undefined when it may. */
  charge(mana: number): MeterFailure | undefined {
    if (this.instructionsRun >= this.instructionsMax) return 'INSTRUCTION_LIMIT_EXCEEDED';
    if (mana > this.manaLimit - this.manaSpent) {
      this.manaSpent = this.manaLimit;
      return 'OUT_OF_GAS';
    }
    this.instructionsRun++;
    this.manaSpent += mana;
    return undefined;
  }
}
