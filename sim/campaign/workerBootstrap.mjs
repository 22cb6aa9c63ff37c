// Loads a TypeScript worker entry. Node 20 does not apply `--import` preloads from a Worker's execArgv to the
// worker's own entry file (a `.ts` entry fails with ERR_UNKNOWN_FILE_EXTENSION), so a worker starts on this plain
// module, registers the project's module hooks (../tsLoader/hooks.mjs) itself and then imports its real entry. Hooks
// preloaded through NODE_OPTIONS (a test's rewritten rule) were registered first, so they see each file's source
// before it is compiled. Used only when the simulator runs from source.
import { workerData } from 'node:worker_threads';
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('../tsLoader/hooks.mjs', import.meta.url);
await import(workerData.entryUrl);
