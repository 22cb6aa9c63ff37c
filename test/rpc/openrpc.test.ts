/** The OpenRPC document: derived from the method table, checked in up to date, and the API reference with it. */
import { readFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  compactType,
  OPENRPC_DOCUMENT_PATH,
  API_REFERENCE_PATH,
  renderApiReference,
  renderOpenRpcJson,
  replaceApiReference,
} from '../../adapters/rpc/writeOpenRpc.js';
import { readPackageVersion } from '../../adapters/node/packageVersion.js';
import { RpcErrorCode } from '../../spec/rpc/errorCodes.js';
import { NAMESPACE_PREFIX, type RpcNamespace } from '../../spec/rpc/methodDefinition.js';
import { rpcMethodList, rpcMethods } from '../../spec/rpc/methods.js';
import { buildDiscoverDocument, buildOpenRpcDocument, wireJsonSchemaOf } from '../../spec/rpc/openrpc.js';
import { bigUint, fr } from '../../spec/wire/scalars.js';
import { nodeInfo } from './fakeNode.js';
import { postJson, startTestServers, TEST_ADMIN_KEY } from './harness.js';

const root = new URL('../../', import.meta.url);
/** The generated document carries the package's version; a running node's `rpc.discover` carries the node's. */
const version = readPackageVersion();
const STALE = 'stale: run `npm run openrpc` (tsx adapters/rpc/writeOpenRpc.ts) and commit the result';

describe('generated files', () => {
  test(`${OPENRPC_DOCUMENT_PATH} is what the table generates`, async () => {
    const onDisk = await readFile(new URL(OPENRPC_DOCUMENT_PATH, root), 'utf8');
    expect(onDisk, `${OPENRPC_DOCUMENT_PATH} is ${STALE}`).toBe(renderOpenRpcJson(buildOpenRpcDocument(version)));
  });

  test(`the API reference of ${API_REFERENCE_PATH} is what the table generates`, async () => {
    const page = await readFile(new URL(API_REFERENCE_PATH, root), 'utf8');
    const regenerated = replaceApiReference(page, renderApiReference(buildOpenRpcDocument(version)));
    expect(page, `the API reference in ${API_REFERENCE_PATH} is ${STALE}`).toBe(regenerated);
  });

  test('the API reference is replaced between the markers only, and the markers are required', () => {
    const readme = 'intro\n<!-- api-reference:start -->\nold\n<!-- api-reference:end -->\noutro\n';
    expect(replaceApiReference(readme, 'new\n')).toBe(
      'intro\n<!-- api-reference:start -->\nnew\n<!-- api-reference:end -->\noutro\n',
    );
    expect(() => replaceApiReference('no markers', 'new\n')).toThrow(/api-reference:start/);
    expect(() => replaceApiReference('<!-- api-reference:end --><!-- api-reference:start -->', 'x\n')).toThrow();
  });

  test('the document is the same on every build', () => {
    expect(renderOpenRpcJson(buildOpenRpcDocument(version))).toBe(renderOpenRpcJson(buildOpenRpcDocument(version)));
  });
});

describe('the document follows the table', () => {
  const document = buildOpenRpcDocument(version);

  test('OpenRPC 1.2.6, the package version, every error code', () => {
    expect(document.openrpc).toBe('1.2.6');
    expect(document.info.version).toBe(version);
    expect(Object.keys(document.components.errors).sort()).toEqual(Object.keys(RpcErrorCode).sort());
    for (const [name, error] of Object.entries(document.components.errors)) {
      expect(error.code).toBe(RpcErrorCode[name as keyof typeof RpcErrorCode]);
    }
  });

  test('every table method exactly once, in table order', () => {
    const names = document.methods.map((method) => method.name);
    expect(names).toEqual(rpcMethodList.map((method) => method.name));
    expect(new Set(names).size).toBe(names.length);
  });

  test.each(rpcMethodList.map((definition) => [definition.name, definition] as const))('%s', (name, definition) => {
    const method = document.methods.find((candidate) => candidate.name === name);
    expect(method).toBeDefined();
    expect(method?.description).toBe(definition.description);
    expect(method?.deprecated).toBe(definition.deprecated);
    expect(method?.['x-namespace']).toBe(definition.namespace);
    expect(method?.paramStructure).toBe('by-position');
    expect(method?.params.map((param) => [param.name, param.required])).toEqual(
      definition.params.map((param) => [param.name, !param.optional]),
    );
    expect(method?.errors).toEqual(
      definition.errors.map((error) => expect.objectContaining({ code: RpcErrorCode[error] })),
    );
    expect(method?.result).toMatchObject({ name: 'result', required: true });
    for (const schema of [...(method?.params ?? []).map((param) => param.schema), method?.result.schema]) {
      expect(schema).toBeTypeOf('object');
      expect(schema).not.toHaveProperty('$schema');
      expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
    }
  });

  test('optional params admit null, as the wire does', () => {
    const tip = document.methods.find((method) => method.name === 'svc_getBlockNumber')?.params[0];
    expect(tip?.schema['anyOf']).toContainEqual({ type: 'null' });
  });

  test('schemas describe the wire side: a bigint is a decimal string or a safe integer', () => {
    const constants = document.methods.find((method) => method.name === 'svc_getL1Constants')?.result.schema;
    const properties = constants?.['properties'] as Record<string, unknown>;
    expect(properties['l1StartBlock']).toEqual({
      anyOf: [{ type: 'string' }, { maximum: Number.MAX_SAFE_INTEGER, minimum: 0, type: 'integer' }],
    });
    expect(Object.keys(properties)).toEqual(Object.keys(rpcMethods.svc_getL1Constants.result.shape));
  });
});

describe('rpc.discover', () => {
  test.each(['public', 'admin'] as const)('the %s listener lists its own methods only', (namespace: RpcNamespace) => {
    const discovered = buildDiscoverDocument(namespace, version);
    const expected = rpcMethodList.filter((method) => method.namespace === namespace).map((method) => method.name);
    expect(discovered.methods.map((method) => method.name)).toEqual(expected);
    for (const method of discovered.methods) expect(method.name.startsWith(NAMESPACE_PREFIX[namespace])).toBe(true);
    expect(discovered.info.version).toBe(version);
    expect(discovered.components).toEqual(buildOpenRpcDocument(version).components);
  });

  test('each listener serves its own document; the admin one only with the key; no params accepted', async () => {
    const servers = await startTestServers();
    try {
      const discover = (params?: unknown) => ({
        jsonrpc: '2.0',
        id: 7,
        method: 'rpc.discover',
        ...(params === undefined ? {} : { params }),
      });
      const pub = await postJson(servers.publicUrl, discover());
      expect(pub.json).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: JSON.parse(JSON.stringify(buildDiscoverDocument('public', nodeInfo.nodeVersion))),
      });
      const adminNoKey = await postJson(servers.adminUrl, discover([]));
      expect(adminNoKey.status).toBe(401);
      const admin = await postJson(servers.adminUrl, discover([]), { 'x-api-key': TEST_ADMIN_KEY });
      expect(admin.json).toMatchObject({
        id: 7,
        result: {
          methods: buildDiscoverDocument('admin', nodeInfo.nodeVersion).methods.map(({ name }) =>
            expect.objectContaining({ name }),
          ),
        },
      });
      const withParams = await postJson(servers.publicUrl, discover([1]));
      expect(withParams.json).toMatchObject({
        id: 7,
        error: { code: RpcErrorCode.INVALID_PARAMS, message: expect.stringMatching(/rpc\.discover takes no params/) },
      });
    } finally {
      await servers.close();
    }
  });

  test('the two listeners together list the whole table', () => {
    const both = [
      ...buildDiscoverDocument('public', nodeInfo.nodeVersion).methods,
      ...buildDiscoverDocument('admin', nodeInfo.nodeVersion).methods,
    ];
    expect(both.map((method) => method.name).sort()).toEqual(Object.keys(rpcMethods).sort());
  });
});

describe('wireJsonSchemaOf', () => {
  test('a codec is described by its input side', () => {
    expect(wireJsonSchemaOf(fr)).toEqual({ type: 'string' });
    expect(wireJsonSchemaOf(bigUint)).toMatchObject({ anyOf: [{ type: 'string' }, { type: 'integer' }] });
  });

  test('what JSON Schema cannot express becomes an open schema that says so, the rest stays', () => {
    const schema = wireJsonSchemaOf(z.object({ amount: z.bigint(), note: z.string() }));
    const properties = schema['properties'] as Record<string, Record<string, unknown>>;
    expect(properties['note']).toEqual({ type: 'string' });
    expect(properties['amount']?.['description']).toMatch(/not representable in JSON Schema/);
    expect(wireJsonSchemaOf(z.custom<string>(() => true))['description']).toMatch(/not representable/);
  });

  test('keywords are sorted, object fields keep the wire order', () => {
    const schema = wireJsonSchemaOf(z.object({ zeta: z.string(), alpha: z.number().describe('first') }));
    expect(Object.keys(schema)).toEqual([...Object.keys(schema)].sort());
    expect(Object.keys(schema['properties'] as object)).toEqual(['zeta', 'alpha']);
  });
});

describe('compactType', () => {
  test('renders unions, literals, arrays and top-level fields', () => {
    expect(compactType({ anyOf: [{ type: 'string' }, { type: 'integer' }] })).toBe('string | number');
    expect(compactType({ enum: ['a', 'b'] })).toBe("'a' | 'b'");
    expect(compactType({ type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'null' }] } })).toBe(
      '(string | null)[]',
    );
    expect(
      compactType({
        type: 'object',
        properties: { a: {}, b: { type: 'object', properties: { c: {} } } },
        required: ['a'],
      }),
    ).toBe('{ a, b? }');
    expect(compactType({ type: 'array', items: { type: 'object', properties: { a: {} } } })).toBe('object[]');
    expect(compactType({ type: 'array', items: { not: {} } })).toBe('never[]');
    expect(compactType({ anyOf: [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, { type: 'null' }] })).toBe(
      'string | null',
    );
    expect(
      compactType({ type: 'array', items: [{ type: 'integer' }, { type: 'array', items: { type: 'string' } }] }),
    ).toBe('[number, string[]]');
    expect(compactType({ type: ['string', 'null'] })).toBe('string | null');
    expect(compactType({ anyOf: [] })).toBe('never');
    expect(compactType({})).toBe('any');
  });
});
