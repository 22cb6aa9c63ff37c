/**
 * Summary of a V8 .cpuprofile (as written by `node --cpu-prof`): the functions with the most self time, the
 * functions with the most inclusive time, and self time by package or file group.
 *   npx tsx bench/rpc/profileSummary.ts <file.cpuprofile> [rows]
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface ProfileRow {
  readonly name: string;
  readonly ms: number;
  /** Share of the non-idle time. */
  readonly percent: number;
}

export interface ProfileSummary {
  readonly totalMs: number;
  readonly idleMs: number;
  readonly selfTop: readonly ProfileRow[];
  readonly inclusiveTop: readonly ProfileRow[];
  readonly byGroup: readonly ProfileRow[];
}

const shortUrl = (url: string): string =>
  url
    .replace(/^file:\/\//, '')
    .replace(/^.*\/node_modules\//, '')
    .replace(/^.*\/(adapters|core|spec|bench|test)\//, '$1/');

function functionKey(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName === '' ? '(anonymous)' : functionName;
  return url === '' ? name : `${name} ${shortUrl(url)}:${lineNumber + 1}`;
}

/** Which package or layer a frame belongs to. */
function groupOf(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (url === '') return functionName.startsWith('(') ? functionName : '(native or builtin)';
  if (url.startsWith('node:')) {
    const module = url.slice('node:'.length);
    return `node:${module.startsWith('internal/') ? module.split('/').slice(0, 2).join('/') : module}`;
  }
  const inModules = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (inModules !== null) return inModules[1]!;
  const inRepo = /\/(adapters|core|spec|bench|test)\/(.*)$/.exec(url);
  return inRepo !== null ? `${inRepo[1]}/${inRepo[2]}` : shortUrl(url);
}

function top(map: Map<string, number>, nonIdleMs: number, rows: number): ProfileRow[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, rows)
    .map(([name, micros]) => ({
      name,
      ms: Math.round(micros / 100) / 10,
      percent: Math.round((micros / 1000 / nonIdleMs) * 1000) / 10,
    }));
}

export function summarizeProfile(profile: CpuProfile, rows = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

  // Distinct function keys on the stack of each node (root to node), memoised.
  const stackKeys = new Map<number, readonly string[]>();
  const keysOf = (id: number): readonly string[] => {
    const known = stackKeys.get(id);
    if (known !== undefined) return known;
    const chain: number[] = [];
    for (
      let at: number | undefined = id;
      at !== undefined && !stackKeys.has(at) && chain.length < 10_000;
      at = parentOf.get(at)
    ) {
      chain.push(at);
    }
    for (let i = chain.length - 1; i >= 0; i--) {
      const nodeId = chain[i]!;
      const parent = parentOf.get(nodeId);
      const inherited = parent === undefined ? [] : (stackKeys.get(parent) ?? []);
      const key = functionKey(byId.get(nodeId)!);
      stackKeys.set(nodeId, inherited.includes(key) ? inherited : [...inherited, key]);
    }
    return stackKeys.get(id) ?? [];
  };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const groups = new Map<string, number>();
  let totalMicros = 0;
  let idleMicros = 0;
  const add = (map: Map<string, number>, key: string, micros: number) => map.set(key, (map.get(key) ?? 0) + micros);
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]!);
    // timeDeltas[i] is the time before sample i; attribute the next delta to it (the usual convention).
    const micros = profile.timeDeltas[i + 1] ?? 0;
    if (node === undefined) continue;
    totalMicros += micros;
    if (node.callFrame.functionName === '(idle)') {
      idleMicros += micros;
      continue;
    }
    add(self, functionKey(node), micros);
    add(groups, groupOf(node), micros);
    for (const key of keysOf(node.id)) if (key !== '(root)') add(inclusive, key, micros);
  }
  const nonIdleMs = Math.max(1e-9, (totalMicros - idleMicros) / 1000);
  return {
    totalMs: Math.round(totalMicros / 1000),
    idleMs: Math.round(idleMicros / 1000),
    selfTop: top(self, nonIdleMs, rows),
    inclusiveTop: top(inclusive, nonIdleMs, rows),
    byGroup: top(groups, nonIdleMs, rows),
  };
}

export function formatProfileSummary(summary: ProfileSummary): string {
  const table = (title: string, rows: readonly ProfileRow[]) =>
    [
      title,
      ...rows.map(
        (row) => `  ${row.percent.toFixed(1).padStart(5)}%  ${row.ms.toFixed(1).padStart(8)} ms  ${row.name}`,
      ),
    ].join('\n');
  return [
    `profile: ${summary.totalMs} ms sampled, ${summary.idleMs} ms idle; percentages are of the non-idle time`,
    table('self time, by function:', summary.selfTop),
    table('self time, by package / file:', summary.byGroup),
    table('inclusive time, by function:', summary.inclusiveTop),
  ].join('\n');
}

export async function summarizeProfileFile(file: string, rows?: number): Promise<string> {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  return formatProfileSummary(summarizeProfile(profile, rows));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, rows] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('usage: npx tsx bench/rpc/profileSummary.ts <file.cpuprofile> [rows]\n');
    process.exitCode = 2;
  } else {
    summarizeProfileFile(file, rows === undefined ? undefined : Number(rows)).then(
      (text) => process.stdout.write(`${text}\n`),
      (error: unknown) => {
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 1;
      },
    );
  }
}
