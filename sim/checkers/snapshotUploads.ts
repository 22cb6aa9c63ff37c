/**
 * Checker: the state table's rules for svcAdmin_startSnapshotUpload, over the simulated snapshot store
 * (sim/simSnapshots.ts). For one upload: no checkpoint is synced by the node while the upload reads its database, and
 * the index lists the snapshot with the entries (count and checksum) of the database the node had. For a store: every
 * snapshot an index lists is whole (its data holds the count and checksum listed), so a crash in the middle of an
 * upload never leaves a partial snapshot listed. The admin.snapshotUpload step (sim/faultInjector.ts) adds the rules
 * about the node's operational state.
 */
import { simSnapshotChecksum, type SimSnapshots, type SimSnapshotUpload } from '../simSnapshots.js';
import type { SimFailure } from './simFailure.js';

function broken(node: string, detail: string): SimFailure {
  return { kind: 'snapshotUploadRuleBroken', node, detail };
}

/** The rules of one finished upload. */
export function checkSnapshotUpload(store: SimSnapshots, upload: SimSnapshotUpload): SimFailure[] {
  const { node, name } = upload;
  if (upload.completedAtMs === undefined) return [broken(node, `upload ${name} has not completed`)];
  const failures: SimFailure[] = [];
  if (upload.checkpointAtEnd !== upload.checkpointAtStart)
    failures.push(
      broken(
        node,
        `checkpoints synced during upload ${name}: checkpointed tip ${upload.checkpointAtStart}, then ${upload.checkpointAtEnd}`,
      ),
    );
  const listed = store.index(upload.location).find((entry) => entry.name === name);
  if (listed === undefined) return [...failures, broken(node, `upload ${name} completed but is not in the index`)];
  const expected = upload.expected;
  if (expected !== undefined && (listed.entryCount !== expected.entryCount || listed.checksum !== expected.checksum))
    failures.push(
      broken(
        node,
        `upload ${name} lists ${listed.entryCount} entries (checksum ${listed.checksum}); the node had ${expected.entryCount} (${expected.checksum})`,
      ),
    );
  return failures;
}

/** Every index lists only whole snapshots. */
export function checkSnapshotIndexes(store: SimSnapshots): SimFailure[] {
  const failures: SimFailure[] = [];
  for (const location of store.locationNames())
    for (const entry of store.index(location)) {
      const data = store.dataOf(location, entry.name) ?? [];
      if (data.length !== entry.entryCount || simSnapshotChecksum(data) !== entry.checksum)
        failures.push(
          broken(
            entry.node,
            `${location} lists ${entry.name} with ${entry.entryCount} entries (${entry.checksum}), its data has ${data.length} (${simSnapshotChecksum(data)})`,
          ),
        );
    }
  return failures;
}
