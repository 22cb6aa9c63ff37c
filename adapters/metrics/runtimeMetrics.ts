/**
 * The Node.js runtime's own figures, as instruments of ours (no runtime instrumentation package): event-loop delay
 * from perf_hooks.monitorEventLoopDelay, heap and memory from process.memoryUsage, GC pauses from a
 * PerformanceObserver on 'gc' entries. Named `nodejs_*`, in seconds and bytes.
 */
import type { Meter, ObservableResult } from '@opentelemetry/api';
import { constants as perfConstants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

/** Resolution of the event-loop delay sampler (milliseconds). */
export const EVENT_LOOP_SAMPLE_RESOLUTION_MS = 10;
/** The event-loop delay figures describe a window this long, restarted at its end (milliseconds). */
export const EVENT_LOOP_WINDOW_MS = 60_000;
/** Bucket bounds (seconds) of the GC pause histogram. */
export const GC_PAUSE_BUCKETS_SECONDS = [0.0005, 0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

const NS_PER_SECOND = 1e9;
const MS_PER_SECOND = 1_000;

const GC_KINDS: Readonly<Record<number, string>> = {
  [perfConstants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [perfConstants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [perfConstants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [perfConstants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

function observeEventLoop(meter: Meter): () => void {
  const delay = monitorEventLoopDelay({ resolution: EVENT_LOOP_SAMPLE_RESOLUTION_MS });
  delay.enable();
  const window = setInterval(() => delay.reset(), EVENT_LOOP_WINDOW_MS);
  window.unref();
  const gauge = (name: string, description: string, read: () => number) =>
    meter
      .createObservableGauge(name, { description, unit: 's' })
      .addCallback((result: ObservableResult) => result.observe(read() / NS_PER_SECOND));
  const within = 'event-loop delay over the current window of at most a minute';
  // An empty histogram reports NaN for its mean and huge numbers for its percentiles: read 0 until it has samples.
  const sampled = (read: () => number) => () => (delay.count > 0 ? read() : 0);
  gauge(
    'nodejs_eventloop_delay_p50_seconds',
    `Median ${within}`,
    sampled(() => delay.percentile(50)),
  );
  gauge(
    'nodejs_eventloop_delay_p99_seconds',
    `99th percentile ${within}`,
    sampled(() => delay.percentile(99)),
  );
  gauge(
    'nodejs_eventloop_delay_max_seconds',
    `Largest ${within}`,
    sampled(() => delay.max),
  );
  gauge(
    'nodejs_eventloop_delay_mean_seconds',
    `Mean ${within}`,
    sampled(() => delay.mean),
  );
  return () => {
    clearInterval(window);
    delay.disable();
  };
}

function observeMemory(meter: Meter): void {
  const memory = meter.createObservableGauge('nodejs_memory_bytes', {
    description: 'Memory of the process by kind: rss, heap_total, heap_used, external, array_buffers',
    unit: 'By',
  });
  memory.addCallback((result) => {
    const usage = process.memoryUsage();
    result.observe(usage.rss, { kind: 'rss' });
    result.observe(usage.heapTotal, { kind: 'heap_total' });
    result.observe(usage.heapUsed, { kind: 'heap_used' });
    result.observe(usage.external, { kind: 'external' });
    result.observe(usage.arrayBuffers, { kind: 'array_buffers' });
  });
}

function observeGc(meter: Meter): () => void {
  const pauses = meter.createHistogram('nodejs_gc_duration_seconds', {
    description: 'Garbage collection pauses, by kind (major, minor, incremental, weakcb)',
    unit: 's',
    advice: { explicitBucketBoundaries: GC_PAUSE_BUCKETS_SECONDS },
  });
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // Node 16+ puts the GC kind in `detail` (PerformanceEntry's type does not declare it).
      const detail = (entry as { readonly detail?: { readonly kind?: number } }).detail;
      const kind = GC_KINDS[detail?.kind ?? -1] ?? 'other';
      pauses.record(entry.duration / MS_PER_SECOND, { kind });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/** Starts measuring the runtime on `meter`; returns the function that stops it. */
export function observeRuntime(meter: Meter): () => void {
  const stopEventLoop = observeEventLoop(meter);
  observeMemory(meter);
  const stopGc = observeGc(meter);
  return () => {
    stopEventLoop();
    stopGc();
  };
}
