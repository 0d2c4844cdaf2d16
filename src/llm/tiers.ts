/**
 * @module
 * Service tiers of an LLM call and what a provider declares it supports.
 *
 * - `standard`: the synchronous chat-completions call at the provider's full price.
 * - `flex`: the same call with `service_tier: "flex"` (OpenAI's flex processing; Groq and Gemini have their
 *   own): half price, slower, and sometimes refused for capacity. Per attempt it may wait up to
 *   `LLM_FLEX_TIMEOUT_MS` (default 15 min, as OpenAI's flex guide advises). Keep the Durable Object's limits
 *   in mind: an alarm's wall clock is bounded at 15 minutes, so an attempt inside `alarm()` should get
 *   `timeoutMs` = min(flex timeout, what is left of the invocation less a margin for storing the result),
 *   via the call options; an attempt cut short is a `timeout` and is retried, and since results are stored
 *   by call id, a later alarm can retry it without repeating anything stored.
 * - `batch`: the call as one line of a provider Batch API file (`/v1/files` + `/v1/batches`), half price,
 *   results within the 24 h completion window (`batch-client.ts`).
 *
 * A provider offers a tier only when the deployment says so: `supportsFlex` / `supportsBatch` in its
 * `LLM_PROVIDERS` entry, `LLM_SUPPORTS_FLEX` / `LLM_SUPPORTS_BATCH` for the default provider (all default
 * false); `standard` always.
 */
import { z } from 'zod';

/** The service tiers, cheapest last. */
export const TIERS = ['standard', 'flex', 'batch'] as const;
/** A service tier (module notes). */
export const TierSchema = z.enum(TIERS);
/** A service tier (module notes). */
export type Tier = z.infer<typeof TierSchema>;

/**
 * What a flex refusal leads to: `standard` (default) sends the call again at once without `service_tier`,
 * at the standard price; `wait` retries flex with backoff under the retry policy, then reports
 * `flex_unavailable` for the caller to schedule later (a model that does not offer flex at all ends the call
 * as `flex_unsupported`: waiting cannot help).
 */
export const FLEX_FALLBACKS = ['standard', 'wait'] as const;
/** See {@link FLEX_FALLBACKS}. */
export const FlexFallbackSchema = z.enum(FLEX_FALLBACKS);
/** See {@link FLEX_FALLBACKS}. */
export type FlexFallback = z.infer<typeof FlexFallbackSchema>;

/** Default per-attempt timeout of a flex call, ms: 15 minutes (OpenAI's flex guide). */
export const DEFAULT_FLEX_TIMEOUT_MS = 15 * 60 * 1000;

/**
 * Default typical turnaround of a provider's Batch API, seconds: 1 hour (OpenAI promises 24 h and most batches
 * of a few thousand lines finish well within an hour; a deployment states its provider's own figure).
 */
export const DEFAULT_BATCH_TURNAROUND_SECONDS = 3600;

/** The Batch API's completion window, seconds: 24 h (a line not done by then expires). */
export const BATCH_COMPLETION_WINDOW_SECONDS = 24 * 3600;

/** The provider fields that declare tiers. */
export interface TierCapabilities {
  supportsFlex?: boolean;
  supportsBatch?: boolean;
}

/**
 * Whether a provider offers `tier` (`standard`: always; `flex` / `batch`: as declared); false for a provider
 * the table lacks. The one reading of the capability, for the API's 400 and the drivers alike.
 */
export function supportsTier(
  settings: { defaultProvider: string; providers?: Readonly<Record<string, TierCapabilities>> },
  providerId: string | undefined,
  tier: Tier,
): boolean {
  const p = settings.providers?.[providerId ?? settings.defaultProvider];
  if (!p) return false;
  if (tier === 'flex') return p.supportsFlex === true;
  if (tier === 'batch') return p.supportsBatch === true;
  return true;
}
