// Loads a TypeScript worker entry through tsx. Node 20 does not apply `--import tsx` from a Worker's execArgv to
// the worker's own entry file (it fails with ERR_UNKNOWN_FILE_EXTENSION), so a worker starts on this plain module
// and imports its real entry with tsx's scoped loader. Used only when the simulator runs from source.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entryUrl, import.meta.url);
