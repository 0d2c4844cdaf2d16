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
 *
 * Spares ({@link ConcurrencyGate.spare}): slots granted ahead to an evaluation that is making calls one after
 * another, so its next attempt goes out without waiting for the gate's round trip. A spare is counted as held
 * like a lease (the window's bound is exact), is granted only while nobody waits, and turns into a lease when the
 * evaluation says it used it ({@link ConcurrencyGate.use}); one not used goes back with the evaluation's next
 * exchange or expires after its lifetime ({@link SPARE_MS}).
 */
import type { GateOutcome, ProviderGate } from '../llm/provider-gate-hook.js';
import { gateName } from '../llm/provider-gate-hook.js';
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
  /** A spare not used after this long is dropped, ms. Default {@link SPARE_MS}. */
  spareMs?: number;
}

interface Lease {
  tenant: string;
  epoch: number;
  at: number;
}

interface Waiter {
  id: string;
  since: number;
  grant: (g: Grant) => void;
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
  /** Leases granted (a spare counts when it is used). */
  granted: number;
  /** Spares held now: granted ahead, not yet used (counted in the window besides `inFlight`). */
  spares: number;
}

/** Default lease lifetime: 5 min (an attempt times out after LLM_TIMEOUT_MS, 60 s by default). */
export const DEFAULT_LEASE_MS = 300_000;

/**
 * A spare's lifetime at the gate: 15 s. Its holder uses it within {@link SPARE_USE_MS} of asking for it; the
 * 5 s between the two is for its `use` notice to arrive.
 */
export const SPARE_MS = 15_000;

/** How long after asking an evaluation may use a spare, ms (10 s): a call longer than that gains little from one. */
export const SPARE_USE_MS = 10_000;

/** Slots for attempts under an AIMD window, granted fairly across tenants. */
export class ConcurrencyGate {
  readonly aimd: Aimd;
  private readonly leases = new Map<string, Lease>();
  /** Spares by id: granted ahead, not yet used. `at` is when they expire here. */
  private readonly spares = new Map<string, Lease>();
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly leaseMs: number;
  private readonly spareMs: number;
  private readonly now: () => number;
  private maxInFlight = 0;
  private cuts = 0;
  private granted = 0;

  constructor(options: ConcurrencyGateOptions, state?: AimdState) {
    this.aimd = new Aimd(options, state);
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.spareMs = options.spareMs ?? SPARE_MS;
    this.now = options.now ?? Date.now;
  }

  /** Slots held: leases in flight and spares not yet used. The window bounds this. */
  private held(): number {
    return this.leases.size + this.spares.size;
  }

  /**
   * A slot for attempt `id` of `tenant`: at once while the window has room and nobody waits, else when
   * its turn comes. Idempotent: an id that holds a slot gets it again.
   */
  acquire(id: string, tenant: string): Promise<Grant> {
    const now = this.tryAcquire(id, tenant);
    if (now) return Promise.resolve(now);
    const since = this.now();
    return new Promise((resolve) => {
      const queue = this.waiting.get(tenant) ?? [];
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
    if (this.waitingCount() > 0 || this.held() >= this.aimd.limit()) return null;
    this.lease(id, tenant);
    return { window: this.aimd.limit(), waitedMs: 0 };
  }

  /**
   * Up to `n` spares for `tenant`, each under a fresh random id (so no two attempts can ever share one): only while
   * nobody waits, and only as many as the window has room for. @returns their ids (maybe none).
   */
  spare(tenant: string, n: number): string[] {
    const ids: string[] = [];
    if (this.waitingCount() > 0) return ids;
    const until = this.now() + this.spareMs;
    while (ids.length < n && this.held() < this.aimd.limit()) {
      const id = `spare/${crypto.randomUUID()}`;
      this.spares.set(id, { tenant, epoch: this.aimd.state.epoch, at: until });
      ids.push(id);
    }
    return ids;
  }

  /**
   * Spare `id` went out as an attempt: from now on it is a lease (released like one). A spare that already expired
   * here (its notice came late) is leased all the same: the attempt is out, so it is counted.
   */
  use(id: string, tenant: string): void {
    const spare = this.spares.get(id);
    if (this.leases.has(id)) return;
    this.spares.delete(id);
    this.leases.set(id, { tenant, epoch: spare?.epoch ?? this.aimd.state.epoch, at: this.now() });
    this.granted += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.leases.size);
  }

  /** Spare `id` was not used: its slot goes to whoever waits. Unknown ids are ignored. */
  unspare(id: string): void {
    if (this.spares.delete(id)) this.pump();
  }

  /** Whether somebody waits for a slot: spares held elsewhere should then go back. */
  contended(): boolean {
    return this.waitingCount() > 0;
  }

  /**
   * Gives back the slot of `id` with its outcome: a 429 cuts the window (once per epoch), a reply grows it
   * while the window is the limit. Unknown ids (released twice, or reaped) are ignored.
   * @returns true when this release cut the window.
   */
  release(id: string, outcome: GateOutcome): boolean {
    const lease = this.leases.get(id);
    if (!lease) return false;
    // Attempts in flight and waiting, not spares: a window filled by slots granted ahead shows nothing of the
    // provider's limit, so it does not grow the window.
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
   * Drops leases older than the lease lifetime (holders that died) and spares past theirs, and lets waiters in.
   * @returns how many leases were dropped (expired spares are routine, not counted).
   */
  reap(): number {
    const now = this.now();
    const cutoff = now - this.leaseMs;
    let dropped = 0;
    for (const [id, l] of this.leases) {
      if (l.at < cutoff) {
        this.leases.delete(id);
        dropped += 1;
      }
    }
    let freed = dropped;
    for (const [id, s] of this.spares) {
      if (s.at <= now) {
        this.spares.delete(id);
        freed += 1;
      }
    }
    if (freed > 0) this.pump();
    return dropped;
  }

  /** Epoch ms when the oldest lease or the first spare expires, or null with none held. */
  nextExpiry(): number | null {
    let next: number | null = null;
    for (const l of this.leases.values()) if (next === null || l.at + this.leaseMs < next) next = l.at + this.leaseMs;
    for (const s of this.spares.values()) if (next === null || s.at < next) next = s.at;
    return next;
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
      spares: this.spares.size,
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
    while (this.held() < this.aimd.limit()) {
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
    async acquire({ provider, model }) {
      const key = gateName(provider, model);
      let gate = gates.get(key);
      if (!gate) {
        gate = new ConcurrencyGate(options);
        gates.set(key, gate);
      }
      seq += 1;
      const id = String(seq);
      await gate.acquire(id, tenant);
      const g = gate;
      return { release: (outcome) => void g.release(id, outcome) };
    },
  };
}
