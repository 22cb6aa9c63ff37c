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
    const expected = [
      'propose',
      'getArchive',
      'getCheckpointCount',
      'getCurrentSlot',
      'CheckpointProposed',
      'WrongSlot',
    ];
    expected.push(
      'submitEpochProof',
      'prune',
      'canPrune',
      'getProvenCheckpoint',
      'EpochProven',
      'ChainPruned',
      'ProofWindowPassed',
    );
    for (const name of expected) expect(names).toContain(name);
  });

  it('the verifier ABI exposes verify', () => {
    expect((compiled.verifier.abi as { name?: string }[]).map((item) => item.name)).toContain('verify');
  });
});

describe('contracts/build: cross-chain message contracts', () => {
  const compiled = compileContracts();
  const names = (abi: readonly unknown[]) => (abi as { name?: string }[]).map((item) => item.name);

  it('the rollup exposes its inbox and outbox and refuses a wrong inHash', () => {
    for (const name of ['getInbox', 'getOutbox', 'WrongInHash']) expect(names(compiled.rollup.abi)).toContain(name);
  });

  it('the inbox and outbox ABIs expose sending, consuming, their events and views', () => {
    for (const name of ['sendL2Message', 'consume', 'MessageSent', 'getInProgress', 'getTreeHash'])
      expect(names(compiled.inbox.abi)).toContain(name);
    for (const name of ['insert', 'consume', 'smallestCoveringRoot', 'RootAdded', 'MessageConsumed', 'isConsumed'])
      expect(names(compiled.outbox.abi)).toContain(name);
  });
});
