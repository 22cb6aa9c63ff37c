import type { ClockPort, TimerId } from './ports.js';

/**
 * The polling loop the machines' callback actors share (the sequencer's and prover's): runs `step` `delayMs()` from
 * now, and again `delayMs()` after each `wait()` the step calls. The returned stop cancels the pending wait; a step
 * already running sees `stopped()` true and reports nothing.
 */
export function pollingLoop(
  clock: Pick<ClockPort, 'setTimeout' | 'clearTimeout'>,
  delayMs: () => number,
  step: (wait: () => void, stopped: () => boolean) => void,
): () => void {
  let stopped = false;
  let timer: TimerId | undefined;
  const wait = (): void => {
    timer = clock.setTimeout(() => {
      timer = undefined;
      step(wait, () => stopped);
    }, delayMs());
  };
  wait();
  return () => {
    stopped = true;
    if (timer !== undefined) clock.clearTimeout(timer);
  };
}
