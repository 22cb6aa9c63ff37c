import { runSimulation } from './sim/runSimulation.js';
import { drawSwarmOptions } from './sim/swarm.js';
const seed = BigInt(process.env.SEED ?? 2356);
const from = Number(process.env.FROM ?? 470000), to = Number(process.env.TO ?? 530000);
await runSimulation(drawSwarmOptions(seed, 600), {
  onActivity: (node, a) => {
    if (a.kind === 'validator') console.log(node, JSON.stringify(a.event, (_k, v) => (typeof v === 'bigint' ? `${v}` : v)).slice(0, 300));
  },
  scenario: (w) => { (globalThis as any).__w = w; },
});
