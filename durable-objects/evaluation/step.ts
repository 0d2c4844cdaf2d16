/**
 * @module
 * One alarm step: finish an owed final write, or run the ready LLM calls through the shared call pool
 * (src/engine/pool.ts), storing each result the moment it arrives and before anything else happens,
 * then re-arm while work remains. A stored result is never requested again.
 */
import { budgetAdmission, budgetOf, loadCallMeter } from '../../src/budgets/call-check.js';
import type { LlmCallRequest, LlmCallResult, LlmError, LlmFunction } from '../../src/engine/call.js';
import type { Admission } from '../../src/engine/pool.js';
import { runCallPool } from '../../src/engine/pool.js';
import { applyResult, outcome, readyCalls } from '../../src/engine/protocol.js';
import { createLlm } from '../../src/llm/client.js';
import { providerGateOf } from '../../src/provider-gate/worker-gate.js';
import { llmEnvOf, LlmSettingsError, settingsFromEnv, supportsNOf } from '../../src/llm/settings.js';
import { MAX_PARALLEL_CALLS } from '../../src/config/platform-limits.js';
import { log, messageOf } from '../../src/log/log.js';
import { isTerminal } from '../../src/evaluations/status.js';
import { callFinishedEvent, callStartedEvent } from './event-builders.js';
import type { FinalWriter } from './final-write.js';
import type { Loaded, Runtime } from './instance.js';
import { ConfigError, configOf } from '../../src/config/vars.js';

/** Consecutive throwing alarm invocations after which the evaluation is failed with `internal_error`. Default 5. */
export const MAX_ALARM_FAILURES = 5;

/** The alarm's work for one instance. */
export class Stepper {
  private llm: LlmFunction | null = null;
  /**
   * Whether a call's provider takes OpenAI's `n`, from the same settings as {@link llm}: the engine groups
   * samples into one request only there, so a provider without `n` gets every sample in the same wave.
   */
  private supportsN: (call: { provider?: string | undefined }) => boolean = () => false;
  /** The budget check (src/budgets/call-check.ts), made on the first step of an evaluation with a budget. */
  private admission: ReturnType<typeof budgetAdmission> | null = null;

  constructor(
    private readonly rt: Runtime,
    private readonly final: FinalWriter,
  ) {}

  /**
   * One alarm invocation. A throw lets the platform retry; after {@link MAX_ALARM_FAILURES} consecutive
   * throws a running evaluation fails with `internal_error`.
   */
  async alarm(): Promise<void> {
    const l = this.rt.load();
    if (!l) return;
    this.rt.stepsRunning += 1;
    try {
      await this.guardedStep(l);
    } finally {
      this.rt.stepsRunning -= 1;
    }
  }

  private async guardedStep(l: Loaded): Promise<void> {
    try {
      await this.step(l);
      if (l.meta.alarm_failures > 0) {
        l.meta.alarm_failures = 0;
        this.rt.store.saveCounter('alarm_failures', 0);
      }
    } catch (e) {
      const failures = l.meta.alarm_failures + 1;
      l.meta.alarm_failures = failures;
      this.rt.store.saveCounter('alarm_failures', failures);
      log('error', 'alarm.error', { evaluationId: l.meta.id, failures, error: messageOf(e) });
      if (failures >= MAX_ALARM_FAILURES) {
        if (!isTerminal(l.meta.status)) {
          this.rt.setTerminal(l, 'failed', {
            code: 'internal_error',
            message: `gave up after ${failures} failed steps: ${messageOf(e)}`,
          });
        }
        await this.final.finalize(l);
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
      await this.rt.ctx.storage.setAlarm(Date.now() + 1);
      return;
    }
    const l = this.rt.load();
    if (l && isTerminal(l.meta.status) && l.meta.finalized === 1 && this.rt.inFlight.size === 0)
      await this.rt.ctx.storage.deleteAlarm();
  }

  /**
   * Ends the step when there is nothing left to run: an ended evaluation gets its owed final write (once
   * no call is in flight), a concluded protocol gets its outcome applied and written. True when it ended.
   */
  private async settled(l: Loaded): Promise<boolean> {
    if (isTerminal(l.meta.status)) {
      if (l.meta.finalized === 0 && this.rt.inFlight.size === 0) await this.final.finalize(l);
      return true;
    }
    const done = l.engine ? outcome(l.engine.method, l.engine.state) : null;
    if (!done) return false;
    if (done.status === 'succeeded') {
      const { transcript: _transcript, ...verdict } = done.verdict;
      this.rt.setTerminal(l, 'succeeded', null, verdict);
    } else {
      this.rt.setTerminal(l, 'failed', { ...done.error });
    }
    await this.final.finalize(l);
    return true;
  }

  private async step(l: Loaded): Promise<void> {
    if (await this.settled(l)) return;
    if (!this.llmFn(l)) {
      // Misconfigured deployment (e.g. LLM_BASE_URL empty): retrying cannot help, so end it with the reason.
      await this.settled(l);
      return;
    }
    const ran = await this.pool(l);
    // Everything ready is already in flight in this instance: whoever started it re-arms.
    if (ran === 'in_flight') return;
    if (ran === 'stuck' && !isTerminal(l.meta.status)) {
      this.rt.setTerminal(l, 'failed', {
        code: 'engine_stuck',
        message: `method "${l.meta.method}" listed no calls and no verdict`,
      });
      await this.final.finalize(l);
      return;
    }
    if (await this.settled(l)) return;
    // Calls still in flight belong to a concurrent invocation of this instance, which re-arms itself.
    if (this.rt.inFlight.size > 0) return;
    // Inside alarm(), Date.now() alone is dropped after a few hops locally; +1 chains reliably.
    await this.rt.ctx.storage.setAlarm(Date.now() + 1);
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
  private async pool(l: Loaded): Promise<'ran' | 'in_flight' | 'stuck'> {
    const budget = configOf(this.rt.env).STEP_BUDGET_MS;
    const admit = await this.budgetCheck(l);
    const began = Date.now();
    const { launched, refused } = await runCallPool({
      concurrency: MAX_PARALLEL_CALLS,
      // Re-checked after every await: a cancel or an outcome stops new launches at once.
      ready: () => {
        const engine = l.engine;
        if (!engine || isTerminal(l.meta.status) || outcome(engine.method, engine.state) !== null) return [];
        return readyCalls(engine.method, engine.state, { supportsN: this.supportsN });
      },
      skip: (id) => this.rt.inFlight.has(id),
      more: () => Date.now() - began < budget,
      run: (request) => this.call(l, request),
      ...(admit
        ? {
            admit,
            refuse: (request: LlmCallRequest, error: LlmError) => {
              this.refuse(l, request, error);
            },
          }
        : {}),
    });
    if (launched > 0 || refused > 0) return 'ran';
    return this.rt.inFlight.size > 0 ? 'in_flight' : 'stuck';
  }

  /**
   * The evaluation's budget check for the pool, or null without a budget. It counts the calls in flight in
   * every invocation of this instance, so a call only waits while some call may still settle.
   */
  private async budgetCheck(l: Loaded): Promise<((request: LlmCallRequest) => Admission) | null> {
    if (!l.engine || !budgetOf(l.engine.state.config)) return null;
    this.admission ??= budgetAdmission(await loadCallMeter(settingsFromEnv(llmEnvOf(this.rt.env))));
    const admission = this.admission;
    return (request) =>
      l.engine
        ? admission(
            request,
            [...this.rt.inFlight.values()].map((c) => c.request),
            l.engine.state,
          )
        : 'launch';
  }

  /** Stores a call the budget refused as its result (`budget_exceeded`, no LLM call made), like any result. */
  private refuse(l: Loaded, request: LlmCallRequest, error: LlmError): void {
    const at = Date.now();
    this.rt.streams.broadcast(
      callStartedEvent(l.meta.id, {
        callId: request.id,
        agent: request.agent,
        label: request.label,
        stage: request.stage,
        model: request.model,
        startedAt: at,
      }),
    );
    this.record(l, request, { id: request.id, ok: false, error, attempts: 0 }, at);
  }

  /** Makes one LLM call and stores its result the moment it arrives. Throws only for bugs/storage errors. */
  private async call(l: Loaded, request: LlmCallRequest): Promise<void> {
    const startedAt = Date.now();
    this.rt.inFlight.set(request.id, { request, startedAt });
    this.rt.streams.broadcast(
      callStartedEvent(l.meta.id, {
        callId: request.id,
        agent: request.agent,
        label: request.label,
        stage: request.stage,
        model: request.model,
        startedAt,
      }),
    );
    let result: LlmCallResult;
    try {
      const llm = this.llmFn(l);
      if (!llm) throw new Error('LLM settings vanished after step() checked them');
      result = await llm(request);
    } finally {
      this.rt.inFlight.delete(request.id);
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
    if (!this.rt.store.insertResult({ ...stored, attempts })) {
      log('warn', 'call.duplicate', { evaluationId: l.meta.id, callId: request.id });
      return;
    }
    if (l.engine) l.engine.state = applyResult(l.engine.method, l.engine.state, result);
    // A refusal (0 attempts) is stored like a result but is no call.
    if (attempts > 0) l.callsDone += 1;
    l.meta.updated_at = finishedAt;
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
    this.rt.streams.broadcast(callFinishedEvent(l.meta.id, stored));
    // The result that concludes the evaluation goes to D1 with the final write (calls_done included):
    // a progress write now would be one more D1 round trip per evaluation for nothing.
    if (!l.engine || outcome(l.engine.method, l.engine.state) === null) this.final.pushProgress(l);
  }

  /**
   * The LLM function, or null after ending the evaluation `failed` with the settings' own code (e.g.
   * `llm_not_configured`, or `config_invalid` for an invalid variable) when the deployment's configuration
   * is unusable: a retry cannot fix that, so the alarm must not throw its way to `internal_error`.
   */
  private llmFn(l: Loaded): LlmFunction | null {
    if (this.llm) return this.llm;
    try {
      const settings = settingsFromEnv(llmEnvOf(this.rt.env));
      // Every attempt waits for a slot of its provider's adaptive concurrency limit (src/provider-gate/worker-gate.ts).
      const gate = providerGateOf(this.rt.env, { tenant: l.meta.tenant, evaluationId: l.meta.id });
      this.llm = createLlm(settings, gate ? { gate } : {});
      this.supportsN = supportsNOf(settings);
      return this.llm;
    } catch (e) {
      if (!(e instanceof LlmSettingsError) && !(e instanceof ConfigError)) throw e;
      if (!isTerminal(l.meta.status)) this.rt.setTerminal(l, 'failed', { code: e.code, message: e.message });
      return null;
    }
  }
}
