import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { REDACTED, redactConfig, redactUrl } from './redactConfig.js';
import { resolveConfig } from './resolveConfig.js';

describe('redactUrl', () => {
  test('keeps scheme, host, port and plain path words; replaces what may be a key', () => {
    expect(redactUrl('http://127.0.0.1:8545')).toBe('http://127.0.0.1:8545');
    expect(redactUrl('https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef')).toBe(
      `https://mainnet.infura.io/v3/${REDACTED}`,
    );
    expect(redactUrl('https://user:secret@rpc.example:8443/eth?apikey=SECRET&chain=1#part')).toBe(
      `https://${REDACTED}@rpc.example:8443/eth?apikey=${REDACTED}&chain=${REDACTED}`,
    );
    expect(redactUrl('https://name.quiknode.pro/4f2a9c/')).toBe(`https://name.quiknode.pro/${REDACTED}/`);
    expect(redactUrl('not a url')).toBe(REDACTED);
  });

  test('property: a secret in the user info, the path or the query never shows, and redacting twice changes nothing', () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{16,40}$/).filter((s) => /\d/.test(s));
    const place = fc.constantFrom('user', 'password', 'path', 'query');
    fc.assert(
      fc.property(secret, place, (key, where) => {
        const url =
          where === 'user'
            ? `https://${key}@rpc.example/`
            : where === 'password'
              ? `https://me:${key}@rpc.example/`
              : where === 'path'
                ? `https://rpc.example/v2/${key}`
                : `https://rpc.example/rpc?key=${key}`;
        const shown = redactUrl(url);
        expect(shown).not.toContain(key);
        expect(shown.startsWith('https://')).toBe(true);
        expect(shown).toContain('rpc.example');
        expect(redactUrl(shown)).toBe(shown);
      }),
    );
  });
});

describe('redactConfig and URLs', () => {
  test('shows endpoint and store URLs without the keys they carry', () => {
    const { values } = resolveConfig({
      env: {
        ETHEREUM_HOSTS: 'https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef',
        L1_CONSENSUS_HOST_URLS: 'https://user:pa55@beacon.example/eth?apikey=s3cret',
        BLOB_ARCHIVE_API_URL: 'https://api.blobscan.com/x7Yq2Lp9Zs4KwR8tBn3V',
      },
    });
    const shown = JSON.stringify(redactConfig(values));
    for (const secret of ['0123456789abcdef0123456789abcdef', 'pa55', 's3cret', 'x7Yq2Lp9Zs4KwR8tBn3V'])
      expect(shown).not.toContain(secret);
    expect(shown).toContain('https://mainnet.infura.io/v3/');
  });
});
