/**
 * @module
 * Keeping D1 in step with the object: the single final write (verdict + transcript + usage + status in
 * one D1 `batch()`, then the `finalized` flag), its retries with backoff, taking D1's end when D1 ended
 * the row elsewhere, giving up when the row is gone, and the coalesced progress writes.
 */
import { eraseIfRequested } from './erase.js';
import { log, logs, messageOf } from '../../src/log/log.js';
import { isTerminal } from '../../src/evaluations/status.js';
import type { FinalWriteResult } from '../../src/evaluations/final-write.js';
import { backoffDelay } from '../../src/backoff/backoff.js';
import { afterEnding, writeFinal } from '../../src/ending-plan.js';
import { readStatus, recordProgress } from '../../src/evaluations/job-rows.js';
import { deploymentDefaults } from '../../src/tenants/limits.js';
import type { CachedEvaluation, EvaluationInstance } from './instance.js';
import { choiceIdsOf, parseErrorsOf, verdictOf } from './instance.js';
import { parseStoredError, storedError } from './stored-rows.js';
import { transcriptRowsOf } from '../../src/evaluations/transcript-rows.js';
import { recordDbOf } from '../../src/config/d1-shards.js';
import { configOf } from '../../src/config/vars.js';

/** Delay before the first retry of a failed final D1 write, ms; doubles per consecutive failure. */
export const FINALIZE_RETRY_MS = 1_000;

/** Cap of the final write's retry delay, ms (5 min): a D1 outage must not become a busy loop. */
export const FINALIZE_MAX_RETRY_MS = 5 * 60_000;

/**
 * Consecutive failed final writes after which each further failure asks D1 whether the row still
 * exists: a deleted row can never take the write, so the object gives up instead of retrying forever.
 */
export const FINALIZE_CHECK_AFTER = 5;

/**
 * How long a progress write waits before it goes out, ms (50): the results of one wave's parallel calls
 * arrive within a few ms of each other and become one write, and a wave that concludes the evaluation needs
 * none (its final write carries `calls_done`). Far below the sweeper's stall threshold (`STALL_SECONDS`).
 */
export const PROGRESS_DELAY_MS = 50;

/**
 * The progress write's wait at tier `batch`, ms (1,000): an item's results of a wave arrive in one delivery,
 * so there is nothing to coalesce, and the wave's hand-over is on every item's way to its verdict while the
 * write is not: a second later it goes out while the provider runs the next wave (minutes to hours; seconds
 * on the mock), instead of competing with the other items' deliveries.
 */
export const WAVE_PROGRESS_DELAY_MS = 1_000;

/**
 * A progress write goes out only when D1's `updated_at` is older than `STALL_SECONDS` divided by this (4: 30 s
 * at the default 120 s). Its only reader that cannot ask the object is the sweeper, which re-kicks a row after
 * `STALL_SECONDS` without progress (harmless for a running object: its start is idempotent), so a refresh
 * every quarter of that keeps running rows from looking stalled. An evaluation that ends within it writes D1
 * twice (its running mark and its final write) however many stages it has; `GET /v1/evaluations/{id}` shows
 * live progress from the object.
 */
export const PROGRESS_REFRESHES_PER_STALL = 4;

/** The final write and progress writes of one instance. */
export class FinalWriter {
  /**
   * The final write in progress: `end()` awaits D1 (the input gate opens), so the alarm may reach
   * `finalize()` meanwhile; both then share this one write instead of writing and broadcasting twice.
   */
  private inProgress: Promise<void> | null = null;
  /** Progress write coalescing: one D1 write in flight, the latest value written after it. */
  private progressInFlight = false;
  private progressPending = false;
  /** When this instance last refreshed D1's `updated_at` (its running mark or a progress write), epoch ms; 0: not since it was loaded. */
  private refreshedAt = 0;

  /** True while a progress write waits or runs (tests wait for it to settle). */
  get progressBusy(): boolean {
    return this.progressInFlight;
  }

  /**
   * Run just before the final write builds its rows (synchronously): stores what the ended evaluation left
   * parked (the step's caller sets it), so the write sees every call and no `pending` row outlives the end.
   */
  beforeWrite: (evaluation: CachedEvaluation) => void = () => undefined;

  constructor(private readonly instance: EvaluationInstance) {}

  /**
   * The final D1 write, exactly once: verdict + usage + status in ONE batch (the transcript, built from the
   * same stored calls as the usage, is saved in this object just before), then the `finalized` flag. On failure an alarm retries it. Then the terminal events go out and streams close.
   * Single-flight: concurrent callers (end() and the alarm) share the write in progress.
   */
  finalize(evaluation: CachedEvaluation): Promise<void> {
    if (evaluation.meta.finalized === 1) return Promise.resolve();
    this.inProgress ??= this.writeOnce(evaluation).finally(() => {
      this.inProgress = null;
    });
    return this.inProgress;
  }

  private async writeOnce(evaluation: CachedEvaluation): Promise<void> {
    const status = evaluation.meta.status;
    if (evaluation.meta.finalized === 1 || !isTerminal(status)) return;
    this.beforeWrite(evaluation);
    const verdict = verdictOf(evaluation);
    const error = parseStoredError(evaluation.meta.error);
    try {
      const env = this.instance.env;
      // Someone waits for the end (`Prefer: wait`): the answer's read rides on this write's status update.
      const readBack = this.instance.streams.hasWaiters();
      const calls = this.instance.store.storedCalls(parseErrorsOf(evaluation), choiceIdsOf(evaluation));
      // The transcript stays here, with the evaluation (GET …/transcript asks the object); D1 gets the usage.
      this.instance.store.saveTranscript(JSON.stringify(transcriptRowsOf(calls)));
      // What the ending does besides (in its transaction and after it): src/ending-plan.ts.
      const { changed, effectRows, followUps, read, d1Row } = await writeFinal(
        recordDbOf(env, evaluation.meta.tenant, evaluation.meta.id),
        {
          id: evaluation.meta.id,
          tenant: evaluation.meta.tenant,
          status,
          ...(verdict ? { verdict } : {}),
          ...(error ? { error } : {}),
          calls,
          callsDone: evaluation.callsDone,
          engineVersion: evaluation.meta.engine_version,
          now: Date.now(),
          // Known, or unknown after an eviction (an item of a batch, maybe: the window's claim finds out).
          ...(evaluation.batchId !== undefined ? { batchId: evaluation.batchId } : {}),
          ...(evaluation.cacheEntry !== undefined ? { cacheEntry: evaluation.cacheEntry } : {}),
          ...(evaluation.noTaskCopy ? { taskCopy: false as const } : {}),
          method: evaluation.meta.method,
          defaultMaxRunning: deploymentDefaults(env).maxRunning,
          readBack,
        },
      );
      // Committed, whichever way this write ends the row: the next waiting evaluation and the batch's next
      // items start.
      for (const followUp of followUps) this.instance.ctx.waitUntil(followUp(env));
      if (readBack) {
        // D1 keeps a verdict's JSON only where its own queries read it: this object has it anyway.
        this.instance.endedRecord = read && {
          ...read,
          verdictText: read.verdictText ?? (read.row.status === 'succeeded' ? evaluation.meta.verdict : null),
        };
      }
      // Nothing changed: D1 had ended the row already (the DLQ fallback, or this object's own markEnded)
      // or it is gone. Subscribers and the snapshot must show what D1 shows, not what was decided here.
      if (!changed && !(await this.adoptD1End(evaluation, d1Row ?? null))) return;
      // After the commit (or finding D1 ended): hand the ending's webhook deliveries to their queue. When
      // this write ended the row and its effects wrote nothing (no webhook), there is nothing to hand on,
      // and the after-commit steps' D1 read would be one more round trip on every evaluation.
      if (!changed || effectRows > 0) this.instance.ctx.waitUntil(afterEnding(this.instance.env, evaluation.meta.id));
    } catch (e) {
      await this.writeFailed(evaluation, e);
      return;
    }
    evaluation.meta.finalized = 1;
    this.instance.store.saveCounter('finalized', 1);
    // The one info line of an evaluation that went well (its start, calls and end are debug lines): each
    // line costs the runtime CPU, and four per verdict were a large share of a single-call verdict's.
    if (logs('info'))
      log('info', 'evaluation.finalized', {
        evaluationId: evaluation.meta.id,
        method: evaluation.meta.method,
        status: evaluation.meta.status,
        calls: evaluation.callsDone,
        durationMs: Date.now() - evaluation.meta.started_at,
        // Its batch when known (null: none; absent: unknown after an eviction): npm start's terminal reads
        // only the batch of an item.
        batchId: evaluation.batchId,
      });
    this.instance.announceEnd(evaluation);
    // The caller deleted it while this write was owed: erase now that the usage is in D1.
    await eraseIfRequested(this.instance);
  }

  /**
   * After a final write that changed no status: takes D1's terminal status and error from `row` (the write read it
   * as it stands). False when the row is gone (the object gave up, see {@link abandonMissingRow}), so the caller
   * stops.
   */
  private async adoptD1End(evaluation: CachedEvaluation, row: FinalWriteResult['d1Row'] | null): Promise<boolean> {
    if (!row) {
      await this.abandonMissingRow(evaluation, 'finalize.row_missing');
      return false;
    }
    // The usual case is this object's own earlier markEnded (a cancel): same status, nothing to adopt.
    if (
      isTerminal(row.status) &&
      (row.status !== evaluation.meta.status || storedError(row.error) !== evaluation.meta.error)
    ) {
      this.instance.followD1(evaluation, row.status, row.error);
    }
    return true;
  }

  /**
   * A failed final write: retried by the alarm with exponential backoff ({@link FINALIZE_RETRY_MS}
   * doubling, capped at {@link FINALIZE_MAX_RETRY_MS}). The count lives in storage, apart from
   * `alarm_failures`, because the alarm itself returns normally. From {@link FINALIZE_CHECK_AFTER}
   * failures on, a row missing in D1 ends the retries: that write can never land.
   */
  private async writeFailed(evaluation: CachedEvaluation, e: unknown): Promise<void> {
    const failures = evaluation.meta.finalize_failures + 1;
    evaluation.meta.finalize_failures = failures;
    this.instance.store.saveCounter('finalize_failures', failures);
    log('error', 'finalize.error', { evaluationId: evaluation.meta.id, failures, error: messageOf(e) });
    if (failures >= FINALIZE_CHECK_AFTER) {
      try {
        if (
          (await readStatus(
            recordDbOf(this.instance.env, evaluation.meta.tenant, evaluation.meta.id),
            evaluation.meta.id,
          )) === null
        ) {
          await this.abandonMissingRow(evaluation, 'finalize.row_missing');
          return;
        }
      } catch (readError) {
        // D1 itself is failing: keep retrying with backoff.
        log('warn', 'finalize.check_failed', { evaluationId: evaluation.meta.id, error: messageOf(readError) });
      }
    }
    const delay = backoffDelay(failures, { base: FINALIZE_RETRY_MS, max: FINALIZE_MAX_RETRY_MS });
    await this.instance.ctx.storage.setAlarm(Date.now() + delay);
  }

  /**
   * The D1 row is gone: nothing can take the final write (its rows would violate the foreign keys), so
   * stop here for good: failed `not_found`, finalized, streams told and closed.
   */
  async abandonMissingRow(evaluation: CachedEvaluation, event: string): Promise<void> {
    log('error', event, { evaluationId: evaluation.meta.id });
    this.instance.followD1(evaluation, 'failed', {
      code: 'not_found',
      message: 'the evaluation row no longer exists in D1',
    });
    evaluation.meta.finalized = 1;
    this.instance.store.saveCounter('finalized', 1);
    this.instance.announceEnd(evaluation);
    await eraseIfRequested(this.instance);
  }

  /** How often progress refreshes D1, ms; 0 (every time) when the deployment's variables are invalid. */
  private refreshEveryMs(): number {
    try {
      return (configOf(this.instance.env).STALL_SECONDS * 1000) / PROGRESS_REFRESHES_PER_STALL;
    } catch {
      return 0;
    }
  }

  /** Records that D1's `updated_at` was refreshed at `at` (epoch ms): the running mark landed. */
  noteRefreshed(at: number): void {
    this.refreshedAt = Math.max(this.refreshedAt, at);
  }

  /**
   * Keeps D1's `calls_done` / `updated_at` fresh off the critical path: never awaited by the call loop. Writes
   * `delayMs` after the first result that asks, once for every result that arrived meanwhile, not at all while
   * D1 was refreshed less than `STALL_SECONDS` / {@link PROGRESS_REFRESHES_PER_STALL} ago, and not once the
   * evaluation has ended (the final write has the count).
   * @param delayMs the wait, default {@link PROGRESS_DELAY_MS} ({@link WAVE_PROGRESS_DELAY_MS} at tier `batch`)
   */
  pushProgress(evaluation: CachedEvaluation, delayMs = PROGRESS_DELAY_MS): void {
    if (Date.now() - this.refreshedAt < this.refreshEveryMs()) return;
    if (this.progressInFlight) {
      this.progressPending = true;
      return;
    }
    this.progressInFlight = true;
    const write = async (): Promise<void> => {
      try {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        do {
          this.progressPending = false;
          if (isTerminal(evaluation.meta.status)) return;
          const now = Date.now();
          await recordProgress(
            recordDbOf(this.instance.env, evaluation.meta.tenant, evaluation.meta.id),
            evaluation.meta.id,
            evaluation.callsDone,
            now,
          );
          this.noteRefreshed(now);
          // Callers set it again while we awaited; TS cannot see that and would narrow it to `false`.
        } while (this.progressPending as boolean);
      } catch (e) {
        log('warn', 'progress.error', { evaluationId: evaluation.meta.id, error: messageOf(e) });
      } finally {
        this.progressInFlight = false;
      }
    };
    this.instance.ctx.waitUntil(write());
  }
}
