/**
 * @module
 * `EvaluationDO`: one Durable Object per evaluation (`idFromName(evaluationId)`) that drives the engine
 * to a verdict from its alarm.
 *
 * Event-sourced: every LLM result is written to the object's SQLite (`results`, keyed by call id,
 * `INSERT OR IGNORE`) the moment it arrives and before anything else happens; the engine state is the
 * fold of `applyResult` over the stored results onto `createEvaluation(...)`, cached in memory and
 * rebuilt after eviction. A stored result is never requested again, so a repeated alarm, a repeated
 * queue delivery or an eviction mid-debate never repeats a call.
 *
 * Alarm loop: each invocation runs the ready calls concurrently (at most {@link MAX_PARALLEL_CALLS}, the
 * platform's open-connection limit per invocation), stores each result, and launches calls the result
 * made ready at once while within `STEP_BUDGET_MS` (default 30 s; `0` = one round per alarm); then it
 * re-arms with `setAlarm(Date.now() + 1)` while work remains. The final write (verdict, transcript,
 * usage rows, status) is one D1 `batch()`, guarded by a `finalized` flag and retried until it lands.
 *
 * Ended before it ran: an evaluation cancelled or failed while this object had not started it (still
 * queued, or D1 answering `start`'s read) leaves an `ended` marker in the object's SQLite. `start` checks
 * it after every await, so a late fast start or queue delivery never runs a cancelled evaluation, and
 * subscribers get the terminal status at once.
 *
 * Per-call timing for benchmarks: `results.started_at` / `results.finished_at` (epoch ms, taken around
 * the LLM function) and `results.latency_ms` (the LLM layer's own wall time); see {@link EvaluationDO.timings}.
 */
import { DurableObject } from 'cloudflare:workers';
import type { LlmCallRequest, LlmCallResult, LlmFunction } from '../src/engine/call.js';
import type { AnyMethod } from '../src/engine/method.js';
import type { EngineState, Outcome } from '../src/engine/protocol.js';
import { applyResult, createEvaluation, EngineInputError, outcome, plannedCalls, readyCalls } from '../src/engine/protocol.js';
import { getMethod } from '../src/engine/registry.js';
import type { Task } from '../src/engine/task.js';
import type { Bindings } from '../src/env.js';
import { createLlm } from '../src/llm/client.js';
import { llmEnvOf, LlmSettingsError, settingsFromEnv } from '../src/llm/settings.js';
import { PipelineError } from '../src/pipeline/errors.js';
import type { EvaluationError, EvaluationEvent, EvaluationStatus } from '../src/pipeline/events.js';
import { encodeSse, encodeWs, isTerminal } from '../src/pipeline/events.js';
import { log, messageOf } from '../src/pipeline/log.js';
import { SseHub } from '../src/pipeline/sse.js';
import { EVALUATION_ID_HEADER } from '../src/pipeline/stub.js';
import type { StartJob, UsageRow } from '../src/store/results.js';
import { loadJob, markEnded, markRunning, readStatus, recordProgress, writeFinal } from '../src/store/results.js';

/** The error stored as JSON text in the object's `error` columns, or null when there is none. */
function parseStoredError(text: string | null): EvaluationError | null {
  return text ? (JSON.parse(text) as EvaluationError) : null;
}

/** Calls started per alarm invocation at most: Workers allow 6 open outgoing connections per invocation. */
export const MAX_PARALLEL_CALLS = 6;

/** Consecutive throwing alarm invocations after which the evaluation is failed with `internal_error`. Default 5. */
export const MAX_ALARM_FAILURES = 5;

/** Default of `STEP_BUDGET_MS`: how long one alarm invocation keeps launching new calls, ms. */
export const DEFAULT_STEP_BUDGET_MS = 30_000;

/** Reads `STEP_BUDGET_MS` (ms; `0` = one round of ready calls per alarm invocation). Default {@link DEFAULT_STEP_BUDGET_MS}. */
export function stepBudgetMs(raw: string | undefined): number {
  const n = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(n) && n >= 0 ? n : DEFAULT_STEP_BUDGET_MS;
}

/** Delay before the first retry of a failed final D1 write, ms; doubles per consecutive failure. */
export const FINALIZE_RETRY_MS = 1_000;

/** Cap of the final write's retry delay, ms (5 min): a D1 outage must not become a busy loop. */
export const FINALIZE_MAX_RETRY_MS = 5 * 60_000;

/**
 * Consecutive failed final writes after which each further failure asks D1 whether the row still
 * exists: a deleted row can never take the write, so the object gives up instead of retrying forever.
 */
export const FINALIZE_CHECK_AFTER = 5;

/** What {@link EvaluationDO.snapshot} returns for progress (`GET /v1/evaluations/:id`). */
export interface EvaluationSnapshot {
  status: EvaluationStatus;
  /** LLM results stored so far (repairs included). */
  callsDone: number;
  /** Planned first-attempt calls (repairs excluded), so `callsDone` may exceed it. */
  callsPlanned: number;
  /** Epoch ms when the object started the evaluation. */
  startedAt: number;
  /** Epoch ms of the last stored result or status change. */
  updatedAt: number;
  error?: EvaluationError;
}

/** One stored call with its timing, for benchmarks and debugging (see {@link EvaluationDO.timings}). */
export interface CallTiming {
  callId: string;
  ok: boolean;
  /** Epoch ms just before the LLM function was called. */
  startedAt: number;
  /** Epoch ms when the result was stored. */
  finishedAt: number;
  /** The LLM layer's wall time including its retries, ms (null when it did not report one). */
  latencyMs: number | null;
  /** Attempts the LLM layer made. */
  attempts: number;
}

/** `start()` outcome: the status after the call; `not_found` when D1 has no such evaluation. */
export type StartResult = { status: EvaluationStatus | 'not_found' };

/** The single `evaluation` row of the object's SQLite. */
type MetaRow = {
  id: string;
  tenant: string;
  method: string;
  config: string;
  task: string;
  status: EvaluationStatus;
  calls_planned: number;
  started_at: number;
  updated_at: number;
  error: string | null;
  finalized: number;
  alarm_failures: number;
  /** Consecutive failed final writes (backoff and the give-up check); in storage so eviction keeps it. */
  finalize_failures: number;
};

/**
 * The `ended` marker: the evaluation ended (cancel, DLQ failure, invalid or already-ended job) while this
 * object had not started it, so there is no `evaluation` row to carry the status.
 */
type EndedRow = {
  id: string;
  status: EvaluationStatus;
  error: string | null;
  at: number;
};

/** A `results` row. */
type ResultRow = {
  seq: number;
  call_id: string;
  agent: string;
  label: string;
  stage: string;
  ok: number;
  result: string;
  attempts: number;
  started_at: number;
  finished_at: number;
  latency_ms: number | null;
};

/** What is held in memory (a cache of storage, rebuilt after eviction). */
interface Loaded {
  meta: MetaRow;
  method: AnyMethod;
  state: EngineState;
  callsDone: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS evaluation (
  singleton      INTEGER PRIMARY KEY CHECK (singleton = 1),
  id             TEXT NOT NULL,
  tenant         TEXT NOT NULL,
  method         TEXT NOT NULL,
  config         TEXT NOT NULL,
  task           TEXT NOT NULL,
  status         TEXT NOT NULL,
  calls_planned  INTEGER NOT NULL,
  started_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL,
  error          TEXT,
  finalized      INTEGER NOT NULL DEFAULT 0,
  alarm_failures INTEGER NOT NULL DEFAULT 0,
  finalize_failures INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS ended (
  singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
  id        TEXT NOT NULL,
  status    TEXT NOT NULL,
  error     TEXT,
  at        INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  call_id     TEXT NOT NULL UNIQUE,
  agent       TEXT NOT NULL,
  label       TEXT NOT NULL,
  stage       TEXT NOT NULL,
  ok          INTEGER NOT NULL,
  result      TEXT NOT NULL,
  attempts    INTEGER NOT NULL,
  started_at  INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  latency_ms  INTEGER
);`;

/** The Durable Object that runs one evaluation. RPC: {@link start}, {@link cancel}, {@link fail}, {@link snapshot}; `fetch` serves events. */
export class EvaluationDO extends DurableObject<Bindings> {
  /** Cache of storage; null until loaded or when the object was never started. */
  private loaded: Loaded | null = null;
  /** Calls this instance is waiting on, by id, with their request and start time: never sent twice. */
  private readonly inFlight = new Map<string, { request: LlmCallRequest; startedAt: number }>();
  /** Open SSE streams with backpressure and keep-alive (not hibernatable; WebSockets are, and live in `ctx.getWebSockets()`). */
  private readonly sse = new SseHub();
  private llm: LlmFunction | null = null;
  /** One `start()` at a time: concurrent starts share the first one's D1 read. */
  private starting: Promise<StartResult> | null = null;
  /**
   * The final write in progress: end() awaits D1 (the input gate opens), so the alarm may reach
   * finalize() meanwhile; both then share this one write instead of writing and broadcasting twice.
   */
  private finalizing: Promise<void> | null = null;
  /** Progress write coalescing: one D1 write in flight, the latest value written after it. */
  private progressInFlight = false;
  private progressPending = false;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    // Synchronous SQLite: no blockConcurrencyWhile needed for the schema.
    ctx.storage.sql.exec(SCHEMA);
    // Objects created before finalize_failures existed have the table without it (CREATE ... IF NOT
    // EXISTS leaves an existing table alone).
    const columns = ctx.storage.sql.exec<{ name: string }>('PRAGMA table_info(evaluation)').toArray();
    if (!columns.some((c) => c.name === 'finalize_failures')) {
      ctx.storage.sql.exec('ALTER TABLE evaluation ADD COLUMN finalize_failures INTEGER NOT NULL DEFAULT 0');
    }
  }

  // ---------------------------------------------------------------------------------------------- RPC

  /**
   * Starts the evaluation `id` (idempotent). The first call loads the row from D1, stores config, task
   * and tenant here, marks it running in D1 and arms the alarm; later calls only make sure an alarm is
   * armed while work remains (or the final write is still owed). An evaluation D1 already shows as ended
   * is not started.
   *
   * @param job the row as just inserted, when the caller has it (the API's fast start): saves the D1
   *   read on the critical path. The queue consumer and the sweeper pass only the id. Any `status` the
   *   caller puts in it is ignored: a cancel may have landed since; this object's `ended` marker and
   *   D1 (checked by `markRunning`) decide.
   */
  async start(id: string, job?: StartJob): Promise<StartResult> {
    this.checkId(id, 'start');
    const current = this.load();
    if (current) {
      await this.ensureAlarm(current.meta);
      return { status: current.meta.status };
    }
    const ended = this.endedMarker();
    // Re-sent every time: an end whose D1 write failed would otherwise leave D1 `queued` forever, and
    // the sweeper's start is what retries it.
    if (ended) return this.settleEnded(ended);
    this.starting ??= this.firstStart(id, job?.id === id ? job : undefined).finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /**
   * Cancels: no new LLM calls are made; results of calls already in flight are still stored (and
   * billed). D1 shows `cancelled` when this returns. No-op on an ended evaluation.
   * @param id the evaluation id (checked against this object's id: `ctx.id.name` may be undefined in production).
   * @param reason optional human reason, stored as the error message (code `cancelled`).
   */
  async cancel(id: string, reason?: string): Promise<{ status: EvaluationStatus | 'not_found' }> {
    this.checkId(id, 'cancel');
    const error: EvaluationError = { code: 'cancelled', message: reason ?? 'cancelled by the caller' };
    return this.end(id, 'cancelled', error);
  }

  /**
   * Ends the evaluation `id` as failed with a pipeline reason (e.g. `queue_delivery_failed` from the DLQ
   * consumer) unless it has already ended. Calls in flight are recorded, no new ones are made.
   */
  async fail(id: string, error: EvaluationError): Promise<{ status: EvaluationStatus | 'not_found' }> {
    this.checkId(id, 'fail');
    return this.end(id, 'failed', error);
  }

  /**
   * Progress for `GET /v1/evaluations/:id`, or null when this object never started an evaluation. An
   * evaluation that ended before it ran here shows its terminal status with no calls.
   */
  snapshot(): Promise<EvaluationSnapshot | null> {
    const l = this.load();
    if (!l) {
      const ended = this.endedMarker();
      if (!ended) return Promise.resolve(null);
      const error = parseStoredError(ended.error);
      return Promise.resolve({ status: ended.status, callsDone: 0, callsPlanned: 0, startedAt: ended.at, updatedAt: ended.at, ...(error ? { error } : {}) });
    }
    const error = parseStoredError(l.meta.error);
    return Promise.resolve({
      status: l.meta.status,
      callsDone: l.callsDone,
      callsPlanned: l.meta.calls_planned,
      startedAt: l.meta.started_at,
      updatedAt: l.meta.updated_at,
      ...(error ? { error } : {}),
    });
  }

  /** Stored calls with their timing, in recording order (for benchmarks: overhead = gaps between calls). */
  timings(): Promise<CallTiming[]> {
    const rows = this.ctx.storage.sql
      .exec<{ call_id: string; ok: number; started_at: number; finished_at: number; latency_ms: number | null; attempts: number }>(
        'SELECT call_id, ok, started_at, finished_at, latency_ms, attempts FROM results ORDER BY seq',
      )
      .toArray();
    return Promise.resolve(
      rows.map((r) => ({
        callId: r.call_id,
        ok: r.ok === 1,
        startedAt: r.started_at,
        finishedAt: r.finished_at,
        latencyMs: r.latency_ms,
        attempts: r.attempts,
      })),
    );
  }

  /**
   * Live events: a WebSocket upgrade is accepted with the hibernation API; any other request gets SSE.
   * Both first replay everything so far, then stream live events, and end after the terminal event.
   * The evaluation id comes in the {@link EVALUATION_ID_HEADER} header (set by `forwardEvents`). On an
   * object that never ran the evaluation, D1 is asked: an ended row gets its terminal status and the
   * stream closes at once instead of waiting for a start that will never come.
   */
  override async fetch(request: Request): Promise<Response> {
    const id = request.headers.get(EVALUATION_ID_HEADER) ?? this.loaded?.meta.id ?? this.endedMarker()?.id ?? this.ctx.id.name;
    if (id !== undefined && !this.isOwnId(id)) return new Response('wrong evaluation for this object', { status: 400 });
    let ended: EndedRow | null = null;
    if (!this.load()) {
      ended = this.endedMarker();
      if (!ended && id !== undefined) {
        const row = await readStatus(this.env.DB, id);
        // The input gate was open while D1 answered: a start or an end may have landed meanwhile.
        ended = this.load() ? null : this.endedMarker();
        if (!this.load() && !ended && row && isTerminal(row.status)) {
          ended = { id, status: row.status, error: row.error ? JSON.stringify(row.error) : null, at: row.updatedAt };
        }
      }
    }
    const replay = this.replay(id ?? '', ended);
    const done = ended !== null || (this.loaded !== null && isTerminal(this.loaded.meta.status) && this.loaded.meta.finalized === 1);
    if (request.headers.get('Upgrade')?.toLowerCase() === 'websocket') {
      const pair = new WebSocketPair();
      const [client, server] = [pair[0], pair[1]];
      this.ctx.acceptWebSocket(server);
      for (const e of replay) server.send(encodeWs(e));
      if (done) server.close(1000, 'evaluation ended');
      return new Response(null, { status: 101, webSocket: client });
    }
    const readable = this.sse.open(replay.map(encodeSse).join(''), done);
    return new Response(readable, {
      headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache', 'X-Accel-Buffering': 'no' },
    });
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

  // -------------------------------------------------------------------------------------------- alarm

  /**
   * One step: finishes an owed final write, or runs the ready calls (at most {@link MAX_PARALLEL_CALLS})
   * and re-arms. A throw lets the platform retry; after {@link MAX_ALARM_FAILURES} consecutive throws
   * the evaluation fails with `internal_error`.
   */
  override async alarm(): Promise<void> {
    const l = this.load();
    if (!l) return;
    try {
      await this.step(l);
      if (l.meta.alarm_failures > 0) {
        this.ctx.storage.sql.exec('UPDATE evaluation SET alarm_failures = 0');
        l.meta.alarm_failures = 0;
      }
    } catch (e) {
      const failures = l.meta.alarm_failures + 1;
      l.meta.alarm_failures = failures;
      this.ctx.storage.sql.exec('UPDATE evaluation SET alarm_failures = ?', failures);
      log('error', 'alarm.error', { evaluationId: l.meta.id, failures, error: messageOf(e) });
      if (failures >= MAX_ALARM_FAILURES) {
        this.setTerminal(l, 'failed', { code: 'internal_error', message: `gave up after ${failures} failed steps: ${messageOf(e)}` });
        await this.finalize(l);
        return;
      }
      throw e;
    }
  }

  /**
   * Ends the step when there is nothing left to run: an ended evaluation gets its owed final write (once
   * no call is in flight), a concluded protocol gets its outcome applied and written. True when it ended.
   */
  private async settled(l: Loaded): Promise<boolean> {
    if (isTerminal(l.meta.status)) {
      // Ended (cancel/fail/outcome) but the final write is owed: wait for calls in flight, then write.
      if (l.meta.finalized === 0 && this.inFlight.size === 0) await this.finalize(l);
      return true;
    }
    const done = outcome(l.method, l.state);
    if (!done) return false;
    this.applyOutcome(l, done);
    await this.finalize(l);
    return true;
  }

  private async step(l: Loaded): Promise<void> {
    if (await this.settled(l)) return;
    if (!this.llmFn()) {
      // Misconfigured deployment (e.g. LLM_BASE_URL empty): retrying cannot help, so end it with the reason.
      await this.settled(l);
      return;
    }
    const ran = await this.pool(l);
    // Everything ready is already in flight in this instance: whoever started it re-arms.
    if (ran === 'in_flight') return;
    if (ran === 'stuck') {
      this.setTerminal(l, 'failed', { code: 'engine_stuck', message: `method "${l.meta.method}" listed no calls and no verdict` });
      await this.finalize(l);
      return;
    }

    if (await this.settled(l)) return;
    // Calls still in flight belong to a concurrent invocation of this instance, which re-arms itself.
    if (this.inFlight.size > 0) return;
    // Inside alarm(), Date.now() alone is dropped after a few hops locally; +1 chains reliably.
    await this.ctx.storage.setAlarm(Date.now() + 1);
  }

  /**
   * Runs ready calls, at most {@link MAX_PARALLEL_CALLS} at once, launching each newly ready call as soon
   * as a result makes it ready (no alarm hop between dependent calls: a hop cost 10-40 ms locally, more
   * than the per-call overhead target). New calls are launched only within the step budget
   * (`STEP_BUDGET_MS`); the calls of the first round always are. Waits for every launched call; rethrows
   * the first thrown error after all have settled (their results are stored).
   * @returns `ran` once calls were launched; when the first round found no ready call that is not already
   *   in flight here, `in_flight` if this instance has calls in flight, else `stuck`.
   */
  private async pool(l: Loaded): Promise<'ran' | 'in_flight' | 'stuck'> {
    const budget = stepBudgetMs(this.env.STEP_BUDGET_MS);
    const began = Date.now();
    const running = new Map<string, Promise<void>>();
    // Set from the calls' callbacks; the assertion keeps TS from narrowing it to `null` for good.
    let thrown = null as { error: unknown } | null;
    let first = true;
    for (;;) {
      const firstRound = first;
      const open = first || Date.now() - began < budget;
      first = false;
      if (open && !thrown && running.size < MAX_PARALLEL_CALLS && !isTerminal(l.meta.status) && outcome(l.method, l.state) === null) {
        for (const req of readyCalls(l.method, l.state)) {
          if (running.size >= MAX_PARALLEL_CALLS) break;
          if (this.inFlight.has(req.id)) continue;
          const p = this.call(l, req)
            .catch((e: unknown) => {
              thrown ??= { error: e };
            })
            .finally(() => running.delete(req.id));
          running.set(req.id, p);
        }
      }
      if (running.size === 0) {
        if (firstRound) return this.inFlight.size > 0 ? 'in_flight' : 'stuck';
        break;
      }
      await Promise.race(running.values());
    }
    if (thrown) throw thrown.error;
    return 'ran';
  }

  /** Makes one LLM call and stores its result the moment it arrives. Throws only for bugs/storage errors. */
  private async call(l: Loaded, request: LlmCallRequest): Promise<void> {
    const startedAt = Date.now();
    this.inFlight.set(request.id, { request, startedAt });
    this.broadcast({
      type: 'call.started',
      data: {
        evaluationId: l.meta.id,
        callId: request.id,
        agent: request.agent,
        label: request.label,
        stage: request.stage,
        ...(request.model !== undefined ? { model: request.model } : {}),
        at: startedAt,
      },
    });
    let result: LlmCallResult;
    try {
      const llm = this.llmFn();
      if (!llm) throw new Error('LLM settings vanished after step() checked them');
      result = await llm(request);
    } finally {
      this.inFlight.delete(request.id);
    }
    this.record(l, request, result, startedAt);
  }

  /**
   * Stores a result (INSERT OR IGNORE on the call id) and folds it into the cached state, synchronously,
   * so the stored order is the applied order and a rebuild after eviction gives the same state.
   */
  private record(l: Loaded, request: LlmCallRequest, result: LlmCallResult, startedAt: number): void {
    const finishedAt = Date.now();
    const latencyMs = result.ok ? (result.latencyMs ?? finishedAt - startedAt) : finishedAt - startedAt;
    const attempts = result.attempts ?? 1;
    const cursor = this.ctx.storage.sql.exec(
      `INSERT OR IGNORE INTO results (call_id, agent, label, stage, ok, result, attempts, started_at, finished_at, latency_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      request.id,
      request.agent,
      request.label,
      request.stage,
      result.ok ? 1 : 0,
      JSON.stringify(result),
      attempts,
      startedAt,
      finishedAt,
      latencyMs,
    );
    if (cursor.rowsWritten === 0) {
      log('warn', 'call.duplicate', { evaluationId: l.meta.id, callId: request.id });
      return;
    }
    l.state = applyResult(l.method, l.state, result);
    l.callsDone += 1;
    l.meta.updated_at = finishedAt;
    this.ctx.storage.sql.exec('UPDATE evaluation SET updated_at = ?', finishedAt);
    log(result.ok ? 'info' : 'warn', 'call.finished', {
      evaluationId: l.meta.id,
      callId: request.id,
      agent: request.agent,
      ok: result.ok,
      latencyMs,
      attempts,
      overheadMs: result.ok && result.latencyMs !== undefined ? finishedAt - startedAt - result.latencyMs : undefined,
      errorCode: result.ok ? undefined : result.error.code,
    });
    this.broadcast(this.finishedEvent(l.meta.id, request.id, request.agent, request.label, request.stage, result, startedAt, finishedAt, latencyMs));
    this.pushProgress(l);
  }

  // ------------------------------------------------------------------------------------ state & storage

  /** The cached state, or rebuilt from storage (after eviction): meta row + fold over stored results. */
  private load(): Loaded | null {
    if (this.loaded) return this.loaded;
    const meta = this.ctx.storage.sql.exec<MetaRow>('SELECT * FROM evaluation').toArray()[0];
    if (!meta) return null;
    const method = getMethod(meta.method);
    let state = createEvaluation(method, JSON.parse(meta.config) as EngineState['config'], JSON.parse(meta.task) as Task);
    let callsDone = 0;
    for (const row of this.ctx.storage.sql.exec<Pick<ResultRow, 'result'>>('SELECT result FROM results ORDER BY seq')) {
      state = applyResult(method, state, JSON.parse(row.result) as LlmCallResult);
      callsDone += 1;
    }
    this.loaded = { meta, method, state, callsDone };
    return this.loaded;
  }

  private async firstStart(id: string, given?: StartJob): Promise<StartResult> {
    let job: StartJob;
    if (given) {
      job = given;
    } else {
      const row = await loadJob(this.env.DB, id);
      // The input gate was open while D1 answered: a concurrent start may have finished, or a cancel /
      // fail may have ended the evaluation here (it leaves the `ended` marker).
      const again = this.load();
      if (again) return { status: again.meta.status };
      const ended = this.endedMarker();
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
      job = row;
    }
    const now = Date.now();
    let method: AnyMethod;
    let state: EngineState;
    let planned: number;
    try {
      method = getMethod(job.method);
      state = createEvaluation(method, JSON.parse(job.config) as EngineState['config'], JSON.parse(job.task) as Task);
      planned = plannedCalls(method, state);
    } catch (e) {
      // Bad stored input cannot get better by retrying: fail it (the API validates, so this is rare).
      const code = e instanceof EngineInputError ? e.code : 'invalid_evaluation';
      const error: EvaluationError = { code, message: messageOf(e) };
      log('error', 'start.invalid', { evaluationId: id, error: messageOf(e) });
      // Marker first (synchronous), so a start or cancel arriving while D1 answers sees the end. A D1
      // error propagates (the queue retries; the sweeper's start re-sends it from the marker).
      return this.settleEnded(this.endHere(id, 'failed', error));
    }
    this.ctx.storage.sql.exec(
      `INSERT OR IGNORE INTO evaluation (singleton, id, tenant, method, config, task, status, calls_planned, started_at, updated_at)
       VALUES (1, ?, ?, ?, ?, ?, 'running', ?, ?, ?)`,
      id,
      job.tenant,
      job.method,
      job.config,
      job.task,
      planned,
      now,
      now,
    );
    const meta: MetaRow = {
      id,
      tenant: job.tenant,
      method: job.method,
      config: job.config,
      task: job.task,
      status: 'running',
      calls_planned: planned,
      started_at: now,
      updated_at: now,
      error: null,
      finalized: 0,
      alarm_failures: 0,
      finalize_failures: 0,
    };
    const l: Loaded = { meta, method, state, callsDone: 0 };
    this.loaded = l;
    await this.ctx.storage.setAlarm(Date.now() + 1);
    // Off the critical path: the first call need not wait for D1. The guard (status queued/running)
    // keeps the write from reviving an ended row, and confirmRunning ends the run here if it had ended.
    this.ctx.waitUntil(this.confirmRunning(l, planned, now));
    log('info', 'evaluation.started', { evaluationId: id, method: job.method, callsPlanned: planned });
    this.broadcast(this.statusEvent(l));
    return { status: 'running' };
  }

  /**
   * Marks D1 running; when no row changed, D1 has ended the evaluation without this object knowing (a
   * DLQ failure written straight to D1, a cancel that reached a different path) or the row is gone: the
   * run ends here with D1's status, no new calls are made, and results of calls in flight are still
   * stored (their usage is billed in the final write).
   */
  private async confirmRunning(l: Loaded, planned: number, now: number): Promise<void> {
    try {
      if (await markRunning(this.env.DB, l.meta.id, planned, now)) return;
      const row = await readStatus(this.env.DB, l.meta.id);
      if (isTerminal(l.meta.status)) return;
      if (!row) {
        this.abandonMissingRow(l, 'start.row_missing');
        return;
      }
      if (!isTerminal(row.status)) return;
      log('warn', 'start.ended_elsewhere', { evaluationId: l.meta.id, status: row.status });
      this.setTerminal(l, row.status, row.error);
      await this.afterEnd(l);
    } catch (e) {
      log('warn', 'start.mark_running_failed', { evaluationId: l.meta.id, error: messageOf(e) });
    }
  }

  /** Throws `wrong_object` unless `id` is the evaluation this object was addressed for. */
  private checkId(id: string, op: string): void {
    if (!this.isOwnId(id)) throw new PipelineError('wrong_object', `${op}(${id}) reached the object of another evaluation`);
  }

  private isOwnId(id: string): boolean {
    return this.env.EVALUATION.idFromName(id).equals(this.ctx.id);
  }

  /** The `ended` marker, or null. */
  private endedMarker(): EndedRow | null {
    return this.ctx.storage.sql.exec<EndedRow>('SELECT id, status, error, at FROM ended').toArray()[0] ?? null;
  }

  /**
   * The D1 row is gone: nothing can take the final write (usage rows would violate the foreign key), so
   * stop here for good: failed `not_found`, finalized, streams told and closed.
   */
  private abandonMissingRow(l: Loaded, event: string): void {
    log('error', event, { evaluationId: l.meta.id });
    this.setTerminal(l, 'failed', { code: 'not_found', message: 'the evaluation row no longer exists in D1' });
    l.meta.finalized = 1;
    this.ctx.storage.sql.exec('UPDATE evaluation SET finalized = 1');
    for (const e of this.terminalEvents(l)) this.broadcast(e);
    this.closeStreams();
  }

  /**
   * Records that the evaluation ended without running here: a synchronous storage write, so it holds
   * before any await lets a start in. Subscribers are told later ({@link announceEnded}), once D1 has
   * settled the status: D1 may have ended the row otherwise already.
   */
  private endHere(id: string, status: EvaluationStatus, error: EvaluationError | null): EndedRow {
    const row: EndedRow = { id, status, error: error ? JSON.stringify(error) : null, at: Date.now() };
    this.ctx.storage.sql.exec(
      'INSERT OR REPLACE INTO ended (singleton, id, status, error, at) VALUES (1, ?, ?, ?, ?)',
      row.id,
      row.status,
      row.error,
      row.at,
    );
    return row;
  }

  /** Sends the marker's terminal status to every subscriber and closes their streams. */
  private announceEnded(row: EndedRow): void {
    this.broadcast(this.endedEvent(row));
    this.closeStreams();
  }

  /**
   * Makes D1 agree with the `ended` marker and returns the settled status: re-sends the guarded,
   * idempotent `markEnded` (an earlier attempt may have thrown after the marker was written, which
   * would leave D1 `queued` and the sweeper re-kicking it forever); when it changes nothing, D1 already
   * ended the row (the marker adopts D1's status) or has no such row (the marker goes). Subscribers get
   * the settled status. A D1 error propagates, so the API or the queue can retry; streams stay open
   * until a retry settles it.
   */
  private async settleEnded(marker: EndedRow): Promise<StartResult> {
    if (marker.status !== 'failed' && marker.status !== 'cancelled') {
      // Taken from D1 itself (firstStart): nothing to write back.
      return { status: marker.status };
    }
    const error = parseStoredError(marker.error);
    if (await markEnded(this.env.DB, marker.id, marker.status, error, Date.now())) {
      this.announceEnded(this.endedMarker() ?? marker);
      return { status: marker.status };
    }
    const row = await readStatus(this.env.DB, marker.id);
    if (!row) {
      this.ctx.storage.sql.exec('DELETE FROM ended');
      this.closeStreams();
      return { status: 'not_found' };
    }
    if (isTerminal(row.status)) {
      const d1Error = row.error ? JSON.stringify(row.error) : null;
      this.ctx.storage.sql.exec('UPDATE ended SET status = ?, error = ?', row.status, d1Error);
      this.announceEnded({ ...marker, status: row.status, error: d1Error });
    }
    return { status: row.status };
  }

  /** Arms the alarm if work (or the final write) remains and no invocation of this instance is busy. */
  private async ensureAlarm(meta: MetaRow): Promise<void> {
    const owed = !isTerminal(meta.status) || meta.finalized === 0;
    if (!owed || this.inFlight.size > 0) return;
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + 1);
  }

  private async end(
    id: string,
    status: 'failed' | 'cancelled',
    error: EvaluationError,
  ): Promise<{ status: EvaluationStatus | 'not_found' }> {
    const l = this.load();
    if (!l) {
      const ended = this.endedMarker();
      // Already ended here: re-send the marker's end, as its first D1 write may have failed.
      if (ended) return this.settleEnded(ended);
      // Never started here (still queued, or start() is waiting on D1): leave the marker before the D1
      // write opens the input gate, so a start arriving meanwhile (a fast start whose job still says
      // queued, a queue delivery) returns instead of running the evaluation.
      return this.settleEnded(this.endHere(id, status, error));
    }
    if (isTerminal(l.meta.status)) return { status: l.meta.status };
    this.setTerminal(l, status, error);
    // D1 shows the end at once; usage rows of calls still in flight follow in the final write.
    await markEnded(this.env.DB, l.meta.id, status, error, Date.now());
    await this.afterEnd(l);
    return { status };
  }

  /** After an end decided here: the final write now, or once the calls in flight are stored. */
  private async afterEnd(l: Loaded): Promise<void> {
    if (this.inFlight.size === 0) await this.finalize(l);
    else await this.ctx.storage.setAlarm(Date.now() + 1);
  }

  private applyOutcome(l: Loaded, o: Outcome): void {
    if (o.status === 'succeeded') this.setTerminal(l, 'succeeded', null);
    else this.setTerminal(l, 'failed', { ...o.error });
  }

  private setTerminal(l: Loaded, status: EvaluationStatus, error: EvaluationError | null): void {
    const now = Date.now();
    l.meta.status = status;
    l.meta.error = error ? JSON.stringify(error) : null;
    l.meta.updated_at = now;
    this.ctx.storage.sql.exec('UPDATE evaluation SET status = ?, error = ?, updated_at = ?', status, l.meta.error, now);
    log(status === 'succeeded' ? 'info' : 'warn', 'evaluation.ended', {
      evaluationId: l.meta.id,
      status,
      errorCode: error?.code,
      error: error?.message,
    });
  }

  /**
   * The final D1 write, exactly once: verdict + transcript + usage + status in ONE batch, then the
   * `finalized` flag. On failure an alarm retries it. Then the terminal events go out and streams close.
   * Single-flight: concurrent callers (end() and the alarm) share the write in progress.
   */
  private finalize(l: Loaded): Promise<void> {
    if (l.meta.finalized === 1) return Promise.resolve();
    this.finalizing ??= this.writeFinalOnce(l).finally(() => {
      this.finalizing = null;
    });
    return this.finalizing;
  }

  private async writeFinalOnce(l: Loaded): Promise<void> {
    if (l.meta.finalized === 1) return;
    const status = l.meta.status;
    if (status !== 'succeeded' && status !== 'failed' && status !== 'cancelled') return;
    const o = outcome(l.method, l.state);
    const verdict = status === 'succeeded' && o?.status === 'succeeded' ? o.verdict : undefined;
    const error = parseStoredError(l.meta.error);
    try {
      const changed = await writeFinal(this.env.DB, {
        id: l.meta.id,
        tenant: l.meta.tenant,
        status,
        ...(verdict ? { verdict } : {}),
        ...(error ? { error } : {}),
        usage: this.usageRows(),
        callsDone: l.callsDone,
        now: Date.now(),
      });
      // Nothing changed: D1 had ended the row already (the DLQ fallback, or this object's own markEnded)
      // or it is gone. Subscribers and the snapshot must show what D1 shows, not what was decided here.
      if (!changed && !(await this.adoptD1End(l))) return;
    } catch (e) {
      await this.finalizeFailed(l, e);
      return;
    }
    l.meta.finalized = 1;
    this.ctx.storage.sql.exec('UPDATE evaluation SET finalized = 1');
    log('info', 'evaluation.finalized', { evaluationId: l.meta.id, status: l.meta.status, calls: l.callsDone });
    for (const e of this.terminalEvents(l)) this.broadcast(e);
    this.closeStreams();
  }

  /**
   * After a final write that changed no status: takes D1's terminal status and error. False when the
   * row is gone (the object gave up, see {@link abandonMissingRow}), so the caller stops.
   */
  private async adoptD1End(l: Loaded): Promise<boolean> {
    const row = await readStatus(this.env.DB, l.meta.id);
    if (!row) {
      this.abandonMissingRow(l, 'finalize.row_missing');
      return false;
    }
    if (!isTerminal(row.status)) return true;
    const error = row.error;
    // The usual case is this object's own earlier markEnded (a cancel): same status, nothing to adopt.
    if (row.status !== l.meta.status || (error ? JSON.stringify(error) : null) !== l.meta.error) {
      log('warn', 'finalize.ended_elsewhere', { evaluationId: l.meta.id, local: l.meta.status, d1: row.status });
      this.setTerminal(l, row.status, error);
    }
    return true;
  }

  /**
   * A failed final write: retried by the alarm with exponential backoff ({@link FINALIZE_RETRY_MS}
   * doubling, capped at {@link FINALIZE_MAX_RETRY_MS}). The count lives in storage, apart from
   * `alarm_failures`, because the alarm itself returns normally. From {@link FINALIZE_CHECK_AFTER}
   * failures on, a row missing in D1 ends the retries: that write can never land.
   */
  private async finalizeFailed(l: Loaded, e: unknown): Promise<void> {
    const failures = l.meta.finalize_failures + 1;
    l.meta.finalize_failures = failures;
    this.ctx.storage.sql.exec('UPDATE evaluation SET finalize_failures = ?', failures);
    log('error', 'finalize.error', { evaluationId: l.meta.id, failures, error: messageOf(e) });
    if (failures >= FINALIZE_CHECK_AFTER) {
      try {
        if ((await readStatus(this.env.DB, l.meta.id)) === null) {
          this.abandonMissingRow(l, 'finalize.row_missing');
          return;
        }
      } catch (readError) {
        // D1 itself is failing: keep retrying with backoff.
        log('warn', 'finalize.check_failed', { evaluationId: l.meta.id, error: messageOf(readError) });
      }
    }
    const delay = Math.min(FINALIZE_RETRY_MS * 2 ** Math.min(failures - 1, 30), FINALIZE_MAX_RETRY_MS);
    await this.ctx.storage.setAlarm(Date.now() + delay);
  }

  /** Usage rows of every successful stored call. */
  private usageRows(): UsageRow[] {
    const rows = this.ctx.storage.sql
      .exec<Pick<ResultRow, 'result' | 'attempts' | 'finished_at' | 'latency_ms'>>(
        'SELECT result, attempts, finished_at, latency_ms FROM results WHERE ok = 1 ORDER BY seq',
      )
      .toArray();
    const out: UsageRow[] = [];
    for (const r of rows) {
      const res = JSON.parse(r.result) as LlmCallResult;
      if (!res.ok) continue;
      out.push({ callId: res.id, model: res.model, usage: res.usage, attempts: r.attempts, latencyMs: r.latency_ms, at: r.finished_at });
    }
    return out;
  }

  /** Keeps D1's `calls_done` / `updated_at` fresh off the critical path: never awaited by the call loop. */
  private pushProgress(l: Loaded): void {
    if (this.progressInFlight) {
      this.progressPending = true;
      return;
    }
    this.progressInFlight = true;
    const write = async (): Promise<void> => {
      try {
        do {
          this.progressPending = false;
          await recordProgress(this.env.DB, l.meta.id, l.callsDone, Date.now());
          // Callers set it again while we awaited; TS cannot see that and would narrow it to `false`.
        } while (this.progressPending as boolean);
      } catch (e) {
        log('warn', 'progress.error', { evaluationId: l.meta.id, error: messageOf(e) });
      } finally {
        this.progressInFlight = false;
      }
    };
    this.ctx.waitUntil(write());
  }

  /**
   * The LLM function, or null after ending the evaluation `failed` with the settings' own code (e.g.
   * `llm_not_configured`) when the deployment's LLM variables are unusable: a retry cannot fix that, so
   * the alarm must not throw its way to `internal_error`.
   */
  private llmFn(): LlmFunction | null {
    if (this.llm) return this.llm;
    try {
      // Spread: Env is an interface without an index signature; the LLM layer reads it as a string map.
      this.llm = createLlm(settingsFromEnv(llmEnvOf(this.env)));
      return this.llm;
    } catch (e) {
      if (!(e instanceof LlmSettingsError)) throw e;
      const l = this.load();
      if (l && !isTerminal(l.meta.status)) this.setTerminal(l, 'failed', { code: e.code, message: e.message });
      return null;
    }
  }

  // -------------------------------------------------------------------------------------------- events

  private statusEvent(l: Loaded): EvaluationEvent {
    const error = parseStoredError(l.meta.error);
    return {
      type: 'status',
      data: {
        evaluationId: l.meta.id,
        status: l.meta.status,
        callsDone: l.callsDone,
        callsPlanned: l.meta.calls_planned,
        ...(error ? { error } : {}),
        at: l.meta.updated_at,
      },
    };
  }

  private finishedEvent(
    evaluationId: string,
    callId: string,
    agent: string,
    label: string,
    stage: string,
    result: LlmCallResult,
    startedAt: number,
    finishedAt: number,
    latencyMs: number,
  ): EvaluationEvent {
    return {
      type: 'call.finished',
      data: {
        evaluationId,
        callId,
        agent,
        label,
        stage,
        ok: result.ok,
        ...(result.ok ? { content: result.content, model: result.model } : { error: result.error }),
        startedAt,
        finishedAt,
        latencyMs,
      },
    };
  }

  /** The terminal status of an evaluation that ended before it ran here. */
  private endedEvent(e: EndedRow): EvaluationEvent {
    const error = parseStoredError(e.error);
    return {
      type: 'status',
      data: { evaluationId: e.id, status: e.status, callsDone: 0, callsPlanned: 0, ...(error ? { error } : {}), at: e.at },
    };
  }

  /** Votes, verdict (succeeded only) and the terminal status. */
  private terminalEvents(l: Loaded): EvaluationEvent[] {
    const out: EvaluationEvent[] = [];
    const o = l.meta.status === 'succeeded' ? outcome(l.method, l.state) : null;
    if (o?.status === 'succeeded') {
      const { transcript: _transcript, ...verdict } = o.verdict;
      for (const v of verdict.votes) out.push({ type: 'vote', data: { evaluationId: l.meta.id, ...v } });
      out.push({ type: 'verdict', data: { evaluationId: l.meta.id, verdict } });
    }
    out.push(this.statusEvent(l));
    return out;
  }

  /**
   * Everything so far, for a new subscriber: status, stored calls, calls in flight, and the end if ended.
   * @param id the evaluation id (for an object that has not run it)
   * @param endedBefore set when the evaluation ended without running here
   */
  private replay(id: string, endedBefore: EndedRow | null): EvaluationEvent[] {
    const l = this.load();
    if (!l) {
      if (endedBefore) return [this.endedEvent(endedBefore)];
      return [{ type: 'status', data: { evaluationId: id, status: 'queued', callsDone: 0, callsPlanned: 0, at: Date.now() } }];
    }
    const ended = isTerminal(l.meta.status) && l.meta.finalized === 1;
    const out: EvaluationEvent[] = [];
    if (!ended) out.push(this.statusEvent(l));
    for (const r of this.ctx.storage.sql.exec<ResultRow>('SELECT * FROM results ORDER BY seq')) {
      out.push({ type: 'call.started', data: { evaluationId: l.meta.id, callId: r.call_id, agent: r.agent, label: r.label, stage: r.stage, at: r.started_at } });
      const result = JSON.parse(r.result) as LlmCallResult;
      out.push(this.finishedEvent(l.meta.id, r.call_id, r.agent, r.label, r.stage, result, r.started_at, r.finished_at, r.latency_ms ?? r.finished_at - r.started_at));
    }
    for (const [callId, f] of this.inFlight) {
      out.push({
        type: 'call.started',
        data: { evaluationId: l.meta.id, callId, agent: f.request.agent, label: f.request.label, stage: f.request.stage, at: f.startedAt },
      });
    }
    if (ended) out.push(...this.terminalEvents(l));
    return out;
  }

  private broadcast(event: EvaluationEvent): void {
    this.sse.send(event);
    const sockets = this.ctx.getWebSockets();
    if (sockets.length > 0) {
      const frame = encodeWs(event);
      for (const ws of sockets) {
        try {
          ws.send(frame);
        } catch {
          // A socket closing concurrently: nothing to deliver to.
        }
      }
    }
  }

  private closeStreams(): void {
    this.sse.closeAll();
    for (const ws of this.ctx.getWebSockets()) {
      try {
        ws.close(1000, 'evaluation ended');
      } catch {
        // Already closed.
      }
    }
  }
}
