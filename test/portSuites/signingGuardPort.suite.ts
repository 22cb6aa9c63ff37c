/**
 * The signing guard port's contract (HA signing): what the validator client may rely on from any adapter. Run against
 * every adapter (see signingGuardPort.test.ts), so the in-memory guard the simulator uses and the PostgreSQL one
 * provably decide the same claims the same way.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SigningClaim, SigningDuty, SigningDutyKind, SigningGuardPort } from '../../core/ports.js';
import { SigningGuardError } from '../../core/validators/signingGuardError.js';
import type { Hex } from '../../spec/chain.js';

export interface SigningGuardHarness {
  /** Node `nodeId`'s guard; every guard of one harness shares one empty database. */
  guardFor(nodeId: string): SigningGuardPort;
  /** While false, the database cannot be reached. */
  setReachable(reachable: boolean): void;
  cleanup(): Promise<void>;
}

const address = (n: number): Hex => `0x${n.toString(16).padStart(40, '0')}`;
const hash = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
const upper = (hex: Hex): Hex => `0x${hex.slice(2).toUpperCase()}`;
const duty = (overrides: Partial<SigningDuty> = {}): SigningDuty => ({
  validatorAddress: address(0xabcdef),
  slot: 7,
  kind: 'checkpointAttestation',
  blockIndex: 0,
  ...overrides,
});
const granted: SigningClaim = { kind: 'granted' };

export function describeSigningGuardPort(
  name: string,
  makeHarness: () => Promise<SigningGuardHarness>,
  options: { readonly propertyRuns: number },
): void {
  describe(`SigningGuardPort contract: ${name}`, () => {
    let harness: SigningGuardHarness;
    beforeEach(async () => {
      harness = await makeHarness();
    });
    afterEach(async () => {
      await harness.cleanup();
    });

    it('grants the first claim of a duty, and a retry by the same node with the same payload', async () => {
      const a = harness.guardFor('node-a');
      expect(await a.claim(duty(), hash(1))).toEqual(granted);
      expect(await a.claim(duty(), hash(1))).toEqual(granted);
    });

    it('refuses every other claim of a held duty, naming the holder', async () => {
      const [a, b] = [harness.guardFor('node-a'), harness.guardFor('node-b')];
      await a.claim(duty(), hash(0xabc));
      const refused: SigningClaim = { kind: 'refused', holderNodeId: 'node-a', holderPayloadHash: hash(0xabc) };
      expect(await a.claim(duty(), hash(2))).toEqual(refused);
      expect(await b.claim(duty(), hash(0xabc))).toEqual(refused);
      expect(await b.claim(duty(), hash(2))).toEqual(refused);
      // The address and the hash are compared whatever their case.
      expect(await b.claim(duty({ validatorAddress: upper(address(0xabcdef)) }), hash(3))).toEqual(refused);
      expect(await a.claim(duty({ validatorAddress: upper(address(0xabcdef)) }), upper(hash(0xabc)))).toEqual(granted);
    });

    it('keeps duties apart: validator, slot, kind and block index each make another duty', async () => {
      const a = harness.guardFor('node-a');
      const b = harness.guardFor('node-b');
      await a.claim(duty(), hash(1));
      const others = [
        duty({ validatorAddress: address(2) }),
        duty({ slot: 8 }),
        duty({ kind: 'checkpointProposal' }),
        duty({ kind: 'blockProposal' }),
        duty({ kind: 'blockProposal', blockIndex: 1 }),
      ];
      for (const other of others) expect(await b.claim(other, hash(2)), JSON.stringify(other)).toEqual(granted);
    });

    it('grants exactly one of two nodes claiming one duty at once with different payloads', async () => {
      const claims = await Promise.all([
        harness.guardFor('node-a').claim(duty(), hash(1)),
        harness.guardFor('node-b').claim(duty(), hash(2)),
      ]);
      expect(claims.filter((c) => c.kind === 'granted')).toHaveLength(1);
      const winner =
        claims[0]!.kind === 'granted' ? { node: 'node-a', hash: hash(1) } : { node: 'node-b', hash: hash(2) };
      expect(claims.find((c) => c.kind === 'refused')).toEqual({
        kind: 'refused',
        holderNodeId: winner.node,
        holderPayloadHash: winner.hash,
      });
    });

    it('grants exactly one of many nodes racing for each of several duties', async () => {
      const duties = [duty(), duty({ kind: 'blockProposal', blockIndex: 2 }), duty({ slot: 9 })];
      const nodes = Array.from({ length: 6 }, (_, i) => harness.guardFor(`node-${i}`));
      const claims = await Promise.all(duties.flatMap((d) => nodes.map((guard, i) => guard.claim(d, hash(100 + i)))));
      for (let d = 0; d < duties.length; d++) {
        expect(claims.slice(d * nodes.length, (d + 1) * nodes.length).filter((c) => c.kind === 'granted')).toHaveLength(
          1,
        );
      }
    });

    it('prunes the claims of slots below the given one, and only those', async () => {
      const a = harness.guardFor('node-a');
      for (const slot of [3, 4, 5, 6]) await a.claim(duty({ slot }), hash(slot));
      expect(await a.pruneBelow(5)).toBe(2);
      expect(await a.pruneBelow(5)).toBe(0);
      const b = harness.guardFor('node-b');
      // A pruned duty is free again; a kept one is still held.
      expect(await b.claim(duty({ slot: 4 }), hash(40))).toEqual(granted);
      expect(await b.claim(duty({ slot: 5 }), hash(50))).toEqual({
        kind: 'refused',
        holderNodeId: 'node-a',
        holderPayloadHash: hash(5),
      });
    });

    it('fails with SIGNING_GUARD_UNAVAILABLE while the database cannot be reached, and records nothing', async () => {
      const a = harness.guardFor('node-a');
      harness.setReachable(false);
      await expect(a.claim(duty(), hash(1))).rejects.toSatisfy(
        (e: unknown) => e instanceof SigningGuardError && e.code === 'SIGNING_GUARD_UNAVAILABLE',
      );
      await expect(a.pruneBelow(100)).rejects.toSatisfy(
        (e: unknown) => e instanceof SigningGuardError && e.code === 'SIGNING_GUARD_UNAVAILABLE',
      );
      harness.setReachable(true);
      expect(await harness.guardFor('node-b').claim(duty(), hash(2))).toEqual(granted);
    });

    it('decides any sequence of claims as the model does: first claim wins, only its node and payload are granted again', async () => {
      const claimOp = fc.record({
        node: fc.constantFrom('node-a', 'node-b', 'node-c'),
        validator: fc.integer({ min: 1, max: 2 }),
        slot: fc.integer({ min: 0, max: 2 }),
        kind: fc.constantFrom<SigningDutyKind>('blockProposal', 'checkpointProposal', 'checkpointAttestation'),
        blockIndex: fc.integer({ min: 0, max: 1 }),
        payload: fc.integer({ min: 1, max: 3 }),
      });
      let run = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(claimOp, { minLength: 1, maxLength: 12 }), async (ops) => {
          // Each run claims in slots of its own, so that one database serves every run.
          const base = 10 + 3 * run++;
          const model = new Map<string, { node: string; payload: number }>();
          for (const op of ops) {
            const d = duty({
              validatorAddress: address(op.validator),
              slot: base + op.slot,
              kind: op.kind,
              blockIndex: op.kind === 'blockProposal' ? op.blockIndex : 0,
            });
            const key = `${d.validatorAddress}/${d.slot}/${d.kind}/${d.blockIndex}`;
            const held = model.get(key) ?? { node: op.node, payload: op.payload };
            model.set(key, held);
            const expected: SigningClaim =
              held.node === op.node && held.payload === op.payload
                ? granted
                : { kind: 'refused', holderNodeId: held.node, holderPayloadHash: hash(held.payload) };
            expect(await harness.guardFor(op.node).claim(d, hash(op.payload))).toEqual(expected);
          }
        }),
        { seed: 71, numRuns: options.propertyRuns },
      );
    });
  });
}
