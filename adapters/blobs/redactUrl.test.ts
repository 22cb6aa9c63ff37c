import { describe, expect, it } from 'vitest';
import { redactUrl } from './redactUrl.js';

describe('redactUrl', () => {
  it.each([
    ['http://127.0.0.1:5052', 'http://127.0.0.1:5052'],
    ['http://127.0.0.1:5052/', 'http://127.0.0.1:5052'],
    ['https://user:hunter2@beacon.example/eth/', 'https://beacon.example/eth'],
    ['https://beacon.example/?key=s3cret&network=mainnet', 'https://beacon.example?network=mainnet'],
    ['https://beacon.example/?apikey=a&api_key=b&access_token=c&x-goog-api-key=d&auth=e', 'https://beacon.example'],
    ['https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef', 'https://mainnet.infura.io/v3/redacted'],
    ['https://x.quiknode.pro/a1b2c3d4e5f6a7b8c9d0e1f2/', 'https://x.quiknode.pro/redacted'],
    ['https://api.blobscan.com/blobs#frag', 'https://api.blobscan.com/blobs'],
    ['https://beacon.example/eth/v1/beacon/blob_sidecars', 'https://beacon.example/eth/v1/beacon/blob_sidecars'],
  ])('%s shows as %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it('never echoes a string that is not a URL', () => {
    expect(redactUrl('not a url with s3cret')).toBe('(not a URL)');
  });
});
