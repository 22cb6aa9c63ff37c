/**
 * The method map of ARCHITECTURE.md: for every method of the method table (spec/rpc/methods.ts), the file of its
 * handler (adapters/rpc/methods/<method>.ts) and the calls that handler makes on the node's service. `npm run openrpc`
 * writes it between METHOD_MAP_START and METHOD_MAP_END, beside the API reference; test/docs/architectureMap.test.ts
 * fails when the map on disk differs from what this renders.
 *
 * The rendering is pure and takes the handlers' source text, so that the test can render without writing.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { RpcMethodName } from '../../spec/rpc/methods.js';
import { rpcMethodList } from '../../spec/rpc/methods.js';

export const METHOD_MAP_START = '<!-- method-map:start -->';
export const METHOD_MAP_END = '<!-- method-map:end -->';

/** Paths from the repository root. */
export const ARCHITECTURE_PATH = 'ARCHITECTURE.md';
export const HANDLER_FOLDER = 'adapters/rpc/methods';

/** Where the handler of `method` lives. */
export const handlerPathOf = (method: string): string => `${HANDLER_FOLDER}/${method}.ts`;

/**
 * The service calls in a handler's source: each `node.<member>(` or `node.<group>.<member>(`, with optional chaining
 * and line breaks before a dot allowed (the formatter breaks chains), in order of first appearance, without repeats.
 */
export function nodeCallsIn(source: string): string[] {
  const member = String.raw`[A-Za-z_$][\w$]*`;
  const dot = String.raw`\s*\??\.\s*`;
  const call = new RegExp(String.raw`\bnode${dot}((?:${member}${dot})*${member})\s*\(`, 'g');
  const calls = [...source.matchAll(call)].map((match) => (match[1] ?? '').replace(/\s+/g, '').replaceAll('?.', '.'));
  return [...new Set(calls)];
}

/** What the map says of a handler that calls nothing on the node. */
function noCallNote(source: string): string {
  return /\bsubsystemUnavailable\(/.test(source) ? 'none: answers -32004 (the subsystem is not built)' : 'none';
}

function methodRow(method: RpcMethodName, source: string | undefined): string {
  if (source === undefined) return `| \`${method}\` | no handler file | |`;
  const calls = nodeCallsIn(source);
  const callText = calls.length > 0 ? calls.map((call) => `\`${call}\``).join(', ') : noCallNote(source);
  return `| \`${method}\` | \`${handlerPathOf(method)}\` | ${callText} |`;
}

/**
 * The text between the markers, ending with a newline. `handlerSources` gives each method's handler source, or
 * undefined when its file is missing (a row then says so; handlers.test.ts fails in that case anyway).
 */
export function renderMethodMap(handlerSources: ReadonlyMap<string, string | undefined>): string {
  const rows = rpcMethodList.map((definition) => methodRow(definition.name, handlerSources.get(definition.name)));
  return [
    'Generated from the method table (`spec/rpc/methods.ts`) and the handler files by `npm run openrpc`',
    '(`adapters/rpc/writeMethodMap.ts`); `test/docs/architectureMap.test.ts` fails when it is stale. The last column',
    "lists the calls the handler makes on the node's service (`NodeService`, `core/nodeService.ts`).",
    '',
    '| method | handler | calls on the node |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** `text` with `section` between `start` and `end`; throws when the markers are missing, repeated or out of order. */
export function replaceBetweenMarkers(text: string, start: string, end: string, section: string, path: string): string {
  const startAt = text.indexOf(start);
  const endAt = text.indexOf(end);
  if (startAt < 0 || endAt < startAt || text.indexOf(start, startAt + 1) >= 0) {
    throw new Error(`${path} must hold ${start} once, followed by ${end}`);
  }
  return `${text.slice(0, startAt + start.length)}\n${section}${text.slice(endAt)}`;
}

/** Every method's handler source under `root`, undefined where the file is missing. */
export async function readHandlerSources(root: string): Promise<Map<string, string | undefined>> {
  const entries = await Promise.all(
    rpcMethodList.map(async (definition) => {
      const source = await readFile(resolve(root, handlerPathOf(definition.name)), 'utf8').catch(() => undefined);
      return [definition.name, source] as const;
    }),
  );
  return new Map(entries);
}

/** ARCHITECTURE.md under `root` with its method map regenerated. */
export async function architectureWithMethodMap(root: string): Promise<string> {
  const architecture = await readFile(resolve(root, ARCHITECTURE_PATH), 'utf8');
  const section = renderMethodMap(await readHandlerSources(root));
  return replaceBetweenMarkers(architecture, METHOD_MAP_START, METHOD_MAP_END, section, ARCHITECTURE_PATH);
}
