/**
 * The blob benchmark's servers in their own process, so that their work does not share the measured client's event
 * loop (a real source is another machine): s3rver, a static file server over the local store's directory (the
 * read-only http store), a Blobscan-style archive, and two beacon proxies over anvil, one serving only the older
 * `blob_sidecars` route and one answering 404 for the blobs of given blocks. Talks to the orchestrator
 * (bench/blobs/bench.ts) over IPC.
 */
import { startBeaconProxy, type BeaconProxy } from '../../test/helpers/beaconProxy.js';
import { startBlobArchiveServer, type BlobArchiveServer } from '../../test/helpers/blobArchiveServer.js';
import { startS3Server, type S3Server } from '../../test/helpers/s3Server.js';
import { startStaticFileServer, type StaticFileServer } from '../../test/helpers/staticFileServer.js';
import type { BlobServersSetup, BlobServersUrls, ServerChildCommand, ServerChildMessage } from './protocol.js';

const send = (message: ServerChildMessage) => process.send!(message);

interface Servers {
  readonly s3: S3Server;
  readonly files: StaticFileServer;
  readonly archive: BlobArchiveServer;
  readonly sidecarProxy: BeaconProxy;
  readonly missingProxy: BeaconProxy;
}

let servers: Servers | undefined;

async function setUp(setup: BlobServersSetup): Promise<BlobServersUrls> {
  const s3 = await startS3Server();
  const s3Url = await s3.bucket('bench-blobs');
  const files = await startStaticFileServer(setup.blobDirectory);
  const archive = await startBlobArchiveServer();
  archive.put(setup.archiveBlobs);
  const sidecarProxy = await startBeaconProxy(setup.anvilUrl);
  sidecarProxy.set({ routes: 'sidecarsOnly' });
  const missingProxy = await startBeaconProxy(setup.anvilUrl);
  missingProxy.set({ missingSlots: new Set(setup.missingBlocks) });
  servers = { s3, files, archive, sidecarProxy, missingProxy };
  // The proxy computes each blob's commitment and proof on first sight and keeps them: do that now, untimed.
  for (const block of setup.sidecarBlocks) {
    const answer = await fetch(`${sidecarProxy.url}/eth/v1/beacon/blob_sidecars/${block}`);
    await answer.arrayBuffer();
    if (answer.status !== 200) throw new Error(`the sidecar proxy answered HTTP ${answer.status} for block ${block}`);
  }
  return {
    s3Url,
    s3Credentials: s3.credentials,
    httpUrl: files.url,
    archiveUrl: archive.url,
    sidecarProxyUrl: sidecarProxy.url,
    missingProxyUrl: missingProxy.url,
  };
}

async function shutdown(): Promise<void> {
  if (servers === undefined) return;
  const { s3, files, archive, sidecarProxy, missingProxy } = servers;
  await Promise.all([s3.stop(), files.stop(), archive.close(), sidecarProxy.close(), missingProxy.close()]);
}

async function handle(command: ServerChildCommand): Promise<void> {
  switch (command.kind) {
    case 'setUp':
      send({ kind: 'servers', urls: await setUp(command.setup) });
      return;
    case 'cpu': {
      const { user, system } = process.cpuUsage();
      send({ kind: 'cpu', cpuMicros: user + system });
      return;
    }
    case 'shutdown':
      await shutdown();
      send({ kind: 'stopped' });
      process.disconnect();
      return;
  }
}

process.on('message', (command: ServerChildCommand) => {
  handle(command).catch((error: unknown) => {
    process.stderr.write(`blob bench servers: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
});
send({ kind: 'ready' });
