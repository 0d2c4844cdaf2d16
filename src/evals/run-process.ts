/**
 * @module
 * Working through a run, from its queue message (./run-queue.ts): take its lease, grade each item not
 * graded yet (sampling the model first for a `completions` or `responses` source: ./sampler.ts), store each
 * graded item once, and end the run `completed` (or `failed` on an error of its own, such as its eval deleted meanwhile). A few items
 * at a time; the lease is renewed between them, and a cancel (or delete) stops the work at the next
 * renewal. A second invocation while the lease is held does nothing (its message comes back later); one
 * after it ran out (the first died) resumes where the stored items end. Each model call is stored with its
 * usage row before the item goes on (./run-ledger.ts), so a repeated item replays its stored calls: no
 * call is made or billed twice. At the batch tier a pass grades the items whose calls are answered and leaves
 * the others waiting on their provider batches (./run-waves.ts); the run ends when a pass leaves none.
 */
import type { Bindings } from '../config/bindings.js';
import type { BilledCall } from '../tenants/usage-rollup.js';
import { tenantDb } from '../config/d1-shards.js';
import type { RunnableGrader } from './grader-schemas.js';
import type { GradeResult, GraderDeps, ModelUsage } from './graders.js';
import { grade } from './graders.js';
import type { Sample } from './sampler.js';
import { givenSample, sampleOf } from './sampler.js';
import { graderDeps } from './llm.js';
import type { RunRecord } from './run-rows.js';
import type { ItemRecord } from './run-item-rows.js';
import { claimRun, endRun, getRunById, releaseLease, renewLease, RUNNING, waitRun } from './run-rows.js';
import { gradedIndexes } from './run-item-rows.js';
import { insertItemStatement } from './run-item-rows.js';
import { runEnded, runEndEventStatements } from './run-events.js';
import { bookItemStatements, ledgerId, ledgerStatement, storedLlm } from './run-ledger.js';
import { withJudges } from './judge-grader.js';
import { withVerdictCache } from './run-cache.js';
import type { Waiting } from './run-waves.js';
import { deliveredSince, nothingWaiting, registerWaves, waveLlm, waveSettings } from './run-waves.js';
import { configOf } from '../config/vars.js';
import type { SourceLine } from './run-source.js';
import { SourceGoneError, sourceLines } from './run-source.js';
import type { RunDataSource } from './run-schemas.js';
import { getEval } from './rows.js';

/** How long one invocation holds a run between renewals, ms. */
export const RUN_LEASE_MS = 60_000;

/** Items graded at once. */
const ITEMS_AT_ONCE = 4;

/** A grader's result as an output item lists it. */
function resultOf(r: GradeResult): Record<string, unknown> {
  return {
    name: r.name,
    type: r.type,
    score: r.score,
    passed: r.passed,
    sample: r.sample,
    ...(r.label !== undefined ? { label: r.label } : {}),
    ...(r.sub_rewards ? { sub_rewards: r.sub_rewards } : {}),
    ...(r.error ? { error: r.error } : {}),
    ...(r.certified !== undefined ? { certified: r.certified, certification: r.certification } : {}),
  };
}

/** Samples (for `completions` and `responses`) and grades one line. */
async function gradeLine(
  run: RunRecord,
  criteria: readonly RunnableGrader[],
  line: SourceLine,
  idx: number,
  deps: GraderDeps,
): Promise<ItemRecord> {
  const ds = run.dataSource as RunDataSource;
  let sample: Sample;
  let text: string | null = null;
  const usage: ModelUsage[] = [];
  if (ds.type !== 'jsonl') {
    const s = await sampleOf(ds, line.item, idx, deps);
    sample = s.sample;
    text = s.text;
    usage.push(...s.usage);
  } else {
    const given = line.sample?.output_text;
    if (line.sample) text = typeof given === 'string' ? given : JSON.stringify(line.sample);
    sample = givenSample(line.sample, text);
  }
  const createdAt = Date.now();
  if (ds.type !== 'jsonl' && text === null) {
    return { idx, status: 'error', item: line.item, sample, results: [], usage, createdAt };
  }
  const ctx = { item: line.item, ...(text !== null ? { sample: { output_text: text } } : {}) };
  const results = await Promise.all(criteria.map((g) => grade(g, ctx, deps)));
  for (const r of results) usage.push(...r.usage);
  const status = results.some((r) => r.error) ? 'error' : results.every((r) => r.passed) ? 'pass' : 'fail';
  return { idx, status, item: line.item, sample, results: results.map(resultOf), usage, createdAt };
}

/** How long one invocation works on a run before it hands the rest to a new queue message, ms (5 min). */
export const RUN_SLICE_MS = 5 * 60_000;

/**
 * What one invocation did: `ended` (the run is over, or gone), `more` (its slice is used up and the lease
 * released: the caller queues the run again), or `busy` (another worker holds the lease until `until`).
 */
export type RunProgress =
  | { kind: 'ended' }
  | { kind: 'more' }
  | { kind: 'busy'; until: number }
  | {
      /**
       * A batch-tier run waits on provider batches or judges; a delayed message is due in `wakeInMs` (null: one
       * is already due).
       */
      kind: 'waiting';
      wakeInMs: number | null;
    };

/**
 * How long a batch-tier run waiting on provider batches goes before a pass looks again, should an outcome's
 * message be lost: 10 min. One waiting on a Tribunal judge's evaluation looks again after `BATCH_POLL_MIN_MS`.
 */
export const RUN_WAVE_WATCHDOG_MS = 600_000;

/** When a message that found a batch-tier run held by another pass comes back, ms (a pass waits on no provider). */
const BATCH_PASS_RETRY_MS = 2_000;

/**
 * Grades one line and stores it with its ledger row, its model calls through the stored results. At the batch
 * tier, a line with a call still waiting (./run-waves.ts) is not stored: `waiting` says on what.
 */
async function gradeAndStore(
  env: Bindings,
  db: D1Database,
  run: RunRecord,
  criteria: readonly RunnableGrader[],
  { line, idx }: { line: SourceLine; idx: number },
  deps: GraderDeps,
  waiting: Waiting,
): Promise<void> {
  const mode = run.cacheMode;
  const batch = run.serviceTier === 'batch';
  const own = nothingWaiting();
  const judges = {
    tenant: run.tenant,
    keyId: run.keyId,
    keyOf: (callId: string) => `${run.id}:${String(idx)}:${callId}`,
    // The item's ledger row counts it against the monthly cap: its judges' evaluations do not count again.
    countedBy: ledgerId(run.id, idx),
    evaluation: {
      ...(run.serviceTier !== 'standard' ? { tier: run.serviceTier } : {}),
      ...(mode !== 'bypass' ? { cache: mode } : {}),
    },
    ...(batch ? { onWaiting: () => (own.judges += 1) } : {}),
    ...(run.certify ? { certified: run.certify.graders } : {}),
  };
  const billed: BilledCall[] = [];
  const base = deps.llm && batch ? waveLlm(db, run, idx, waveSettings(env), own, deps.llm) : deps.llm;
  const llm =
    base && storedLlm(db, run, idx, withVerdictCache(env, db, run.tenant, mode, withJudges(env, judges, base)), billed);
  const itemDeps = llm ? { ...deps, llm } : deps;
  const graded = await gradeLine(run, criteria, line, idx, itemDeps);
  if (own.calls.length > 0 || own.judges > 0) {
    waiting.calls.push(...own.calls);
    waiting.judges += own.judges;
    return;
  }
  await db.batch([
    ledgerStatement(db, run, idx, graded.createdAt),
    insertItemStatement(db, run.id, graded),
    ...bookItemStatements(db, run, idx, billed),
  ]);
}

/**
 * Ends the run with its webhook event (once: both hold only while it runs), then, if this call ended it, logs
 * the end and hands the event on.
 */
async function finish(
  env: Bindings,
  db: D1Database,
  run: RunRecord,
  status: 'completed' | 'failed',
  error: RunRecord['error'],
): Promise<void> {
  const now = Date.now();
  const events = runEndEventStatements(db, run, status, error, RUNNING, now);
  if (await endRun(db, run.id, status, error, now, events)) await runEnded(env, db, run, status, error);
}

/** Registers what a batch-tier pass left waiting, gives the lease up and says when to look again. */
async function wait(env: Bindings, db: D1Database, run: RunRecord, waiting: Waiting): Promise<RunProgress> {
  const since = Date.now();
  await registerWaves(env, db, run, waiting.calls);
  const now = Date.now();
  const delay = waiting.judges > 0 ? configOf(env).BATCH_POLL_MIN_MS : RUN_WAVE_WATCHDOG_MS;
  const moved = await waitRun(db, run.id, now, now + delay);
  // Outcomes delivered while this pass held the lease found the run busy: the next pass goes at once.
  if (await deliveredSince(db, run.id, since)) return { kind: 'more' };
  return { kind: 'waiting', wakeInMs: moved ? delay : null };
}

/**
 * Works on run `runId` of `tenant` if nobody else holds it, for at most {@link RUN_SLICE_MS} (see the module
 * note). Never throws for a failure of the run's own: that ends it `failed` with the error.
 */
export async function processRun(
  env: Bindings,
  tenant: string,
  runId: string,
  given?: GraderDeps,
): Promise<RunProgress> {
  const db = tenantDb(env, tenant);
  const started = Date.now();
  const run = await claimRun(db, runId, started, started + RUN_LEASE_MS);
  if (!run) {
    const now = await getRunById(db, tenant, runId);
    if (now && (now.status === 'queued' || now.status === 'in_progress') && (now.leaseUntil ?? 0) >= started) {
      // A batch-tier pass holds the run briefly (it waits on nothing): look again soon, not at the lease's end.
      const soon = now.serviceTier === 'batch' ? started + BATCH_PASS_RETRY_MS : Infinity;
      return { kind: 'busy', until: Math.min(now.leaseUntil ?? started, soon) };
    }
    return { kind: 'ended' };
  }
  // The run's model calls at its tier; at batch, this is the synchronous fallback past the tries in waves.
  const deps = given ?? graderDeps(env, run.serviceTier === 'flex' ? 'flex' : 'standard');
  const waiting = nothingWaiting();
  try {
    const ev = await getEval(db, run.tenant, run.evalId);
    if (!ev) {
      await finish(env, db, run, 'failed', { code: 'eval_deleted', message: 'the eval was deleted' });
      return { kind: 'ended' };
    }
    const criteria = ev.testingCriteria as RunnableGrader[];
    const source = (run.dataSource as { source: { type: string } }).source;
    const lines = await sourceLines(env, run.tenant, source, false);
    const done = await gradedIndexes(db, runId);
    const todo = lines.map((line, idx) => ({ line, idx })).filter(({ idx }) => !done.has(idx));
    for (let i = 0; i < todo.length; i += ITEMS_AT_ONCE) {
      if (Date.now() - started > RUN_SLICE_MS) {
        await registerWaves(env, db, run, waiting.calls);
        await releaseLease(db, runId);
        return { kind: 'more' };
      }
      if (!(await renewLease(db, runId, Date.now() + RUN_LEASE_MS))) return { kind: 'ended' };
      const slice = todo.slice(i, i + ITEMS_AT_ONCE);
      await Promise.all(slice.map((t) => gradeAndStore(env, db, run, criteria, t, deps, waiting)));
    }
    if (waiting.calls.length > 0 || waiting.judges > 0) return await wait(env, db, run, waiting);
    await finish(env, db, run, 'completed', null);
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const code = e instanceof SourceGoneError ? 'file_not_found' : 'run_failed';
    await finish(env, db, run, 'failed', { code, message });
  }
  return { kind: 'ended' };
}
