// Preloaded through NODE_OPTIONS by a test: the process itself starts, but every worker thread it starts dies before
// it is ready, as with a broken checkout. (The campaign's worker threads preload NODE_OPTIONS' --import modules.)
import { isMainThread } from 'node:worker_threads';

if (!isMainThread) throw new Error('this worker thread cannot start (test/helpers/threadsCannotStart.mjs)');
