import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileContracts, renderRollupArtifact, ROLLUP_ARTIFACT_PATH } from './build.js';

describe('contracts/build', () => {
  const compiled = compileContracts();

  it('the checked-in artifact matches a fresh compile of the contracts (run `npm run contracts` if not)', () => {
    const fresh = renderRollupArtifact(compiled);
    const checkedIn = readFileSync(ROLLUP_ARTIFACT_PATH, 'utf8');
    expect(checkedIn === fresh, 'contracts/artifacts/rollup.ts is stale: run `npm run contracts`').toBe(true);
  });

  it('the rollup ABI exposes propose, the epoch proof, prune, the getters and their events', () => {
    const names = (compiled.rollup.abi as { name?: string }[]).map((item) => item.name);
    const expected = ['propose', 'getArchive', 'getCheckpointCount', 'getCurrentSlot', 'CheckpointProposed', 'WrongSlot'];
    expected.push('submitEpochProof', 'prune', 'canPrune', 'getProvenCheckpoint', 'EpochProven', 'ChainPruned', 'ProofWindowPassed');
    for (const name of expected) expect(names).toContain(name);
  });

  it('the verifier ABI exposes verify', () => {
    expect((compiled.verifier.abi as { name?: string }[]).map((item) => item.name)).toContain('verify');
  });
});
