/**
 * A campaign run as JSON text and back, for results that travel through Redis (the thread pool posts them by
 * structured clone instead). Bigints are written as `{"$bigint": "<decimal>"}` so that every field, wherever it
 * sits (the seed, the options, a schedule step), comes back with its type; the parser then checks the run's shape
 * and refuses text that is not one.
 */
import { z } from 'zod';
import { SIM_FAILURE_KINDS_ALL } from '../checkers/simFailure.js';
import type { CampaignRun } from './campaignRun.js';

const BIGINT_TAG = '$bigint';

const coverageViewSchema = z.object({ hit: z.array(z.string()), missed: z.array(z.string()) });

const campaignRunSchema = z.object({
  seed: z.bigint().nonnegative(),
  options: z.looseObject({ seed: z.bigint(), simulatedSeconds: z.number() }),
  traceHash: z
    .string()
    .regex(/^0x[0-9a-f]+$/)
    .optional(),
  traceEntries: z.number().int().nonnegative(),
  eventsRun: z.number().int().nonnegative(),
  failures: z.array(
    z.object({ kind: z.enum(SIM_FAILURE_KINDS_ALL as [string, ...string[]]), detail: z.string() }).loose(),
  ),
  simulatedSeconds: z.number().nonnegative(),
  wallMs: z.number().nonnegative(),
  nodes: z.array(z.looseObject({ name: z.string(), role: z.string() })),
  tips: z.array(
    z.object({
      node: z.string(),
      samples: z.array(z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()])),
    }),
  ),
  events: z.array(z.object({ atMs: z.number(), kind: z.string(), detail: z.string(), node: z.string().optional() })),
  coverage: z
    .array(
      z.object({
        machine: z.string(),
        hit: z.array(z.string()),
        missed: z.array(z.string()),
        events: coverageViewSchema.optional(),
        guards: coverageViewSchema.optional(),
      }),
    )
    .optional(),
});

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON text of a run; bigints tagged so that `parseCampaignRunJson` restores them. */
export function campaignRunToJson(run: CampaignRun): string {
  return JSON.stringify(run, (_key, value: unknown) =>
    typeof value === 'bigint' ? { [BIGINT_TAG]: value.toString() } : value,
  );
}

/** The run of `campaignRunToJson`'s text; throws an Error saying what is wrong when the text is not one. */
export function parseCampaignRunJson(text: string): CampaignRun {
  const value: unknown = JSON.parse(text, (_key, v: unknown) => {
    if (!isRecord(v) || typeof v[BIGINT_TAG] !== 'string' || Object.keys(v).length !== 1) return v;
    const digits = v[BIGINT_TAG];
    if (!/^-?\d+$/.test(digits)) throw new Error(`"${digits}" is not a decimal integer`);
    return BigInt(digits);
  });
  const checked = campaignRunSchema.safeParse(value);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    throw new Error(`not a campaign run: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  // The checked value is the decoded one as written (zod's copy would reorder the options' keys).
  return value as CampaignRun;
}
