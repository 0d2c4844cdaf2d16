/**
 * @module
 * One LLM call of the object, made and stored: the call at the evaluation's tier (its `pending` row first, so an
 * attempt an eviction cut off is counted), storing its result the moment it arrives and before anything else
 * happens (`record`, also the batch tier's and the budget's path), the budget check, and the LLM function read
 * once per instance. The step (./step.ts) decides which calls run; this file runs them.
 */
import { budgetAdmission, budgetOf, loadCallMeter } from '../../src/budgets/call-check.js';
import type { LlmAttempt, LlmCallRequest, LlmCallResult, LlmError } from '../../src/engine/call.js';
import type { Admission } from '../../src/engine/pool.js';
import { applyResult, outcome, readyCalls } from '../../src/engine/protocol.js';
import type { TieredCallResult, TieredLlmFunction } from '../../src/llm/client.js';
import { NOT_SENT, createTieredLlm } from '../../src/llm/client.js';
import { FLEX_UNAVAILABLE } from '../../src/llm/flex.js';
import { backoffDelay } from '../../src/backoff/backoff.js';
import { PendingCalls } from './pending.js';
import { providerGateOf } from '../../src/provider-gate/worker-gate.js';
import { llmEnvOf, settingsFromEnv, supportsNOf } from '../../src/llm/settings.js';
import { LlmSettingsError } from '../../src/llm/settings-error.js';
import { log, logs } from '../../src/log/log.js';
import { isTerminal } from '../../src/evaluations/status.js';
import { callFinishedEvent, callStartedEvent } from './event-builders.js';
import type { FinalWriter } from './final-write.js';
import { WAVE_PROGRESS_DELAY_MS } from './final-write.js';
import type { CachedEvaluation, EvaluationInstance } from './instance.js';
import { ConfigError, configOf } from '../../src/config/vars.js';

/** A flex call refused under `flexFallback: "wait"` goes again after 1 min, doubling up to 1 h. */
const FLEX_WAIT_BACKOFF = { base: 60_000, max: 3_600_000, jitter: 'full' } as const;

/** The attempt an instance had out when it died, as the next invocation records it. */
function evictedAttempt(
  row: { tier: LlmAttempt['tier']; launched_at: number | null },
  attempt: number,
  at: number,
): LlmAttempt {
  return {
    attempt,
    kind: 'timeout',
    code: 'evicted',
    latencyMs: Math.max(0, at - (row.launched_at ?? at)),
    ...(row.tier !== undefined && row.tier !== 'standard' ? { tier: row.tier } : {}),
  };
}

/** Every attempt of a call, earlier invocations' first, renumbered from 1. */
function joinAttempts(earlier: readonly LlmAttempt[], now: readonly LlmAttempt[]): LlmAttempt[] {
  return [...earlier, ...now].map((a, i) => ({ ...a, attempt: i + 1 }));
}

/** Makes and stores the calls of one instance; the step and the batch tier's waves drive it. */
export class Caller {
  private llm: TieredLlmFunction | null = null;
  /** Calls the deadline cut short in the current invocation: they go again in the next one, not this. */
  readonly parked = new Set<string>();
  /** When the current invocation began, epoch ms (the calls' deadline counts from it). */
  private invocationStart = 0;
  /**
   * Whether a call's provider takes OpenAI's `n`, from the same settings as {@link llm}: the engine groups
   * samples into one request only there, so a provider without `n` gets every sample in the same wave.
   */
  supportsN: (call: { provider?: string | undefined }) => boolean = () => false;
  /** The budget check (src/budgets/call-check.ts), made on the first step of an evaluation with a budget. */
  private admission: ReturnType<typeof budgetAdmission> | null = null;

  constructor(
    private readonly instance: EvaluationInstance,
    private readonly final: FinalWriter,
  ) {}

  /** A new invocation of the alarm begins (none of this instance running): its deadline counts from now. */
  beginInvocation(): void {
    this.invocationStart = Date.now();
    this.parked.clear();
  }

  /**
   * The evaluation's budget check for the pool, or null without a budget. It counts the calls in flight in
   * every invocation of this instance, so a call only waits while some call may still settle.
   */
  async budgetCheck(
    evaluation: CachedEvaluation,
  ): Promise<((request: LlmCallRequest, held?: readonly LlmCallRequest[]) => Admission) | null> {
    if (!evaluation.engine || !budgetOf(evaluation.engine.state.config)) return null;
    this.admission ??= budgetAdmission(await loadCallMeter(settingsFromEnv(llmEnvOf(this.instance.env))));
    const admission = this.admission;
    // `held`: calls out elsewhere (the batch tier's calls registered in a wave), counted as in flight.
    return (request, held = []) =>
      evaluation.engine
        ? admission(
            request,
            [...[...this.instance.inFlight.values()].map((c) => c.request), ...held],
            evaluation.engine.state,
          )
        : 'launch';
  }

  /** Tells the subscribers a call began (or was refused) at `startedAt`, epoch ms. */
  private announce(evaluation: CachedEvaluation, request: LlmCallRequest, startedAt: number): void {
    const { id: callId, agent, label, stage, model } = request;
    this.instance.streams.broadcast(
      callStartedEvent(evaluation.meta.id, { callId, agent, label, stage, model, startedAt }),
    );
  }

  /** Stores a call the budget refused as its result (`budget_exceeded`, no LLM call made), like any result. */
  refuse(evaluation: CachedEvaluation, request: LlmCallRequest, error: LlmError): void {
    const at = Date.now();
    this.announce(evaluation, request, at);
    this.record(evaluation, request, { id: request.id, ok: false, error, attempts: 0 }, at);
  }

  /**
   * Makes one LLM call at the evaluation's tier and stores its result the moment it arrives. The call's
   * `pending` row (./pending.ts) says an attempt is out before it goes, so an attempt an eviction cut off is
   * counted when the call goes again; an attempt never outlives the invocation (`CALL_DEADLINE_MS`): a call cut
   * short, or a flex call refused under `wait`, is parked for a later invocation instead of stored, unless its
   * evaluation has ended (then stored with its attempts: nothing would continue it).
   * Throws only for bugs/storage errors.
   */
  async call(evaluation: CachedEvaluation, request: LlmCallRequest, afterWaves = false): Promise<void> {
    const startedAt = Date.now();
    const pending = this.instance.store.pending;
    const row = pending.get(request.id);
    const earlier = PendingCalls.attemptsOf(row);
    // Out when the instance that sent it died: it may have reached the provider, so it is an attempt.
    if (row && row.launched_at !== null) earlier.push(evictedAttempt(row, earlier.length + 1, startedAt));
    const tier = evaluation.meta.tier === 'flex' ? 'flex' : 'standard';
    pending.launch(request.id, tier, earlier, startedAt);
    this.instance.inFlight.set(request.id, { request, startedAt });
    this.announce(evaluation, request, startedAt);
    let out: TieredCallResult;
    try {
      const llm = this.llmFn(evaluation);
      if (!llm) throw new Error('LLM settings vanished after step() checked them');
      out = await llm(request, {
        tier,
        flexFallback: evaluation.meta.flex_fallback,
        // One prompt cache key per evaluation: its calls share the provider's cache route (sent where supported).
        promptCacheKey: evaluation.meta.id,
        deadlineMs: this.invocationStart + configOf(this.instance.env).CALL_DEADLINE_MS,
        // After its tries in waves, a batch-tier call gets the retry policy's attempts of its own.
        attemptsMade: afterWaves ? 0 : earlier.length,
        // Ended meanwhile (a cancel, another call's failure): no further attempt once one failed, and none at all
        // when its slot is granted after the end (stored as `not_sent`: nothing sent, nothing billed; 0 attempts unless an earlier invocation sent one).
        stop: () => isTerminal(evaluation.meta.status),
        // Aborted by the end: a call still waiting for its provider slot stops waiting (its ask withdrawn), so the
        // final write and its events follow the cancel at once, not the grants of calls that will not be sent.
        signal: this.instance.endSignal(evaluation),
      });
    } finally {
      this.instance.inFlight.delete(request.id);
    }
    const attempts = joinAttempts(earlier, failedOf(out));
    // An ended evaluation continues no call: one stopped or cut short is stored with its attempts (its pending
    // row goes with it; flex refusals bill nothing), not parked for an invocation that never comes.
    const ended = isTerminal(evaluation.meta.status);
    if (out.cutShort && !ended) {
      this.parked.add(request.id);
      pending.park(request.id, out.tier, attempts, null);
      log('info', 'call.continued', {
        evaluationId: evaluation.meta.id,
        callId: request.id,
        attempts: attempts.length,
      });
      return;
    }
    const firstAt = row?.first_at ?? startedAt;
    const waitMs = configOf(this.instance.env).FLEX_WAIT_MAX_SECONDS * 1000;
    const refused = !out.result.ok && out.result.error.code === FLEX_UNAVAILABLE;
    if (refused && !ended && Date.now() - firstAt < waitMs) {
      // The wait grows with the times it was parked (each after a full round of the retry policy's attempts).
      const parks = Math.ceil(attempts.length / Math.max(1, configOf(this.instance.env).LLM_MAX_ATTEMPTS));
      const notBefore = Math.ceil(Date.now() + backoffDelay(parks, FLEX_WAIT_BACKOFF));
      pending.park(request.id, 'flex', attempts, Math.min(notBefore, firstAt + waitMs));
      log('info', 'call.flex_wait', { evaluationId: evaluation.meta.id, callId: request.id, notBefore });
      return;
    }
    this.record(evaluation, request, withAttempts(out.result, attempts), startedAt);
  }

  /**
   * Stores each call an ended evaluation left parked, so no `pending` row outlives the end: one waiting for a
   * later try (a flex wait for its `not_before`, a batch-tier call for its next wave) as not sent (`not_sent`), one
   * the invocation's deadline cut short as `deadline`, as when the cut comes after the end; each with the attempts
   * it made (nothing billed, since those answered nothing). Calls in flight and batch-tier calls in a wave are left
   * to their own outcome. Synchronous (no step can run meanwhile).
   */
  settleParked(evaluation: CachedEvaluation): void {
    const engine = evaluation.engine;
    const pending = this.instance.store.pending;
    if (!engine || !isTerminal(evaluation.meta.status)) return;
    const rows = pending.parked().filter((r) => !this.instance.inFlight.has(r.call_id));
    if (rows.length === 0) return;
    // Sets `supportsN`, which decides the ready calls' ids (as when they were launched).
    this.llmFn(evaluation);
    // The engine offers no call once a failure is folded in (another call's, or the end's own `not_sent`): the
    // parked calls' requests are those it would offer without it.
    const { failure: _failure, ...live } = engine.state;
    const requests = new Map(
      readyCalls(engine.method, live, { supportsN: this.supportsN }).map((r) => [r.id, r] as const),
    );
    for (const row of rows) {
      const request = requests.get(row.call_id);
      if (!request) {
        // No request to store it under (not expected): the row goes, so none outlives the end.
        log('warn', 'call.parked_dropped', { evaluationId: evaluation.meta.id, callId: row.call_id });
        pending.settle(row.call_id);
        continue;
      }
      const attempts = PendingCalls.attemptsOf(row);
      const cut = row.not_before === null && row.tier !== 'batch';
      const error: LlmError = cut
        ? {
            code: 'deadline',
            message: "the call was cut short at its invocation's deadline; its evaluation ended before it went again",
            ...(attempts.length > 0 ? { attempts } : {}),
          }
        : {
            code: NOT_SENT,
            message: 'not sent: its evaluation ended while the call waited to go again',
            ...(attempts.length > 0 ? { attempts } : {}),
          };
      this.record(evaluation, request, { id: request.id, ok: false, attempts: attempts.length, error }, row.first_at);
    }
  }

  /**
   * Stores a result (INSERT OR IGNORE on the call id) and folds it into the cached state, synchronously,
   * so the stored order is the applied order and a rebuild after eviction gives the same state.
   */
  record(evaluation: CachedEvaluation, request: LlmCallRequest, result: LlmCallResult, startedAt: number): void {
    const finishedAt = Date.now();
    const latencyMs = result.ok ? (result.latencyMs ?? finishedAt - startedAt) : finishedAt - startedAt;
    const attempts = result.attempts ?? 1;
    const stored = {
      callId: request.id,
      agent: request.agent,
      label: request.label,
      stage: request.stage,
      result,
      startedAt,
      finishedAt,
      latencyMs,
    };
    // The state it leads to, applied only once it is stored (a duplicate changes nothing).
    const engine = evaluation.engine;
    const next = engine ? { engine, state: applyResult(engine.method, engine.state, result) } : null;
    const concludes = next !== null && outcome(next.engine.method, next.state) !== null;
    // Stored and forgotten as pending in one synchronous block: never one without the other.
    this.instance.store.pending.settle(request.id);
    if (!this.instance.store.insertResult({ ...stored, attempts })) {
      log('warn', 'call.duplicate', { evaluationId: evaluation.meta.id, callId: request.id });
      return;
    }
    if (next) next.engine.state = next.state;
    // A refusal (0 attempts) is stored like a result but is no call.
    if (attempts > 0) evaluation.callsDone += 1;
    evaluation.meta.updated_at = finishedAt;
    // A call that answered is a debug line (`evaluation.finalized` is the evaluation's info line); a failure warns,
    // but not one a cancel stopped before it was sent: the user asked for that.
    const level = result.ok || result.error.code === NOT_SENT ? 'debug' : 'warn';
    if (logs(level))
      log(level, 'call.finished', {
        evaluationId: evaluation.meta.id,
        callId: request.id,
        agent: request.agent,
        ok: result.ok,
        latencyMs,
        attempts,
        overheadMs: result.ok && result.latencyMs !== undefined ? finishedAt - startedAt - result.latencyMs : undefined,
        errorCode: result.ok ? undefined : result.error.code,
      });
    this.instance.streams.broadcast(callFinishedEvent(evaluation.meta.id, stored));
    // The result that concludes the evaluation goes to D1 with the final write (calls_done included):
    // a progress write now would be one more D1 round trip per evaluation for nothing.
    if (!concludes)
      this.final.pushProgress(evaluation, evaluation.meta.tier === 'batch' ? WAVE_PROGRESS_DELAY_MS : undefined);
  }

  /**
   * The LLM function, or null after ending the evaluation `failed` with the settings' own code (e.g.
   * `llm_not_configured`, or `config_invalid` for an invalid variable) when the deployment's configuration
   * is unusable: a retry cannot fix that, so the alarm must not throw its way to `internal_error`.
   */
  llmFn(evaluation: CachedEvaluation): TieredLlmFunction | null {
    if (this.llm) return this.llm;
    try {
      const settings = settingsFromEnv(llmEnvOf(this.instance.env));
      // Every attempt waits for a slot of its provider's adaptive concurrency limit (src/provider-gate/worker-gate.ts).
      const gate = providerGateOf(this.instance.env, {
        tenant: evaluation.meta.tenant,
        evaluationId: evaluation.meta.id,
      });
      this.llm = createTieredLlm(settings, gate ? { gate } : {});
      this.supportsN = supportsNOf(settings);
      return this.llm;
    } catch (e) {
      if (!(e instanceof LlmSettingsError) && !(e instanceof ConfigError)) throw e;
      if (!isTerminal(evaluation.meta.status))
        this.instance.setTerminal(evaluation, 'failed', { code: e.code, message: e.message });
      return null;
    }
  }
}

/** The failed attempts of a call's outcome, with their tiers (the call's error lists them when it failed). */
function failedOf(out: TieredCallResult): LlmAttempt[] {
  if (out.result.ok) return out.result.failedAttempts ?? [];
  return out.result.error.attempts ?? [];
}

/**
 * The result as stored: every attempt of every invocation counted, the failed ones listed with their tiers
 * (on the error of a failed call, as `failedAttempts` of one that answered).
 */
function withAttempts(result: LlmCallResult, attempts: LlmAttempt[]): LlmCallResult {
  if (result.ok) {
    const { failedAttempts: _f, ...rest } = result;
    return {
      ...rest,
      attempts: attempts.length + 1,
      ...(attempts.length > 0 ? { failedAttempts: attempts } : {}),
    };
  }
  // A refusal before any request (no attempt made) stays one.
  if (attempts.length === 0) return result;
  return { ...result, attempts: attempts.length, error: { ...result.error, attempts } };
}
