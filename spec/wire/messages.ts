/**
 * Wire shapes of cross-chain messages (this project's layouts):
 *
 * L2ToL1MembershipWitness = { epochNumber, root, leafIndex, siblingPath }
 *   `root` is the outbox root the witness proves against (the smallest partial-proof root covering the tx's
 *   checkpoint), `leafIndex` the message's leaf under it, the sibling nearest the leaf first.
 * messageIndexInTx = { index }: which of the tx's L2-to-L1 messages is meant when the same hash appears twice.
 * svc_getL2ToL1Messages: Fr[][][][], per checkpoint, per block, per tx, the message hashes of an epoch.
 */
import { z } from 'zod';
import { bigUint, epochNumber, fr, safeUint } from './scalars.js';

export const l2ToL1MembershipWitness = z.object({
  epochNumber,
  root: fr,
  leafIndex: bigUint,
  siblingPath: z.array(fr),
});

export const messageIndexInTx = z.strictObject({ index: safeUint });

export const l2ToL1MessagesOfEpoch = z.array(z.array(z.array(z.array(fr))));
