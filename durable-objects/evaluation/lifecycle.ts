/**
 * @module
 * Starting and ending an evaluation: the idempotent start (one D1 read shared by concurrent starts),
 * confirming `running` in D1 off the critical path, cancel / fail, and the `ended` marker for an
 * evaluation that ended before it ran here (settled against D1 on every repeat, so a failed D1 write
 * is retried by the next start, cancel or sweep).
 *
 * Every `await` here opens the input gate: after each one the code re-reads the cache and the marker
 * before acting (see docs/architecture.md, "Interleaving").
 */
import { createEvaluation, plannedCalls } from '../../src/engine/protocol.js';
import { EngineInputError } from '../../src/engine/errors.js';
import { getMethod, parsedMethodConfig } from '../../src/engine/registry.js';
import type { Task } from '../../src/engine/task.js';
import type { RubricContent } from '../../src/engine/rubric.js';
import type { EvaluationError } from '../../src/evaluations/live-events.js';
import { log, logs, messageOf } from '../../src/log/log.js';
import type { StatusResult } from '../../src/evaluations/rpc.js';
import type { EndStatus, EvaluationStatus } from '../../src/evaluations/status.js';
import { isTerminal } from '../../src/evaluations/status.js';
import type { StartJob } from '../../src/evaluations/job-rows.js';
import { afterEnding, markEnded } from '../../src/ending-plan.js';
import { loadJob, markRunning, readStatus } from '../../src/evaluations/job-rows.js';
import { notRunEvent } from './event-builders.js';
import type { CacheHit } from '../../src/verdict-cache/hit.js';
import { servedVerdict } from '../../src/verdict-cache/hit.js';
import type { FinalWriter } from './final-write.js';
import type { CachedEvaluation, EvaluationInstance, InstanceHooks } from './instance.js';
import type { EndedRow, MetaRow } from './stored-rows.js';
import { parseStoredError, storedError } from './stored-rows.js';
import { recordDb, recordDbOf } from '../../src/config/d1-shards.js';
import { evaluationStub } from '../../src/evaluations/stub.js';

/** Start and end of the evaluation of one instance. */
export class Lifecycle {
  /** One `start()` at a time: concurrent starts share the first one's D1 read. */
  private starting: Promise<StatusResult> | null = null;

  constructor(
    private readonly instance: EvaluationInstance,
    private readonly final: FinalWriter,
    private readonly hooks: InstanceHooks,
  ) {}

  /**
   * Starts the evaluation `id` (idempotent). The first call loads the row from D1 (unless `job` is
   * given), stores config, task, tenant and engine version here, arms the alarm and marks D1 running;
   * later calls only make sure an alarm is armed while work (or the final write) remains. An evaluation
   * D1 already shows as ended is not started.
   * @param job the row as just inserted (the API's fast start); its status, if any, is ignored.
   * @param firstAlarmInMs when the first alarm fires after a first start, ms (default 1: it runs the first step);
   *   null: none (the caller runs the first step and its waiting RPC, or an armed watchdog, stands watch).
   */
  async start(id: string, job?: StartJob, firstAlarmInMs: number | null = 1): Promise<StatusResult> {
    const current = this.instance.load();
    if (current) {
      await this.ensureAlarm(current.meta);
      return { status: current.meta.status };
    }
    const ended = this.instance.store.ended();
    // Re-sent every time: an end whose D1 write failed would leave D1 `queued`; the sweeper's start retries it.
    if (ended) return this.settleEnded(ended);
    this.starting ??= this.firstStart(id, job?.id === id ? job : undefined, firstAlarmInMs).finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /**
   * Ends the evaluation (cancel, pipeline failure) unless it has ended: D1 shows the end when this returns; calls
   * already sent are still stored and billed in the final write, no new call is made, a call in flight sends no
   * further attempt (its failures so far are its result), one waiting for its provider slot is not sent (`not_sent`).
   */
  async end(id: string, status: EndStatus, error: EvaluationError): Promise<StatusResult> {
    const evaluation = this.instance.load();
    if (!evaluation) {
      const ended = this.instance.store.ended();
      // Already ended here: re-send the marker's end, as its first D1 write may have failed.
      if (ended) return this.settleEnded(ended);
      // Never started here (still queued, or start() is waiting on D1): leave the marker before the D1
      // write opens the input gate, so a start arriving meanwhile (a fast start whose job still says
      // queued, a queue delivery) returns instead of running the evaluation.
      return this.settleEnded(this.endHere(id, status, error));
    }
    if (isTerminal(evaluation.meta.status)) return { status: evaluation.meta.status };
    this.instance.setTerminal(evaluation, status, error);
    // D1 shows the end at once; transcript and usage of calls still in flight follow in the final write.
    if (
      await markEnded(
        recordDbOf(this.instance.env, evaluation.meta.tenant, evaluation.meta.id),
        evaluation.meta.id,
        status,
        error,
        Date.now(),
      )
    )
      this.instance.ctx.waitUntil(afterEnding(this.instance.env, evaluation.meta.id));
    await this.afterEnd(evaluation);
    return { status };
  }

  /** After an end decided here: the final write now, or once the calls in flight are stored. */
  private async afterEnd(evaluation: CachedEvaluation): Promise<void> {
    if (this.instance.inFlight.size === 0) await this.final.finalize(evaluation);
    else await this.instance.armBy(Date.now() + 1);
  }

  /**
   * When work (or the final write) remains and no invocation of this instance carries it out, makes the alarm
   * fire now: none may be armed, or the armed one far off (an inline step's 90 s watchdog in an instance that
   * died, a final write's backoff), so the sweeper's start after a restart resumes the work at once.
   */
  private async ensureAlarm(meta: MetaRow): Promise<void> {
    const owed = !isTerminal(meta.status) || meta.finalized === 0;
    if (!owed || this.instance.inFlight.size > 0 || this.instance.stepsRunning > 0) return;
    // Storage calls keep the input gate closed: no step can begin between the read and the write.
    await this.instance.armBy(Date.now() + 1);
  }

  private async firstStart(
    id: string,
    given: StartJob | undefined,
    firstAlarmInMs: number | null,
  ): Promise<StatusResult> {
    let job: StartJob;
    // Held here before D1 knew it (src/evaluations/held-start.ts): D1 keeps no copy of its task, the object does.
    let noTaskCopy = this.instance.store.holds();
    if (given) {
      job = given;
    } else {
      const row = await loadJob(await recordDb(this.instance.env, id), id);
      // The input gate was open while D1 answered: a concurrent start may have finished, or a cancel /
      // fail may have ended the evaluation here (it leaves the `ended` marker).
      const again = this.instance.load();
      if (again) return { status: again.meta.status };
      const ended = this.instance.store.ended();
      if (ended) return { status: ended.status };
      if (!row) {
        log('warn', 'start.not_found', { evaluationId: id });
        return { status: 'not_found' };
      }
      if (isTerminal(row.status)) {
        // Ended before it ever ran here: remember it and release subscribers waiting for a start (the
        // status came from D1, so there is nothing to write back).
        this.announceEnded(this.endHere(id, row.status, row.error));
        return { status: row.status };
      }
      // Its batch was cancelled while it waited in the queue: it ends without a call, as a cancel would.
      if (row.cancel) return this.settleEnded(this.endHere(id, 'cancelled', row.cancel));
      // Running already (marked with its slot, and not ended: D1 just said so): no mark of its own.
      job = row.status === 'running' ? { ...row, markedRunning: true } : row;
      // D1's copy (a row inserted without the object) is read as the task, and the final write erases it.
      const heldTask = this.instance.store.held()?.task;
      noTaskCopy &&= row.task === 'null' && heldTask !== undefined;
      if (noTaskCopy && heldTask !== undefined) job = { ...job, task: heldTask };
    }
    if (job.cached?.verdict === null) {
      // D1 keeps no JSON of the source's verdict: its object has it (none once erased: then it runs).
      const verdict = (await evaluationStub(this.instance.env, job.cached.from).content()).verdict;
      job = { ...job, cached: verdict === null ? null : { from: job.cached.from, verdict } };
      // The input gate was open while the source answered: a concurrent end may have left its marker.
      const ended = this.instance.store.ended();
      if (ended) return { status: ended.status };
    }
    const now = Date.now();
    let prepared: { meta: MetaRow; evaluation: CachedEvaluation };
    try {
      const method = getMethod(job.method);
      const state = createEvaluation(
        method,
        parsedMethodConfig(job.config),
        JSON.parse(job.task) as Task,
        job.rubric ? (JSON.parse(job.rubric) as RubricContent) : undefined,
      );
      const meta: MetaRow = {
        id,
        tenant: job.tenant,
        method: job.method,
        config: job.config,
        task: job.task,
        status: 'running',
        calls_planned: job.cached ? 0 : plannedCalls(method, state),
        started_at: now,
        updated_at: now,
        error: null,
        finalized: 0,
        alarm_failures: 0,
        finalize_failures: 0,
        engine_version: this.hooks.engineVersion(method),
        verdict: null,
        tier: job.tier ?? 'standard',
        flex_fallback: job.flexFallback ?? 'standard',
        // Batch-tier calls are waved with the batch's other items; a lone evaluation is a batch of one.
        wave_group: job.tier === 'batch' ? (job.batchId ?? id) : null,
        rubric: job.rubric ?? null,
      };
      prepared = {
        meta,
        evaluation: {
          meta,
          engine: { method, state },
          callsDone: 0,
          ...(job.batchId !== undefined ? { batchId: job.batchId } : {}),
          // A hit takes no entry (its row's `cache_from` is set): D1's own check would find that too.
          ...(job.cacheEntry !== undefined ? { cacheEntry: job.cacheEntry && !job.cached } : {}),
          ...(noTaskCopy ? { noTaskCopy: true as const } : {}),
        },
      };
    } catch (e) {
      // Bad stored input cannot get better by retrying: fail it (the API validates, so this is rare).
      const code = e instanceof EngineInputError ? e.code : 'invalid_evaluation';
      log('error', 'start.invalid', { evaluationId: id, error: messageOf(e) });
      // Marker first (synchronous), so a start or cancel arriving while D1 answers sees the end. A D1
      // error propagates (the queue retries; the sweeper's start re-sends it from the marker).
      return this.settleEnded(this.endHere(id, 'failed', { code, message: messageOf(e) }));
    }
    const { meta, evaluation } = prepared;
    this.instance.store.insertMeta(meta);
    this.instance.store.dropHeld();
    this.instance.loaded = evaluation;
    if (job.cached && job.cached.verdict !== null)
      return this.serveHit(evaluation, { ...job.cached, verdict: job.cached.verdict });
    // Normally the alarm runs the first step at once; when the caller runs it (startAndAwait), the alarm is
    // the watchdog that resumes the work should this instance die mid-step, unless the caller's RPC stands watch.
    if (firstAlarmInMs !== null) await this.instance.ctx.storage.setAlarm(Date.now() + firstAlarmInMs);
    // Off the critical path: the first call need not wait for D1. The guard (status queued/running)
    // keeps the write from reviving an ended row, and confirmRunning ends the run here if it had ended. The
    // API's fast start marked its fresh row in its insert batch: nothing can have ended it since.
    if (job.markedRunning === true) this.final.noteRefreshed(now);
    else this.instance.ctx.waitUntil(this.confirmRunning(evaluation, now));
    if (logs('debug'))
      log('debug', 'evaluation.started', {
        evaluationId: id,
        method: job.method,
        callsPlanned: meta.calls_planned,
        engineVersion: meta.engine_version,
      });
    this.instance.broadcastStatus(evaluation);
    return { status: 'running' };
  }

  /**
   * A verdict cache hit (marked when the evaluation was created): it ends `succeeded` with the cached verdict
   * and no LLM call, through the ordinary final write, made here and now, so its webhook event, its batch's
   * progress and its tenant's slot behave as for any ending. No `running` write and no alarm: the row goes
   * from `queued` to `succeeded` in that one write; a failed write arms its own retry alarm, and an instance
   * lost mid-write leaves a `queued` row the sweeper's start brings back here (the final write still owed).
   */
  private async serveHit(evaluation: CachedEvaluation, hit: CacheHit & { verdict: string }): Promise<StatusResult> {
    this.instance.setTerminal(evaluation, 'succeeded', null, servedVerdict(hit.verdict));
    log('info', 'evaluation.cache_hit', { evaluationId: evaluation.meta.id, from: hit.from });
    await this.final.finalize(evaluation);
    return { status: evaluation.meta.status };
  }

  /**
   * Marks D1 running; when no row changed, D1 has ended the evaluation without this object knowing (a
   * DLQ failure written straight to D1, a cancel that reached a different path) or the row is gone: the
   * run ends here with D1's status, no new calls are made, and results of calls in flight are still
   * stored (and billed in the final write).
   */
  private async confirmRunning(evaluation: CachedEvaluation, now: number): Promise<void> {
    try {
      if (
        await markRunning(
          recordDbOf(this.instance.env, evaluation.meta.tenant, evaluation.meta.id),
          evaluation.meta.id,
          evaluation.meta.calls_planned,
          now,
          evaluation.meta.engine_version,
        )
      ) {
        this.final.noteRefreshed(now);
        return;
      }
      const row = await readStatus(
        recordDbOf(this.instance.env, evaluation.meta.tenant, evaluation.meta.id),
        evaluation.meta.id,
      );
      if (isTerminal(evaluation.meta.status)) return;
      if (!row) {
        await this.final.abandonMissingRow(evaluation, 'start.row_missing');
        return;
      }
      if (!isTerminal(row.status)) return;
      log('warn', 'start.ended_elsewhere', { evaluationId: evaluation.meta.id, status: row.status });
      this.instance.followD1(evaluation, row.status, row.error);
      await this.afterEnd(evaluation);
    } catch (e) {
      log('warn', 'start.mark_running_failed', { evaluationId: evaluation.meta.id, error: messageOf(e) });
    }
  }

  /**
   * Records that the evaluation ended without running here: a synchronous storage write, so it holds
   * before any await lets a start in. Subscribers are told later ({@link announceEnded}), once D1 has
   * settled the status: D1 may have ended the row otherwise already.
   */
  private endHere(id: string, status: EvaluationStatus, error: EvaluationError | null): EndedRow {
    const row: EndedRow = { id, status, error: storedError(error), at: Date.now() };
    this.instance.store.putEnded(row);
    return row;
  }

  /** Sends the marker's terminal status to every subscriber and closes their streams. */
  private announceEnded(row: EndedRow): void {
    this.instance.streams.broadcast(notRunEvent(row.id, row.status, parseStoredError(row.error), row.at));
    this.instance.streams.closeAll();
  }

  /**
   * Makes D1 agree with the `ended` marker and returns the settled status: re-sends the guarded,
   * idempotent `markEnded` (an earlier attempt may have thrown after the marker was written, which
   * would leave D1 `queued` and the sweeper re-kicking it forever); when it changes nothing, D1 already
   * ended the row (the marker adopts D1's status) or has no such row (the marker goes). Subscribers get
   * the settled status. A D1 error propagates, so the API or the queue can retry; streams stay open
   * until a retry settles it.
   */
  private async settleEnded(marker: EndedRow): Promise<StatusResult> {
    if (marker.status !== 'failed' && marker.status !== 'cancelled') {
      // Taken from D1 itself (firstStart): nothing to write back.
      return { status: marker.status };
    }
    if (
      await markEnded(
        await recordDb(this.instance.env, marker.id),
        marker.id,
        marker.status,
        parseStoredError(marker.error),
        Date.now(),
      )
    ) {
      this.instance.ctx.waitUntil(afterEnding(this.instance.env, marker.id));
      this.announceEnded(this.instance.store.ended() ?? marker);
      return { status: marker.status };
    }
    const row = await readStatus(await recordDb(this.instance.env, marker.id), marker.id);
    if (!row) {
      this.instance.store.deleteEnded();
      this.instance.streams.closeAll();
      return { status: 'not_found' };
    }
    if (isTerminal(row.status)) {
      const d1Error = storedError(row.error);
      this.instance.store.adoptEnded(row.status, d1Error);
      this.announceEnded({ ...marker, status: row.status, error: d1Error });
    }
    return { status: row.status };
  }
}
