// Module hooks that run the project's TypeScript as plain ES modules: esbuild strips the types of each `.ts` file
// as Node loads it, and a relative `./x.js` import whose file is `./x.ts` resolves to the `.ts` file (the NodeNext
// convention the sources follow). Unlike tsx, the transform does not set esbuild's `keepNames`, which wraps every
// function made at run time in a renaming call; the names are the ones JavaScript gives anyway, since nothing is
// bundled or minified. The source comes through the hooks registered before these (a test's hook that rewrites a
// rule sees the TypeScript); anything that is not a `.ts` file is left to them and to Node.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';

/**
 * How the project's TypeScript becomes JavaScript, here and in the test suite's prebuilt node
 * (test/globalSetup/prebuiltCli.ts): ES modules for Node 20, inline source maps, and the compiler options of
 * tsconfig.json that change emitted JavaScript (esbuild reads no tsconfig here).
 */
export const TS_TRANSFORM_OPTIONS = {
  format: 'esm',
  target: 'node20',
  sourcemap: 'inline',
  tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true, verbatimModuleSyntax: true } },
};

function isRelative(specifier) {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

export async function resolve(specifier, context, nextResolve) {
  const parent = context.parentURL;
  if (parent !== undefined && parent.startsWith('file:') && isRelative(specifier) && specifier.endsWith('.js')) {
    const typescript = new URL(`${specifier.slice(0, -3)}.ts`, parent);
    if (!existsSync(new URL(specifier, parent)) && existsSync(typescript))
      return { url: typescript.href, format: 'module', shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const loaded = await nextLoad(url, { ...context, format: 'module' });
  const { code } = await transform(String(loaded.source), { ...TS_TRANSFORM_OPTIONS, loader: 'ts', sourcefile: path });
  return { format: 'module', source: code, shortCircuit: true };
}
