/**
 * @module
 * The one request builder of every tier: a call's chat-completions body is built here once, whether it goes
 * out synchronously (`standard`), with `service_tier: "flex"` (`flex`), or as a line of a Batch API file
 * (`batch`, where {@link batchLine} wraps the very same body). So the prompt a provider sees is identical
 * whatever the tier: only `service_tier` differs (a peer shipped batch verdicts made with a different system
 * prompt than its synchronous ones).
 */
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage, LlmCallRequest, OutputFormat } from '../engine/call.js';
import type { JsonSchemaResponseFormat } from './structured.js';
import type { Tier } from './tiers.js';

/** The chat-completions body this client sends: the fields of OpenAI's create params that it uses. */
export type ChatBody = Pick<
  ChatCompletionCreateParamsNonStreaming,
  | 'model'
  | 'messages'
  | 'temperature'
  | 'max_tokens'
  | 'response_format'
  | 'n'
  | 'prompt_cache_key'
  | 'service_tier'
  | 'top_p'
  | 'seed'
  | 'reasoning_effort'
>;

/** What the client decided for one attempt, besides the call itself. */
export interface BodyOptions {
  /** The model name to send (the call's, else the deployment's default). */
  model: string;
  /** The tier: `flex` adds `service_tier: "flex"`; `standard` and `batch` send no `service_tier`. */
  tier: Tier;
  /** `response_format` for a `json` parser at a provider that takes it; absent: plain text. */
  responseFormat?: JsonSchemaResponseFormat;
  /** OpenAI's `n`, sent only when 2 or more and the provider honours it. */
  n?: number;
  /** OpenAI's `prompt_cache_key`, sent only where the provider accepts it. */
  promptCacheKey?: string;
}

function message(m: ChatMessage): ChatCompletionMessageParam {
  const name = m.name ? { name: m.name } : {};
  switch (m.role) {
    case 'system':
      return { role: 'system', content: m.content, ...name };
    case 'user':
      return { role: 'user', content: m.content, ...name };
    case 'assistant':
      return { role: 'assistant', content: m.content, ...name };
  }
}

/** A Responses-shaped output format as chat completions' `response_format`. */
export function chatResponseFormat(format: OutputFormat): NonNullable<ChatBody['response_format']> {
  if (format.type !== 'json_schema') return format;
  const { type, ...jsonSchema } = format;
  return { type, json_schema: jsonSchema };
}

/** A sampler's `top_p`, `seed` and `reasoning_effort`, each when set (chat completions' names). */
function samplingFields(s: LlmCallRequest['sampling']): Pick<ChatBody, 'top_p' | 'seed' | 'reasoning_effort'> {
  if (!s) return {};
  return {
    ...(s.topP !== undefined ? { top_p: s.topP } : {}),
    // Deprecated by OpenAI (best effort, in beta), yet the field the Evals API's `sampling_params.seed` types.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    ...(s.seed !== undefined ? { seed: s.seed } : {}),
    ...(s.reasoningEffort !== undefined ? { reasoning_effort: s.reasoningEffort } : {}),
  };
}

/**
 * The chat-completions body of a call: `model`, `messages` (role, content, and name when set), `temperature`,
 * `max_tokens`, then `response_format` (a sampler's own format over a `json` parser's), `n`,
 * `prompt_cache_key`, `service_tier` and a sampler's `top_p`, `seed` and `reasoning_effort` when they apply. Pure:
 * the same call and options give the same body, byte for byte once serialised.
 *
 * `max_tokens` is kept over its successor `max_completion_tokens`: this client serves any OpenAI-compatible
 * endpoint, and not all of them (older Azure API versions, Ollama, some vLLM releases) honour the newer
 * field, so switching would silently drop the limit there.
 */
export function buildChatBody(
  call: Pick<LlmCallRequest, 'messages' | 'temperature' | 'maxTokens' | 'sampling'>,
  options: BodyOptions,
): ChatBody {
  const own = call.sampling?.format;
  const format = own ? chatResponseFormat(own) : options.responseFormat;
  return {
    model: options.model,
    messages: call.messages.map(message),
    temperature: call.temperature,
    // Deprecated for o-series models, yet the field every OpenAI-compatible server honours (see above).
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    max_tokens: call.maxTokens,
    ...(format ? { response_format: format } : {}),
    ...(options.n !== undefined ? { n: options.n } : {}),
    ...(options.promptCacheKey !== undefined ? { prompt_cache_key: options.promptCacheKey } : {}),
    ...(options.tier === 'flex' ? { service_tier: 'flex' as const } : {}),
    ...samplingFields(call.sampling),
  };
}

/** The endpoint of every batch this client submits. */
export const BATCH_ENDPOINT = '/v1/chat/completions';

/** One line of a Batch API input file (OpenAI's "request input object"). */
export interface BatchInputLine {
  /** Matches the output line to this request: unique in the file (see `custom-id.ts`). */
  custom_id: string;
  method: 'POST';
  /** The endpoint's path: `/v1/chat/completions` (Azure OpenAI: `/chat/completions`). */
  url: string;
  body: ChatBody;
}

/**
 * A Batch API input line wrapping `body` as {@link buildChatBody} built it for the `batch` tier.
 * @param url the line's endpoint path; default {@link BATCH_ENDPOINT} (Azure OpenAI wants `/chat/completions`)
 */
export function batchLine(customId: string, body: ChatBody, url = BATCH_ENDPOINT): BatchInputLine {
  return { custom_id: customId, method: 'POST', url, body };
}
