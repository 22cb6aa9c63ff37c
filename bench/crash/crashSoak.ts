/**
 * The kill -9 soak: a sequencer on anvil (the local network, in this process) and a follower node run again and
 * again as a child process on one data directory, each run killed with SIGKILL at a moment drawn from a seeded PRNG.
 * The follower is down for a drawn while between runs, so the sequencer gets ahead and the next run has a backlog to
 * sync: a kill lands during startup (before the node serves JSON-RPC), mid-sync (before it has caught up with the
 * sequencer's checkpointed tip as it was when the run started) or at the tip.
 *
 * Every run after a kill is a restart that is checked as soon as it serves: its tips are in order, none of its
 * checkpointed, proven or finalized tips is below what the follower last reported before the kill, and every block it
 * holds has the sequencer's hash. While it runs its tips are polled, and the time it takes to reach the target (the
 * sequencer's checkpointed tip when it was spawned) is recorded. A run killed before it serves leaves its checks to
 * the next one; the run after the last kill is not killed until it has caught up. The first problem ends the soak.
 *
 * The seed fixes the plan (each kill's moment and each down time), not the interleaving of processes on the machine,
 * so a failure replays by running the same seed and kill count and watching the kill it names.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPinoLogger } from '../../adapters/logger/pinoLogger.js';
import { runLocalNetwork, type RunningLocalNetwork } from '../../adapters/node/localNetwork.js';
import type { L2Tips } from '../../spec/chain.js';
import { createPrng } from '../../sim/prng.js';
import { waitFor } from '../../test/e2e/rpc.js';
import { blockHashProblems, rpcRetried as rpc, tipsOrderProblems, tipsRegressionProblems } from './consistency.js';
import { spawnFollower, type FollowerProcess } from './followerProcess.js';

/** Short slots on fast L1 blocks: a checkpoint every slot, so a follower that is down falls behind quickly. */
export const CRASH_SOAK_SLOT_DURATION_SECONDS = 4;
export const CRASH_SOAK_L1_BLOCK_TIME_SECONDS = 1;
/** Checkpoints on L1 before the first follower starts, so the first run has a chain to sync. */
const CHECKPOINTS_BEFORE_FIRST_RUN = 3;
const SEQUENCER_START_TIMEOUT_MS = 120_000;
/** A restarted follower must serve JSON-RPC within this, unless it is killed first. */
const REOPEN_TIMEOUT_MS = 30_000;
/** A serving follower must reach its target within this, unless it is killed first. */
const CATCH_UP_TIMEOUT_MS = 60_000;
const TIPS_POLL_INTERVAL_MS = 100;
/** The share of kills aimed at the opening of the database, and how long after it they land at most. */
const STARTUP_KILL_SHARE = 0.25;
const STARTUP_KILL_WINDOW_MS = 300;
/** Problems listed per failure at most. */
const PROBLEMS_REPORTED_MAX = 10;

export interface CrashSoakOptions {
  readonly seed: bigint;
  readonly kills: number;
  /**
   * Each run is killed at most this long after its node opened its database (`drawKillPlan`): what comes before the
   * opening is loading code, which a kill cannot hurt.
   */
  readonly runMsMax: number;
  /** The follower is down this long after each kill, drawn uniformly from [0, downMsMax]. */
  readonly downMsMax: number;
  readonly progress?: (line: string) => void;
  /** Each step the soak takes (started, served, killed, exited, stopping), for finding where a run got stuck. */
  readonly steps?: (line: string) => void;
}

export type KillPhase = 'startup' | 'sync' | 'tip';

/** Block numbers of the four tips. */
export interface TipNumbers {
  readonly proposed: number;
  readonly checkpointed: number;
  readonly proven: number;
  readonly finalized: number;
}

export interface KillRecord {
  readonly index: number;
  /** Milliseconds after the run was spawned (loading the code takes most of the time before the database opens). */
  readonly atMs: number;
  /** Milliseconds after the node opened its database, as planned. */
  readonly afterOpenMs: number;
  readonly downMs: number;
  readonly phase: KillPhase;
  /** The follower's tips as last polled before the kill (of an earlier run if this one never served). */
  readonly tipsBefore: TipNumbers | undefined;
  /** What the restart after this kill showed. */
  restart?: RestartRecord;
}

export interface RestartRecord {
  /** Spawn to serving JSON-RPC; absent if the restart was killed first. */
  readonly reopenMs: number | undefined;
  readonly tipsAfter: TipNumbers | undefined;
  /** The restart's checks (tips and block hashes) completed before its own kill. */
  readonly checked: boolean;
  /** Spawn to its checkpointed tip reaching its target; absent if it was killed first. */
  readonly catchUpMs: number | undefined;
  /** Blocks it synced from its reopened checkpointed tip to its target, if it got there. */
  readonly blocksSynced: number | undefined;
}

export interface CrashSoakFailure {
  readonly seed: string;
  /** The kill before the run that found the problems (-1: the first start). */
  readonly killIndex: number;
  readonly problems: readonly string[];
  readonly output: string;
}

export interface CrashSoakResult {
  readonly seed: string;
  readonly kills: readonly KillRecord[];
  readonly failure: CrashSoakFailure | undefined;
  readonly warnings: readonly string[];
  readonly sequencerBlocks: number;
  readonly wallSeconds: number;
}

interface KillPlan {
  /** Milliseconds after the run's node opened its database. */
  readonly afterOpenMs: number;
  readonly downMs: number;
}

/**
 * Each kill's moment and the down time after it, from the seed alone. A share STARTUP_KILL_SHARE of the kills is
 * drawn from the first STARTUP_KILL_WINDOW_MS after the database opens (the node serves JSON-RPC a few hundred
 * milliseconds later, once it has reconciled its stores), the rest from [0, runMsMax].
 */
export function drawKillPlan(seed: bigint, kills: number, runMsMax: number, downMsMax: number): KillPlan[] {
  const prng = createPrng(seed);
  const windows = prng.fork('killWindow');
  const moments = prng.fork('killMoment');
  const downs = prng.fork('downTime');
  return Array.from({ length: kills }, () => ({
    afterOpenMs: moments.int(0, windows.bool(STARTUP_KILL_SHARE) ? STARTUP_KILL_WINDOW_MS : runMsMax),
    downMs: downs.int(0, downMsMax),
  }));
}

export async function runCrashSoak(options: CrashSoakOptions): Promise<CrashSoakResult> {
  const started = performance.now();
  const root = await mkdtemp(path.join(os.tmpdir(), 'crash-soak-'));
  let net: RunningLocalNetwork | undefined;
  try {
    net = await startSequencer(root);
    options.steps?.('the sequencer has published its first checkpoints');
    const soak = await soakFollower(net, path.join(root, 'follower'), options);
    const sequencerTips = await rpc<L2Tips>(net.publicUrl, 'svc_getChainTips');
    options.steps?.('the soak is over; stopping the sequencer');
    return {
      seed: options.seed.toString(),
      ...soak,
      sequencerBlocks: sequencerTips.proposed.number,
      wallSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await net?.stop();
    options.steps?.('the sequencer stopped');
    await rm(root, { recursive: true, force: true });
  }
}

async function startSequencer(root: string): Promise<RunningLocalNetwork> {
  const net = await runLocalNetwork({
    port: 0,
    adminPort: 0,
    adminHost: '127.0.0.1',
    adminApiKey: { disabled: true, reset: false },
    logger: createPinoLogger({ level: 'silent' }),
    dataDirectory: path.join(root, 'sequencer'),
    l1Port: 0,
    slotDurationSeconds: CRASH_SOAK_SLOT_DURATION_SECONDS,
    l1BlockTimeSeconds: CRASH_SOAK_L1_BLOCK_TIME_SECONDS,
    print: () => undefined,
  });
  try {
    await waitFor(
      `${CHECKPOINTS_BEFORE_FIRST_RUN} checkpoints`,
      async () =>
        (await checkpointedBlock(net.publicUrl)) > 0 &&
        (await checkpointOf(net.publicUrl)) >= CHECKPOINTS_BEFORE_FIRST_RUN,
      SEQUENCER_START_TIMEOUT_MS,
    );
  } catch (error) {
    await net.stop();
    throw error;
  }
  return net;
}

async function checkpointOf(url: string): Promise<number> {
  return (await rpc<L2Tips>(url, 'svc_getChainTips')).checkpointed.checkpoint.number;
}

async function checkpointedBlock(url: string): Promise<number> {
  return (await rpc<L2Tips>(url, 'svc_getChainTips')).checkpointed.block.number;
}

/** What one run of the follower showed, filled in while it runs. */
interface RunObservation {
  readonly run: FollowerProcess;
  /** The sequencer's checkpointed block when the run was spawned. */
  readonly target: number;
  killing: boolean;
  reopenMs?: number;
  tipsAfter?: L2Tips;
  checked: boolean;
  catchUpMs?: number;
  lastTips?: L2Tips;
  readonly problems: string[];
}

async function soakFollower(
  net: RunningLocalNetwork,
  dataDirectory: string,
  options: CrashSoakOptions,
): Promise<Pick<CrashSoakResult, 'kills' | 'failure' | 'warnings'>> {
  const plan = drawKillPlan(options.seed, options.kills, options.runMsMax, options.downMsMax);
  const kills: KillRecord[] = [];
  const warnings: string[] = [];
  let lastTips: L2Tips | undefined;
  await mkdir(dataDirectory, { recursive: true });
  let current: FollowerProcess | undefined;
  try {
    for (let index = 0; index <= plan.length; index++) {
      const observation = await startRun(net, dataDirectory);
      current = observation.run;
      const step = (what: string) => options.steps?.(`run ${index}: ${what}`);
      step(`spawned, target block ${observation.target}`);
      void observation.run.serving.then((url) => step(`serves ${url}`)).catch(() => undefined);
      void observation.run.opened
        .then(() => step(observation.run.openedAtMs() === undefined ? 'exited unopened' : 'opened its database'))
        .catch(() => undefined);
      const watching = watchRun(observation, net.publicUrl, lastTips);
      const kill = plan[index];
      if (kill === undefined) await untilCaughtUp(observation);
      else await untilKillMoment(observation, kill.afterOpenMs);
      const phase = phaseOf(observation);
      const atMs = performance.now() - observation.run.spawnedAtMs;
      step(`killing it in phase ${phase}`);
      observation.killing = true;
      await observation.run.kill();
      step('exited');
      await watching;
      step(`checked: ${observation.problems.length} problems`);
      observation.problems.push(...logProblems(observation.run));
      warnings.push(...observation.run.warnings());
      const tipsBefore = observation.lastTips ?? lastTips;
      if (index > 0) kills[index - 1]!.restart = restartRecord(observation);
      if (observation.problems.length > 0)
        return { kills, warnings, failure: failureOf(options.seed, index - 1, observation) };
      lastTips = tipsBefore;
      if (kill === undefined) break;
      kills.push({ index, ...kill, atMs: Math.round(atMs), phase, tipsBefore: numbersOf(tipsBefore) });
      options.progress?.(describeKill(kills[index]!, kills[index - 1]));
      await sleep(kill.downMs);
    }
  } finally {
    // Whatever went wrong, no follower is left running.
    await current?.kill();
  }
  return { kills, warnings, failure: undefined };
}

async function startRun(net: RunningLocalNetwork, dataDirectory: string): Promise<RunObservation> {
  const target = await checkpointedBlock(net.publicUrl);
  const run = await spawnFollower({ l1RpcUrl: net.l1RpcUrl, rollupAddress: net.rollupAddress, dataDirectory });
  return { run, target, killing: false, checked: false, problems: [] };
}

/**
 * Checks the run once it serves (tips, regressions from `tipsBefore`, block hashes), then polls its tips until it
 * exits, noting when it reaches its target. Errors after the kill began are the kill's doing and are ignored.
 */
async function watchRun(observation: RunObservation, sequencerUrl: string, tipsBefore: L2Tips | undefined) {
  const { run } = observation;
  const reopenDeadline = setTimeout(() => {
    if (run.servedAtMs() === undefined && !observation.killing) {
      observation.problems.push(`it did not serve JSON-RPC within ${REOPEN_TIMEOUT_MS} ms`);
      void run.kill();
    }
  }, REOPEN_TIMEOUT_MS);
  try {
    const url = await run.serving;
    observation.reopenMs = run.servedAtMs()! - run.spawnedAtMs;
    const tips = await rpc<L2Tips>(url, 'svc_getChainTips');
    observation.tipsAfter = tips;
    observation.lastTips = tips;
    noteCaughtUp(observation, tips);
    observation.problems.push(
      ...tipsOrderProblems(tips),
      ...tipsRegressionProblems(tipsBefore, tips),
      ...(await blockHashProblems(url, sequencerUrl, tips)),
    );
    observation.checked = true;
    await pollTips(observation, url);
  } catch (error) {
    if (!observation.killing) observation.problems.push(error instanceof Error ? error.message : String(error));
  } finally {
    clearTimeout(reopenDeadline);
  }
}

async function pollTips(observation: RunObservation, url: string): Promise<void> {
  const servedAtMs = observation.run.servedAtMs()!;
  while (!observation.killing && observation.problems.length === 0) {
    const tips = await rpc<L2Tips>(url, 'svc_getChainTips');
    if (observation.killing) return;
    observation.problems.push(...tipsOrderProblems(tips), ...tipsRegressionProblems(observation.lastTips, tips));
    observation.lastTips = tips;
    noteCaughtUp(observation, tips);
    if (observation.catchUpMs === undefined && performance.now() - servedAtMs > CATCH_UP_TIMEOUT_MS)
      observation.problems.push(
        `its checkpointed tip was at block ${tips.checkpointed.block.number} ${CATCH_UP_TIMEOUT_MS} ms after it served, short of ${observation.target}`,
      );
    await sleep(TIPS_POLL_INTERVAL_MS);
  }
}

function noteCaughtUp(observation: RunObservation, tips: L2Tips): void {
  if (observation.catchUpMs === undefined && tips.checkpointed.block.number >= observation.target)
    observation.catchUpMs = performance.now() - observation.run.spawnedAtMs;
}

/**
 * Waits until `afterOpenMs` after the run opened its database, or until it exits. A run that serves JSON-RPC has
 * opened it, so serving also ends the wait (counted from then if the opening was not seen): in CI a restarted follower
 * served and the soak then waited for the opening until the test's 300 s ran out.
 */
async function untilKillMoment(observation: RunObservation, afterOpenMs: number): Promise<void> {
  const { run } = observation;
  await Promise.race([run.opened, run.serving.catch(() => undefined)]);
  const openedAtMs = run.openedAtMs() ?? run.servedAtMs();
  if (openedAtMs !== undefined) await sleep(Math.max(0, openedAtMs + afterOpenMs - performance.now()));
}

/** Waits until the run has been checked and has caught up, or has found a problem, or has exited. */
async function untilCaughtUp(observation: RunObservation): Promise<void> {
  const done = () => observation.checked && observation.catchUpMs !== undefined;
  while (!done() && observation.problems.length === 0 && !observation.run.hasExited())
    await sleep(TIPS_POLL_INTERVAL_MS);
  if (!done() && observation.problems.length === 0) observation.problems.push('it exited before catching up');
}

function phaseOf(observation: RunObservation): KillPhase {
  if (observation.run.servedAtMs() === undefined) return 'startup';
  return observation.catchUpMs === undefined ? 'sync' : 'tip';
}

function logProblems(run: FollowerProcess): string[] {
  return run.errors().map((message) => `it logged an error: ${message}`);
}

function restartRecord(observation: RunObservation): RestartRecord {
  const synced =
    observation.catchUpMs !== undefined && observation.tipsAfter !== undefined
      ? Math.max(0, observation.target - observation.tipsAfter.checkpointed.block.number)
      : undefined;
  return {
    reopenMs: observation.reopenMs,
    tipsAfter: numbersOf(observation.tipsAfter),
    checked: observation.checked,
    catchUpMs: observation.catchUpMs,
    blocksSynced: synced,
  };
}

function failureOf(seed: bigint, killIndex: number, observation: RunObservation): CrashSoakFailure {
  return {
    seed: seed.toString(),
    killIndex,
    problems: observation.problems.slice(0, PROBLEMS_REPORTED_MAX),
    output: observation.run.output(),
  };
}

function numbersOf(tips: L2Tips | undefined): TipNumbers | undefined {
  if (tips === undefined) return undefined;
  return {
    proposed: tips.proposed.number,
    checkpointed: tips.checkpointed.block.number,
    proven: tips.proven.block.number,
    finalized: tips.finalized.block.number,
  };
}

/** One line per kill: when it landed and what the killed run had shown (it was the restart after the kill before). */
function describeKill(kill: KillRecord, previous: KillRecord | undefined): string {
  const reopenMs = previous?.restart?.reopenMs;
  const run =
    previous === undefined
      ? 'the first run'
      : reopenMs !== undefined
        ? `a restart that served after ${Math.round(reopenMs)} ms`
        : 'a restart that never served';
  const tip = kill.tipsBefore?.checkpointed ?? '-';
  return `kill ${kill.index}: ${kill.afterOpenMs} ms after opening (${kill.atMs} ms after spawn), ${kill.phase}, checkpointed block ${tip}; ${run}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
