/**
 * The probe routes of both listeners, served without the admin key:
 * - `GET /status` (health, for readiness probes and load balancers): 200 when the node is healthy, 503 with the
 *   reasons when it is not (core/node/nodeHealth.ts), with the figures behind the verdict either way.
 * - `GET /live` (liveness): 200 while the process can answer HTTP at all, whatever the node's health; an
 *   orchestrator restarts the process only when this one fails.
 */
import type { Express } from 'express';
import { describeHealthReason } from '../../core/node/nodeHealth.js';
import type { NodeHealthReport } from '../../core/node/nodeHealthService.js';
import type { NodeService } from '../../core/nodeService.js';

export const STATUS_PATH = '/status';
export const LIVENESS_PATH = '/live';
/** Paths the admin listener serves without a key. */
export const PROBE_PATHS: readonly string[] = [STATUS_PATH, LIVENESS_PATH];

const HTTP_OK = 200;
const HTTP_SERVICE_UNAVAILABLE = 503;

/** The JSON body of `GET /status`: L1 block numbers as JSON numbers (they are far below 2^53). */
export function statusBody(report: NodeHealthReport): Record<string, unknown> {
  const { l1 } = report;
  const blockNumber = (value: bigint | undefined) => (value === undefined ? null : Number(value));
  return {
    status: report.healthy ? 'ok' : 'unhealthy',
    reasons: report.reasons.map((reason) => ({ kind: reason.kind, message: describeHealthReason(reason) })),
    tips: report.tips,
    l1: {
      headBlock: blockNumber(l1.headBlock),
      headSlot: l1.headSlot ?? null,
      syncedBlock: blockNumber(l1.syncedBlock),
      syncedSlot: l1.syncedSlot ?? null,
      lagSlots: l1.lagSlots,
    },
    ...(report.peers !== undefined ? { peers: report.peers } : {}),
    subsystems: report.subsystems,
  };
}

/** Adds `GET /status` and `GET /live` (HEAD too, as Express does for GET routes) to a listener's app. */
export function addProbeRoutes(app: Express, node: NodeService): void {
  app.get(STATUS_PATH, (_req, res) => {
    const report = node.health.check();
    res
      .status(report.healthy ? HTTP_OK : HTTP_SERVICE_UNAVAILABLE)
      .set('Cache-Control', 'no-store')
      .json(statusBody(report));
  });
  app.get(LIVENESS_PATH, (_req, res) => {
    res.status(HTTP_OK).set('Cache-Control', 'no-store').json({ status: 'alive' });
  });
}
