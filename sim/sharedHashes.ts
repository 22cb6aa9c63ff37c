/**
 * One memo of Merkle-node hashes for every simulated node of the thread (spec/hashMemo.ts): the nodes of a run apply
 * the same blocks to the same trees, so all but the first of them find each node's hash already made. Installed
 * while at least one run is active, so code outside runs (a benchmark in the same thread) hashes as production does.
 * The memo holds results of a pure function: traces are the same with it or without it.
 */
import { shareFieldHashes } from '../spec/hash.js';
import { FieldHashMemo } from '../spec/hashMemo.js';

const memo = new FieldHashMemo();
let activeRuns = 0;

/** Shares hashes until the returned function is called (once per call of this one). */
export function shareHashesForRun(): () => void {
  if (activeRuns++ === 0) shareFieldHashes(memo);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (--activeRuns === 0) shareFieldHashes(undefined);
  };
}

/** Hits and misses so far (for profiling and tests). */
export function sharedHashStats(): { hits: number; misses: number } {
  return { hits: memo.hits, misses: memo.misses };
}
