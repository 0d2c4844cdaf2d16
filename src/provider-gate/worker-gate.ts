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
 * Why shards: one object that every tenant's attempts pass through would be capped by one object's
 * throughput (about 1,000 requests/s, docs/scale.md). The window is split over `ceil(max / 64)` objects
 * per provider and model ({@link gateShards}), each holding its share of the max and the whole start ({@link shardLimits}),
 * and an evaluation's attempts all go to the shard its id hashes to ({@link gateShardOf}): a shard's
 * requests are then bounded by its 64 slots over the call latency, whatever the traffic. Shard 0 keeps the
 * unsharded name, so a deployment's learnt window carries over.
 */
import { configOf } from '../config/vars.js';
import { log, messageOf } from '../log/log.js';
import type { GateLease, GateOutcome, ProviderGate } from '../llm/provider-gate-hook.js';
import type { GateStats, Grant } from './window.js';
import { NO_SLOT, gateName } from '../llm/provider-gate-hook.js';

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

/** The gate object's RPC methods. */
export interface ProviderGateRpc {
  /** A slot for attempt `id` of `tenant`: resolves when granted, or null when withdrawn meanwhile ({@link withdraw}). */
  acquire(id: string, tenant: string, limits: GateLimits): Promise<Grant | null>;
  /**
   * Withdraws the waiting asks of `ids` (their holders will not send): their `acquire` resolves null, no slot is
   * taken or freed. Resolves how many were waiting.
   */
  withdraw(ids: readonly string[]): Promise<number>;
  /** Gives the slot of `id` back with the attempt's outcome. */
  release(id: string, outcome: GateOutcome): Promise<void>;
  /**
   * Gives `releases` back, then grants those of `ids` that can go at once: per id its grant, or null when it
   * would have had to wait (it is not queued: its holder asks with `acquire`).
   */
  exchange(
    releases: readonly GateRelease[],
    ids: readonly string[],
    tenant: string,
    limits: GateLimits,
  ): Promise<(Grant | null)[]>;
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
 * The window's bounds: `PROVIDER_CONCURRENCY_START` (default 32, each shard's first window, at least 1 and at most the max) and
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
 * Shard `shard`'s bounds: its share of the max, split as evenly as whole slots allow (the shares add up to `max`),
 * and the whole start, at most that share. The start is not divided: each shard is its own AIMD window and an
 * evaluation's asks all go to one, so with a share (8 of 32 over 4 shards) a fresh shard that the ids hashed
 * more of a burst to kept the asks past 8 waiting a whole call while other shards idled. A fresh deployment's
 * first burst may then reach `shards × start` (128 at the defaults); the provider's first 429s halve each
 * shard within a round trip, as TCP's parallel connections each start at their own initial window. A
 * deployment keeps its learnt windows (stored), so only the first burst to each provider and model starts here.
 */
export function shardLimits(limits: GateLimits, shard: number, shards: number): GateLimits {
  const share = Math.floor(limits.max / shards) + (shard < limits.max % shards ? 1 : 0);
  const max = Math.max(1, share);
  return { start: Math.max(1, Math.min(max, limits.start)), max };
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
}

/** An attempt's ask for a slot, waiting for its lease. */
interface Ask {
  id: string;
  callId: string;
  resolve: (lease: GateLease) => void;
  /**
   * Where it is: `queued` until this turn's exchange, `exchange` while that RPC is out, `waiting` in `acquire`,
   * `granted` once its holder has the lease, `withdrawn` once its signal aborted before that.
   */
  state: 'queued' | 'exchange' | 'waiting' | 'granted' | 'withdrawn';
  /** Stops listening to the signal (once granted: a long evaluation's signal keeps no listener per call). */
  off: () => void;
}

/** Whether the ask's signal withdrew it (read through a call: the state changes across awaits). */
function withdrawn(a: Ask): boolean {
  return a.state === 'withdrawn';
}

/**
 * One evaluation's traffic with one gate object: the asks and releases of a turn go in one `exchange` at its
 * end; an ask the gate cannot grant at once waits its turn through `acquire`. An ask whose signal aborts (its
 * evaluation ended) is answered {@link NO_SLOT} at once and withdrawn from the gate's queue, so a cancel waits
 * for no grant; a grant that still reaches it (it crossed the withdrawal) is given back at once, unused.
 */
class GateChannel {
  private asks: Ask[] = [];
  private held: GateRelease[] = [];
  private withdrawals: string[] = [];
  private soon: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly of: ChannelOf) {}

  acquire(id: string, callId: string, signal?: AbortSignal): Promise<GateLease> {
    if (signal?.aborted === true) return Promise.resolve(NO_SLOT);
    return new Promise((resolve) => {
      const ask: Ask = { id, callId, resolve, state: 'queued', off: () => undefined };
      if (signal) {
        const onAbort = () => {
          this.withdraw(ask);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        ask.off = () => {
          signal.removeEventListener('abort', onAbort);
        };
      }
      this.asks.push(ask);
      this.flushSoon();
    });
  }

  private release(id: string, outcome: GateOutcome): void {
    this.held.push({ id, outcome });
    this.flushSoon();
  }

  /** The ask's holder will not send: answered at once; the gate forgets it (or gets its late grant back). */
  private withdraw(ask: Ask): void {
    const was = ask.state;
    if (was === 'granted' || was === 'withdrawn') return;
    ask.state = 'withdrawn';
    ask.resolve(NO_SLOT);
    if (was === 'queued') this.asks = this.asks.filter((a) => a !== ask);
    else if (was === 'waiting') {
      this.withdrawals.push(ask.id);
      this.flushSoon();
    }
    // `exchange`: its answer decides (a grant is given back, a null goes no further).
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
    const asks = this.asks.splice(0);
    const releases = this.held.splice(0);
    const withdrawals = this.withdrawals.splice(0);
    const { stub, limits, tenant } = this.of;
    // A withdrawal that fails (a gate object on code without `withdraw` during a deploy) leaves the ask queued
    // there: its grant, when it comes, is given back at once (`waitTurn`).
    if (withdrawals.length > 0)
      stub.withdraw(withdrawals).catch((e: unknown) => {
        this.warn('gate.withdraw_failed', undefined, e);
      });
    if (asks.length === 0 && releases.length === 0) return;
    for (const a of asks) a.state = 'exchange';
    let grants: (Grant | null)[];
    try {
      grants = await stub.exchange(
        releases,
        asks.map((a) => a.id),
        tenant,
        limits,
      );
    } catch (e) {
      // One by one instead (a gate object still on code without `exchange` during a deploy, a lost reply): each
      // release on its own, each ask its turn in `acquire`, which lets it through only if that fails too. A release
      // that fails again expires on its own (DEFAULT_LEASE_MS). A withdrawn ask's slot, granted if the gate applied
      // the exchange before its reply was lost, is given back (the gate ignores an id it holds no lease for).
      this.warn(asks.length > 0 ? 'gate.exchange_failed' : 'gate.release_failed', asks[0]?.callId, e);
      for (const r of releases) stub.release(r.id, r.outcome).catch(() => undefined);
      for (const a of asks)
        if (!withdrawn(a)) void this.waitTurn(a);
        else stub.release(a.id, 'failed').catch(() => undefined);
      return;
    }
    asks.forEach((a, i) => {
      if (grants[i]) this.granted(a);
      else if (!withdrawn(a)) void this.waitTurn(a);
    });
  }

  /** An ask the gate could not grant at once: it waits its turn (fair across tenants) in `acquire`. */
  private async waitTurn(a: Ask): Promise<void> {
    a.state = 'waiting';
    let grant: Grant | null;
    try {
      grant = await this.of.stub.acquire(a.id, this.of.tenant, this.of.limits);
    } catch (e) {
      this.warn('gate.unavailable', a.callId, e);
      // Let through without a slot, unless it was withdrawn meanwhile (its holder was answered then).
      if (!withdrawn(a)) {
        a.state = 'granted';
        a.off();
        a.resolve(NO_SLOT);
      }
      return;
    }
    // Null: withdrawn there, after its holder was answered here.
    if (grant) this.granted(a);
  }

  /** A grant: the holder's lease, or given back unused when the ask was withdrawn meanwhile. */
  private granted(a: Ask): void {
    if (withdrawn(a)) {
      this.release(a.id, 'failed');
      return;
    }
    a.state = 'granted';
    a.off();
    let released = false;
    a.resolve({
      release: (outcome) => {
        if (released) return;
        released = true;
        this.release(a.id, outcome);
      },
    });
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
  const shards = gateShards(limits);
  const shard = gateShardOf(who.evaluationId, shards);
  const own = shardLimits(limits, shard, shards);
  // One channel per provider and model the evaluation calls (an ensemble may call several).
  const channels = new Map<string, GateChannel>();
  return {
    acquire({ provider, model, callId, attempt }, signal) {
      const key = gateName(provider, model);
      let channel = channels.get(key);
      if (!channel) {
        const stub = providerGateStub(env, provider, model, shard);
        channel = new GateChannel({ stub, limits: own, tenant: who.tenant, evaluationId: who.evaluationId, provider });
        channels.set(key, channel);
      }
      return channel.acquire(`${who.evaluationId}/${callId}/${attempt}`, callId, signal);
    },
  };
}
