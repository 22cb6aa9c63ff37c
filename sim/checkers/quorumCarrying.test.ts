import { describe, expect, it } from 'vitest';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';
import type { CheckpointProposedLog } from '../../core/ports.js';
import { encodeCheckpointAttestations } from '../../spec/validators/checkpointAttestations.js';
import { quorumCarryingLogs } from './quorumCarrying.js';

const signature: Hex = `0x${'ab'.repeat(96)}`;
const listOf = (seats: readonly number[]): Hex =>
  bytesToHex(encodeCheckpointAttestations(seats.map((committeeIndex) => ({ committeeIndex, signature }))));
const log = (checkpointNumber: number, attestations: Hex) =>
  ({ checkpointNumber, attestations }) as CheckpointProposedLog;

describe('checkpoints the reference checkers judge', () => {
  it('with validators, only those naming a quorum of distinct seats (3 of 4)', () => {
    const logs = [log(1, listOf([0, 1, 2])), log(2, listOf([0, 1])), log(3, listOf([0, 0, 1])), log(4, '0x01')];
    expect(quorumCarryingLogs(logs, 4).map((l) => l.checkpointNumber)).toEqual([1]);
  });

  it('without validators, every checkpoint (none needs attestations)', () => {
    expect(quorumCarryingLogs([log(1, '0x0000'), log(2, '0x')], 0)).toHaveLength(2);
  });
});
