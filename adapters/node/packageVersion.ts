/**
 * This package's version, read from its package.json at run time, so what `svc --version`, svc_getNodeVersion,
 * svc_getNodeInfo and `rpc.discover` report is what was released. The file is found by the package's own name (Node
 * resolves a package's name from inside it through its `exports`), which works from the TypeScript sources, from
 * the compiled `dist/` and from an installed tarball alike.
 */
import { createRequire } from 'node:module';
import { assert } from '../../core/assert.js';

export const PACKAGE_NAME = 'svc-rollup-node';

let version: string | undefined;

/** The `version` field of this package's package.json (read once). */
export function readPackageVersion(): string {
  if (version !== undefined) return version;
  const packageJson = createRequire(import.meta.url)(`${PACKAGE_NAME}/package.json`) as {
    readonly name?: unknown;
    readonly version?: unknown;
  };
  assert(packageJson.name === PACKAGE_NAME, `${PACKAGE_NAME}/package.json resolved to another package`);
  assert(typeof packageJson.version === 'string' && packageJson.version.length > 0, 'package.json has no version');
  version = packageJson.version;
  return version;
}
