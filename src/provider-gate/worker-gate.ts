/**
 * @module
 * The Worker's {@link ProviderGate}: every attempt asks the `ProviderGateDO` of its provider and model
 * (`idFromName(provider + model)`, durable-objects/provider-gate/) for a slot: one awaited RPC before the
 * attempt; the release is sent without waiting. Typed by the RPC contract below, so nothing here imports
 * the Durable Object. A gate that cannot be reached lets the attempt through (logged): limiting must never
 * stop evaluations.
 *
 * Why one object per provider and model rather than a window per evaluation object: provider rate limits
 * are per account (and model), shared by every evaluation; only a shared window bounds what the whole
 * deployment sends. The cost is one RPC per attempt (measured with `npm run bench`: BENCHMARKS.md).
 */
import { configOf } from '../config/vars.js';
import { log, messageOf } from '../log/log.js';
import type { GateOutcome, ProviderGate } from '../llm/provider-gate-hook.js';
import type { GateStats, Grant } from './window.js';
import { gateName } from '../llm/provider-gate-hook.js';

/** The window's bounds as the deployment sets them. */
export interface GateLimits {
  start: number;
  max: number;
}

/** The gate object's RPC methods. */
export interface ProviderGateRpc {
  /** A slot for attempt `id` of `tenant` (resolves when granted). */
  acquire(id: string, tenant: string, limits: GateLimits): Promise<Grant>;
  /** Gives the slot of `id` back with the attempt's outcome. */
  release(id: string, outcome: GateOutcome): Promise<void>;
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

/** The gate object of a provider and model. */
export function providerGateStub<T extends ProviderGateObject>(
  env: ProviderGateEnv<T>,
  provider: string,
  model: string,
): DurableObjectStub<T> {
  return env.PROVIDER_GATE.get(env.PROVIDER_GATE.idFromName(gateName(provider, model)));
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
  return {
    async acquire({ provider, model, callId, attempt }) {
      const id = `${who.evaluationId}/${callId}/${attempt}`;
      const stub = providerGateStub(env, provider, model);
      try {
        await stub.acquire(id, who.tenant, limits);
      } catch (e) {
        log('warn', 'gate.unavailable', { evaluationId: who.evaluationId, callId, provider, error: messageOf(e) });
        return { release: () => undefined };
      }
      let released = false;
      return {
        release(outcome) {
          if (released) return;
          released = true;
          stub.release(id, outcome).catch((e: unknown) => {
            // The lease expires on its own (DEFAULT_LEASE_MS); until then it holds one slot.
            log('warn', 'gate.release_failed', {
              evaluationId: who.evaluationId,
              callId,
              provider,
              error: messageOf(e),
            });
          });
        },
      };
    },
  };
}
