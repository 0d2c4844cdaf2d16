/**
 * @module
 * The provider gate's window: each LLM attempt asks for a slot before it goes out and hands it back with
 * its outcome, so the attempts in flight to one provider and model stay under an adaptive (AIMD, ./aimd.ts)
 * limit and a burst does not turn into a storm of 429s. The client calls it through its hook
 * (`ProviderGate`, src/llm/provider-gate-hook.ts); {@link ConcurrencyGate} is the platform-free mechanism, run by the
 * deployment's `ProviderGateDO` (one per provider and model, durable-objects/provider-gate/, reached
 * through ./worker-gate.ts) and directly by Node code and tests ({@link localGate}).
 *
 * Fairness: while the window is full, waiting attempts are granted tenant by tenant in turn (round robin),
 * so a tenant with many attempts waiting does not push another tenant's few to the back.
 */
import type { GateOutcome, ProviderGate } from '../llm/provider-gate-hook.js';
import { NO_SLOT, gateName } from '../llm/provider-gate-hook.js';
import type { AimdOptions, AimdState } from './aimd.js';
import { Aimd } from './aimd.js';

/** A grant: the window at grant time and how long the attempt waited, ms. */
export interface Grant {
  window: number;
  waitedMs: number;
}

/** Options of {@link ConcurrencyGate}. */
export interface ConcurrencyGateOptions extends AimdOptions {
  /** A lease not released after this long is dropped (its holder died), ms. Default 300,000 (5 min). */
  leaseMs?: number;
  /** Clock, epoch ms. Default `Date.now`. */
  now?: () => number;
}

interface Lease {
  tenant: string;
  epoch: number;
  at: number;
}

interface Waiter {
  id: string;
  since: number;
  /** Its grant, or null when it was withdrawn ({@link ConcurrencyGate.withdraw}). */
  grant: (g: Grant | null) => void;
}

/** Counters for tests and benchmarks. */
export interface GateStats {
  window: number;
  inFlight: number;
  waiting: number;
  /** Most leases held at once since the gate was created. */
  maxInFlight: number;
  /** Window cuts since the gate was created. */
  cuts: number;
  granted: number;
}

/** Default lease lifetime: 5 min (an attempt times out after LLM_TIMEOUT_MS, 60 s by default). */
export const DEFAULT_LEASE_MS = 300_000;

/** Slots for attempts under an AIMD window, granted fairly across tenants. */
export class ConcurrencyGate {
  readonly aimd: Aimd;
  private readonly leases = new Map<string, Lease>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly leaseMs: number;
  private readonly now: () => number;
  private maxInFlight = 0;
  private cuts = 0;
  private granted = 0;

  constructor(options: ConcurrencyGateOptions, state?: AimdState) {
    this.aimd = new Aimd(options, state);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.now = options.now ?? Date.now;
  }

  /**
   * A slot for attempt `id` of `tenant`: at once while the window has room and nobody waits, else when
   * its turn comes; null when the ask is withdrawn while it waits ({@link withdraw}). Idempotent: an id that holds
   * a slot gets it again; an id that waits takes its own place in the queue, and the earlier ask answers null
   * (its holder lost that RPC and asked again), so one id never waits twice nor takes two slots.
   */
  acquire(id: string, tenant: string): Promise<Grant | null> {
    const now = this.tryAcquire(id, tenant);
    if (now) return Promise.resolve(now);
    const since = this.now();
    return new Promise((resolve) => {
      const queue = this.waiting.get(tenant) ?? [];
      const earlier = queue.find((w) => w.id === id);
      if (earlier) {
        const lost = earlier.grant;
        earlier.grant = resolve;
        lost(null);
        return;
      }
      queue.push({ id, since, grant: resolve });
      // A Map keeps insertion order: a tenant joins the end of the turn order when it starts waiting.
      this.waiting.set(tenant, queue);
    });
  }

  /**
   * A slot for attempt `id` of `tenant` only if it can be had at once (the window has room and nobody waits),
   * else null and nothing queued: the caller then asks with {@link acquire}, which waits its turn. Idempotent
   * like it.
   */
  tryAcquire(id: string, tenant: string): Grant | null {
    if (this.leases.has(id)) return { window: this.aimd.limit(), waitedMs: 0 };
    if (this.waitingCount() > 0 || this.leases.size >= this.aimd.limit()) return null;
    this.lease(id, tenant);
    return { window: this.aimd.limit(), waitedMs: 0 };
  }

  /**
   * Gives back the slot of `id` with its outcome: a 429 cuts the window (once per epoch), a reply grows it
   * while the window is the limit. Unknown ids (released twice, or reaped) are ignored.
   * @returns true when this release cut the window.
   */
  release(id: string, outcome: GateOutcome): boolean {
    const lease = this.leases.get(id);
    if (!lease) return false;
    const full = this.leases.size + this.waitingCount() >= this.aimd.limit();
    this.leases.delete(id);
    let cut = false;
    if (outcome === 'rate_limited') cut = this.aimd.onRateLimited(lease.epoch);
    else if (outcome === 'ok') this.aimd.onSuccess(full);
    if (cut) this.cuts += 1;
    this.pump();
    return cut;
  }

  /**
   * Withdraws the waiting asks of `ids` (their holders will not send: a cancelled evaluation's calls): each
   * `acquire` of them resolves null at once, and no slot is taken or freed, so the window stays exact. An id
   * that holds a slot is not touched (its holder releases it); an unknown id is ignored.
   * @returns how many asks were withdrawn.
   */
  withdraw(ids: readonly string[]): number {
    const wanted = new Set(ids);
    const out: Waiter[] = [];
    for (const [tenant, queue] of [...this.waiting]) {
      const kept = queue.filter((w) => !wanted.has(w.id) || (out.push(w), false));
      if (kept.length === queue.length) continue;
      // The tenant keeps its place in the turn order while asks of its own remain.
      if (kept.length > 0) this.waiting.set(tenant, kept);
      else this.waiting.delete(tenant);
    }
    for (const w of out) w.grant(null);
    return out.length;
  }

  /** Drops leases older than the lease lifetime (holders that died) and lets waiters in. @returns how many were dropped. */
  reap(): number {
    const cutoff = this.now() - this.leaseMs;
    let dropped = 0;
    for (const [id, l] of this.leases) {
      if (l.at < cutoff) {
        this.leases.delete(id);
        dropped += 1;
      }
    }
    if (dropped > 0) this.pump();
    return dropped;
  }

  /** Epoch ms when the oldest lease expires, or null with none held. */
  nextExpiry(): number | null {
    let oldest: number | null = null;
    for (const l of this.leases.values()) if (oldest === null || l.at < oldest) oldest = l.at;
    return oldest === null ? null : oldest + this.leaseMs;
  }

  /** Counters and the current window. */
  stats(): GateStats {
    return {
      window: this.aimd.limit(),
      inFlight: this.leases.size,
      waiting: this.waitingCount(),
      maxInFlight: this.maxInFlight,
      cuts: this.cuts,
      granted: this.granted,
    };
  }

  private waitingCount(): number {
    let n = 0;
    for (const q of this.waiting.values()) n += q.length;
    return n;
  }

  private lease(id: string, tenant: string): void {
    this.leases.set(id, { tenant, epoch: this.aimd.state.epoch, at: this.now() });
    this.granted += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.leases.size);
  }

  /** Grants waiting attempts while the window has room, one tenant at a time in turn. */
  private pump(): void {
    while (this.leases.size < this.aimd.limit()) {
      const next = this.waiting.entries().next();
      if (next.done) return;
      const [tenant, queue] = next.value;
      const w = queue.shift();
      // Round robin: the tenant just served moves to the end of the turn order (or leaves it when done).
      this.waiting.delete(tenant);
      if (queue.length > 0) this.waiting.set(tenant, queue);
      if (!w) continue;
      this.lease(w.id, tenant);
      w.grant({ window: this.aimd.limit(), waitedMs: this.now() - w.since });
    }
  }
}

/**
 * A {@link ProviderGate} over in-process gates, one per provider and model (Node code and tests; the
 * Worker uses the Durable Object through src/provider-gate/worker-gate.ts).
 * @param tenant the tenant every attempt is counted for. Default `default`.
 */
export function localGate(
  options: ConcurrencyGateOptions,
  tenant = 'default',
): ProviderGate & { gates: Map<string, ConcurrencyGate> } {
  const gates = new Map<string, ConcurrencyGate>();
  let seq = 0;
  return {
    gates,
    async acquire({ provider, model }, signal) {
      const key = gateName(provider, model);
      let gate = gates.get(key);
      if (!gate) {
        gate = new ConcurrencyGate(options);
        gates.set(key, gate);
      }
      if (signal?.aborted === true) return NO_SLOT;
      seq += 1;
      const id = String(seq);
      const g = gate;
      const withdraw = () => void g.withdraw([id]);
      signal?.addEventListener('abort', withdraw, { once: true });
      const grant = await g.acquire(id, tenant);
      signal?.removeEventListener('abort', withdraw);
      if (!grant) return NO_SLOT;
      return { release: (outcome) => void g.release(id, outcome) };
    },
  };
}
