import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { PACKAGE_NAME, readPackageVersion } from './packageVersion.js';

test("the version is package.json's, found by the package's own name", async () => {
  const packageJson = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    name: string;
    version: string;
  };
  expect(packageJson.name).toBe(PACKAGE_NAME);
  expect(readPackageVersion()).toBe(packageJson.version);
});
