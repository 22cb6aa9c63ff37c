import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';
import { createMemorySigningDatabase } from '../../adapters/signing/memorySigningDatabase.js';
import { migrateHaSigningSchema } from '../../adapters/signing/haSigningSchema.js';
import type { SqlQueryable } from '../../adapters/signing/sqlQueryable.js';
import { createSqlSigningGuard } from '../../adapters/signing/sqlSigningGuard.js';
import { describeSigningGuardPort } from './signingGuardPort.suite.js';

describeSigningGuardPort(
  'in memory',
  async () => {
    const database = createMemorySigningDatabase();
    return {
      guardFor: (nodeId) => database.guardFor(nodeId),
      setReachable: (reachable) => database.setReachable(reachable),
      cleanup: async () => undefined,
    };
  },
  { propertyRuns: 200 },
);

// One PostgreSQL engine (PGlite: PostgreSQL compiled to WASM, in this process) for the file; each test empties the table.
let engine: PGlite;
beforeAll(async () => {
  engine = new PGlite();
  await migrateHaSigningSchema(engine, 'pglite');
});
afterAll(async () => {
  await engine.close();
});

describeSigningGuardPort(
  'PostgreSQL (PGlite)',
  async () => {
    await engine.query('TRUNCATE validator_duties');
    let reachable = true;
    // The guard sees the engine through a link that fails as a refused connection does while "unreachable".
    const link: SqlQueryable = {
      query: async (text, params) => {
        if (!reachable) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return engine.query(text, params);
      },
    };
    return {
      guardFor: (nodeId) => createSqlSigningGuard(link, nodeId),
      setReachable: (value) => (reachable = value),
      cleanup: async () => undefined,
    };
  },
  { propertyRuns: 60 },
);
