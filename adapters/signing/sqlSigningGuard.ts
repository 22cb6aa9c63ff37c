/**
 * The HA signing guard over PostgreSQL (schema: haSigningSchema.ts). A claim is one INSERT ... ON CONFLICT DO
 * NOTHING: the database's primary key decides atomically which node's claim of a duty is first, across every node
 * sharing the database. When the insert added nothing, a second statement reads the claim that holds the duty (a new
 * statement, so under READ COMMITTED it also sees a claim a concurrent transaction committed meanwhile) and grants it
 * again only to the same node with the same payload hash. Any failure of the database is SIGNING_GUARD_UNAVAILABLE,
 * on which the validator does not sign.
 */
import type { Hex } from '../../spec/chain.js';
import type { SigningGuardPort } from '../../core/ports.js';
import { SigningGuardError } from '../../core/validators/signingGuardError.js';
import { integerColumn, textColumn, type SqlQueryable } from './sqlQueryable.js';

const INSERT_CLAIM = `INSERT INTO validator_duties (validator_address, slot, duty_kind, block_index, payload_hash, node_id)
  VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING RETURNING node_id`;
const HELD_CLAIM = `SELECT payload_hash, node_id FROM validator_duties
  WHERE validator_address = $1 AND slot = $2 AND duty_kind = $3 AND block_index = $4`;
const PRUNE_CLAIMS =
  'WITH dropped AS (DELETE FROM validator_duties WHERE slot < $1 RETURNING 1) SELECT count(*)::int AS dropped FROM dropped';

/** Runs `action`, turning any failure of the database into SIGNING_GUARD_UNAVAILABLE. */
async function unavailableOnFailure<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof SigningGuardError) throw error;
    throw new SigningGuardError(
      'SIGNING_GUARD_UNAVAILABLE',
      `${what}: the HA signing database failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

/** Node `nodeId`'s guard over `db` (a pool: claims of concurrent duties may run at once). */
export function createSqlSigningGuard(db: SqlQueryable, nodeId: string): SigningGuardPort {
  return {
    claim(duty, payloadHash) {
      return unavailableOnFailure(`claiming ${duty.kind} of slot ${duty.slot}`, async () => {
        const key = [duty.validatorAddress.toLowerCase(), duty.slot, duty.kind, duty.blockIndex];
        const hash = payloadHash.toLowerCase();
        const inserted = await db.query(INSERT_CLAIM, [...key, hash, nodeId]);
        if (inserted.rows.length > 0) return { kind: 'granted' };
        const held = await db.query(HELD_CLAIM, key);
        if (held.rows.length === 0)
          throw new SigningGuardError(
            'SIGNING_GUARD_UNAVAILABLE',
            `the claim of ${duty.kind} of slot ${duty.slot} was neither inserted nor found (pruned meanwhile)`,
          );
        const holderNodeId = textColumn(held.rows[0], 'node_id');
        const holderPayloadHash = textColumn(held.rows[0], 'payload_hash') as Hex;
        if (holderNodeId === nodeId && holderPayloadHash === hash) return { kind: 'granted' };
        return { kind: 'refused', holderNodeId, holderPayloadHash };
      });
    },
    pruneBelow(slot) {
      return unavailableOnFailure(`pruning claims below slot ${slot}`, async () =>
        integerColumn((await db.query(PRUNE_CLAIMS, [slot])).rows[0], 'dropped'),
      );
    },
  };
}
