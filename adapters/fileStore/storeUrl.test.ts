import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FileStoreError } from './fileStoreError.js';
import { parseStoreUrl, redactedUrlName } from './storeUrl.js';

const nameOf = (url: string): string => redactedUrlName(new URL(url));

describe('redactedUrlName', () => {
  it('drops userinfo, fragments and secret query parameters, and keeps the rest', () => {
    expect(nameOf('https://reader:hunter2@cdn.example/blobs/?X-Amz-Signature=abc&X-Amz-Credential=AKIA&v=2#top')).toBe(
      'https://cdn.example/blobs/?v=2',
    );
    expect(nameOf('https://acct.blob.example/container?sv=2024&sig=abc&se=2030')).toBe(
      'https://acct.blob.example/container?sv=2024&se=2030',
    );
    expect(nameOf('file:///var/lib/svc/blobs')).toBe('file:///var/lib/svc/blobs');
  });

  it('shows an s3 URL with its endpoint and region, and drops the userinfo of the endpoint', () => {
    expect(nameOf('s3://bucket/prefix?endpoint=http://127.0.0.1:9000&region=eu-west-1')).toBe(
      's3://bucket/prefix?endpoint=http://127.0.0.1:9000&region=eu-west-1',
    );
    expect(nameOf('s3://bucket?endpoint=http://key:secret@minio:9000')).toBe('s3://bucket?endpoint=http://minio:9000/');
  });

  it('never shows a secret placed in the userinfo or in a secret parameter', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{1,24}$/).map((text) => `SECRET${text}`);
    fc.assert(
      fc.property(secret, fc.constantFrom('sig', 'X-Amz-Signature', 'token', 'api_key', 'password'), (s, key) => {
        for (const url of [
          `https://user:${s}@host.example/base?${key}=${s}&keep=1`,
          `https://${s}@host.example/base`,
          `s3://bucket/p?endpoint=http://user:${s}@minio:9000&${key}=${s}`,
        ]) {
          expect(nameOf(url)).not.toContain(s);
        }
      }),
    );
  });
});

describe('parseStoreUrl', () => {
  it('refuses a text that is not a URL without repeating what may be a credential', () => {
    const error = (() => {
      try {
        parseStoreUrl('//user:hunter2@host/path?token=abc');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(FileStoreError);
    expect((error as FileStoreError).code).toBe('FILE_STORE_BAD_URL');
    expect((error as FileStoreError).message).not.toMatch(/hunter2|token|abc/);
  });
});
