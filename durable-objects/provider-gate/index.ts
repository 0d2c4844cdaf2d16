/**
 * @module
 * `ProviderGateDO`: one per shard of a provider and model (`idFromName`, src/provider-gate/worker-gate.ts). It runs the
 * {@link ConcurrencyGate} (src/llm/provider-gate-hook.ts): grants LLM attempt slots under an AIMD window, tenant by
 * tenant in turn while the window is full, and learns the window from the attempts' outcomes (a 429
 * halves it, replies grow it). The window survives evictions and deploys in the object's SQLite; leases
 * and waiters live in memory only (an attempt waiting here keeps its RPC open). An alarm drops leases
 * whose holder never released them (an evaluation object evicted mid-attempt), so a slot cannot leak
 * for longer than the lease lifetime. Its RPC contract: src/provider-gate/rpc.ts.
 */
import { DurableObject } from 'cloudflare:workers';
import type { Bindings } from '../../src/config/bindings.js';
import { applyLogLevel } from '../../src/config/vars.js';
import type { AimdState } from '../../src/provider-gate/aimd.js';
import type { GateOutcome } from '../../src/llm/provider-gate-hook.js';
import type { GateStats, Grant } from '../../src/provider-gate/window.js';
import { ConcurrencyGate } from '../../src/provider-gate/window.js';
import type { GateLimits, GateRelease, ProviderGateRpc } from '../../src/provider-gate/rpc.js';
import { log } from '../../src/log/log.js';

/** The gate of one provider and model. RPC: {@link acquire}, {@link withdraw}, {@link release}, {@link exchange}, {@link stats}. */
export class ProviderGateDO extends DurableObject<Bindings> implements ProviderGateRpc {
  private gate: ConcurrencyGate | null = null;
  /** The window as last written to SQLite: an unchanged window is not written again. */
  private savedState: string | null = null;
  /**
   * The reaper alarm as this instance last read or set it (epoch ms, null: none); undefined until read. Only
   * this object changes its alarm, so the copy holds for the instance's life and an acquire (on every LLM
   * attempt's critical path) needs no storage read.
   */
  private armedAt: number | null | undefined = undefined;

  constructor(ctx: DurableObjectState, env: Bindings) {
    super(ctx, env);
    applyLogLevel(env);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS aimd (singleton INTEGER PRIMARY KEY CHECK (singleton = 1), state TEXT NOT NULL)',
    );
  }

  /** The gate, built on first use with the deployment's bounds and the stored window (bounds apply from the next restart, e.g. a deploy). */
  private gateFor(limits: GateLimits): ConcurrencyGate {
    if (this.gate) return this.gate;
    const row = this.ctx.storage.sql.exec<{ state: string }>('SELECT state FROM aimd').toArray()[0];
    const stored = row ? (JSON.parse(row.state) as AimdState) : undefined;
    this.savedState = row?.state ?? null;
    this.gate = new ConcurrencyGate({ start: limits.start, max: limits.max }, stored);
    return this.gate;
  }

  private save(gate: ConcurrencyGate): void {
    const state = JSON.stringify(gate.aimd.state);
    if (state === this.savedState) return;
    this.ctx.storage.sql.exec(
      'INSERT INTO aimd (singleton, state) VALUES (1, ?) ON CONFLICT (singleton) DO UPDATE SET state = excluded.state',
      state,
    );
    this.savedState = state;
  }

  /** Resolves when attempt `id` of `tenant` may go out (at once while the window has room); null if withdrawn first. */
  async acquire(id: string, tenant: string, limits: GateLimits): Promise<Grant | null> {
    const gate = this.gateFor(limits);
    const pending = gate.acquire(id, tenant);
    await this.armReaper(gate);
    return pending;
  }

  /** Withdraws the waiting asks of `ids` (their evaluation ended): their `acquire` answers null. @returns how many waited. */
  withdraw(ids: readonly string[]): Promise<number> {
    return Promise.resolve(this.gate ? this.gate.withdraw(ids) : 0);
  }

  /** Gives the slot of `id` back with the attempt's outcome. */
  release(id: string, outcome: GateOutcome): Promise<void> {
    if (this.gate) this.giveBack(this.gate, [{ id, outcome }]);
    return Promise.resolve();
  }

  /** Gives back the slots of `releases` and saves the window once (a 429 among them cuts it: logged). */
  private giveBack(gate: ConcurrencyGate, releases: readonly GateRelease[]): void {
    for (const { id, outcome } of releases)
      if (gate.release(id, outcome)) log('warn', 'gate.window_cut', { window: gate.aimd.limit() });
    this.save(gate);
  }

  /**
   * Gives back the slots of `releases` (as {@link release}), then grants `ids` of `tenant` the slots that can be
   * had at once; an id that would have to wait is not queued (null): its holder asks with {@link acquire}. One
   * RPC where an evaluation's turn made one per release and one per acquire.
   */
  async exchange(
    releases: readonly GateRelease[],
    ids: readonly string[],
    tenant: string,
    limits: GateLimits,
  ): Promise<(Grant | null)[]> {
    const gate = this.gateFor(limits);
    if (releases.length > 0) this.giveBack(gate, releases);
    const grants = ids.map((id) => gate.tryAcquire(id, tenant));
    if (grants.some((g) => g !== null)) await this.armReaper(gate);
    return grants;
  }

  /** The window and counters (for tests and benchmarks). */
  stats(): Promise<GateStats> {
    const gate = this.gate;
    if (gate) return Promise.resolve(gate.stats());
    return Promise.resolve({ window: 0, inFlight: 0, waiting: 0, maxInFlight: 0, cuts: 0, granted: 0 });
  }

  /** Drops expired leases and re-arms while leases remain. */
  override async alarm(): Promise<void> {
    // The alarm that fired is no longer pending.
    this.armedAt = null;
    const gate = this.gate;
    if (!gate) return;
    const dropped = gate.reap();
    if (dropped > 0) log('warn', 'gate.leases_expired', { dropped });
    await this.armReaper(gate);
  }

  private async armReaper(gate: ConcurrencyGate): Promise<void> {
    const at = gate.nextExpiry();
    if (at === null) return;
    // Read once per instance: `??=` would read again whenever none is armed (null).
    if (this.armedAt === undefined) this.armedAt = await this.ctx.storage.getAlarm();
    if (this.armedAt === null || this.armedAt > at) {
      await this.ctx.storage.setAlarm(at);
      this.armedAt = at;
    }
  }
}
