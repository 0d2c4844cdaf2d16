/**
 * @module
 * `WaveCoordinatorDO`: one per (group, provider, model) of batch-tier work, `idFromName(coordinatorName(…))`.
 * A thin driver over src/waves/coordinator.ts: RPC from the items (`register`, `withdraw`), the alarm that
 * closes waves and polls provider batches, and the RPC that hands each result to its item's object (or, for an
 * Evals run at the batch tier, to the run's store: src/evals/run-queue.ts).
 */
import { DurableObject } from 'cloudflare:workers';
import { batchSize } from '../../src/batches/rows.js';
import type { Bindings } from '../../src/config/bindings.js';
import { applyLogLevel, configOf } from '../../src/config/vars.js';
import type { BatchClient } from '../../src/llm/batch-client.js';
import { createBatchClient } from '../../src/llm/batch-client.js';
import { llmEnvOf, settingsFromEnv } from '../../src/llm/settings.js';
import { WaveCoordinator } from '../../src/waves/coordinator.js';
import type { WaveCall, WaveCoordinatorRpc, WaveResult } from '../../src/waves/rpc.js';
import { parseCoordinatorName } from '../../src/waves/rpc.js';
import { log, messageOf } from '../../src/log/log.js';
import { recordDb } from '../../src/config/d1-shards.js';
import { isRunId, runWaveResults } from '../../src/evals/run-queue.js';

/** The Durable Object that runs the waves of one group's calls to one provider and model. */
export class WaveCoordinatorDO extends DurableObject<Bindings> implements WaveCoordinatorRpc {
  private coordinator: WaveCoordinator | null = null;
  private client: BatchClient | null = null;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    applyLogLevel(env);
  }

  /** The logic for `name` (the name arrives with every RPC: `ctx.id.name` may be undefined in production). */
  protected logic(name?: string): WaveCoordinator | null {
    if (this.coordinator) return this.coordinator;
    const stored = name ?? this.ctx.storage.kv.get<string>('name');
    if (stored === undefined) return null;
    if (name !== undefined) this.ctx.storage.kv.put('name', name);
    const env = this.env;
    this.coordinator = new WaveCoordinator(stored, {
      sql: this.ctx.storage.sql,
      storage: this.ctx.storage,
      client: () => {
        this.client ??= createBatchClient(settingsFromEnv(llmEnvOf(env)), parseCoordinatorName(stored).provider);
        return this.client;
      },
      // An Evals run is one "evaluation" here (its items' calls named `<item>:<call>`): its pass stores them.
      deliver: (evaluationId: string, results: WaveResult[]): Promise<WaveCall[]> =>
        isRunId(evaluationId)
          ? runWaveResults(env, evaluationId, results)
          : env.EVALUATION.get(env.EVALUATION.idFromName(evaluationId)).batchResults(evaluationId, stored, results),
      timings: () => {
        const c = configOf(env);
        return {
          quietMs: c.BATCH_WAVE_QUIET_MS,
          maxWaitMs: c.BATCH_WAVE_MAX_WAIT_MS,
          pollMinMs: c.BATCH_POLL_MIN_MS,
          pollMaxMs: c.BATCH_POLL_MAX_MS,
        };
      },
      afterUpload: () => {
        this.afterUpload();
      },
      groupSize: async () => {
        const { group } = parseCoordinatorName(stored);
        return batchSize(await recordDb(env, group), group);
      },
    });
    return this.coordinator;
  }

  /** Called once a part's upload is stored, before its batch is created. Overridden by tests to crash there. */
  protected afterUpload(): void {
    // Nothing in production.
  }

  /** Registers an item's calls (idempotent); the alarm closes the wave. */
  async register(name: string, evaluationId: string, calls: WaveCall[]): Promise<void> {
    const logic = this.logic(name);
    if (!logic?.register(evaluationId, calls)) return;
    let next: number | null = Date.now() + 1;
    try {
      next = await logic.nextDue();
    } catch (e) {
      // The group's size could not be read (D1): the calls are stored, so the alarm must be armed all the same;
      // its step reads the size again. A throw here would leave them stored with no alarm (a retry adds nothing).
      log('warn', 'wave.due_unknown', { coordinator: name, error: messageOf(e) });
    }
    if (next !== null) await this.armBy(next);
  }

  /** Withdraws an ended item's calls; the alarm cancels a batch left with none. Answers the calls that may still run. */
  async withdraw(name: string, evaluationId: string): Promise<string[]> {
    const awaited = this.logic(name)?.withdraw(evaluationId) ?? [];
    await this.armBy(Date.now() + 1);
    return awaited;
  }

  /** Closes due waves and moves every provider batch forward, then re-arms for the next due step. */
  override async alarm(): Promise<void> {
    const logic = this.logic();
    if (!logic) return;
    const next = await logic.step();
    if (next !== null) await this.armBy(next);
  }

  /** Arms the alarm for `at` unless it is armed sooner. */
  private async armBy(at: number): Promise<void> {
    const armed = await this.ctx.storage.getAlarm();
    if (armed === null || armed > at) await this.ctx.storage.setAlarm(at);
  }
}
