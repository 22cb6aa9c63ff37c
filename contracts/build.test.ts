import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileRollup, renderRollupArtifact, ROLLUP_ARTIFACT_PATH } from './build.js';

describe('contracts/build', () => {
  it('the checked-in artifact matches a fresh compile of Rollup.sol (run `npm run contracts` if not)', () => {
    const fresh = renderRollupArtifact(compileRollup());
    const checkedIn = readFileSync(ROLLUP_ARTIFACT_PATH, 'utf8');
    expect(checkedIn === fresh, 'contracts/artifacts/rollup.ts is stale: run `npm run contracts`').toBe(true);
  });

  it('the ABI exposes propose, the getters and the CheckpointProposed event', () => {
    const { abi } = compileRollup();
    const names = (abi as { name?: string }[]).map((item) => item.name);
    for (const name of ['propose', 'getArchive', 'getCheckpointCount', 'getCurrentSlot', 'CheckpointProposed', 'WrongSlot']) {
      expect(names).toContain(name);
    }
  });
});
