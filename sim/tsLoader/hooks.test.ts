import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module with no types (it runs before any TypeScript can)
import { load, resolve } from './hooks.mjs';

type Hook = (...args: unknown[]) => Promise<{ url?: string; source?: string; format?: string }>;
const loadHook = load as Hook;
const resolveHook = resolve as Hook;

const dir = mkdtempSync(path.join(os.tmpdir(), 'ts-loader-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BASE = `export class Base {
  value = 1;
}
export interface Shape {
  readonly sides: number;
}
export function fail(): never {
  throw new Error('from base.ts');
}
`;
const MAIN = `import { Base, fail, type Shape } from './base.js';
class Child extends Base {
  value!: number;
}
const square: Shape = { sides: 4 };
const named = () => 0;
let line = 0;
try {
  fail();
} catch (error) {
  line = Number(/base\\.ts:(\\d+)/.exec((error as Error).stack ?? '')?.[1]);
}
console.log(JSON.stringify({ child: new Child().value ?? null, sides: square.sides, name: named.name, line }));
`;

describe('the TypeScript module hooks (sim/tsLoader)', () => {
  writeFileSync(path.join(dir, 'base.ts'), BASE);
  writeFileSync(path.join(dir, 'main.ts'), MAIN);
  writeFileSync(path.join(dir, 'plain.js'), 'export const plain = 1;\n');

  it('runs TypeScript with the compiler options of tsconfig.json, and maps stack traces back to the .ts lines', () => {
    const register = path.resolve('sim/tsLoader/register.mjs');
    const output = execFileSync(process.execPath, ['--import', register, path.join(dir, 'main.ts')], {
      encoding: 'utf8',
    });
    // Class fields with define semantics (target ES2022): a field the child only declares reads undefined.
    expect(JSON.parse(output)).toEqual({ child: null, sides: 4, name: 'named', line: 8 });
  });

  it('compiles the source the hooks registered before it hand on (a test that rewrites a rule)', () => {
    writeFileSync(
      path.join(dir, 'rewrite.mjs'),
      `export async function load(url, context, next) {
        const loaded = await next(url, context);
        if (!url.endsWith('/base.ts')) return loaded;
        return { ...loaded, source: String(loaded.source).replace('value = 1;', 'value: number = 2;') };
      }\n`,
    );
    writeFileSync(
      path.join(dir, 'rewriteRegister.mjs'),
      "import { register } from 'node:module';\nregister('./rewrite.mjs', import.meta.url);\n",
    );
    writeFileSync(
      path.join(dir, 'rewritten.ts'),
      "import { Base } from './base.js';\nconsole.log(new Base().value);\n",
    );
    const output = execFileSync(
      process.execPath,
      [
        '--import',
        path.join(dir, 'rewriteRegister.mjs'),
        '--import',
        path.resolve('sim/tsLoader/register.mjs'),
        path.join(dir, 'rewritten.ts'),
      ],
      { encoding: 'utf8' },
    );
    expect(output.trim()).toBe('2');
  });

  it('compiles without the function renaming of keepNames', async () => {
    const url = pathToFileURL(path.join(dir, 'main.ts')).href;
    const read = (from: unknown, context: unknown) => {
      expect(context).toMatchObject({ format: 'module' });
      return Promise.resolve({ source: readFileSync(new URL(String(from)), 'utf8') });
    };
    const loaded = await loadHook(url, {}, read);
    expect(loaded.format).toBe('module');
    expect(loaded.source).toContain('class Child extends Base');
    expect(loaded.source).not.toContain('__name');
  });

  it('resolves ./x.js to x.ts only when no x.js exists, and passes everything else on', async () => {
    const parentURL = pathToFileURL(path.join(dir, 'main.ts')).href;
    const next = (specifier: unknown) => Promise.resolve({ url: `next:${String(specifier)}` });
    expect((await resolveHook('./base.js', { parentURL }, next)).url).toBe(
      pathToFileURL(path.join(dir, 'base.ts')).href,
    );
    expect((await resolveHook('./plain.js', { parentURL }, next)).url).toBe('next:./plain.js');
    expect((await resolveHook('./absent.js', { parentURL }, next)).url).toBe('next:./absent.js');
    expect((await resolveHook('xstate', { parentURL }, next)).url).toBe('next:xstate');
    const passed = await loadHook('file:///x/data.json', {}, (url: unknown) => Promise.resolve({ url: String(url) }));
    expect(passed.url).toBe('file:///x/data.json');
  });
});
