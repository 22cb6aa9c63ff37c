/**
 * Reads samples out of Prometheus text exposition (what `/metrics` serves), for tests: `sampleValue(text, name,
 * labels)` is the value of the one sample of `name` whose labels include `labels`, summed over the others.
 */
import { execFile } from 'node:child_process';

export interface PrometheusSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheusText(text: string): PrometheusSample[] {
  return text.split('\n').flatMap((line) => {
    const match = SAMPLE_LINE.exec(line.trim());
    if (match === null || line.startsWith('#')) return [];
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((m) => [m[1]!, m[2]!]));
    return [{ name: match[1]!, labels, value: Number(match[3]) }];
  });
}

/** The sum of the samples of `name` whose labels include `labels`; undefined when there is none. */
export function sampleValue(
  text: string,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const matching = parsePrometheusText(text).filter(
    (sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  );
  return matching.length === 0 ? undefined : matching.reduce((sum, sample) => sum + sample.value, 0);
}

/**
 * `promtool check metrics` over `text`: its complaints (empty when it accepts the text), or undefined when promtool
 * is not on PATH.
 */
export function promtoolCheck(text: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const child = execFile('promtool', ['check', 'metrics'], (error, stdout, stderr) => {
      if (error !== null && (error as NodeJS.ErrnoException).code === 'ENOENT') return resolve(undefined);
      if (error !== null && typeof error.code !== 'number') return reject(error);
      resolve(`${stdout}${stderr}`.trim());
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(text);
  });
}
