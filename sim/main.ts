/**
 * The simulator's command line (`npm run sim -- ...`, commands in sim/simCli.ts). A campaign or determinism check
 * that fills every core relaunches itself in a Node started single-threaded (sim/campaign/singleThreadedV8.ts),
 * decided here from the arguments before the simulator's modules load; everything else loads the commands and runs.
 */
import { argsNeedSingleThreadedRelaunch, relaunchSingleThreaded } from './campaign/singleThreadedV8.js';

function reportError(error: unknown): void {
  process.stderr.write(`sim: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}

if (argsNeedSingleThreadedRelaunch(process.argv.slice(2))) {
  relaunchSingleThreaded().then((code) => (process.exitCode = code), reportError);
} else {
  // Imported only now: the relaunching parent never loads the simulator.
  import('./simCli.js').then(({ runSimCli, reportSimCliError }) => runSimCli().catch(reportSimCliError), reportError);
}
