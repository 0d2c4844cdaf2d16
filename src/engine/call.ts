/**
 * @module
 * The engine's side of an LLM call: what a protocol asks for and what a driver hands back.
 * Plain JSON both ways, so a Durable Object, a CLI or a test can carry them.
 */
import { z } from 'zod';
import type { ParserSpec } from './parsers/spec.js';

/** One chat message in OpenAI's shape. */
export const ChatMessageSchema = z
  .object({
    role: z.enum(['system', 'user', 'assistant']),
    content: z.string(),
    /** Speaker label some providers accept (ChatEval names each debater). */
    name: z.string().optional(),
  })
  .strict();
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/**
 * The service tier an LLM call went at (the LLM layer's tiers, `src/llm/tiers.ts`): `standard` (synchronous,
 * full price), `flex` (`service_tier: "flex"`) or `batch` (a line of a provider's Batch API file).
 */
export const CallTierSchema = z.enum(['standard', 'flex', 'batch']);
/** See {@link CallTierSchema}. */
export type CallTier = z.infer<typeof CallTierSchema>;

/** Token usage of one call. Tokens are counts; cost is in US dollars. */
export const UsageSchema = z
  .object({
    promptTokens: z.number().int().nonnegative(),
    completionTokens: z.number().int().nonnegative(),
    /** Prompt tokens the provider served from its prompt cache (0 when not reported). */
    cachedPromptTokens: z.number().int().nonnegative().default(0),
    /** True when the counts were estimated locally because the provider omitted them. */
    estimated: z.boolean().default(false),
    /** Cost of the call in USD from the price table; 0 when the model has no price. */
    costUsd: z.number().nonnegative().default(0),
    /**
     * USD the provider's prompt cache saved on it: cached prompt tokens × (input − cached input price) at the
     * price table's prices. Absent where no provider reported usage through the LLM layer (estimates, tests).
     */
    cacheSavedUsd: z.number().nonnegative().optional(),
    /** The tier of the attempt that answered, whose price `costUsd` is at; absent: `standard`. */
    tier: CallTierSchema.optional(),
  })
  .strict();
export type Usage = z.infer<typeof UsageSchema>;

/** Zero usage, the identity for {@link addUsage}. */
export const ZERO_USAGE: Usage = {
  promptTokens: 0,
  completionTokens: 0,
  cachedPromptTokens: 0,
  estimated: false,
  costUsd: 0,
};

/** Sum of two usages (estimated if either is; `cacheSavedUsd` when either has it). */
export function addUsage(a: Usage, b: Usage): Usage {
  const saved =
    a.cacheSavedUsd === undefined && b.cacheSavedUsd === undefined
      ? {}
      : { cacheSavedUsd: (a.cacheSavedUsd ?? 0) + (b.cacheSavedUsd ?? 0) };
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    cachedPromptTokens: a.cachedPromptTokens + b.cachedPromptTokens,
    estimated: a.estimated || b.estimated,
    costUsd: a.costUsd + b.costUsd,
    ...saved,
  };
}

/**
 * One LLM call a protocol wants made now.
 * `id` is stable: the same state always lists the same ids, and a driver uses it as the idempotency key
 * (a result stored under an id is never requested again).
 */
export interface LlmCallRequest {
  /** Stable id, unique within the evaluation, e.g. `ab/turn1/agent0` or `ab/turn1/agent0#1` (repair 1). */
  id: string;
  /** Agent id that speaks, e.g. `agent0`, `judge`, `critic`. Drivers route models per agent. */
  agent: string;
  /** Human label of the agent (its role name), for transcripts. */
  label: string;
  /** Stage of the protocol, for transcripts and events, e.g. `turn 1`, `round 2 defence`. */
  stage: string;
  /** Model name; undefined = the deployment's default model. */
  model?: string;
  /** Provider id from the deployment's provider table; undefined = default provider. */
  provider?: string;
  messages: ChatMessage[];
  /** Sampling temperature (papers: 0 for ChatEval, Bandi et al.; DEBATE: 0). */
  temperature: number;
  /** Completion token limit. */
  maxTokens: number;
  /** How the reply is parsed; `json` parsers ask the LLM layer for structured output. */
  parser: ParserSpec;
  /**
   * Choices wanted from this one request (OpenAI's `n`), 2 or more; absent = 1. The LLM layer sends `n` only
   * to a provider declared to support it (`supportsN`) and returns what came back in `choices`, which may be
   * fewer (a provider that ignores `n`): the protocol core asks for the missing samples as separate calls.
   */
  n?: number;
  /**
   * The provider endpoint asked for: absent = chat completions; `responses` = OpenAI's Responses API at a
   * provider declared to speak it (`supportsResponses`), chat completions elsewhere (an Evals run's
   * `responses` data source).
   */
  api?: 'responses';
  /** A sampler's own parameters (an Evals run's `sampling_params`), each sent only when set. */
  sampling?: SamplingOptions;
}

/** A structured output format in the Responses API's flat shape (`text.format`). */
export type OutputFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: Record<string, unknown>; strict?: boolean; description?: string };

/** Sampling parameters beyond temperature and the token limit; absent = not sent (the provider's default). */
export interface SamplingOptions {
  /** Nucleus sampling, 0-1 (`top_p`). */
  topP?: number;
  /** Chat completions' `seed`; the Responses API takes none. */
  seed?: number;
  /** `reasoning_effort` (chat completions), `reasoning.effort` (Responses). */
  reasoningEffort?: 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh';
  /** The reply's format: `response_format` (chat completions), `text.format` (Responses). */
  format?: OutputFormat;
}

/** One failed HTTP attempt of an LLM call, as the LLM layer saw it. */
export const LlmAttemptSchema = z
  .object({
    /** 1-based attempt number. */
    attempt: z.number().int().positive(),
    /**
     * What happened: `http` (the provider answered with an error status), `timeout` (no reply within the
     * per-attempt limit), `network` (no connection, reset, aborted), `empty_reply` (a reply without text),
     * `malformed` (a body that is not a chat completion).
     */
    kind: z.enum(['http', 'timeout', 'network', 'empty_reply', 'malformed']),
    /** The attempt's code, from the same set as {@link LlmErrorSchema}'s `code`. */
    code: z.string(),
    /** HTTP status, for `http` attempts. */
    status: z.number().int().optional(),
    /** Duration of the attempt, ms. */
    latencyMs: z.number().nonnegative(),
    /** The tier the attempt went at; absent: `standard`. */
    tier: CallTierSchema.optional(),
  })
  .strict();
export type LlmAttempt = z.infer<typeof LlmAttemptSchema>;

/** A terminal LLM failure after the LLM layer's retries. */
export const LlmErrorSchema = z
  .object({
    /**
     * Stable code. From the provider's answers: `rate_limited`, `timeout`, `provider_error`, `auth`, `bad_request`,
     * `not_found`, `network`, `empty_reply`; at the flex tier `flex_unavailable`, `flex_unsupported`,
     * `tier_unsupported`. Without a request: `budget_exceeded` (the evaluation's budget refused the call) and
     * `not_sent` (its evaluation ended first: stopped at the provider gate, or parked to go again later); `deadline`
     * for a call its invocation's deadline cut short (the attempt out timed out) and its evaluation ended first.
     */
    code: z.string(),
    /** Human-readable reason, quoting the provider's message where there is one (secrets removed). */
    message: z.string(),
    /** HTTP status from the provider, when there was one. */
    status: z.number().int().optional(),
    /** Every attempt the LLM layer made, in order; absent when it made none (e.g. an unknown provider). */
    attempts: z.array(LlmAttemptSchema).optional(),
  })
  .strict();
export type LlmError = z.infer<typeof LlmErrorSchema>;

/** What a driver hands back for one {@link LlmCallRequest}. */
export type LlmCallResult =
  | {
      id: string;
      ok: true;
      content: string;
      /**
       * Every choice's text in the provider's order (`choices[0]` is `content`), only for a request with `n`;
       * at most `n`, at least 1 (empty choices are left out). `usage` is the whole request's.
       */
      choices?: string[];
      /** Model that actually answered (as the provider reported it). */
      model: string;
      usage: Usage;
      /** Attempts the LLM layer made (1 = no retry). */
      attempts?: number;
      /** Wall time of the call including retries, in milliseconds. */
      latencyMs?: number;
      /**
       * The failed attempts before the one that answered, each with its tier (a flex refusal before the
       * standard reply, a batch line that expired before the next wave's), when the driver keeps them.
       */
      failedAttempts?: LlmAttempt[];
    }
  | { id: string; ok: false; error: LlmError; attempts?: number };

/** Any function that answers one call; the runner and drivers are built on it. */
export type LlmFunction = (request: LlmCallRequest) => Promise<LlmCallResult>;
