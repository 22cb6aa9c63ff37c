/**
 * The snapshot benchmark's S3-compatible server (s3rver) in its own process, so that its work does not share the
 * measured node's event loop (a real store is another machine). Answers its bucket URL and credentials over IPC,
 * then its CPU time when asked, and stops on `shutdown`.
 */
import { startS3Server } from '../../test/helpers/s3Server.js';
import type { S3ChildCommand, S3ChildMessage } from './protocol.js';

const send = (message: S3ChildMessage) => process.send!(message);
const server = await startS3Server();
send({ kind: 'ready', bucketUrl: await server.bucket('bench-snapshots'), credentials: server.credentials });

process.on('message', (command: S3ChildCommand) => {
  if (command.kind === 'cpu') {
    const { user, system } = process.cpuUsage();
    send({ kind: 'cpu', cpuMicros: user + system });
    return;
  }
  server
    .stop()
    .then(() => {
      send({ kind: 'stopped' });
      process.disconnect();
    })
    .catch((error: unknown) => {
      process.stderr.write(`snapshot bench s3rver: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
});
