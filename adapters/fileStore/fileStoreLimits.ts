/**
 * The bounds every file store keeps (adapters/fileStore/fileStore.ts). They are the adapters' own, not the
 * protocol's, so they live here rather than in spec/constants.ts; callers override the first two per call.
 */

/**
 * What `read` accepts when the caller names no bound: 16 MiB, many times a checkpoint's blob file (6 blobs of
 * 128 KiB) yet small enough to hold in memory. Larger objects (snapshot files) go through `downloadToFile`.
 */
export const FILE_STORE_READ_MAX_BYTES_DEFAULT = 16 * 1024 * 1024;

/** What `downloadToFile` accepts when the caller names no bound: 64 GiB, above any snapshot file we expect. */
export const FILE_STORE_DOWNLOAD_MAX_BYTES_DEFAULT = 64 * 1024 * 1024 * 1024;

/**
 * How long a remote request may make no progress (no connection, no answer, no body bytes) before it fails as
 * unreachable. An idle bound rather than a total one, because a snapshot file may take many minutes to move while a
 * dead server must still be noticed within seconds.
 */
export const FILE_STORE_IDLE_TIMEOUT_MS = 30_000;

/** How long opening a connection to a remote store may take. */
export const FILE_STORE_CONNECT_TIMEOUT_MS = 10_000;

/** The longest object path, in UTF-8 bytes: S3's limit on a key (the URL's prefix counts against it too). */
export const FILE_STORE_PATH_BYTES_MAX = 1024;

/**
 * A local store's temporary file (an atomic write in progress) untouched for this long was left by a killed writer
 * and is removed by the next file upload into its directory. A live copy writes far more often than this.
 */
export const LOCAL_STORE_STALE_TEMPORARY_MS = 60 * 60_000;

/** S3 takes at most 5 GiB in one PutObject. */
export const S3_PUT_OBJECT_MAX_BYTES = 5 * 1024 * 1024 * 1024;

/** Files larger than this go up as a multipart upload (parts sent in parallel, each retried alone). */
export const S3_MULTIPART_THRESHOLD_BYTES = 64 * 1024 * 1024;

/** The smallest part of a multipart upload we send; S3 refuses parts under 5 MiB but the last. */
export const S3_MULTIPART_PART_BYTES_MIN = 16 * 1024 * 1024;

/** S3's most parts in one multipart upload; parts grow past S3_MULTIPART_PART_BYTES_MIN to stay under it. */
export const S3_MULTIPART_PARTS_MAX = 10_000;

/** Parts in flight at once: memory held is about this many parts. */
export const S3_MULTIPART_PARTS_IN_FLIGHT = 4;

/** S3's largest object: 5 TiB. */
export const S3_OBJECT_MAX_BYTES = 5 * 1024 * 1024 * 1024 * 1024;

/** Attempts the S3 client makes for one request whose body can be sent again (the SDK's standard retry). */
export const S3_REQUEST_ATTEMPTS_MAX = 3;
