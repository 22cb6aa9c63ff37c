/**
 * A validator node's records survive a crash and restart on the simulator: the offenses it detected and the
 * statistics of the slots it recorded before the crash are answered again by the new incarnation, which goes on
 * recording after it.
 */
import { describe, expect, it } from 'vitest';
import { signCheckpointAttestation } from '../../core/validators/bls.js';
import type { OffenseValue } from '../../core/validators/offenses.js';
import type { ValidatorsStatsValue } from '../../core/validators/stats.js';
import { drawOptions, runSimulation, type SimOptions, type SimWorld } from '../../sim/runSimulation.js';
import type { Hex } from '../../spec/chain.js';
import { bytesToHex } from '../../spec/codec/bytes.js';

const options: SimOptions = {
  ...drawOptions(21n, 420),
  followerCount: 2,
  inclusionDelay: { probability: 0, blocksMax: 0 },
  validatorCount: 4,
};

const fill = (byte: number): Hex => bytesToHex(new Uint8Array(32).fill(byte));

function currentSlot(world: SimWorld): number {
  const { l1GenesisTime, slotDuration } = world.l1.constants;
  return Math.floor((world.scheduler.now() / 1000 - Number(l1GenesisTime)) / slotDuration);
}

describe('validator records across a restart', () => {
  it('a restarted node answers the offenses and statistics it had before the crash, and records on', async () => {
    let beforeCrash: { offenses: OffenseValue[]; stats: ValidatorsStatsValue } | undefined;
    let afterRestart: { offenses: OffenseValue[]; stats: ValidatorsStatsValue } | undefined;
    let world: SimWorld | undefined;
    const result = await runSimulation(options, {
      scenario: (w) => {
        world = w;
        w.at(150_000, async () => {
          const slot = currentSlot(w);
          const duties = await w.node('follower-1').validatorClient!.duties.prepareDuties(slot);
          const member = duties!.committee.members.find((m) => m.address !== duties!.proposer?.address)!;
          const attester = w.validators.find((v) => v.address === member.address)!;
          const { l1ChainId, rollupVersion } = w.l1.constants;
          for (const marker of [11, 13]) {
            const payload = {
              l1ChainId,
              rollupVersion,
              slot,
              checkpointNumber: 1_000 + marker,
              archiveRoot: fill(marker),
              checkpointHeaderHash: fill(marker + 1),
            };
            w.network!.inject({
              kind: 'checkpointAttestation',
              payload,
              attester: attester.address,
              signature: signCheckpointAttestation(attester.secretKey, payload).signature,
            });
          }
        });
        w.at(240_000, async () => {
          const validators = w.node('follower-1').service.validators!;
          beforeCrash = { offenses: validators.getSlashOffenses('all'), stats: await validators.getValidatorsStats() };
          await w.crashAndRestart('follower-1');
          const restarted = w.node('follower-1').service.validators!;
          afterRestart = { offenses: restarted.getSlashOffenses('all'), stats: await restarted.getValidatorsStats() };
        });
      },
    });
    expect(result.failures).toEqual([]);
    expect(beforeCrash!.offenses).toHaveLength(1);
    expect(afterRestart!.offenses).toEqual(beforeCrash!.offenses);
    expect(beforeCrash!.stats.lastProcessedSlot).not.toBeNull();
    expect(afterRestart!.stats).toEqual(beforeCrash!.stats);
    // The new incarnation records the slots after its start on top of the reloaded ones.
    const final = await world!.node('follower-1').service.validators!.getValidatorsStats();
    expect(final.initialSlot).toBe(beforeCrash!.stats.initialSlot);
    expect(final.lastProcessedSlot!).toBeGreaterThan(beforeCrash!.stats.lastProcessedSlot!);
    expect(world!.node('follower-1').service.validators!.getSlashOffenses('all')).toEqual(beforeCrash!.offenses);
  });
});
