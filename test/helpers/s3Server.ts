/**
 * An S3-compatible server (s3rver) on loopback for tests: file store contract tests, blob sync and snapshots. It
 * listens on 127.0.0.1 on a free port and keeps its objects in a temporary directory removed on `stop`.
 *
 * s3rver accepts one key pair, S3RVER/S3RVER, and does not check SigV4 signatures (it parses them and looks the
 * access key up), so any SDK signing works. Give `credentials` to an in-process store (`s3Credentials`), or `env` to a
 * child process, whose SDK finds it through the default credential chain.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Credentials } from '../../adapters/fileStore/fileStore.js';

export interface S3Server {
  /** `http://127.0.0.1:<port>`: the `?endpoint=` of an `s3://` URL, and the base of path-style object URLs. */
  readonly endpoint: string;
  readonly credentials: S3Credentials;
  /** AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for a process that uses the SDK's default chain. */
  readonly env: Readonly<Record<string, string>>;
  /** Creates the bucket (if it is not there yet) and answers its `s3://name?endpoint=...&region=...` URL. */
  bucket(name: string): Promise<string>;
  stop(): Promise<void>;
}

const S3RVER_CREDENTIALS: S3Credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const REGION = 'us-east-1';
/** What s3rver answers CreateBucket on a bucket that exists. */
const BUCKET_EXISTS_ERRORS = new Set(['BucketAlreadyExists', 'BucketAlreadyOwnedByYou']);

export async function startS3Server(): Promise<S3Server> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ endpoint, forcePathStyle: true, region: REGION, credentials: S3RVER_CREDENTIALS });
  return {
    endpoint,
    credentials: S3RVER_CREDENTIALS,
    env: {
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    },
    bucket: async (name) => {
      await client.send(new CreateBucketCommand({ Bucket: name })).catch((error: unknown) => {
        if (!(error instanceof Error && BUCKET_EXISTS_ERRORS.has(error.name))) throw error;
      });
      return `s3://${name}?endpoint=${endpoint}&region=${REGION}`;
    },
    stop: async () => {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
