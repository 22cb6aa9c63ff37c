import { describe, expect, it } from 'vitest';
import { REDACTED } from '../config/redactConfig.js';
import { l1EndpointNames } from './l1Endpoints.js';

describe('L1 endpoint names', () => {
  it('are the redacted URLs, told apart by position when redaction makes them alike', () => {
    expect(
      l1EndpointNames([
        'http://127.0.0.1:8545',
        'https://mainnet.infura.io/v3/0123456789abcdef0123456789abcdef',
        'https://mainnet.infura.io/v3/fedcba9876543210fedcba9876543210',
      ]),
    ).toEqual([
      'http://127.0.0.1:8545',
      `https://mainnet.infura.io/v3/${REDACTED} #2`,
      `https://mainnet.infura.io/v3/${REDACTED} #3`,
    ]);
  });
});
