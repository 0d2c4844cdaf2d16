/**
 * @module
 * The RPC contract of a provider gate object (`ProviderGateDO`, durable-objects/provider-gate/): what the Worker's
 * channel (./channel.ts) calls and the object implements, so neither imports the other. Re-exported by
 * ./worker-gate.ts, the folder's public module.
 */
import type { GateOutcome } from '../llm/provider-gate-hook.js';
import type { GateStats, Grant } from './window.js';

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

/** The bindings the gate needs; generic in the class, so callers keep their binding's own stub type. */
export interface ProviderGateEnv<T extends ProviderGateObject = ProviderGateObject> {
  PROVIDER_GATE: DurableObjectNamespace<T>;
}
