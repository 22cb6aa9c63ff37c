// A deliberately broken fee rule, preloaded with `--import` (see test/helpers/brokenBumpRule.mjs for how): the next
// checkpoint's fee per mana is no longer held at the floor (core/fees/minFees.ts, nextGasFees), so a chain using less
// than the target sinks below it. Every node applies the same wrong rule, so only the fee checker
// (sim/checkers/checkpointFees.ts) can tell.
import { register } from 'node:module';

register('./brokenRuleHooks.mjs', import.meta.url, {
  data: {
    name: 'brokenFeeFloor',
    file: '/core/fees/minFees.ts',
    line: 'feePerL2Gas: next < floor\\.feePerL2Gas \\? floor\\.feePerL2Gas : next',
    replacement: 'feePerL2Gas: next',
  },
});
