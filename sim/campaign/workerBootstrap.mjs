// Loads a TypeScript worker entry. Node 20 does not apply `--import` preloads from a Worker's execArgv to the
// worker's own entry file (a `.ts` entry fails with ERR_UNKNOWN_FILE_EXTENSION), so a worker starts on this plain
// module, registers the module hooks itself and then imports its real entry. tsx's hooks come first and serve what
// the project's own hooks (../tsLoader/hooks.mjs) pass on; the project's hooks compile the `.ts` files, without the
// function renaming tsx adds. Used only when the simulator runs from source.
import { workerData } from 'node:worker_threads';
import { register } from 'node:module';
import { register as registerTsx } from 'tsx/esm/api';

registerTsx();
process.setSourceMapsEnabled(true);
register('../tsLoader/hooks.mjs', import.meta.url);
await import(workerData.entryUrl);
