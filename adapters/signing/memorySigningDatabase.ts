/**
 * The HA signing guard in memory: one shared "database" of claims that several nodes of one process (the simulator,
 * tests) hold guards on, each under its own node id. JavaScript runs one claim at a time, so a claim is atomic as the
 * SQL adapter's INSERT is. `setReachable(false)` makes every call fail as an unreachable database would.
 */
import type { Hex } from '../../spec/chain.js';
import type { SigningDuty, SigningGuardPort } from '../../core/ports.js';
import { SigningGuardError } from '../../core/validators/signingGuardError.js';

export interface MemorySigningClaim {
  readonly duty: SigningDuty;
  readonly payloadHash: Hex;
  readonly nodeId: string;
}

export interface MemorySigningDatabase {
  /** The guard of node `nodeId` over this database. */
  guardFor(nodeId: string): SigningGuardPort;
  /** While false, every claim and prune fails with SIGNING_GUARD_UNAVAILABLE. */
  setReachable(reachable: boolean): void;
  /** The claims held, in the order they were made. */
  claims(): readonly MemorySigningClaim[];
}

const dutyKey = (duty: SigningDuty): string =>
  `${duty.validatorAddress.toLowerCase()}/${duty.slot}/${duty.kind}/${duty.blockIndex}`;

export function createMemorySigningDatabase(): MemorySigningDatabase {
  const claims = new Map<string, MemorySigningClaim>();
  let reachable = true;
  const ensureReachable = (): void => {
    if (!reachable)
      throw new SigningGuardError('SIGNING_GUARD_UNAVAILABLE', 'the in-memory HA signing database is set unreachable');
  };
  return {
    guardFor(nodeId) {
      return {
        async claim(duty, payloadHash) {
          ensureReachable();
          const key = dutyKey(duty);
          const held = claims.get(key);
          if (held === undefined) {
            claims.set(key, {
              duty: { ...duty, validatorAddress: duty.validatorAddress.toLowerCase() as Hex },
              payloadHash: payloadHash.toLowerCase() as Hex,
              nodeId,
            });
            return { kind: 'granted' };
          }
          if (held.nodeId === nodeId && held.payloadHash === payloadHash.toLowerCase()) return { kind: 'granted' };
          return { kind: 'refused', holderNodeId: held.nodeId, holderPayloadHash: held.payloadHash };
        },
        async pruneBelow(slot) {
          ensureReachable();
          let dropped = 0;
          for (const [key, claim] of claims) {
            if (claim.duty.slot >= slot) continue;
            claims.delete(key);
            dropped++;
          }
          return dropped;
        },
      };
    },
    setReachable(value) {
      reachable = value;
    },
    claims: () => [...claims.values()],
  };
}
