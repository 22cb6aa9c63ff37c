// A deliberately broken rule for tests that run the simulator in other processes, where vi.mock cannot reach:
// preloaded with `--import` (through NODE_OPTIONS), it registers a module hook that rewrites the pool's price-bump
// rule (core/txPool/txPriority.ts, minimumOutbiddingFee) so that a replacement needs no bump at all, as
// test/simulator/schedule.shrink.test.ts does with vi.mock. The campaign's worker threads preload it too
// (sim/campaign/workerPool.ts passes NODE_OPTIONS' --import modules to them).
import { register } from 'node:module';

register('./brokenBumpRuleHooks.mjs', import.meta.url);
