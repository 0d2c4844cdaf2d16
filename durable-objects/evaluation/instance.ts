/**
 * @module
 * What one instance of the object holds in memory, shared by its parts (lifecycle, final write, step):
 * the platform handles, the cached evaluation (a cache of storage, rebuilt after eviction by replaying
 * the stored results), the calls in flight, and the only two ways the object's own status changes:
 * {@link EvaluationInstance.setTerminal} (a transition the status module allows) and {@link EvaluationInstance.followD1}
 * (D1, the system of record, ended it otherwise).
 *
 * Replay is pinned to the engine version the evaluation started with (src/engine/version.ts): when the
 * running code has another version, or no longer has the method, the evaluation is not replayed and a
 * running one is ended `failed` with `engine_version_changed` on load, so no stored call is repeated.
 */
import type { LlmCallRequest } from '../../src/engine/call.js';
import type { AnyMethod } from '../../src/engine/method.js';
import type { EngineState } from '../../src/engine/state.js';
import { applyResult, createEvaluation, outcome } from '../../src/engine/protocol.js';
import { transcriptOf } from '../../src/engine/ledger.js';
import { METHODS, parsedMethodConfig } from '../../src/engine/registry.js';
import type { Task } from '../../src/engine/task.js';
import type { RubricContent } from '../../src/engine/rubric.js';
import type { Bindings } from '../../src/config/bindings.js';
import { PipelineError } from '../../src/evaluations/pipeline-error.js';
import type { EvaluationError } from '../../src/evaluations/live-events.js';
import { log, logs } from '../../src/log/log.js';
import type { EvaluationStatus, TerminalStatus } from '../../src/evaluations/status.js';
import { canTransition, isTerminal } from '../../src/evaluations/status.js';
import type { VerdictSummary } from '../../src/evaluations/live-events.js';
import type { StatusView } from './event-builders.js';
import { statusEvent, terminalEvents } from './event-builders.js';
import type { EvaluationStore } from './storage.js';
import type { MetaRow } from './stored-rows.js';
import { parseStoredError, storedError, storedVerdict } from './stored-rows.js';
import type { Streams } from './streams.js';
import type { EvaluationWithResultsText } from '../../src/evaluations/rows.js';
import type { EvaluationSnapshot } from '../../src/evaluations/rpc.js';

/** A method and the state replayed from the stored results. */
export interface Engine {
  method: AnyMethod;
  state: EngineState;
}

/** The evaluation as cached in memory. */
export interface CachedEvaluation {
  /** The `evaluation` row; every change is written to storage at once. */
  meta: MetaRow;
  /** The engine, or null when this code cannot continue the evaluation (engine version changed). */
  engine: Engine | null;
  /** Stored results (repairs and failures included). */
  callsDone: number;
  /**
   * The batch the evaluation belongs to, null for none, absent when unknown (a cache: not stored, so
   * unknown after eviction). Only decides whether the end tops the batch's window up (src/batches/pump.ts).
   */
  batchId?: string | null;
  /**
   * False when its verdict can become no verdict cache entry: no `use`/`refresh` key (`StartJob.cacheEntry` false),
   * or a hit (unlike `StartJob.cacheEntry`, which is true for a hit row); absent when unknown (not stored either).
   * Only decides whether the final write carries the entry's statement.
   */
  cacheEntry?: boolean;
  /**
   * True when D1 never kept a waiting copy of its task: the object held the job before D1 knew the evaluation
   * (src/evaluations/held-start.ts), and its start found none in D1 either. The final write then leaves the copy's
   * scrub and delete out. Absent: unknown (not stored: after an eviction they run, matching nothing).
   */
  noTaskCopy?: true;
}

/** A call this instance is waiting on. */
export interface InFlightCall {
  request: LlmCallRequest;
  /** Epoch ms just before the LLM function was called. */
  startedAt: number;
}

/** What the object's class decides for the runtime (test subclasses override it). */
export interface InstanceHooks {
  /** The engine version the running code has for `method` (src/engine/version.ts). */
  engineVersion(method: AnyMethod): string;
}

/** The verdict of a succeeded evaluation: stored when the protocol concluded, or (objects older than that column) replayed. */
export function verdictOf(evaluation: CachedEvaluation): VerdictSummary | null {
  if (evaluation.meta.status !== 'succeeded') return null;
  const stored = storedVerdict(evaluation.meta);
  if (stored || !evaluation.engine) return stored;
  const o = outcome(evaluation.engine.method, evaluation.engine.state);
  if (o?.status !== 'succeeded') return null;
  const { transcript: _transcript, ...summary } = o.verdict;
  return summary;
}

/** Why each stored reply did not parse, by call id (empty without an engine). */
export function parseErrorsOf(evaluation: CachedEvaluation): Map<string, string> {
  const out = new Map<string, string>();
  if (!evaluation.engine) return out;
  for (const t of transcriptOf(evaluation.engine.state))
    if (t.parseError !== undefined) out.set(t.callId, t.parseError);
  return out;
}

/** The call ids each request with `n` answered after its own, by request id (empty without an engine). */
export function choiceIdsOf(evaluation: CachedEvaluation): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!evaluation.engine) return out;
  for (const t of transcriptOf(evaluation.engine.state))
    if (t.request !== undefined) out.set(t.request, [...(out.get(t.request) ?? []), t.callId]);
  return out;
}

/** In-memory state of one instance plus its platform handles. */
export class EvaluationInstance {
  /** Cache of storage; null until loaded or when the object never started an evaluation. */
  loaded: CachedEvaluation | null = null;
  /** Calls this instance is waiting on, by id: never sent twice. */
  readonly inFlight = new Map<string, InFlightCall>();
  /**
   * Step invocations (the alarm's, or the first step `startAndAwait` runs itself) under way in this
   * instance. A fresh instance has none: whatever alarm storage holds is then the only thing that will
   * resume the work (see `Lifecycle.ensureAlarm`).
   */
  stepsRunning = 0;
  /**
   * The evaluation as the final write read it back in its own transaction, for callers waiting on the end
   * (`awaitEnd`); null until then, and when nobody waited. In memory only: a later caller reads D1.
   */
  endedRecord: EvaluationWithResultsText | null = null;
  /** Aborted when an evaluation ends here (by {@link setTerminal} or {@link followD1}), one per evaluation. */
  private readonly enders = new WeakMap<CachedEvaluation, AbortController>();

  constructor(
    readonly ctx: DurableObjectState,
    /** The bindings (a test subclass may swap in variants for its instance). */
    public env: Bindings,
    readonly store: EvaluationStore,
    readonly streams: Streams,
    private readonly hooks: InstanceHooks,
  ) {}

  /**
   * The cached evaluation, or rebuilt from storage (after eviction or a deploy): the row plus the fold
   * of the stored results. A running evaluation this code cannot replay is ended here (local storage
   * only; the alarm or the next start makes the final write).
   */
  load(): CachedEvaluation | null {
    if (this.loaded) return this.loaded;
    const meta = this.store.meta();
    if (!meta) return null;
    const replayed = this.replay(meta);
    const tally = this.store.resultTally();
    // A stored result does not bump the row's `updated_at` (one statement per result): the latest one's time does.
    if (tally.lastAt !== null && tally.lastAt > meta.updated_at) meta.updated_at = tally.lastAt;
    const evaluation: CachedEvaluation = {
      meta,
      engine: 'engine' in replayed ? replayed.engine : null,
      callsDone: tally.calls,
    };
    this.loaded = evaluation;
    if ('reason' in replayed && !isTerminal(meta.status)) {
      log('warn', 'evaluation.engine_version_changed', {
        evaluationId: meta.id,
        started: meta.engine_version,
        reason: replayed.reason,
      });
      this.setTerminal(evaluation, 'failed', { code: 'engine_version_changed', message: replayed.reason });
    }
    return evaluation;
  }

  /** The engine rebuilt from the stored results, or why this code cannot rebuild it. */
  private replay(meta: MetaRow): { engine: Engine } | { reason: string } {
    const method = METHODS.get(meta.method);
    if (!method)
      return {
        reason: `started under engine ${meta.engine_version}; this deployment no longer offers method "${meta.method}"`,
      };
    const version = this.hooks.engineVersion(method);
    if (version !== meta.engine_version) {
      return {
        reason: `started under engine ${meta.engine_version}; this deployment runs ${version}, so its stored calls cannot be replayed`,
      };
    }
    let state = createEvaluation(
      method,
      parsedMethodConfig(meta.config),
      JSON.parse(meta.task) as Task,
      meta.rubric ? (JSON.parse(meta.rubric) as RubricContent) : undefined,
    );
    for (const result of this.store.results()) state = applyResult(method, state, result);
    return { engine: { method, state } };
  }

  /**
   * Ends the evaluation here (local storage and cache): a transition the status module must allow.
   * @param verdict the verdict when it succeeded (stored for the final write and late subscribers).
   * @throws PipelineError `invalid_transition` for a transition the status module forbids (a bug).
   */
  setTerminal(
    evaluation: CachedEvaluation,
    status: TerminalStatus,
    error: EvaluationError | null,
    verdict: VerdictSummary | null = null,
  ): void {
    if (!canTransition(evaluation.meta.status, status)) {
      throw new PipelineError(
        'invalid_transition',
        `evaluation ${evaluation.meta.id} cannot go from ${evaluation.meta.status} to ${status}`,
      );
    }
    this.writeEnd(evaluation, status, error, verdict);
  }

  /**
   * Takes D1's end as this object's own, whatever the object had decided: D1 is the system of record
   * (the DLQ consumer ended the row directly, or the row is gone). Not a transition: the local copy follows.
   */
  followD1(evaluation: CachedEvaluation, status: EvaluationStatus, error: EvaluationError | null): void {
    if (!isTerminal(status)) return;
    log('warn', 'evaluation.followed_d1', {
      evaluationId: evaluation.meta.id,
      local: evaluation.meta.status,
      d1: status,
    });
    this.writeEnd(evaluation, status, error, status === 'succeeded' ? storedVerdict(evaluation.meta) : null);
  }

  private writeEnd(
    evaluation: CachedEvaluation,
    status: TerminalStatus,
    error: EvaluationError | null,
    verdict: VerdictSummary | null,
  ): void {
    evaluation.meta.status = status;
    evaluation.meta.error = storedError(error);
    evaluation.meta.verdict = verdict ? JSON.stringify(verdict) : null;
    evaluation.meta.updated_at = Date.now();
    this.store.saveStatus(evaluation.meta);
    this.enders.get(evaluation)?.abort();
    // Succeeded: a debug line (`evaluation.finalized` is the evaluation's info line). Cancelled: info, since a
    // cancel is what a user asked for (a batch's cancel would otherwise warn once per item in flight). Failed warns.
    const level = status === 'succeeded' ? 'debug' : status === 'cancelled' ? 'info' : 'warn';
    if (logs(level))
      log(level, 'evaluation.ended', {
        evaluationId: evaluation.meta.id,
        status,
        errorCode: error?.code,
        error: error?.message,
      });
  }

  /**
   * A signal aborted when `evaluation` ends here (aborted already if it has): its calls' waits for a provider
   * gate slot end with it (src/llm/client.ts `CallOptions.signal`), so a cancel waits for no grant.
   */
  endSignal(evaluation: CachedEvaluation): AbortSignal {
    let ender = this.enders.get(evaluation);
    if (!ender) {
      ender = new AbortController();
      if (isTerminal(evaluation.meta.status)) ender.abort();
      this.enders.set(evaluation, ender);
    }
    return ender.signal;
  }

  /**
   * Arms the alarm for `at` (epoch ms) unless one is armed sooner: re-arming never postpones a step already due.
   * Two RPCs ms apart each arming `now + 1` moved the alarm as it fired (workerd logged it overdue), and a wave's
   * watchdog (`WAVE_WATCHDOG_MS`) armed after another coordinator's results pushed the step they owed back by it.
   * Inside the alarm handler no alarm reads as armed until one is set, so a step always re-arms.
   */
  async armBy(at: number): Promise<void> {
    const armed = await this.ctx.storage.getAlarm();
    if (armed === null || armed > at) await this.ctx.storage.setAlarm(at);
  }

  /**
   * Progress for `GET /v1/evaluations/:id`, or null when this object never started an evaluation. An
   * evaluation that ended before it ran here shows its terminal status with no calls.
   */
  snapshot(): EvaluationSnapshot | null {
    const evaluation = this.load();
    if (!evaluation) {
      const ended = this.store.ended();
      if (!ended) return null;
      const error = parseStoredError(ended.error);
      const at = ended.at;
      return {
        status: ended.status,
        callsDone: 0,
        callsPlanned: 0,
        startedAt: at,
        updatedAt: at,
        finalized: true,
        ...(error ? { error } : {}),
      };
    }
    const { meta } = evaluation;
    const error = parseStoredError(meta.error);
    return {
      status: meta.status,
      callsDone: evaluation.callsDone,
      callsPlanned: meta.calls_planned,
      startedAt: meta.started_at,
      updatedAt: meta.updated_at,
      engineVersion: meta.engine_version,
      finalized: meta.finalized === 1,
      ...(error ? { error } : {}),
    };
  }

  /** The status as events report it. */
  statusView(evaluation: CachedEvaluation): StatusView {
    return {
      evaluationId: evaluation.meta.id,
      status: evaluation.meta.status,
      callsDone: evaluation.callsDone,
      callsPlanned: evaluation.meta.calls_planned,
      error: parseStoredError(evaluation.meta.error),
      at: evaluation.meta.updated_at,
    };
  }

  /** Sends the current status to every subscriber. */
  broadcastStatus(evaluation: CachedEvaluation): void {
    this.streams.broadcast(statusEvent(this.statusView(evaluation)));
  }

  /** Sends the terminal events (votes, verdict, status) and closes every subscription. */
  announceEnd(evaluation: CachedEvaluation): void {
    for (const e of terminalEvents(this.statusView(evaluation), verdictOf(evaluation))) this.streams.broadcast(e);
    this.streams.closeAll();
  }
}
