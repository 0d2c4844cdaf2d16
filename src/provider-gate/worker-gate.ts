/**
 * @module
 * The Worker's {@link ProviderGate}: every attempt asks the `ProviderGateDO` of its provider and model
 * (`idFromName(provider + model)`, durable-objects/provider-gate/) for a slot before it goes out, and gives it back
 * after. Typed by the RPC contract (./rpc.ts), so nothing here imports the Durable Object. A gate
 * that cannot be reached lets the attempt through (logged): limiting must never stop evaluations; one whose stub
 * broke is reached again through a fresh one first (./channel.ts).
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
import type { ProviderGate } from '../llm/provider-gate-hook.js';
import { gateName } from '../llm/provider-gate-hook.js';
import { GateChannel } from './channel.js';
import type { GateLimits, ProviderGateEnv, ProviderGateObject } from './rpc.js';

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
        channel = new GateChannel({
          connect: () => providerGateStub(env, provider, model, shard),
          limits: own,
          tenant: who.tenant,
          evaluationId: who.evaluationId,
          provider,
        });
        channels.set(key, channel);
      }
      return channel.acquire(`${who.evaluationId}/${callId}/${attempt}`, callId, signal);
    },
  };
}
