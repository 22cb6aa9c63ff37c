import { hash } from 'node:crypto';

/** sha256 of `data`: block hashes, transaction hashes and versioned hashes of the simulated L1 all use it. */
export function sha256(data: Uint8Array): Buffer {
  return hash('sha256', data, 'buffer') as Buffer;
}
