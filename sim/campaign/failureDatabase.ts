/**
 * The failing-seed database: one JSON object per line, appended (never rewritten), so successive campaigns build
 * one list of every failure seen with what it takes to replay it. Exempt from the determinism lint (files).
 */
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { SimFailure } from '../runSimulation.js';
import { replayCommand, type CampaignRun } from './campaignRun.js';

export interface FailureRecord {
  readonly seed: string;
  readonly commit: string;
  readonly worktreeDirty: boolean;
  readonly recordedAt: string;
  readonly simulatedSeconds: number;
  readonly options: Record<string, unknown>;
  readonly failures: readonly SimFailure[];
  readonly traceHash: string | null;
  readonly replay: string;
}

/** JSON text with bigints as decimal strings. */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), indent);
}

export function failureRecord(
  run: CampaignRun,
  source: { commit: string; worktreeDirty: boolean },
  recordedAt: string,
): FailureRecord {
  return {
    seed: run.seed.toString(),
    commit: source.commit,
    worktreeDirty: source.worktreeDirty,
    recordedAt,
    simulatedSeconds: run.simulatedSeconds,
    options: JSON.parse(toJson(run.options)) as Record<string, unknown>,
    failures: run.failures,
    traceHash: run.traceHash ?? null,
    replay: replayCommand(run.seed, run.simulatedSeconds),
  };
}

export interface FailureDatabase {
  readonly path: string;
  /** Queues one record; records are written in the order they are appended. */
  append(record: FailureRecord): void;
  /** Resolves once every queued record is on disk (rejects with the first write error). */
  flushed(): Promise<void>;
}

export function openFailureDatabase(file: string): FailureDatabase {
  let chain: Promise<void> = mkdir(path.dirname(file), { recursive: true }).then(() => undefined);
  return {
    path: file,
    append(record) {
      chain = chain.then(() => appendFile(file, `${toJson(record)}\n`, 'utf8'));
      // Reported by flushed(); marked handled here so a failed write does not end the process first.
      chain.catch(() => undefined);
    },
    flushed: () => chain,
  };
}
