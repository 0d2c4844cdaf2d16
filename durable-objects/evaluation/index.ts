/**
 * @module
 * `EvaluationDO`: one Durable Object per evaluation (`idFromName(evaluationId)`) that drives the engine
 * to a verdict from its alarm. This file is the glue: RPC ({@link EvaluationRpc}), the alarm and
 * `fetch` (live events). The parts, each in its own file of this folder: migrations.ts / storage.ts, the
 * object's SQLite; instance.ts, the in-memory cache and replay pinned to the engine version; lifecycle.ts,
 * start, cancel / fail, the `ended` marker; final-write.ts, the single final D1 write and progress writes;
 * erase.ts; step.ts, one alarm step; calls.ts, one call made and stored; streams.ts + event-builders.ts.
 *
 * Event-sourced: every LLM result is written to the object's SQLite (`results`, keyed by call id) the
 * moment it arrives and before anything else happens; the engine state is the fold of `applyResult`
 * over the stored results, cached in memory and rebuilt after eviction. A stored result is never
 * requested again, so a repeated alarm, a repeated queue delivery or an eviction never repeats a call.
 * How concurrent calls may interleave: docs/architecture.md.
 */
import { DurableObject } from 'cloudflare:workers';
import type { AnyMethod } from '../../src/engine/method.js';
import { engineVersionOf } from '../../src/engine/version.js';
import type { Bindings } from '../../src/config/bindings.js';
import { applyLogLevel } from '../../src/config/vars.js';
import { PipelineError } from '../../src/evaluations/pipeline-error.js';
import type { EvaluationError, EvaluationEvent } from '../../src/evaluations/live-events.js';
import type {
  CallTiming,
  EvaluationRpc,
  EvaluationSnapshot,
  HeldAdmitted,
  StatusResult,
} from '../../src/evaluations/rpc.js';
import { EVALUATION_ID_HEADER } from '../../src/evaluations/rpc.js';
import type { EvaluationStatus } from '../../src/evaluations/status.js';
import { isTerminal } from '../../src/evaluations/status.js';
import type { StartJob } from '../../src/evaluations/job-rows.js';
import type { TranscriptRow } from '../../src/evaluations/transcript-rows.js';
import { readStatus } from '../../src/evaluations/job-rows.js';
import { erase } from './erase.js';
import { admitHeld, heldAlarm } from './held.js';
import type { HeldAdmission } from '../../src/evaluations/held-types.js';
import { notRunEvent, replayEvents } from './event-builders.js';
import { FinalWriter } from './final-write.js';
import { Lifecycle } from './lifecycle.js';
import { EvaluationInstance, verdictOf } from './instance.js';
import { Stepper } from './step.js';
import type { EndedRow } from './stored-rows.js';
import { parseStoredError, storedError } from './stored-rows.js';
import { EvaluationStore } from './storage.js';
import { Streams } from './streams.js';
import type { WaveCall, WaveItemRpc, WaveResult } from '../../src/waves/rpc.js';
import { recordDb } from '../../src/config/d1-shards.js';

/** Longest {@link EvaluationDO.awaitEnd} wait, ms (60 s, the API's `Prefer: wait` cap). */
export const MAX_AWAIT_END_MS = 60_000;

/**
 * The watchdog of a first step run by `startAndAwait`, armed when the caller's wait ends first: fires this many ms
 * later (90 s; in a live instance it finds the step's calls in flight and leaves them be).
 */
export const INLINE_WATCHDOG_MS = 90_000;

/** The Durable Object that runs one evaluation: RPC ({@link EvaluationRpc}); `fetch` serves events. */
export class EvaluationDO extends DurableObject<Bindings> implements EvaluationRpc, WaveItemRpc {
  /** In-memory state and platform handles shared by the parts. Protected: test subclasses drive it. */
  protected readonly instance: EvaluationInstance;
  /** The final D1 write and progress writes. */
  protected readonly final: FinalWriter;
  private readonly lifecycle: Lifecycle;
  private readonly stepper: Stepper;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    applyLogLevel(env);
    // Synchronous SQLite: the migrations run here, before any event reaches the object.
    const store = new EvaluationStore(ctx.storage);
    const hooks = { engineVersion: (method: AnyMethod) => this.engineVersion(method) };
    this.instance = new EvaluationInstance(ctx, env, store, new Streams(ctx), hooks);
    this.final = new FinalWriter(this.instance);
    this.lifecycle = new Lifecycle(this.instance, this.final, hooks);
    this.stepper = new Stepper(this.instance, this.final);
  }

  /**
   * The engine version this code has for `method` (src/engine/version.ts); an evaluation started under
   * another one is not replayed. Overridden only by tests, to simulate a deploy that changed it.
   */
  protected engineVersion(method: AnyMethod): string {
    return engineVersionOf(method);
  }

  // ---------------------------------------------------------------------------------------------- RPC

  /**
   * Starts the evaluation `id` (idempotent): see {@link Lifecycle.start}. @param job the row as just inserted, when
   *   the caller has it (the API's fast start): saves the D1 read. The queue consumer and the sweeper pass the id.
   */
  async start(id: string, job?: StartJob): Promise<StatusResult> {
    this.checkId(id, 'start');
    return await this.lifecycle.start(id, job);
  }

  /**
   * Cancels: no new LLM calls; calls in flight are still stored (and billed). D1 shows `cancelled` on return.
   * @param id the evaluation id (checked against this object's id: `ctx.id.name` may be undefined in production).
   * @param reason optional human reason, stored as the error message (code `cancelled`).
   */
  async cancel(id: string, reason?: string): Promise<StatusResult> {
    this.checkId(id, 'cancel');
    const out = await this.lifecycle.end(id, 'cancelled', {
      code: 'cancelled',
      message: reason ?? 'cancelled by the caller',
    });
    await this.withdrawFromWaves();
    return out;
  }

  /** An ended batch-tier evaluation drops its calls from their waves (a provider batch left empty is cancelled). */
  private async withdrawFromWaves(): Promise<void> {
    const evaluation = this.instance.load();
    if (evaluation?.meta.tier === 'batch' && isTerminal(evaluation.meta.status))
      await this.stepper.waves.withdraw(evaluation);
  }

  /**
   * A wave coordinator's results for this evaluation (batch tier): each stored through the idempotent result
   * store (a repeat stores nothing), then the next ready calls registered; those for `coordinator` are the
   * answer. Nothing for an evaluation this object does not run.
   */
  async batchResults(id: string, coordinator: string, results: WaveResult[]): Promise<WaveCall[]> {
    this.checkId(id, 'batchResults');
    const evaluation = this.instance.load();
    if (!evaluation) return [];
    return await this.stepper.waveResults(evaluation, coordinator, results);
  }

  /** Ends it failed with a pipeline reason (e.g. the DLQ's `queue_delivery_failed`) unless ended; as {@link cancel}. */
  async fail(id: string, error: EvaluationError): Promise<StatusResult> {
    this.checkId(id, 'fail');
    const out = await this.lifecycle.end(id, 'failed', error);
    await this.withdrawFromWaves();
    return out;
  }

  /**
   * Starts the evaluation and, when this call started it, runs its first step now (no alarm hop), then waits
   * for the end as {@link awaitEnd} does (`timeoutMs` 0: not at all). Should this instance die mid-step, the
   * watchdog alarm ({@link INLINE_WATCHDOG_MS}) resumes the work, or while the caller waits, the caller: its RPC
   * fails and the API queues the job (the watchdog is armed only if the wait ends first). The step goes on.
   */
  async startAndAwait(id: string, job: StartJob, timeoutMs: number): Promise<StatusResult> {
    this.checkId(id, 'startAndAwait');
    return await this.startNow(id, job, timeoutMs, false);
  }

  /** A new single evaluation's fast start, held here before D1 knows it: see ./held.ts. */
  async admitHeld(id: string, held: HeldAdmission, timeoutMs: number): Promise<HeldAdmitted> {
    this.checkId(id, 'admitHeld');
    return await admitHeld(this.instance, id, held, (job) => this.startNow(id, job, timeoutMs, true));
  }

  /** {@link startAndAwait}; `armed`: the held job's watchdog alarm stands watch (the first step clears it). */
  private async startNow(id: string, job: StartJob, timeoutMs: number, armed: boolean): Promise<StatusResult> {
    const fresh = !this.instance.load() && !this.instance.store.ended();
    const watched = fresh && timeoutMs > 0 && !armed;
    const start = () => this.lifecycle.start(id, job, fresh ? (watched || armed ? null : INLINE_WATCHDOG_MS) : 1);
    const started = await (timeoutMs > 0 ? this.instance.streams.expectWaiter(start) : start());
    if (started.status === 'not_found') return started;
    if (fresh && started.status === 'running') this.ctx.waitUntil(this.stepper.runInline(!watched));
    // A hit ended in its start: the watchdog would find nothing to do.
    else if (armed && this.endedStatus()) await this.ctx.storage.deleteAlarm();
    // No wait asked (the API without `Prefer: wait`, a batch's next item): the start's status.
    if (timeoutMs <= 0) return this.endedStatus() ?? started;
    const out = await this.awaitEnd(id, timeoutMs);
    if (watched) await this.stepper.armWatchdog(INLINE_WATCHDOG_MS);
    return out;
  }

  /**
   * Waits for the end (final D1 write done) up to `timeoutMs` (capped at {@link MAX_AWAIT_END_MS}): the
   * API's `Prefer: wait` answers with the verdict instead of making the client open a stream. Read-only.
   */
  async awaitEnd(id: string, timeoutMs: number): Promise<StatusResult> {
    this.checkId(id, 'awaitEnd');
    const now = this.endedStatus();
    if (now) return now;
    await this.instance.streams.whenClosed(Math.min(Math.max(timeoutMs, 0), MAX_AWAIT_END_MS));
    return this.endedStatus() ?? { status: this.instance.load()?.meta.status ?? 'queued' };
  }

  /**
   * The terminal status once the evaluation ended here and D1 has it (with the evaluation as the final write
   * read it back, when it did), else null.
   */
  private endedStatus(): StatusResult | null {
    const evaluation = this.instance.load();
    if (evaluation) {
      if (!isTerminal(evaluation.meta.status) || evaluation.meta.finalized !== 1) return null;
      const ended = this.instance.endedRecord;
      return ended && ended.row.status === evaluation.meta.status
        ? { status: evaluation.meta.status, ended }
        : { status: evaluation.meta.status };
    }
    const ended = this.instance.store.ended();
    return ended ? { status: ended.status } : null;
  }

  /**
   * Erases the evaluation's data here (`DELETE /v1/evaluations/:id`): cancels it if it has not ended, then
   * drops config, task and results (once the owed final write has landed); only the terminal status stays.
   * See erase.ts.
   */
  async erase(id: string): Promise<StatusResult> {
    this.checkId(id, 'erase');
    // As a cancel: its calls in waves are withdrawn, so nothing more is sent for it (before the erase drops
    // the `pending` rows that name their coordinators).
    return await erase(
      this.instance,
      async (i, status, error) => {
        const out = await this.lifecycle.end(i, status, error);
        await this.withdrawFromWaves();
        return out;
      },
      id,
    );
  }

  /**
   * Progress for `GET /v1/evaluations/:id`, or null when this object never started an evaluation. An
   * evaluation that ended before it ran here shows its terminal status with no calls.
   */
  snapshot(): Promise<EvaluationSnapshot | null> {
    return Promise.resolve(this.instance.snapshot());
  }

  /** Stored calls with their timing, in recording order (for benchmarks: overhead = gaps between calls). */
  timings(): Promise<CallTiming[]> {
    return Promise.resolve(this.instance.store.timings());
  }

  /** The transcript the final write saved here, or null (see {@link EvaluationRpc.transcript}). */
  transcript(): Promise<TranscriptRow[] | null> {
    const json = this.instance.store.transcript();
    return Promise.resolve(json === null ? null : (JSON.parse(json) as TranscriptRow[]));
  }

  /** The task and verdict held here (see {@link EvaluationRpc.content}); a plain read, no replay. */
  content(): ReturnType<EvaluationRpc['content']> {
    const meta = this.instance.loaded?.meta ?? this.instance.store.meta();
    // Not started: a held job's task (./held.ts), queued or cancelled before it ran.
    const task = meta?.task ?? this.instance.store.held()?.task ?? null;
    return Promise.resolve({ task, verdict: meta?.verdict ?? null });
  }

  // ------------------------------------------------------------------------------------- alarm, fetch

  /** One step: an owed final write, or the ready calls, then re-arm (see step.ts). */
  override async alarm(): Promise<void> {
    if (!(await heldAlarm(this.instance, (i) => this.lifecycle.start(i)))) await this.stepper.alarm();
  }

  /**
   * Live events: a WebSocket upgrade is accepted with the hibernation API; any other request gets SSE.
   * Both first replay everything so far, then stream live events, and end after the terminal event.
   * The evaluation id comes in the {@link EVALUATION_ID_HEADER} header (set by `forwardEvents`). On an
   * object that never ran the evaluation, D1 is asked: an ended row gets its terminal status and the
   * stream closes at once instead of waiting for a start that will never come.
   */
  override async fetch(request: Request): Promise<Response> {
    const id =
      request.headers.get(EVALUATION_ID_HEADER) ??
      this.instance.loaded?.meta.id ??
      this.instance.store.ended()?.id ??
      this.ctx.id.name;
    if (id !== undefined && !this.isOwnId(id)) return new Response('wrong evaluation for this object', { status: 400 });
    let ended: EndedRow | null = null;
    if (!this.instance.load()) {
      ended = this.instance.store.ended();
      if (!ended && id !== undefined) {
        const row = await readStatus(await recordDb(this.env, id), id);
        // The input gate was open while D1 answered: a start or an end may have landed meanwhile.
        ended = this.instance.load() ? null : this.instance.store.ended();
        if (!this.instance.load() && !ended && row && isTerminal(row.status)) {
          ended = { id, status: row.status, error: storedError(row.error), at: row.updatedAt };
        }
      }
    }
    const { events, done } = this.replay(id ?? '', ended);
    return this.instance.streams.open(request, events, done);
  }

  /** Hibernation API: subscribers only listen; a `ping` text gets `pong`. */
  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    if (message === 'ping') ws.send('pong');
    return Promise.resolve();
  }

  /** Hibernation API: acknowledge the client's close. */
  override webSocketClose(ws: WebSocket, code: number): Promise<void> {
    try {
      ws.close(code === 1005 ? 1000 : code, 'bye');
    } catch {
      // Already closed.
    }
    return Promise.resolve();
  }

  /**
   * Everything so far for a new subscriber, and whether the subscription ends after it.
   * @param id the evaluation id (for an object that has not run it)
   * @param endedBefore set when the evaluation ended without running here
   */
  private replay(id: string, endedBefore: EndedRow | null): { events: EvaluationEvent[]; done: boolean } {
    const evaluation = this.instance.load();
    if (!evaluation) {
      if (endedBefore)
        return {
          events: [
            notRunEvent(endedBefore.id, endedBefore.status, parseStoredError(endedBefore.error), endedBefore.at),
          ],
          done: true,
        };
      return { events: [notRunEvent(id, 'queued' satisfies EvaluationStatus, null, Date.now())], done: false };
    }
    const ended = isTerminal(evaluation.meta.status) && evaluation.meta.finalized === 1;
    const events = replayEvents({
      status: this.instance.statusView(evaluation),
      ended,
      verdict: verdictOf(evaluation),
      stored: this.instance.store.storedResults(),
      inFlight: [...this.instance.inFlight.values()].map(({ request: r, startedAt }) => ({
        callId: r.id,
        agent: r.agent,
        label: r.label,
        stage: r.stage,
        startedAt,
      })),
    });
    return { events, done: ended };
  }

  /** Throws `wrong_object` (a rejected RPC) unless `id` is the evaluation this object was addressed for. */
  private checkId(id: string, op: string): void {
    if (!this.isOwnId(id))
      throw new PipelineError('wrong_object', `${op}(${id}) reached the object of another evaluation`);
  }

  private isOwnId(id: string): boolean {
    return this.env.EVALUATION.idFromName(id).equals(this.ctx.id);
  }
}
