// A deliberately broken L1 publishing rule, preloaded with `--import` (see test/helpers/brokenBumpRule.mjs for how):
// a publisher no longer replaces its own pending proposal (core/l1/l1TxSender.ts, planL1Tx) but sends the next one at
// the nonce after it, so a proposal stuck in L1's mempool (an L1 fee spike, a slow inclusion) holds the following
// slots' proposals behind it. The slot-outcome checker (sim/checkers/slotOutcomes.ts) names it.
import { register } from 'node:module';

register('./brokenRuleHooks.mjs', import.meta.url, {
  data: {
    name: 'brokenL1Replacement',
    file: '/core/l1/l1TxSender.ts',
    line: 'if \\(ours\\.kind !== kind\\) continue;',
    replacement: 'if (ours.kind === kind || ours.kind !== kind) continue;',
  },
});
