import type { MethodHandler } from '../methodHandler.js';

/** Pauses sync and starts writing a backup of the node's database to the location; answers at once. */
export const svcAdmin_startSnapshotUpload: MethodHandler<'svcAdmin_startSnapshotUpload'> = (node, [location]) =>
  node.admin.startSnapshotUpload(location);
