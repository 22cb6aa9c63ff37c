/**
 * The OpenRPC 1.2.6 document of the service, built from the method table (spec/rpc/methods.ts) and nothing else:
 * one method object per table entry, in table order, with its positional params, its result, its documented errors,
 * its deprecation and its namespace (`x-namespace`). Schemas describe the wire JSON, that is the input side of each
 * codec (a `bigint` is a decimal string or a safe integer, a hash is a hex string), as JSON Schema draft 7, the
 * dialect OpenRPC 1.2.6 uses.
 *
 * `buildOpenRpcDocument(version)` is the whole service (written to spec/openrpc.json by adapters/rpc/writeOpenRpc.ts);
 * `buildDiscoverDocument(namespace, version)` is what `rpc.discover` answers on one listener. The version is the
 * node's release, which the caller reads (spec/ reads no files): the package's version.
 */
import { z } from 'zod';
import { RpcErrorCode, type RpcErrorName } from './errorCodes.js';
import {
  NAMESPACE_PREFIX,
  type MethodDefinition,
  type ParamDefinition,
  type RpcNamespace,
} from './methodDefinition.js';
import { rpcMethodList } from './methods.js';

export const OPENRPC_VERSION = '1.2.6';

/** A JSON Schema (draft 7) as plain JSON. */
export type JsonSchema = { readonly [keyword: string]: unknown };

export interface OpenRpcContentDescriptor {
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonSchema;
}

export interface OpenRpcError {
  readonly code: number;
  readonly message: string;
}

export interface OpenRpcMethod {
  readonly name: string;
  readonly description: string;
  readonly deprecated: boolean;
  readonly paramStructure: 'by-position';
  readonly params: readonly OpenRpcContentDescriptor[];
  readonly result: OpenRpcContentDescriptor;
  readonly errors: readonly OpenRpcError[];
  /** The listener that serves the method: 'public' (`svc_`) or 'admin' (`svcAdmin_`, behind the API key). */
  readonly 'x-namespace': RpcNamespace;
}

export interface OpenRpcDocument {
  readonly openrpc: typeof OPENRPC_VERSION;
  readonly info: { readonly title: string; readonly version: string; readonly description: string };
  readonly methods: readonly OpenRpcMethod[];
  /** Every error code of the service, by name; a method lists only the errors specific to it. */
  readonly components: { readonly errors: Readonly<Record<RpcErrorName, OpenRpcError>> };
}

/** The `message` each error code carries in the document: what the code means, in a few words. */
const RPC_ERROR_SUMMARY: Readonly<Record<RpcErrorName, string>> = {
  PARSE_ERROR: 'Parse error: the body is not valid JSON',
  INVALID_REQUEST: 'Invalid request: not a JSON-RPC 2.0 request object, or an empty batch',
  METHOD_NOT_FOUND: 'Method not found on this listener',
  INVALID_PARAMS: 'Invalid params: error.data names the parameter by position and name',
  INTERNAL_ERROR: 'Internal error of the node',
  UNAUTHORIZED: 'Unauthorized: admin API key missing or wrong (HTTP 401)',
  REQUEST_TIMED_OUT: 'Request timed out',
  TX_REJECTED: 'Transaction rejected: error.data.code says why',
  SUBSYSTEM_DISABLED: 'The subsystem this method needs is not enabled on this node',
  LIMIT_EXCEEDED: 'Limit exceeded: error.data names the limit and its value',
  STATE_NOT_AVAILABLE: 'State not available (pruned from history, or unknown)',
  OPERATION_REFUSED: "Operation refused in the node's current state",
};

/** Errors any call may answer, whatever its method (methodDefinition.ts: the envelope's errors). */
export const ENVELOPE_ERRORS: readonly RpcErrorName[] = [
  'PARSE_ERROR',
  'INVALID_REQUEST',
  'METHOD_NOT_FOUND',
  'INTERNAL_ERROR',
  'REQUEST_TIMED_OUT',
  'LIMIT_EXCEEDED',
];

export function openRpcErrorOf(name: RpcErrorName): OpenRpcError {
  return { code: RpcErrorCode[name], message: RPC_ERROR_SUMMARY[name] };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The schema with every object's keys sorted, so that the document does not depend on the order in which zod emits
 * keywords; the members of a `properties` keep their order, the order of the wire fields.
 */
function sortedKeys(value: unknown, keepKeyOrder = false): unknown {
  if (Array.isArray(value)) return value.map((item) => sortedKeys(item));
  if (!isRecord(value)) return value;
  const keys = keepKeyOrder ? Object.keys(value) : Object.keys(value).sort();
  return Object.fromEntries(keys.map((key) => [key, sortedKeys(value[key], !keepKeyOrder && key === 'properties')]));
}

const NOT_REPRESENTABLE = 'not representable in JSON Schema';

/**
 * The JSON Schema of a codec's wire (input) side. A part that JSON Schema cannot express (a custom check, a bigint on
 * the wire...) becomes an open schema whose description says so, instead of failing the whole document; a schema
 * that cannot be converted at all becomes one open schema. Keys are sorted (but `properties` keep the field order).
 */
export function wireJsonSchemaOf(schema: z.ZodType): JsonSchema {
  try {
    const converted = z.toJSONSchema(schema, {
      io: 'input',
      target: 'draft-07',
      unrepresentable: ({ message }) => ({ description: `${NOT_REPRESENTABLE}: ${message}` }),
    });
    const { $schema: _dialect, ...rest } = converted;
    return sortedKeys(rest) as JsonSchema;
  } catch (error) {
    return { description: `${NOT_REPRESENTABLE}: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** An optional param may be left out or sent as null, so its schema admits null. */
function paramDescriptorOf(param: ParamDefinition): OpenRpcContentDescriptor {
  return {
    name: param.name,
    required: !param.optional,
    schema: wireJsonSchemaOf(param.optional ? param.schema.nullable() : param.schema),
  };
}

function methodOf(name: string, definition: MethodDefinition): OpenRpcMethod {
  return {
    name,
    description: definition.description,
    deprecated: definition.deprecated,
    paramStructure: 'by-position',
    params: definition.params.map(paramDescriptorOf),
    result: { name: 'result', required: true, schema: wireJsonSchemaOf(definition.result) },
    errors: definition.errors.map(openRpcErrorOf),
    'x-namespace': definition.namespace,
  };
}

const describeCodes = (names: readonly RpcErrorName[]): string => names.map((name) => RpcErrorCode[name]).join(', ');

function infoDescription(namespaces: readonly RpcNamespace[]): string {
  const listeners = namespaces.map((namespace) =>
    namespace === 'public'
      ? `the public listener serves the ${NAMESPACE_PREFIX.public} methods`
      : `the admin listener serves the ${NAMESPACE_PREFIX.admin} methods and needs the admin API key in x-api-key (else HTTP 401, ${RpcErrorCode.UNAUTHORIZED})`,
  );
  return (
    `JSON-RPC 2.0 over HTTP POST with positional params; ${listeners.join('; ')}. ` +
    `Schemas describe the wire JSON: a bigint is a string of decimal digits (a safe JSON integer is accepted on ` +
    `input), byte strings are 0x-prefixed hex. An optional param may be left out or sent as null. Besides the ` +
    `errors each method lists, any call may answer ${describeCodes(ENVELOPE_ERRORS)} (components.errors lists every code).`
  );
}

const NAMESPACES: readonly RpcNamespace[] = ['public', 'admin'];

function documentOf(namespaces: readonly RpcNamespace[], title: string, version: string): OpenRpcDocument {
  const errorNames = Object.keys(RpcErrorCode) as RpcErrorName[];
  return {
    openrpc: OPENRPC_VERSION,
    info: { title, version, description: infoDescription(namespaces) },
    methods: rpcMethodList
      .filter((definition) => namespaces.includes(definition.namespace))
      .map((definition) => methodOf(definition.name, definition)),
    components: {
      errors: Object.fromEntries(errorNames.map((name) => [name, openRpcErrorOf(name)])) as Record<
        RpcErrorName,
        OpenRpcError
      >,
    },
  };
}

const SERVICE_TITLE = 'svc rollup node JSON-RPC';

/** The document of the whole service, both listeners, every method of the table in table order. */
export function buildOpenRpcDocument(version: string): OpenRpcDocument {
  return documentOf(NAMESPACES, SERVICE_TITLE, version);
}

/**
 * What `rpc.discover` answers on one listener: the document restricted to that listener's methods (the public port
 * lists the `svc_` methods, the admin port the `svcAdmin_` ones). The document depends on the table alone, so a
 * caller may build it once and answer every `rpc.discover` with it.
 */
export function buildDiscoverDocument(namespace: RpcNamespace, version: string): OpenRpcDocument {
  return documentOf([namespace], `${SERVICE_TITLE} (${namespace} listener)`, version);
}
