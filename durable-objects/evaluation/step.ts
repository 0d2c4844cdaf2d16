/**
 * @module
 * One alarm step: finish an owed final write, or run the ready LLM calls through the shared call pool
 * (src/engine/pool.ts), storing each result the moment it arrives and before anything else happens,
 * then re-arm while work remains. A stored result is never requested again.
 */
import { budgetAdmission, budgetOf, loadCallMeter } from '../../src/budgets/call-check.js';
import type { LlmAttempt, LlmCallRequest, LlmCallResult, LlmError } from '../../src/engine/call.js';
import type { Admission } from '../../src/engine/pool.js';
import { runCallPool } from '../../src/engine/pool.js';
import { applyResult, outcome, readyCalls } from '../../src/engine/protocol.js';
import type { TieredCallResult, TieredLlmFunction } from '../../src/llm/client.js';
import { createTieredLlm } from '../../src/llm/client.js';
import { FLEX_UNAVAILABLE } from '../../src/llm/flex.js';
import { backoffDelay } from '../../src/backoff/backoff.js';
import { PendingCalls } from './pending.js';
import { providerGateOf } from '../../src/provider-gate/worker-gate.js';
import { llmEnvOf, LlmSettingsError, settingsFromEnv, supportsNOf } from '../../src/llm/settings.js';
import { MAX_PARALLEL_CALLS } from '../../src/config/platform-limits.js';
import { log, messageOf } from '../../src/log/log.js';
import { isTerminal } from '../../src/evaluations/status.js';
import { callFinishedEvent, callStartedEvent } from './event-builders.js';
import type { FinalWriter } from './final-write.js';
import { WAVE_PROGRESS_DELAY_MS } from './final-write.js';
import type { CachedEvaluation, EvaluationInstance } from './instance.js';
import { ConfigError, configOf } from '../../src/config/vars.js';
import type { WaveCall, WaveResult } from '../../src/waves/rpc.js';
import { ItemWaves, WAVE_WATCHDOG_MS } from './waves.js';

/** Consecutive throwing alarm invocations after which the evaluation is failed with `internal_error`. Default 5. */
export const MAX_ALARM_FAILURES = 5;

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

/** The alarm's work for one instance. */
export class Stepper {
  private llm: TieredLlmFunction | null = null;
  /** Calls the deadline cut short in the current invocation: they go again in the next one, not this. */
  private readonly parked = new Set<string>();
  /** When the current invocation began, epoch ms (the calls' deadline counts from it). */
  private invocationStart = 0;
  /**
   * Whether a call's provider takes OpenAI's `n`, from the same settings as {@link llm}: the engine groups
   * samples into one request only there, so a provider without `n` gets every sample in the same wave.
   */
  private supportsN: (call: { provider?: string | undefined }) => boolean = () => false;
  /** The budget check (src/budgets/call-check.ts), made on the first step of an evaluation with a budget. */
  private admission: ReturnType<typeof budgetAdmission> | null = null;
  /** The batch tier's side of this instance: registering calls in waves, taking their results. */
  readonly waves: ItemWaves;

  constructor(
    private readonly instance: EvaluationInstance,
    private readonly final: FinalWriter,
  ) {
    this.waves = new ItemWaves(instance, {
      record: (evaluation, request, result, startedAt) => {
        this.record(evaluation, request, result, startedAt);
      },
      admission: async (evaluation) => {
        const check = await this.budgetCheck(evaluation);
        return check ? (r, held) => check(r, held) : null;
      },
    });
  }

  /**
   * One alarm invocation. A throw lets the platform retry; after {@link MAX_ALARM_FAILURES} consecutive
   * throws a running evaluation fails with `internal_error`.
   */
  async alarm(): Promise<void> {
    const evaluation = this.instance.load();
    if (!evaluation) return;
    if (this.instance.stepsRunning === 0) {
      this.invocationStart = Date.now();
      this.parked.clear();
    }
    this.instance.stepsRunning += 1;
    try {
      await this.guardedStep(evaluation);
    } finally {
      this.instance.stepsRunning -= 1;
    }
  }

  private async guardedStep(evaluation: CachedEvaluation): Promise<void> {
    try {
      await this.step(evaluation);
      if (evaluation.meta.alarm_failures > 0) {
        evaluation.meta.alarm_failures = 0;
        this.instance.store.saveCounter('alarm_failures', 0);
      }
    } catch (e) {
      const failures = evaluation.meta.alarm_failures + 1;
      evaluation.meta.alarm_failures = failures;
      this.instance.store.saveCounter('alarm_failures', failures);
      log('error', 'alarm.error', { evaluationId: evaluation.meta.id, failures, error: messageOf(e) });
      if (failures >= MAX_ALARM_FAILURES) {
        if (!isTerminal(evaluation.meta.status)) {
          this.instance.setTerminal(evaluation, 'failed', {
            code: 'internal_error',
            message: `gave up after ${failures} failed steps: ${messageOf(e)}`,
          });
        }
        await this.final.finalize(evaluation);
        return;
      }
      throw e;
    }
  }

  /**
   * The first step, run by the caller of `startAndAwait` instead of by the alarm. The watchdog alarm the
   * start armed resumes the work should this instance die mid-step; a step that threw re-arms the alarm at
   * once (the platform's alarm retry then takes over). A step that ended the evaluation with its final write
   * done clears the watchdog, which would only find nothing to do.
   */
  async runInline(): Promise<void> {
    try {
      await this.alarm();
    } catch {
      await this.instance.ctx.storage.setAlarm(Date.now() + 1);
      return;
    }
    const evaluation = this.instance.load();
    if (
      evaluation &&
      isTerminal(evaluation.meta.status) &&
      evaluation.meta.finalized === 1 &&
      this.instance.inFlight.size === 0
    )
      await this.instance.ctx.storage.deleteAlarm();
  }

  /**
   * Ends the step when there is nothing left to run: an ended evaluation gets its owed final write (once
   * no call is in flight), a concluded protocol gets its outcome applied and written. True when it ended.
   */
  private async settled(evaluation: CachedEvaluation): Promise<boolean> {
    if (isTerminal(evaluation.meta.status)) {
      if (evaluation.meta.tier === 'batch') await this.waves.withdraw(evaluation);
      if (evaluation.meta.finalized === 0 && this.instance.inFlight.size === 0) await this.final.finalize(evaluation);
      return true;
    }
    const done = evaluation.engine ? outcome(evaluation.engine.method, evaluation.engine.state) : null;
    if (!done) return false;
    if (done.status === 'succeeded') {
      const { transcript: _transcript, ...verdict } = done.verdict;
      this.instance.setTerminal(evaluation, 'succeeded', null, verdict);
    } else {
      this.instance.setTerminal(evaluation, 'failed', { ...done.error });
    }
    // A failed call ends the evaluation with calls of it still in a wave: they are no longer awaited.
    if (evaluation.meta.tier === 'batch') await this.waves.withdraw(evaluation);
    await this.final.finalize(evaluation);
    return true;
  }

  private async step(evaluation: CachedEvaluation): Promise<void> {
    if (await this.settled(evaluation)) return;
    if (!this.llmFn(evaluation)) {
      // Misconfigured deployment (e.g. LLM_BASE_URL empty): retrying cannot help, so end it with the reason.
      await this.settled(evaluation);
      return;
    }
    if (evaluation.meta.tier === 'batch') {
      await this.waveStep(evaluation);
      return;
    }
    const ran = await this.pool(evaluation);
    // Everything ready is already in flight in this instance: whoever started it re-arms.
    if (ran === 'in_flight') return;
    // Every ready call waits: flex refused under `wait`, or cut short by the deadline (next invocation).
    if (ran === 'waiting') {
      await this.instance.ctx.storage.setAlarm(this.nextAlarm(evaluation));
      return;
    }
    if (ran === 'stuck' && !isTerminal(evaluation.meta.status)) {
      this.instance.setTerminal(evaluation, 'failed', {
        code: 'engine_stuck',
        message: `method "${evaluation.meta.method}" listed no calls and no verdict`,
      });
      await this.final.finalize(evaluation);
      return;
    }
    if (await this.settled(evaluation)) return;
    // Calls still in flight belong to a concurrent invocation of this instance, which re-arms itself.
    if (this.instance.inFlight.size > 0) return;
    await this.instance.ctx.storage.setAlarm(this.nextAlarm(evaluation));
  }

  /**
   * A step at tier `batch`: register the ready calls with their coordinators (who step this object again with
   * their results), then check back after {@link WAVE_WATCHDOG_MS} should a registration have been lost. A
   * refusal by the budget may have concluded the evaluation: then the next step, at once, ends it.
   */
  private async waveStep(evaluation: CachedEvaluation): Promise<void> {
    // Calls whose tries in waves are spent go as synchronous standard calls, with the retry policy's attempts.
    const sync = this.waves.syncCalls(evaluation).filter((r) => !this.instance.inFlight.has(r.id));
    if (sync.length > 0) {
      await Promise.all(sync.map((r) => this.call(evaluation, r, true)));
      // An ending withdraws the calls still in waves (`settled`).
      if (await this.settled(evaluation)) return;
    }
    const { refused } = await this.waves.register(evaluation);
    if (refused && (await this.settled(evaluation))) return;
    await this.instance.ctx.storage.setAlarm(Date.now() + (refused ? 1 : WAVE_WATCHDOG_MS));
  }

  /**
   * A coordinator's results (`batchResults`): stored, then the next ready calls registered; those for the
   * delivering coordinator are answered. An evaluation that concluded or ended gets its final write from the
   * alarm, at once, and withdraws its calls still out.
   */
  async waveResults(evaluation: CachedEvaluation, coordinator: string, results: WaveResult[]): Promise<WaveCall[]> {
    if (isTerminal(evaluation.meta.status) && evaluation.meta.finalized === 1) return [];
    const sync = this.waves.receive(evaluation, results);
    const engine = evaluation.engine;
    if (sync || isTerminal(evaluation.meta.status) || !engine || outcome(engine.method, engine.state) !== null) {
      await this.instance.ctx.storage.setAlarm(Date.now() + 1);
      return [];
    }
    const { kept, refused } = await this.waves.register(evaluation, coordinator);
    await this.instance.ctx.storage.setAlarm(Date.now() + (refused ? 1 : WAVE_WATCHDOG_MS));
    return kept;
  }

  /**
   * When the next step is due: at once while some ready call may go now (a call cut short included), else
   * when the first flex wait ends.
   */
  private nextAlarm(evaluation: CachedEvaluation): number {
    // Inside alarm(), Date.now() alone is dropped after a few hops locally; +1 chains reliably.
    const now = Date.now();
    const engine = evaluation.engine;
    const waiting = this.instance.store.pending.waiting(now);
    if (!engine || waiting.size === 0) return now + 1;
    const ready = readyCalls(engine.method, engine.state, { supportsN: this.supportsN });
    if (ready.some((r) => !waiting.has(r.id))) return now + 1;
    return Math.min(...waiting.values());
  }

  /**
   * Runs the ready calls through the call pool, at most {@link MAX_PARALLEL_CALLS} at once, launching
   * each newly ready call as soon as a result makes it ready (no alarm hop between dependent calls: a
   * hop cost 10-40 ms locally). New calls are launched only within the step budget (`STEP_BUDGET_MS`);
   * the first round always is. Calls in flight in another invocation of this instance are skipped.
   * A budget (`config.budget`, src/budgets/call-check.ts) may hold a call back while others are in flight, or
   * refuse it: the refusal is stored as its result (`budget_exceeded`, no LLM call).
   * @returns `ran` once calls were launched or refused; when the first round found nothing to launch,
   *   `in_flight` if this instance has calls in flight, else `stuck`.
   */
  private async pool(evaluation: CachedEvaluation): Promise<'ran' | 'in_flight' | 'waiting' | 'stuck'> {
    const budget = configOf(this.instance.env).STEP_BUDGET_MS;
    const admit = await this.budgetCheck(evaluation);
    const began = Date.now();
    const pending = this.instance.store.pending;
    const { launched, refused } = await runCallPool({
      concurrency: MAX_PARALLEL_CALLS,
      // Re-checked after every await: a cancel or an outcome stops new launches at once.
      ready: () => {
        const engine = evaluation.engine;
        if (!engine || isTerminal(evaluation.meta.status) || outcome(engine.method, engine.state) !== null) return [];
        return readyCalls(engine.method, engine.state, { supportsN: this.supportsN });
      },
      // Read live: a call parked by this very pool (cut short, or a flex wait) is not launched again in it.
      skip: (id) => this.instance.inFlight.has(id) || this.parked.has(id) || pending.waits(id, Date.now()),
      more: () => Date.now() - began < budget,
      run: (request) => this.call(evaluation, request),
      ...(admit
        ? {
            admit,
            refuse: (request: LlmCallRequest, error: LlmError) => {
              this.refuse(evaluation, request, error);
            },
          }
        : {}),
    });
    if (launched > 0 || refused > 0) return 'ran';
    if (this.instance.inFlight.size > 0) return 'in_flight';
    return this.parked.size > 0 || pending.waiting(Date.now()).size > 0 ? 'waiting' : 'stuck';
  }

  /**
   * The evaluation's budget check for the pool, or null without a budget. It counts the calls in flight in
   * every invocation of this instance, so a call only waits while some call may still settle.
   */
  private async budgetCheck(
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

  /** Stores a call the budget refused as its result (`budget_exceeded`, no LLM call made), like any result. */
  private refuse(evaluation: CachedEvaluation, request: LlmCallRequest, error: LlmError): void {
    const at = Date.now();
    this.instance.streams.broadcast(
      callStartedEvent(evaluation.meta.id, {
        callId: request.id,
        agent: request.agent,
        label: request.label,
        stage: request.stage,
        model: request.model,
        startedAt: at,
      }),
    );
    this.record(evaluation, request, { id: request.id, ok: false, error, attempts: 0 }, at);
  }

  /**
   * Makes one LLM call at the evaluation's tier and stores its result the moment it arrives. The call's
   * `pending` row (./pending.ts) says an attempt is out before it goes, so an attempt an eviction cut off is
   * counted when the call goes again; an attempt never outlives the invocation (`CALL_DEADLINE_MS`): a call cut
   * short, or a flex call refused under `wait`, is parked for a later invocation instead of stored.
   * Throws only for bugs/storage errors.
   */
  private async call(evaluation: CachedEvaluation, request: LlmCallRequest, afterWaves = false): Promise<void> {
    const startedAt = Date.now();
    const pending = this.instance.store.pending;
    const row = pending.get(request.id);
    const earlier = PendingCalls.attemptsOf(row);
    // Out when the instance that sent it died: it may have reached the provider, so it is an attempt.
    if (row && row.launched_at !== null) earlier.push(evictedAttempt(row, earlier.length + 1, startedAt));
    const tier = evaluation.meta.tier === 'flex' ? 'flex' : 'standard';
    pending.launch(request.id, tier, earlier, startedAt);
    this.instance.inFlight.set(request.id, { request, startedAt });
    this.instance.streams.broadcast(
      callStartedEvent(evaluation.meta.id, {
        callId: request.id,
        agent: request.agent,
        label: request.label,
        stage: request.stage,
        model: request.model,
        startedAt,
      }),
    );
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
      });
    } finally {
      this.instance.inFlight.delete(request.id);
    }
    const attempts = joinAttempts(earlier, failedOf(out));
    if (out.cutShort) {
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
    if (!out.result.ok && out.result.error.code === FLEX_UNAVAILABLE && Date.now() - firstAt < waitMs) {
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
   * Stores a result (INSERT OR IGNORE on the call id) and folds it into the cached state, synchronously,
   * so the stored order is the applied order and a rebuild after eviction gives the same state.
   */
  private record(
    evaluation: CachedEvaluation,
    request: LlmCallRequest,
    result: LlmCallResult,
    startedAt: number,
  ): void {
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
    // Stored and forgotten as pending in one synchronous block: never one without the other.
    this.instance.store.pending.settle(request.id);
    if (!this.instance.store.insertResult({ ...stored, attempts })) {
      log('warn', 'call.duplicate', { evaluationId: evaluation.meta.id, callId: request.id });
      return;
    }
    if (evaluation.engine)
      evaluation.engine.state = applyResult(evaluation.engine.method, evaluation.engine.state, result);
    // A refusal (0 attempts) is stored like a result but is no call.
    if (attempts > 0) evaluation.callsDone += 1;
    evaluation.meta.updated_at = finishedAt;
    log(result.ok ? 'info' : 'warn', 'call.finished', {
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
    if (!evaluation.engine || outcome(evaluation.engine.method, evaluation.engine.state) === null)
      this.final.pushProgress(evaluation, evaluation.meta.tier === 'batch' ? WAVE_PROGRESS_DELAY_MS : undefined);
  }

  /**
   * The LLM function, or null after ending the evaluation `failed` with the settings' own code (e.g.
   * `llm_not_configured`, or `config_invalid` for an invalid variable) when the deployment's configuration
   * is unusable: a retry cannot fix that, so the alarm must not throw its way to `internal_error`.
   */
  private llmFn(evaluation: CachedEvaluation): TieredLlmFunction | null {
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
