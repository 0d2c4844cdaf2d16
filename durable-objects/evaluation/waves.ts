/**
 * @module
 * The evaluation's object at tier `batch` (docs/architecture.md, "Provider batches in waves"): instead of
 * calling the provider it registers each ready call with the wave coordinator of its (group, provider, model)
 * and marks it in `pending` (`wave` = the coordinator), and it steps when the coordinator hands results back.
 * Each result goes through the same idempotent store as a synchronous one (`Caller.record`: `INSERT OR IGNORE`
 * by call id, then the step), so a repeated delivery stores nothing twice; an outcome of a try already
 * retried or stored is stale and ignored. A failed or expired line goes in the next wave, counted as an
 * attempt; past the retry policy the call fails with every try's cause. The decisions are src/waves/item.ts.
 * An evaluation that ends with lines already at the provider stores and bills those that ran (a batch's cancel
 * keeps what finished), as a synchronous call in flight at a cancel is, and its final write waits for them.
 */
import type { LlmCallRequest, LlmCallResult, LlmError } from '../../src/engine/call.js';
import { outcome, readyCalls } from '../../src/engine/protocol.js';
import { isTerminal } from '../../src/evaluations/status.js';
import type { LlmSettings } from '../../src/llm/settings.js';
import { llmEnvOf, settingsFromEnv, supportsNOf } from '../../src/llm/settings.js';
import { log, messageOf } from '../../src/log/log.js';
import { decide, placeCall } from '../../src/waves/item.js';
import type { WaveCall, WaveResult } from '../../src/waves/rpc.js';
import type { Admission } from '../../src/engine/pool.js';
import type { CachedEvaluation, EvaluationInstance } from './instance.js';
import type { PendingRow } from './pending.js';
import { PendingCalls } from './pending.js';

/**
 * How long after registering its calls the item checks them again (re-registers them: idempotent at the
 * coordinator), should a registration have been lost. 10 min.
 */
export const WAVE_WATCHDOG_MS = 600_000;

/** What the batch tier needs from the object's caller (./calls.ts). */
export interface WaveHooks {
  /** Stores a result and folds it into the state (`Caller.record`). */
  record(evaluation: CachedEvaluation, request: LlmCallRequest, result: LlmCallResult, startedAt: number): void;
  /** The evaluation's budget check, or null without a budget (`Caller.budgetCheck`). */
  budgetCheck(evaluation: CachedEvaluation): Promise<((r: LlmCallRequest, held: LlmCallRequest[]) => Admission) | null>;
}

/** The batch tier of one instance. */
export class ItemWaves {
  private settings: LlmSettings | null = null;
  /** One function for the instance's life: the engine answers `readyCalls` from memory for the same one. */
  private supportsN: ((call: { provider?: string | undefined }) => boolean) | null = null;

  constructor(
    private readonly instance: EvaluationInstance,
    private readonly hooks: WaveHooks,
  ) {}

  private llmSettings(): LlmSettings {
    this.settings ??= settingsFromEnv(llmEnvOf(this.instance.env));
    return this.settings;
  }

  /** Whether the evaluation ended or concluded: it makes no new call. */
  private ended(evaluation: CachedEvaluation): boolean {
    const engine = evaluation.engine;
    return !engine || isTerminal(evaluation.meta.status) || outcome(engine.method, engine.state) !== null;
  }

  /** The ready calls by id (none once the evaluation ended or concluded). */
  private ready(evaluation: CachedEvaluation): Map<string, LlmCallRequest> {
    return this.ended(evaluation) ? new Map<string, LlmCallRequest>() : this.outstanding(evaluation);
  }

  /** The calls the engine's state has no result for, ended or not: an ended one's lines still out among them. */
  private outstanding(evaluation: CachedEvaluation): Map<string, LlmCallRequest> {
    const engine = evaluation.engine;
    if (!engine) return new Map();
    this.supportsN ??= supportsNOf(this.llmSettings());
    const supportsN = this.supportsN;
    return new Map(readyCalls(engine.method, engine.state, { supportsN }).map((r) => [r.id, r]));
  }

  /**
   * Registers every ready call with its coordinator (again, for calls already registered: idempotent there),
   * except those for `keep`, which are returned (the coordinator delivering results takes them in its answer).
   * A call the budget refuses is stored as its result (`budget_exceeded`), as the synchronous path does; the
   * budget counts every registered call as in flight, so each wave's calls are reserved before it is submitted.
   * @returns the calls for `keep`; true in `refused` when a refusal was stored (a step is due)
   */
  async register(evaluation: CachedEvaluation, keep?: string): Promise<{ kept: WaveCall[]; refused: boolean }> {
    const ready = this.ready(evaluation);
    const pending = this.instance.store.pending;
    const settings = this.llmSettings();
    const group = evaluation.meta.wave_group ?? evaluation.meta.id;
    const admit = ready.size > 0 ? await this.hooks.budgetCheck(evaluation) : null;
    const held: LlmCallRequest[] = [];
    const fresh: LlmCallRequest[] = [];
    // Read once: nothing below changes a row it reads again (a refusal settles only its own call).
    const rows = new Map<string, PendingRow | null>();
    for (const r of ready.values()) {
      const row = pending.get(r.id);
      rows.set(r.id, row);
      // A call past its tries in waves goes synchronously (`syncCalls`), not in a wave.
      if (row?.sync === 1) continue;
      (row?.wave != null ? held : fresh).push(r);
    }
    const byCoordinator = new Map<string, WaveCall[]>();
    let refused = false;
    const now = Date.now();
    for (const r of [...held, ...fresh]) {
      const row = rows.get(r.id) ?? null;
      const isHeld = row?.wave != null;
      if (!isHeld && admit) {
        const a = admit(r, held);
        if (a === 'wait') continue;
        if (a !== 'launch') {
          this.refuse(evaluation, r, a.refuse);
          refused = true;
          continue;
        }
        held.push(r);
      }
      const earlier = PendingCalls.attemptsOf(row);
      const placed = placeCall(settings, group, r, earlier.length, evaluation.meta.id);
      if (!isHeld) pending.enlist(r.id, earlier, placed.coordinator, now);
      byCoordinator.set(placed.coordinator, [...(byCoordinator.get(placed.coordinator) ?? []), placed.call]);
    }
    for (const [name, calls] of byCoordinator) {
      if (name === keep) continue;
      await this.coordinator(name).register(name, evaluation.meta.id, calls);
    }
    return { kept: keep !== undefined ? (byCoordinator.get(keep) ?? []) : [], refused };
  }

  private refuse(evaluation: CachedEvaluation, request: LlmCallRequest, error: LlmError): void {
    this.hooks.record(evaluation, request, { id: request.id, ok: false, error, attempts: 0 }, Date.now());
  }

  /**
   * Takes a coordinator's results: each stored (or sent to the next wave, or marked to go synchronously),
   * stale ones ignored. Synchronous, so the results and their `pending` changes land together.
   * @returns true when a call is to go synchronously (a step is due)
   */
  receive(evaluation: CachedEvaluation, results: readonly WaveResult[]): boolean {
    let sync = false;
    const pending = this.instance.store.pending;
    const settings = this.llmSettings();
    for (const res of results) {
      const row = pending.get(res.callId);
      const earlier = PendingCalls.attemptsOf(row);
      // Stored already (a repeated delivery), or an answer to a try that was already retried.
      if (!row || row.wave === null || earlier.length + 1 !== res.attempt) {
        log('info', 'wave.stale_result', {
          evaluationId: evaluation.meta.id,
          callId: res.callId,
          attempt: res.attempt,
        });
        continue;
      }
      const ended = this.ended(evaluation);
      // Ended or not, the call is looked up among those without a result (`ready` would ask `ended` again).
      const request = this.outstanding(evaluation).get(res.callId);
      if (!request) {
        pending.settle(res.callId);
        continue;
      }
      const decision = decide(settings, request, res, earlier);
      if (ended && !('store' in decision)) {
        // The evaluation ended (a cancel, a failed call): a line that did not run gets no next try.
        pending.settle(res.callId);
        continue;
      }
      if ('sync' in decision) {
        pending.toSync(res.callId, decision.sync);
        sync = true;
        log('warn', 'wave.line_to_sync', {
          evaluationId: evaluation.meta.id,
          callId: res.callId,
          attempts: decision.sync.length,
        });
        continue;
      }
      if ('retry' in decision) {
        pending.unlist(res.callId, decision.retry);
        log('warn', 'wave.line_retried', {
          evaluationId: evaluation.meta.id,
          callId: res.callId,
          attempts: decision.retry.length,
          errorCode: decision.retry.at(-1)?.code,
        });
        continue;
      }
      this.hooks.record(evaluation, request, decision.store, Date.now() - res.latencyMs);
    }
    return sync;
  }

  /** The ready calls that go synchronously: their tries in waves are spent. */
  syncCalls(evaluation: CachedEvaluation): LlmCallRequest[] {
    const pending = this.instance.store.pending;
    return [...this.ready(evaluation).values()].filter((r) => pending.get(r.id)?.sync === 1);
  }

  /**
   * Tells every coordinator holding a call of this ended evaluation to drop it (and cancel an emptied batch),
   * then forgets them: the final write does not wait for the provider. Lines already at the provider may run
   * all the same (a batch's cancel keeps what finished, and the provider bills it); their outcomes arrive as
   * stale and are not stored or billed to the tenant (`wave.unbilled_lines` counts them), because waiting for
   * them could hold the final write, its webhook and an erase for the batch's whole window. Idempotent.
   */
  async withdraw(evaluation: CachedEvaluation): Promise<void> {
    const pending = this.instance.store.pending;
    let mayRun = 0;
    for (const name of pending.waves()) {
      try {
        mayRun += (await this.coordinator(name).withdraw(name, evaluation.meta.id)).length;
      } catch (e) {
        // The batch then runs to its end and its results are ignored: the cancel itself stands.
        log('warn', 'wave.withdraw_failed', {
          evaluationId: evaluation.meta.id,
          coordinator: name,
          error: messageOf(e),
        });
      }
    }
    if (mayRun > 0) log('info', 'wave.unbilled_lines', { evaluationId: evaluation.meta.id, lines: mayRun });
    pending.forgetWaves();
  }

  private coordinator(name: string) {
    const ns = this.instance.env.WAVES;
    return ns.get(ns.idFromName(name));
  }
}
