/**
 * @module
 * OpenAI's flex processing as the mock plays it. A chat completion with `service_tier: "flex"` is answered
 * like any other (same reply, `service_tier: "flex"` echoed in the response), except that:
 * - a model configured as flex-unsupported is refused with 400 `invalid_request_error`, `param:
 *   "service_tier"`, "Unsupported service_tier: flex" (what OpenAI answers for a model without flex);
 * - a configurable share of flex requests is refused for capacity with 429 and code `resource_unavailable`
 *   ("429 Resource Unavailable" in OpenAI's flex guide, which also says such a refusal is not billed and
 *   may be retried with backoff or sent again without `service_tier` / with `"auto"`).
 * The draw is a hash of (seed, request key, attempt): deterministic, and a retry of the same prompt draws
 * again, so a refused request can succeed on a later attempt.
 *
 * Source: platform.openai.com/docs/guides/flex-processing (read 2025; "Resource unavailable errors").
 */
import { unitFromHash } from '../llm/hash53.js';

/** The `service_tier` values the chat-completions endpoint accepts (openai 6.20's `ChatCompletionCreateParams`). */
export const SERVICE_TIERS = ['auto', 'default', 'flex', 'scale', 'priority'] as const;
/** One of {@link SERVICE_TIERS}. */
export type ServiceTier = (typeof SERVICE_TIERS)[number];

/** Flex options of the mock (constructor options, `npm run mock-llm -- --flex-*`). */
export interface MockFlexOptions {
  /** Share of flex requests refused with 429 `resource_unavailable`, 0-1. Default 0. */
  refusalRate?: number;
  /**
   * Model names (the part before `?`) that do not offer flex: a flex request for one gets a 400. Default
   * none: every model offers flex.
   */
  unsupportedModels?: readonly string[];
  /** Seed of the refusal draw. Default ''. */
  seed?: string;
}

/** An error the mock answers with: status, OpenAI error fields, extra headers. */
export interface MockRefusal {
  status: number;
  message: string;
  type: string;
  param: string | null;
  code: string | null;
  headers: Record<string, string>;
}

/** The `service_tier` a response reports for what a request asked: flex, priority and scale as asked, else `default`. */
export function servedTier(asked: ServiceTier | undefined): 'default' | 'flex' | 'scale' | 'priority' {
  return asked === 'flex' || asked === 'priority' || asked === 'scale' ? asked : 'default';
}

/**
 * Why a flex request is refused, or undefined when it is served (and for any request not asking for flex).
 * @param model the model name without its `?` directives
 * @param key the request's attempt-counter key (model name and messages)
 * @param attempt 1-based attempt of that key
 */
export function flexRefusal(
  asked: ServiceTier | undefined,
  model: string,
  key: string,
  attempt: number,
  options: MockFlexOptions = {},
): MockRefusal | undefined {
  if (asked !== 'flex') return undefined;
  if (options.unsupportedModels?.includes(model)) {
    return {
      status: 400,
      message: `Unsupported service_tier: flex (model \`${model}\` does not offer flex processing; send the request without service_tier or with "auto")`,
      type: 'invalid_request_error',
      param: 'service_tier',
      code: null,
      headers: {},
    };
  }
  const rate = options.refusalRate ?? 0;
  if (rate > 0 && unitFromHash(`${options.seed ?? ''}\u0000flex\u0000${key}\u0000${attempt}`) < rate)
    return capacityRefusal();
  return undefined;
}

/** The 429 `resource_unavailable` a flex request gets when flex has no capacity (unbilled). */
export function capacityRefusal(): MockRefusal {
  return {
    status: 429,
    message:
      'Resource Unavailable: flex processing has no capacity for this request right now. Retry later, or send it without service_tier "flex". You are not charged for this request.',
    type: 'server_error',
    param: null,
    code: 'resource_unavailable',
    headers: {},
  };
}
