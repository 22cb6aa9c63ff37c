/**
 * `npm run openrpc`: writes the OpenRPC document of the method table to spec/openrpc.json and regenerates the API
 * reference in docs/api.md, the text between API_REFERENCE_START and API_REFERENCE_END. Both are derived from
 * spec/rpc/openrpc.ts alone; test/rpc/openrpc.test.ts fails when either file on disk differs from what this writes.
 * It also regenerates the method map of ARCHITECTURE.md (writeMethodMap.ts, checked by
 * test/docs/architectureMap.test.ts).
 *
 * The rendering functions are pure and exported for that test; importing this module writes nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN_PORT_DEFAULT, PUBLIC_PORT_DEFAULT } from '../../spec/constants.js';
import { RpcErrorCode } from '../../spec/rpc/errorCodes.js';
import { readPackageVersion } from '../node/packageVersion.js';
import { ARCHITECTURE_PATH, architectureWithMethodMap } from './writeMethodMap.js';
import { NAMESPACE_PREFIX, type RpcNamespace } from '../../spec/rpc/methodDefinition.js';
import {
  buildOpenRpcDocument,
  ENVELOPE_ERRORS,
  type OpenRpcContentDescriptor,
  type OpenRpcDocument,
  type OpenRpcMethod,
} from '../../spec/rpc/openrpc.js';

export const API_REFERENCE_START = '<!-- api-reference:start -->';
export const API_REFERENCE_END = '<!-- api-reference:end -->';

/** Paths of the generated files, from the repository root. */
export const OPENRPC_DOCUMENT_PATH = 'spec/openrpc.json';
export const API_REFERENCE_PATH = 'docs/api.md';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * spec/openrpc.json as written: two-space indentation and a trailing newline. The key order is the document's own,
 * which is stable: fixed by spec/rpc/openrpc.ts for the OpenRPC objects, sorted inside the JSON Schemas.
 */
export function renderOpenRpcJson(document: OpenRpcDocument): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

const quote = (value: unknown): string => (typeof value === 'string' ? `'${value}'` : JSON.stringify(value));

const PRIMITIVE_TYPES: Readonly<Record<string, string>> = {
  integer: 'number',
  number: 'number',
  string: 'string',
  boolean: 'boolean',
  null: 'null',
};

function unionOf(members: readonly string[]): string {
  return [...new Set(members)].join(' | ');
}

/**
 * The members of a union, nested unions flattened, a list of types (`"type": ["string", "null"]`) taken as a union;
 * a schema that is no union is its only member.
 */
function unionMembers(schema: unknown): unknown[] {
  if (!isRecord(schema)) return [schema];
  const members = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(members)) return members.flatMap(unionMembers);
  const type = schema['type'];
  return Array.isArray(type) ? type.flatMap((member: unknown) => unionMembers({ ...schema, type: member })) : [schema];
}

function objectType(schema: Record<string, unknown>, depth: number): string {
  const properties = schema['properties'];
  if (depth > 0 || !isRecord(properties) || Object.keys(properties).length === 0) return 'object';
  const required = Array.isArray(schema['required']) ? (schema['required'] as unknown[]) : [];
  const fields = Object.keys(properties).map((key) => (required.includes(key) ? key : `${key}?`));
  return `{ ${fields.join(', ')} }`;
}

function typeOfKeyword(schema: Record<string, unknown>, type: unknown, depth: number): string {
  if (type === 'array' && Array.isArray(schema['items'])) {
    return `[${schema['items'].map((item) => compactType(item, depth + 1)).join(', ')}]`;
  }
  if (type === 'array') {
    const items = compactType(schema['items'], depth + 1);
    return items.includes(' ') ? `(${items})[]` : `${items}[]`;
  }
  if (type === 'object') return objectType(schema, depth);
  return typeof type === 'string' ? (PRIMITIVE_TYPES[type] ?? type) : 'any';
}

/**
 * A one-line TypeScript-like rendering of a JSON Schema for the API reference: unions, literals, arrays, and the field
 * names of a top-level object (a `?` marks an optional field); deeper objects are `object`.
 */
export function compactType(schema: unknown, depth = 0): string {
  if (!isRecord(schema)) return 'any';
  const members = unionMembers(schema);
  if (members.length === 0) return 'never';
  if (members.length > 1 || members[0] !== schema) return unionOf(members.map((member) => compactType(member, depth)));
  if (Object.hasOwn(schema, 'const')) return quote(schema['const']);
  if (Array.isArray(schema['enum'])) return unionOf(schema['enum'].map(quote));
  if (isRecord(schema['not']) && Object.keys(schema['not']).length === 0) return 'never';
  return typeOfKeyword(schema, schema['type'], depth);
}

const cell = (text: string): string => text.replaceAll('|', '\\|');
const code = (text: string): string => `\`${cell(text)}\``;

const isNullSchema = (schema: unknown): boolean =>
  isRecord(schema) && schema['type'] === 'null' && Object.keys(schema).length === 1;

/** An optional param's type without `null`: `name?` already says that it may be left out or sent as null. */
function paramType(param: OpenRpcContentDescriptor): string {
  if (param.required) return compactType(param.schema);
  const members = unionMembers(param.schema).filter((member) => !isNullSchema(member));
  return members.length === 0 ? 'null' : unionOf(members.map((member) => compactType(member)));
}

function methodRow(method: OpenRpcMethod): string {
  const params = method.params.map((param) => code(`${param.name}${param.required ? '' : '?'}: ${paramType(param)}`));
  const errors = method.errors.map((error) => String(error.code));
  const notes = [
    method.deprecated ? '**Deprecated.**' : '',
    cell(method.description),
    errors.length > 0 ? `Errors: ${errors.join(', ')}.` : '',
  ].filter((part) => part.length > 0);
  return `| ${code(method.name)} | ${params.length > 0 ? params.join(', ') : '—'} | ${code(compactType(method.result.schema))} | ${notes.join(' ')} |`;
}

const NAMESPACE_HEADINGS: Readonly<Record<RpcNamespace, string>> = {
  public: `### Public listener (\`${NAMESPACE_PREFIX.public}\`, port ${PUBLIC_PORT_DEFAULT} by default)`,
  admin: `### Admin listener (\`${NAMESPACE_PREFIX.admin}\`, port ${ADMIN_PORT_DEFAULT} by default, API key in \`x-api-key\`)`,
};

function namespaceTable(document: OpenRpcDocument, namespace: RpcNamespace): string[] {
  const methods = document.methods.filter((method) => method['x-namespace'] === namespace);
  const heading = [NAMESPACE_HEADINGS[namespace], ''];
  if (methods.length === 0) return [...heading, 'No methods in the table yet.', ''];
  return [...heading, '| method | params | result | notes |', '|---|---|---|---|', ...methods.map(methodRow), ''];
}

/** Width of the API reference's prose lines. */
const PROSE_LINE_CHARS_MAX = 116;

/** A paragraph as lines of at most PROSE_LINE_CHARS_MAX characters, broken at spaces. */
function wrap(paragraph: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(' ')) {
    if (line.length > 0 && line.length + 1 + word.length > PROSE_LINE_CHARS_MAX) {
      lines.push(line);
      line = word;
    } else {
      line = line.length > 0 ? `${line} ${word}` : word;
    }
  }
  return line.length > 0 ? [...lines, line] : lines;
}

const CLIENT_EXAMPLE = [
  '```ts',
  "import { createSvcClient } from 'svc-rollup-node/client';",
  '',
  `const node = createSvcClient('http://127.0.0.1:${PUBLIC_PORT_DEFAULT}'); // options: { apiKey, timeoutMs, fetch }`,
  "const block = await node.svc.getBlock('checkpointed', { includeTransactions: true }); // bigints decoded as bigint",
  "const same = await node.request('svc_getBlock', ['checkpointed', { includeTransactions: true }]);",
  "const [tips, missing] = await node.batch([{ method: 'svc_getChainTips' }, { method: 'svc_getBlock', params: [9] }]);",
  '// the admin port: operator.admin.<name>(...) calls svcAdmin_<name>',
  `const operator = createSvcClient('http://127.0.0.1:${ADMIN_PORT_DEFAULT}', { apiKey });`,
  '```',
];

/** The API reference's text between the markers, ending with a newline. */
export function renderApiReference(document: OpenRpcDocument): string {
  const envelope = ENVELOPE_ERRORS.map((name) => RpcErrorCode[name]).join(', ');
  const intro =
    `Generated from the method table (\`spec/rpc/methods.ts\`) by \`npm run openrpc\`, which also writes ` +
    `\`${OPENRPC_DOCUMENT_PATH}\`, the OpenRPC ${document.openrpc} document (version ${document.info.version}) with the ` +
    `full JSON Schema of every param and result; a test fails when either is stale. Params are positional wire JSON: ` +
    `a \`bigint\` is a string of decimal digits (a safe integer is accepted on input), byte strings are 0x-prefixed ` +
    `hex; \`name?\` marks an optional param, which may be left out or sent as \`null\`. Any call may also answer ` +
    `${envelope}.`;
  const client =
    "Params are wire JSON; results are decoded by the method's result codec. A JSON-RPC error rejects with " +
    '`SvcRpcError` (`code`, `message`, `data` as the node sent them); HTTP 401, 413 and 415, other statuses, ' +
    "transport failures and the client's timeout with `SvcHttpError` (`reason`, `status`); a result that does not " +
    'fit its codec with `SvcDecodeError`. `batch` resolves to one `{ ok: true, result }` or `{ ok: false, error }` ' +
    'per call, in the order of the calls.';
  return [
    ...wrap(intro),
    '',
    ...namespaceTable(document, 'public'),
    ...namespaceTable(document, 'admin'),
    ...wrap(
      'The typed client (`adapters/client`, the package entry `./client`) derives its methods and types from the same table:',
    ),
    '',
    ...CLIENT_EXAMPLE,
    '',
    ...wrap(client),
    '',
  ].join('\n');
}

/** `page` with `section` between the markers; throws when the markers are missing or out of order. */
export function replaceApiReference(page: string, section: string): string {
  const start = page.indexOf(API_REFERENCE_START);
  const end = page.indexOf(API_REFERENCE_END);
  if (start < 0 || end < start || page.indexOf(API_REFERENCE_START, start + 1) >= 0) {
    throw new Error(`${API_REFERENCE_PATH} must hold ${API_REFERENCE_START} once, followed by ${API_REFERENCE_END}`);
  }
  return `${page.slice(0, start + API_REFERENCE_START.length)}\n${section}${page.slice(end)}`;
}

/** Writes `text` to `path` unless it already holds it; tells whether it wrote. */
async function writeIfChanged(path: string, text: string): Promise<boolean> {
  const current = await readFile(path, 'utf8').catch(() => undefined);
  if (current === text) return false;
  await writeFile(path, text);
  return true;
}

/** Regenerates the three generated texts under `root` (the repository root). */
export async function writeOpenRpc(root: string): Promise<void> {
  const document = buildOpenRpcDocument(readPackageVersion());
  const documentPath = resolve(root, OPENRPC_DOCUMENT_PATH);
  const referencePath = resolve(root, API_REFERENCE_PATH);
  const wroteDocument = await writeIfChanged(documentPath, renderOpenRpcJson(document));
  const reference = await readFile(referencePath, 'utf8');
  const wroteReference = await writeIfChanged(
    referencePath,
    replaceApiReference(reference, renderApiReference(document)),
  );
  const wroteMap = await writeIfChanged(resolve(root, ARCHITECTURE_PATH), await architectureWithMethodMap(root));
  const state = (wrote: boolean) => (wrote ? 'written' : 'up to date');
  console.log(`${OPENRPC_DOCUMENT_PATH}: ${state(wroteDocument)} (${document.methods.length} methods)`);
  console.log(`${API_REFERENCE_PATH} API reference: ${state(wroteReference)}`);
  console.log(`${ARCHITECTURE_PATH} method map: ${state(wroteMap)}`);
}

const thisFile = fileURLToPath(import.meta.url);
if (process.argv[1] !== undefined && resolve(process.argv[1]) === thisFile) {
  await writeOpenRpc(resolve(thisFile, '../../..'));
}
