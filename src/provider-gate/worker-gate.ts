/**
 * @module
 * The Worker's {@link ProviderGate}: every attempt asks the `ProviderGateDO` of its provider and model
 * (`idFromName(provider + model)`, durable-objects/provider-gate/) for a slot before it goes out, and gives it back
 * after. Typed by the RPC contract below, so nothing here imports the Durable Object. A gate that cannot be
 * reached lets the attempt through (logged): limiting must never stop evaluations.
 *
 * Why objects per provider and model rather than a window per evaluation object: provider rate limits
 * are per account (and model), shared by every evaluation; only a shared window bounds what the whole
 * deployment sends. The cost is RPCs per attempt (measured with `npm run bench`: BENCHMARKS.md).
 *
 * Why one RPC per turn rather than two per attempt ({@link GateChannel}): an evaluation's asks and releases made in
 * the same turn of the event loop go to the gate in one `exchange` at its end. A call's result makes the
 * evaluation's next call ready in that same turn, so its release and the next call's ask travel together, and a
 * wave's asks go as one. A release waits for nothing else (no slot is held longer than that turn), so the bound
 * and the turns across tenants are as before. A ChatEval debate's 16 gate RPCs (an acquire and a release per
 * attempt) become 9.
 *
 * Why spares: an evaluation making calls one after another (a debate's turns) would wait for the gate's round trip
 * before each. From its second exchange on, the gate grants it up to `PROVIDER_GATE_SPARES` slots ahead, counted as
 * held, so its next call takes one and goes out at once; the exchange that carries the call's release tells the gate
 * the spare was used and tops it up. Spares go back in the exchange of a turn that leaves the evaluation with nothing
 * in flight and nothing asked (so no RPC of their own), at once when the gate says somebody waits, and expire at
 * the gate after `SPARE_MS` if their holder died. Calls on one stub arrive in the order made, so a spare's `used`
 * reaches the gate before its release.
 *
 * Why shards: one object that every tenant's attempts pass through would be capped by one object's
 * throughput (about 1,000 requests/s, docs/scale.md). The window is split over `ceil(max / 64)` objects
 * per provider and model ({@link gateShards}), each holding its share of the bounds ({@link shardLimits}),
 * and an evaluation's attempts all go to the shard its id hashes to ({@link gateShardOf}): a shard's
 * requests are then bounded by its 64 slots over the call latency, whatever the traffic. Shard 0 keeps the
 * unsharded name, so a deployment's learnt window carries over.
 */
import { configOf } from '../config/vars.js';
import { log, messageOf } from '../log/log.js';
import type { GateLease, GateOutcome, ProviderGate } from '../llm/provider-gate-hook.js';
import type { GateStats, Grant } from './window.js';
import { SPARE_USE_MS } from './window.js';
import { gateName } from '../llm/provider-gate-hook.js';

/** The window's bounds as the deployment sets them. */
export interface GateLimits {
  start: number;
  max: number;
}

/** A slot given back: the attempt's lease id and its outcome. */
export interface GateRelease {
  id: string;
  outcome: GateOutcome;
}

/** An exchange's spares: those used (now leases), those given back unused, and how many more are wanted. */
export interface SpareTrade {
  used: readonly string[];
  returned: readonly string[];
  want: number;
}

/** The reply of an exchange that carried a {@link SpareTrade}. */
export interface ExchangeReply {
  /** Per asked id its grant, or null (as the plain reply). */
  grants: (Grant | null)[];
  /** Ids of the spares granted now (maybe none). */
  spares: string[];
  /** Somebody waits for a slot: spares held should go back. */
  contended: boolean;
}

/** The gate object's RPC methods. */
export interface ProviderGateRpc {
  /** A slot for attempt `id` of `tenant` (resolves when granted). */
  acquire(id: string, tenant: string, limits: GateLimits): Promise<Grant>;
  /** Gives the slot of `id` back with the attempt's outcome. */
  release(id: string, outcome: GateOutcome): Promise<void>;
  /**
   * Gives `releases` back, then grants those of `ids` that can go at once: per id its grant, or null when it
   * would have had to wait (it is not queued: its holder asks with `acquire`). With `spares` (used, given back,
   * wanted) the reply is an {@link ExchangeReply}; a gate on older code ignores them and replies with the grants.
   */
  exchange(
    releases: readonly GateRelease[],
    ids: readonly string[],
    tenant: string,
    limits: GateLimits,
    spares?: SpareTrade,
  ): Promise<(Grant | null)[] | ExchangeReply>;
  /** The window and counters. */
  stats(): Promise<GateStats>;
}

/** An object that answers the gate RPC: `ProviderGateDO` (typed by this contract, not by the class). */
export type ProviderGateObject = ProviderGateRpc & Rpc.DurableObjectBranded;

/** The bindings this module needs; generic in the class, so callers keep their binding's own stub type. */
export interface ProviderGateEnv<T extends ProviderGateObject = ProviderGateObject> {
  PROVIDER_GATE: DurableObjectNamespace<T>;
}

/**
 * The window's bounds: `PROVIDER_CONCURRENCY_START` (default 32, at least 1 and at most the max) and
 * `PROVIDER_CONCURRENCY_MAX` (default 256), or null when `PROVIDER_CONCURRENCY_MAX` is 0 (gate off).
 * @throws ConfigError when one of them is invalid.
 */
export function gateLimitsOf(env: object): GateLimits | null {
  const { PROVIDER_CONCURRENCY_START: start, PROVIDER_CONCURRENCY_MAX: max } = configOf(env);
  if (max === 0) return null;
  return { start: Math.max(1, Math.min(max, start)), max };
}

/** Slots one gate shard holds at most: 64 (a shard then sees at most 128 requests per second of call latency). */
export const GATE_SLOTS_PER_SHARD = 64;

/** Gate shards per provider and model for these bounds: `ceil(max / 64)`, at least 1. */
export function gateShards(limits: GateLimits): number {
  return Math.max(1, Math.ceil(limits.max / GATE_SLOTS_PER_SHARD));
}

/**
 * Shard `shard`'s share of the bounds: the max split as evenly as whole slots allow (the shares add up to
 * `max`), the start likewise (at least 1, at most the shard's max).
 */
export function shardLimits(limits: GateLimits, shard: number, shards: number): GateLimits {
  const share = (total: number) => Math.floor(total / shards) + (shard < total % shards ? 1 : 0);
  const max = Math.max(1, share(limits.max));
  return { start: Math.max(1, Math.min(max, share(limits.start))), max };
}

/** The shard an evaluation's attempts go to: FNV-1a of its id, modulo `shards`. */
export function gateShardOf(evaluationId: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < evaluationId.length; i++) {
    h ^= evaluationId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % shards;
}

/** The gate object of a provider and model: shard 0 (default) under the unsharded name, shard n under `…\0n`. */
export function providerGateStub<T extends ProviderGateObject>(
  env: ProviderGateEnv<T>,
  provider: string,
  model: string,
  shard = 0,
): DurableObjectStub<T> {
  const name = shard === 0 ? gateName(provider, model) : `${gateName(provider, model)}\u0000${shard}`;
  return env.PROVIDER_GATE.get(env.PROVIDER_GATE.idFromName(name));
}

/** Who the attempts are for, and where they go. */
interface ChannelOf {
  stub: DurableObjectStub<ProviderGateObject>;
  limits: GateLimits;
  tenant: string;
  evaluationId: string;
  provider: string;
  /** Spares this evaluation may hold at most (`PROVIDER_GATE_SPARES`; 0: none). */
  maxSpares: number;
}

/** An attempt's ask for a slot, waiting for its lease. */
interface Ask {
  id: string;
  callId: string;
  resolve: (lease: GateLease) => void;
}

/** A spare this evaluation holds: its id at the gate, and until when (local epoch ms) it may be used. */
interface Spare {
  id: string;
  until: number;
}

/**
 * One evaluation's traffic with one gate object: the asks and releases of a turn go in one `exchange` at its
 * end; an ask the gate cannot grant at once waits its turn through `acquire`; an ask while a spare is held takes it.
 */
class GateChannel {
  private asks: Ask[] = [];
  private held: GateRelease[] = [];
  private spares: Spare[] = [];
  /** Spares taken since the last exchange, and spares to give back. */
  private used: string[] = [];
  private returning: string[] = [];
  /** Attempts of this evaluation holding a slot now. */
  private inFlight = 0;
  /** Most attempts one turn started (asked or took a spare): how many spares a turn may use. */
  private width = 0;
  private exchanges = 0;
  private soon: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly of: ChannelOf) {}

  acquire(id: string, callId: string): Promise<GateLease> {
    this.expireSpares();
    const spare = this.spares.shift();
    if (spare) {
      this.used.push(spare.id);
      this.flushSoon();
      return Promise.resolve(this.lease(spare.id));
    }
    return new Promise((resolve) => {
      this.asks.push({ id, callId, resolve });
      this.flushSoon();
    });
  }

  private release(id: string, outcome: GateOutcome): void {
    this.inFlight -= 1;
    this.held.push({ id, outcome });
    this.flushSoon();
  }

  /** Spares past their use-by time go back (the gate drops them soon after in any case). */
  private expireSpares(): void {
    const now = Date.now();
    const live = this.spares.filter((p) => p.until > now);
    for (const p of this.spares) if (p.until <= now) this.returning.push(p.id);
    this.spares = live;
  }

  /**
   * At the end of this turn (a timer of 0 runs after every promise job the turn queued): the calls a result made
   * ready ask in that same turn, so their asks and the result's release go together.
   */
  private flushSoon(): void {
    this.soon ??= setTimeout(() => void this.flush(), 0);
  }

  private async flush(): Promise<void> {
    this.soon = null;
    this.expireSpares();
    const asks = this.asks.splice(0);
    const releases = this.held.splice(0);
    const used = this.used.splice(0);
    // Nothing in flight and nothing asked: the evaluation is between waves or done, so its spares go back now.
    const idle = this.inFlight === 0 && asks.length === 0;
    if (idle) this.returning.push(...this.spares.splice(0).map((p) => p.id));
    const returned = this.returning.splice(0);
    if (asks.length === 0 && releases.length === 0 && used.length === 0 && returned.length === 0) return;
    const started = asks.length + used.length;
    this.width = Math.max(this.width, started);
    // Only from an evaluation's second exchange on: a single call never holds a spare.
    const want =
      this.of.maxSpares > 0 && this.exchanges > 0 && started > 0 && !idle
        ? Math.max(0, Math.min(this.of.maxSpares, this.width) - this.spares.length)
        : 0;
    this.exchanges += 1;
    const trade = used.length > 0 || returned.length > 0 || want > 0 ? { used, returned, want } : undefined;
    const { stub, limits, tenant } = this.of;
    const sentAt = Date.now();
    let reply: ExchangeReply;
    try {
      const r = await stub.exchange(
        releases,
        asks.map((a) => a.id),
        tenant,
        limits,
        trade,
      );
      reply = Array.isArray(r) ? { grants: r, spares: [], contended: false } : r;
    } catch (e) {
      // One by one instead (a gate object still on code without `exchange` during a deploy, a lost reply): each
      // release on its own, each ask its turn in `acquire`, which lets it through only if that fails too. A release
      // that fails again expires on its own (DEFAULT_LEASE_MS); spares are not used again (they expire at the gate).
      this.warn(asks.length > 0 ? 'gate.exchange_failed' : 'gate.release_failed', asks[0]?.callId, e);
      this.spares = [];
      for (const r of releases) stub.release(r.id, r.outcome).catch(() => undefined);
      for (const a of asks) void this.waitTurn(a);
      return;
    }
    // Usable until SPARE_USE_MS after the ask left, so before the gate (which counts from its arrival) drops it.
    for (const id of reply.spares) this.spares.push({ id, until: sentAt + SPARE_USE_MS });
    if (reply.contended && this.spares.length > 0) {
      this.returning.push(...this.spares.splice(0).map((p) => p.id));
      this.flushSoon();
    }
    asks.forEach((a, i) => {
      if (reply.grants[i]) this.granted(a);
      else void this.waitTurn(a);
    });
  }

  /** An ask the gate could not grant at once: it waits its turn (fair across tenants) in `acquire`. */
  private async waitTurn(a: Ask): Promise<void> {
    try {
      await this.of.stub.acquire(a.id, this.of.tenant, this.of.limits);
    } catch (e) {
      this.warn('gate.unavailable', a.callId, e);
      a.resolve({ release: () => undefined });
      return;
    }
    this.granted(a);
  }

  private granted(a: Ask): void {
    a.resolve(this.lease(a.id));
  }

  /** The lease of a slot held under gate id `id`: released once, with the attempt's outcome. */
  private lease(id: string): GateLease {
    this.inFlight += 1;
    let released = false;
    return {
      release: (outcome) => {
        if (released) return;
        released = true;
        this.release(id, outcome);
      },
    };
  }

  private warn(event: string, callId: string | undefined, e: unknown): void {
    const { evaluationId, provider } = this.of;
    log('warn', event, { evaluationId, callId, provider, error: messageOf(e) });
  }
}

/**
 * The gate for the attempts of one evaluation, or undefined when the deployment turned it off.
 * @param who the tenant (for fair turns) and the evaluation (lease ids are `<evaluation>/<call>/<attempt>`).
 */
export function providerGateOf<T extends ProviderGateObject>(
  env: ProviderGateEnv<T>,
  who: { tenant: string; evaluationId: string },
): ProviderGate | undefined {
  const limits = gateLimitsOf(env);
  if (!limits) return undefined;
  const maxSpares = configOf(env).PROVIDER_GATE_SPARES;
  const shards = gateShards(limits);
  const shard = gateShardOf(who.evaluationId, shards);
  const own = shardLimits(limits, shard, shards);
  // One channel per provider and model the evaluation calls (an ensemble may call several).
  const channels = new Map<string, GateChannel>();
  return {
    acquire({ provider, model, callId, attempt }) {
      const key = gateName(provider, model);
      let channel = channels.get(key);
      if (!channel) {
        const stub = providerGateStub(env, provider, model, shard);
        const { tenant, evaluationId } = who;
        channel = new GateChannel({ stub, limits: own, tenant, evaluationId, provider, maxSpares });
        channels.set(key, channel);
      }
      return channel.acquire(`${who.evaluationId}/${callId}/${attempt}`, callId);
    },
  };
}
