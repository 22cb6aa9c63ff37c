/** Messages between the snapshot benchmark (bench/snapshot/bench.ts) and its s3rver process (s3Child.ts). */
export type S3ChildCommand = { readonly kind: 'cpu' } | { readonly kind: 'shutdown' };

export type S3ChildMessage =
  | {
      readonly kind: 'ready';
      readonly bucketUrl: string;
      readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
    }
  | { readonly kind: 'cpu'; readonly cpuMicros: number }
  | { readonly kind: 'stopped' };
