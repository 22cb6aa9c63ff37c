/**
 * The byte strings the committee draw hashes (core/validators/committee.ts runs the draw). Every value is
 * `hashToField` (docs/protocol.md, Tree hash: sha256 with its first byte zeroed), so a draw is a uniform integer below
 * 2^248.
 *
 * Epoch seed:        hashToField(domain(committeeSeed) 32 | epoch 8 | seedSource 32)
 * Member draw:       hashToField(domain(committeeMemberDraw) 32 | seed 32 | position 4 | attempt 4)
 * Proposer draw:     hashToField(domain(proposerDraw) 32 | seed 32 | slot 8 | attempt 4)
 *
 * `seedSource` is a 32-byte chain value both L1 and every node agree on (committee.ts, `epochSeed`); `position` is the
 * committee seat being filled (0-based), `attempt` counts rejected draws for that seat or slot (0 first).
 */
import type { Hex } from '../chain.js';
import { ByteWriter } from '../codec/bytes.js';
import { hashToField } from '../hash.js';
import { domainSeparator } from './signingPayloads.js';

/** Bits of a draw: hashToField zeroes the top byte of sha256's 256. */
export const DRAW_BITS = 248;
/** 2^DRAW_BITS: every draw is below it. */
export const DRAW_RANGE = 1n << BigInt(DRAW_BITS);

export function committeeSeedPreimage(epoch: number, seedSource: Hex): Uint8Array {
  return new ByteWriter().bytes(domainSeparator('committeeSeed')).uint(epoch, 8).hex(seedSource, 32).finish();
}

export function committeeSeed(epoch: number, seedSource: Hex): Hex {
  return hashToField(committeeSeedPreimage(epoch, seedSource));
}

export function memberDrawPreimage(seed: Hex, position: number, attempt: number): Uint8Array {
  return new ByteWriter()
    .bytes(domainSeparator('committeeMemberDraw'))
    .hex(seed, 32)
    .uint(position, 4)
    .uint(attempt, 4)
    .finish();
}

export function proposerDrawPreimage(seed: Hex, slot: number, attempt: number): Uint8Array {
  return new ByteWriter().bytes(domainSeparator('proposerDraw')).hex(seed, 32).uint(slot, 8).uint(attempt, 4).finish();
}
