/**
 * @module
 * The item's side of a wave, pure: the Batch API line of a ready call (the same `buildChatBody` as the
 * standard and flex tiers, so the prompt is byte-identical), and what a line's outcome means for its call: a
 * result to store (priced at the batch tier), or another try in the next wave (a retryable failure within
 * the retry policy's attempts, each try counted as an attempt at tier `batch`; past them, one synchronous
 * standard call, so a provider that keeps expiring lines loses no evaluation).
 */
import type { LlmAttempt, LlmCallRequest, LlmCallResult } from '../engine/call.js';
import { batchLineUrl } from '../llm/batch-client.js';
import { batchCallResult } from '../llm/batch-lines.js';
import { DEFAULT_PRICES } from '../llm/pricing.js';
import { batchLine, buildChatBody } from '../llm/request.js';
import type { LlmSettings } from '../llm/settings.js';
import { responseFormatFor } from '../llm/structured.js';
import type { WaveCall, WaveResult } from './rpc.js';
import { coordinatorName } from './rpc.js';

/** A ready call placed: its coordinator's name and what is registered there. */
export interface PlacedCall {
  coordinator: string;
  call: WaveCall;
}

/**
 * Where a call goes and its line: the coordinator of (group, provider, model) and the batch line of its body.
 * @param earlier the call's failed tries so far (the line is registered as try `earlier + 1`)
 * @param promptCacheKey one per evaluation, sent where the provider accepts it (as the other tiers do)
 * @throws Error for a provider the settings do not know (the API resolved the judge against them)
 */
export function placeCall(
  settings: LlmSettings,
  group: string,
  request: LlmCallRequest,
  earlier: number,
  promptCacheKey: string,
): PlacedCall {
  const providerId = request.provider ?? settings.defaultProvider;
  const provider = settings.providers[providerId];
  if (!provider) throw new Error(`unknown provider "${providerId}"`);
  const model = request.model ?? settings.defaultModel;
  const format =
    request.parser.type === 'json' && provider.supportsJsonSchema ? responseFormatFor(request.parser) : undefined;
  const n = request.n !== undefined && request.n > 1 && provider.supportsN ? request.n : undefined;
  const body = buildChatBody(request, {
    model,
    tier: 'batch',
    ...(format ? { responseFormat: format } : {}),
    ...(n !== undefined ? { n } : {}),
    ...(provider.supportsPromptCacheKey ? { promptCacheKey } : {}),
  });
  return {
    coordinator: coordinatorName(group, providerId, model),
    // The coordinator names the line (`customIdFor(evaluation, call)`).
    call: { callId: request.id, attempt: earlier + 1, line: batchLine('', body, batchLineUrl(provider)) },
  };
}

/** What a delivered outcome means for its call. */
export type WaveDecision =
  | { store: LlmCallResult }
  | {
      /** Every failed try so far, this one included: the call goes in the next wave. */
      retry: LlmAttempt[];
    }
  | {
      /**
       * Every failed try so far: the retry policy's tries are spent in waves, so the call goes once more as a
       * synchronous standard call (with the policy's attempts of its own), as a flex refusal falls back.
       */
      sync: LlmAttempt[];
    };

/**
 * The decision for one delivered outcome.
 * @param earlier the call's failed tries before this one
 */
export function decide(
  settings: LlmSettings,
  request: LlmCallRequest,
  delivered: WaveResult,
  earlier: readonly LlmAttempt[],
): WaveDecision {
  const provider = request.provider ?? settings.defaultProvider;
  const model = request.model ?? settings.defaultModel;
  const out = batchCallResult(request, delivered.outcome, {
    provider,
    model,
    prices: { ...DEFAULT_PRICES, ...settings.prices },
    attempt: delivered.attempt,
    latencyMs: delivered.latencyMs,
  });
  const numbered = (a: LlmAttempt, i: number): LlmAttempt => ({ ...a, attempt: i + 1, tier: 'batch' });
  if (out.result.ok) {
    const failed = earlier.map(numbered);
    return {
      store: {
        ...out.result,
        // The usage row's tier: the price the line was billed at.
        usage: { ...out.result.usage, tier: 'batch' },
        attempts: failed.length + 1,
        ...(failed.length > 0 ? { failedAttempts: failed } : {}),
      },
    };
  }
  const all = [...earlier, ...(out.result.error.attempts ?? [])].map(numbered);
  if (out.retryable) return all.length < settings.retry.maxAttempts ? { retry: all } : { sync: all };
  // A failure no retry can mend: the call fails with every try's cause (the method then fails, never a score).
  const causes = all.map((a) => `#${a.attempt} ${a.code}`).join(', ');
  return {
    store: {
      ...out.result,
      attempts: all.length,
      error: {
        ...out.result.error,
        message: `${out.result.error.message} (batch tries: ${causes})`,
        attempts: all,
      },
    },
  };
}
