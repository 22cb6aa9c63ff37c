/**
 * ARCHITECTURE.md against the code: every JSON-RPC method of the method table, every port of core/ports.ts and every
 * machine factory under core/ has its line; every backticked repository path and every relative link in it exists;
 * and its generated method map is what adapters/rpc/writeMethodMap.ts renders now.
 *
 * What counts as a port: an exported interface or type alias of core/ports.ts whose name ends in `Port`. The test
 * also checks that every field of `NodePorts` has such a type, so a port named otherwise fails here instead of
 * slipping past. What counts as a machine: an exported `create<Name>Machine` function in a non-test file under core/.
 */
import { posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import {
  architectureWithMethodMap,
  METHOD_MAP_END,
  METHOD_MAP_START,
  nodeCallsIn,
} from '../../adapters/rpc/writeMethodMap.js';
import { rpcMethodList } from '../../spec/rpc/methods.js';
import {
  markdownHeadings,
  readRepositoryText,
  REPOSITORY_ROOT,
  repositoryPathExists,
  repositoryTextFiles,
} from './repositoryFiles.js';

const normalize = (path: string): string => posix.normalize(path);

const ARCHITECTURE = readRepositoryText('ARCHITECTURE.md') ?? '';
const STALE = 'stale: run `npm run openrpc` and commit ARCHITECTURE.md';

/** The lines of ARCHITECTURE.md that hold `name` in backticks. */
const linesNaming = (name: string): string[] => ARCHITECTURE.split('\n').filter((line) => line.includes(`\`${name}\``));

function parse(path: string): ts.SourceFile {
  return ts.createSourceFile(path, readRepositoryText(path) ?? '', ts.ScriptTarget.ES2022, true);
}

const isExported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) &&
  (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);

/** The ports of core/ports.ts: exported interfaces and type aliases named `...Port`. */
export function portsOf(source: ts.SourceFile): string[] {
  return source.statements
    .filter(
      (node): node is ts.InterfaceDeclaration | ts.TypeAliasDeclaration =>
        ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node),
    )
    .filter((node) => isExported(node) && node.name.text.endsWith('Port'))
    .map((node) => node.name.text);
}

/** The type names of `NodePorts`' fields. */
function nodePortsFieldTypes(source: ts.SourceFile): string[] {
  const nodePorts = source.statements.find(
    (node): node is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(node) && node.name.text === 'NodePorts',
  );
  // A list of ports (`readonly L1PublisherPort[]`) counts as its element's port.
  return (nodePorts?.members ?? []).flatMap((member) =>
    ts.isPropertySignature(member) && member.type
      ? [member.type.getText(source).replace(/^readonly\s+(\w+)\[\]$/, '$1')]
      : [],
  );
}

/** Every exported `create<Name>Machine` factory under core/, with its file. */
export function machineFactories(): { readonly name: string; readonly path: string }[] {
  const files = repositoryTextFiles().filter(
    (path) => path.startsWith('core/') && path.endsWith('.ts') && !path.endsWith('.test.ts'),
  );
  return files.flatMap((path) =>
    parse(path)
      .statements.filter((node): node is ts.FunctionDeclaration => ts.isFunctionDeclaration(node) && isExported(node))
      .flatMap((node) =>
        node.name && /^create\w+Machine$/.test(node.name.text) ? [{ name: node.name.text, path }] : [],
      ),
  );
}

/**
 * Backticked strings of a Markdown text that name repository paths: they start with a top-level folder or are a
 * root file, hold no placeholder (`<method>`) or wildcard, and have no spaces.
 */
export function backtickedPaths(markdown: string): string[] {
  const roots = ['spec/', 'core/', 'adapters/', 'sim/', 'test/', 'bench/', 'contracts/', 'docs/', '.ci/', 'deploy/'];
  const rootFiles = [
    'README.md',
    'ARCHITECTURE.md',
    'package.json',
    'eslint.config.js',
    'tsconfig.json',
    'tsconfig.build.json',
    'vitest.config.ts',
    'Dockerfile',
  ];
  const candidates = [...markdown.matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '');
  return [...new Set(candidates)].filter(
    (text) => (roots.some((root) => text.startsWith(root)) || rootFiles.includes(text)) && !/[<>*\s]/.test(text),
  );
}

/** Relative link targets of a Markdown text (no scheme, no pure anchor), without their anchors. */
function relativeLinks(markdown: string): string[] {
  return linkTargets(markdown)
    .filter((target) => !target.startsWith('#'))
    .map((target) => target.split('#')[0] ?? '');
}

/** Link targets of a Markdown text that are not URLs with a scheme. */
function linkTargets(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
  return targets.filter((target) => !/^[a-z]+:/.test(target));
}

/** GitHub's anchor of a heading: lower case, punctuation other than `-` dropped, spaces as `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The project's Markdown pages: the root's, docs/ and bench/. */
const MARKDOWN_PAGES = repositoryTextFiles().filter((path) => /^(?:[^/]+|docs\/[^/]+|bench\/[^/]+)\.md$/.test(path));

describe('ARCHITECTURE.md has a line for every', () => {
  test.each(rpcMethodList.map((method) => method.name))('JSON-RPC method: %s', (name) => {
    expect(
      linesNaming(name),
      `add ${name} to ARCHITECTURE.md (npm run openrpc regenerates the method map)`,
    ).not.toEqual([]);
  });

  const ports = portsOf(parse('core/ports.ts'));
  test('port of core/ports.ts, each with its production adapter, simulated adapter and contract suite', () => {
    expect(ports.length).toBeGreaterThanOrEqual(11);
    for (const port of ports) {
      const rows = linesNaming(port).filter((line) => line.startsWith(`| \`${port}\` |`));
      expect(rows, `ARCHITECTURE.md, Ports: a row for ${port}`).toHaveLength(1);
      expect(rows[0]?.split(' | ').length, `${port}: port | what | production | simulated | contract suite`).toBe(5);
    }
  });

  test('field of NodePorts is a port, so no port escapes the rule above', () => {
    const fieldTypes = nodePortsFieldTypes(parse('core/ports.ts'));
    expect(fieldTypes.length).toBeGreaterThan(0);
    for (const type of fieldTypes) expect(ports, `NodePorts field of type ${type}`).toContain(type);
  });

  const machines = machineFactories();
  test('the core has its machines', () => {
    expect(machines.map((machine) => machine.name)).toContain('createArchiverMachine');
  });

  test.each(machines.map((machine) => [machine.name, machine.path] as const))('machine: %s', (name, path) => {
    const lines = linesNaming(name);
    expect(lines, `add ${name} to ARCHITECTURE.md, The node`).not.toEqual([]);
    expect(
      lines.some((line) => line.includes(`\`${path}\``)),
      `${name}'s line names its file ${path}`,
    ).toBe(true);
  });
});

describe('ARCHITECTURE.md points at things that exist', () => {
  test('every backticked repository path', () => {
    const paths = backtickedPaths(ARCHITECTURE);
    expect(paths.length).toBeGreaterThan(50);
    expect(
      paths.filter((path) => !repositoryPathExists(path)),
      'paths in ARCHITECTURE.md that do not exist',
    ).toEqual([]);
  });

  test('every relative link', () => {
    expect(relativeLinks(ARCHITECTURE).filter((target) => !repositoryPathExists(target))).toEqual([]);
  });

  test.each(MARKDOWN_PAGES)('every relative link and anchor of %s', (page) => {
    const folder = page.includes('/') ? page.slice(0, page.lastIndexOf('/') + 1) : '';
    const markdown = readRepositoryText(page) ?? '';
    const broken = linkTargets(markdown).filter((target) => {
      const [file = '', anchor] = target.split('#');
      const path = file === '' ? page : normalize(folder + file);
      if (!repositoryPathExists(path)) return true;
      if (anchor === undefined || !path.endsWith('.md')) return false;
      return !markdownHeadings(readRepositoryText(path) ?? '')
        .map(headingAnchor)
        .includes(anchor);
    });
    expect(broken, `broken links in ${page}`).toEqual([]);
  });

  test("anchors are GitHub's", () => {
    expect(headingAnchor('Redundant validator nodes (HA signing)')).toBe('redundant-validator-nodes-ha-signing');
    expect(headingAnchor('L2-to-L1 messages')).toBe('l2-to-l1-messages');
  });

  test('the path filter keeps paths and leaves the rest', () => {
    expect(
      backtickedPaths(
        '`core/ports.ts` `core/txPool/` `adapters/rpc/methods/<method>.ts` `svc_getBlock` `README.md` `a b`',
      ),
    ).toEqual(['core/ports.ts', 'core/txPool/', 'README.md']);
  });
});

describe('the method map', () => {
  test('is what the method table and the handler files generate', async () => {
    expect(ARCHITECTURE.indexOf(METHOD_MAP_START)).toBeGreaterThan(0);
    expect(ARCHITECTURE.indexOf(METHOD_MAP_END)).toBeGreaterThan(ARCHITECTURE.indexOf(METHOD_MAP_START));
    expect(ARCHITECTURE, `the method map in ARCHITECTURE.md is ${STALE}`).toBe(
      await architectureWithMethodMap(REPOSITORY_ROOT),
    );
  });

  test('reads the calls a handler makes on the node', () => {
    expect(nodeCallsIn('(node, [p]) => node.getBlock(p)')).toEqual(['getBlock']);
    expect(nodeCallsIn('node.admin.rollbackTo(1); node.validators?.getStats(); node.validators === undefined')).toEqual(
      ['admin.rollbackTo', 'validators.getStats'],
    );
    expect(nodeCallsIn('node.getBlocks(a); node.getBlocks(b)')).toEqual(['getBlocks']);
    expect(nodeCallsIn('node.txs\n    .getAllowedPublicSetup()\n    .map((entry) => entry)')).toEqual([
      'txs.getAllowedPublicSetup',
    ]);
  });
});
