/**
 * @module
 * One alarm step: finish an owed final write, or run the ready LLM calls through the shared call pool
 * (src/engine/pool.ts), each made and stored by ./calls.ts the moment it arrives, then re-arm while work
 * remains; at tier `batch`, register them in waves (./waves.ts). A stored result is never requested again.
 */
import type { LlmCallRequest, LlmError } from '../../src/engine/call.js';
import { runCallPool } from '../../src/engine/pool.js';
import { outcome, readyCalls } from '../../src/engine/protocol.js';
import { MAX_PARALLEL_CALLS } from '../../src/config/platform-limits.js';
import { log, messageOf } from '../../src/log/log.js';
import { isTerminal } from '../../src/evaluations/status.js';
import type { FinalWriter } from './final-write.js';
import type { CachedEvaluation, EvaluationInstance } from './instance.js';
import { configOf } from '../../src/config/vars.js';
import type { WaveCall, WaveResult } from '../../src/waves/rpc.js';
import { Caller } from './calls.js';
import { ItemWaves, WAVE_WATCHDOG_MS } from './waves.js';

/** Consecutive throwing alarm invocations after which the evaluation is failed with `internal_error`. Default 5. */
export const MAX_ALARM_FAILURES = 5;

/**
 * The wait before the retry of a step that threw, in ms: 2 s after the first throw, doubling after each one
 * (2, 4, 8, 16 s before {@link MAX_ALARM_FAILURES} ends it), the platform's own alarm-retry backoff.
 */
export function alarmRetryDelayMs(failures: number): number {
  return 2_000 * 2 ** Math.max(0, failures - 1);
}

/** The alarm's work for one instance. */
export class Stepper {
  /** Makes and stores this instance's calls (./calls.ts). */
  private readonly caller: Caller;
  /** The batch tier's side of this instance: registering calls in waves, taking their results. */
  readonly waves: ItemWaves;

  constructor(
    private readonly instance: EvaluationInstance,
    private readonly final: FinalWriter,
  ) {
    this.caller = new Caller(instance, final);
    // An ended evaluation's parked calls are stored (not sent, or cut short) before its final write.
    final.beforeWrite = (evaluation) => {
      this.caller.settleParked(evaluation);
    };
    // The batch tier stores its results and checks the budget through the same caller.
    this.waves = new ItemWaves(instance, this.caller);
  }

  /**
   * One alarm invocation. A step that throws is retried on this object's own alarm after
   * {@link alarmRetryDelayMs}; after {@link MAX_ALARM_FAILURES} consecutive throws a running evaluation fails
   * with `internal_error`.
   */
  async alarm(): Promise<void> {
    const evaluation = this.instance.load();
    if (!evaluation) return;
    if (this.instance.stepsRunning === 0) this.caller.beginInvocation();
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
      // Our retry, not the platform's: a handler that throws leaves its alarm stored at its past time while
      // the platform waits out its backoff, so `armBy` (a coordinator's results, a cancel, the sweeper's
      // re-kick) found one armed "sooner" and left the step waiting 2-4 s more. This alarm is a real time,
      // which an arm for sooner replaces.
      await this.instance.armBy(Date.now() + alarmRetryDelayMs(failures));
    }
  }

  /** Whether this instance armed the watchdog of the first step it ran itself ({@link runInline} clears it). */
  private watchdogArmed = false;

  /**
   * The first step, run by the caller of `startAndAwait` instead of by the alarm. The watchdog alarm
   * (`watchdogArmed`: the start armed it; else the caller's waiting RPC stands watch, see {@link armWatchdog})
   * resumes the work should this instance die mid-step; a step that threw has armed its retry
   * ({@link alarmRetryDelayMs}), and anything else that throws re-arms the alarm at once. A step that ended the evaluation with its final write done
   * clears an armed watchdog, which would only find nothing to do.
   */
  async runInline(watchdogArmed: boolean): Promise<void> {
    this.watchdogArmed ||= watchdogArmed;
    try {
      await this.alarm();
    } catch {
      await this.instance.armBy(Date.now() + 1);
      return;
    }
    const evaluation = this.instance.load();
    if (this.watchdogArmed && evaluation && !owed(evaluation) && this.instance.inFlight.size === 0)
      await this.instance.ctx.storage.deleteAlarm();
  }

  /**
   * Arms the watchdog `delayMs` from now while work is owed and no alarm is armed: the caller's wait for the
   * first step ended before the work did, so its RPC (which an instance that dies fails, and the API then hands
   * the job to the queue) no longer stands watch.
   */
  async armWatchdog(delayMs: number): Promise<void> {
    const evaluation = this.instance.load();
    if (!owed(evaluation)) return;
    const armed = await this.instance.ctx.storage.getAlarm();
    // The input gate was open: the step may have ended the work meanwhile.
    if (armed !== null || !owed(evaluation)) return;
    this.watchdogArmed = true;
    await this.instance.ctx.storage.setAlarm(Date.now() + delayMs);
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
    if (!this.caller.llmFn(evaluation)) {
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
      await this.instance.armBy(this.nextAlarm(evaluation));
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
    await this.instance.armBy(this.nextAlarm(evaluation));
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
      await Promise.all(sync.map((r) => this.caller.call(evaluation, r, true)));
      // An ending withdraws the calls still in waves (`settled`).
      if (await this.settled(evaluation)) return;
    }
    const { refused } = await this.waves.register(evaluation);
    if (refused && (await this.settled(evaluation))) return;
    await this.instance.armBy(Date.now() + (refused ? 1 : WAVE_WATCHDOG_MS));
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
      await this.instance.armBy(Date.now() + 1);
      return [];
    }
    const { kept, refused } = await this.waves.register(evaluation, coordinator);
    await this.instance.armBy(Date.now() + (refused ? 1 : WAVE_WATCHDOG_MS));
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
    const ready = readyCalls(engine.method, engine.state, { supportsN: this.caller.supportsN });
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
    const admit = await this.caller.budgetCheck(evaluation);
    const began = Date.now();
    const pending = this.instance.store.pending;
    const { launched, refused } = await runCallPool({
      concurrency: MAX_PARALLEL_CALLS,
      // Re-checked after every await: a cancel or an outcome stops new launches at once.
      ready: () => {
        const engine = evaluation.engine;
        if (!engine || isTerminal(evaluation.meta.status) || outcome(engine.method, engine.state) !== null) return [];
        return readyCalls(engine.method, engine.state, { supportsN: this.caller.supportsN });
      },
      // Read live: a call parked by this very pool (cut short, or a flex wait) is not launched again in it.
      skip: (id) => this.instance.inFlight.has(id) || this.caller.parked.has(id) || pending.waits(id, Date.now()),
      more: () => Date.now() - began < budget,
      run: (request) => this.caller.call(evaluation, request),
      ...(admit
        ? {
            admit,
            refuse: (request: LlmCallRequest, error: LlmError) => {
              this.caller.refuse(evaluation, request, error);
            },
          }
        : {}),
    });
    if (launched > 0 || refused > 0) return 'ran';
    if (this.instance.inFlight.size > 0) return 'in_flight';
    return this.caller.parked.size > 0 || pending.waiting(Date.now()).size > 0 ? 'waiting' : 'stuck';
  }
}

/** Whether `evaluation` still has work or its final write ahead of it. */
function owed(evaluation: CachedEvaluation | null): boolean {
  return evaluation !== null && (!isTerminal(evaluation.meta.status) || evaluation.meta.finalized === 0);
}
