/**
 * @module
 * The hook through which the client asks for a slot before each attempt (`LlmDeps.gate`, ./client.ts), so
 * the attempts in flight to one provider and model stay under an adaptive limit. The mechanism behind it is
 * src/provider-gate/ (the window, and the Durable Object the Worker reaches); the client only knows this
 * contract.
 */

/** How an attempt ended, as the gate counts it: a 429 cuts the window, a reply grows it, anything else neither. */
export type GateOutcome = 'ok' | 'rate_limited' | 'failed';

/** A slot held by one attempt. */
export interface GateLease {
  /** Gives the slot back with the attempt's outcome (never throws; safe to call once). */
  release(outcome: GateOutcome): void;
}

/** What the LLM client asks for: a slot for one attempt of a call to a provider and model. */
export interface ProviderGate {
  /**
   * Resolves once the attempt may go out. Never rejects: a gate that cannot answer lets the attempt through.
   * @param signal aborted when the attempt will not be sent (its evaluation ended): a wait for the slot ends at
   *   once, the ask withdrawn from the gate's queue, and resolves {@link NO_SLOT}. A slot granted before the abort
   *   is a real lease (release it). The caller decides whether to send by the signal, never by {@link NO_SLOT}
   *   alone: a gate that cannot answer lets the attempt through with that same lease.
   */
  acquire(
    attempt: { provider: string; model: string; callId: string; attempt: number },
    signal?: AbortSignal,
  ): Promise<GateLease>;
}

/**
 * A lease that holds no slot, nothing to give back: an ask withdrawn before its grant ({@link ProviderGate.acquire}'s
 * `signal`), and an attempt let through because the gate could not answer. Not a "do not send": check the signal.
 */
export const NO_SLOT: GateLease = { release: () => undefined };

/** The gate outcome of an attempt: a reply, a 429, or anything else. */
export function gateOutcome(reply: boolean, status: number | undefined): GateOutcome {
  if (reply) return 'ok';
  return status === 429 ? 'rate_limited' : 'failed';
}

/** The gate's name for a provider and model: the unit providers rate-limit by. */
export function gateName(provider: string, model: string): string {
  return `${provider}\u0000${model}`;
}
