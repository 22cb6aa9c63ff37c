// A deliberately broken committee rule, preloaded with `--import` (see test/helpers/brokenBumpRule.mjs for how): a
// slot's proposer is drawn from the next slot's stream (core/validators/committee.ts, proposerOf). Every node draws
// the same wrong proposer, so only the proposer checker (sim/checkers/proposers.ts) can tell.
import { register } from 'node:module';

register('./brokenRuleHooks.mjs', import.meta.url, {
  data: {
    name: 'brokenProposerDraw',
    file: '/core/validators/committee.ts',
    line: 'proposerDrawPreimage\\(committee\\.seed, slot, attempt\\)',
    replacement: 'proposerDrawPreimage(committee.seed, slot + 1, attempt)',
  },
});
