/**
 * @module
 * OpenAI's Responses API (`POST {baseUrl}/responses`) as a second call path of the client, for calls that ask
 * for it (`api: 'responses'`, an Evals run's `responses` data source) at a provider declared to speak it
 * (`supportsResponses`, OpenAI). The body is built from the same call as chat completions' (./request.ts):
 * a leading system message becomes `instructions`, the rest `input`; `max_tokens` is `max_output_tokens`, a
 * format `text.format`, `reasoning_effort` `reasoning.effort`; nothing is stored at the provider
 * (`store: false`). The answer's `output` message items' `output_text` parts are the reply, and its `usage`
 * (`input_tokens`, `output_tokens`, `input_tokens_details.cached_tokens`) is read as chat completions' usage.
 */
import type {
  EasyInputMessage,
  ResponseCreateParamsNonStreaming,
  ResponseFormatTextConfig,
} from 'openai/resources/responses/responses';
import type { LlmCallRequest } from '../engine/call.js';
import type { AttemptOutcome } from './outcome.js';
import type { BodyOptions } from './request.js';
import type { WireSend } from './wire.js';
import { sendJson } from './wire.js';

/** The Responses body this client sends: the fields of OpenAI's create params that it uses. */
export type ResponsesBody = Pick<
  ResponseCreateParamsNonStreaming,
  | 'model'
  | 'input'
  | 'instructions'
  | 'temperature'
  | 'max_output_tokens'
  | 'top_p'
  | 'reasoning'
  | 'text'
  | 'prompt_cache_key'
  | 'service_tier'
  | 'store'
>;

/** The reply's format: the sampler's own, else a `json` parser's schema in the Responses API's flat shape. */
function formatOf(call: Pick<LlmCallRequest, 'sampling'>, options: BodyOptions): ResponseFormatTextConfig | undefined {
  const own = call.sampling?.format;
  if (own) return own;
  const rf = options.responseFormat;
  return rf ? { type: 'json_schema', ...rf.json_schema } : undefined;
}

/**
 * The Responses body of a call (see the module note). Pure, as `buildChatBody` is. The Responses API takes no
 * `seed` and no `n`: a sampler's seed is not sent, and samples go as separate calls.
 */
export function buildResponsesBody(
  call: Pick<LlmCallRequest, 'messages' | 'temperature' | 'maxTokens' | 'sampling'>,
  options: BodyOptions,
): ResponsesBody {
  const [first, ...rest] = call.messages;
  const lead = first?.role === 'system' ? first.content : undefined;
  const input: EasyInputMessage[] = (lead === undefined ? call.messages : rest).map((m) => ({
    role: m.role,
    content: m.content,
  }));
  const s = call.sampling;
  const format = formatOf(call, options);
  return {
    model: options.model,
    ...(lead !== undefined ? { instructions: lead } : {}),
    input,
    temperature: call.temperature,
    max_output_tokens: call.maxTokens,
    ...(s?.topP !== undefined ? { top_p: s.topP } : {}),
    ...(s?.reasoningEffort !== undefined ? { reasoning: { effort: s.reasoningEffort } } : {}),
    ...(format ? { text: { format } } : {}),
    ...(options.promptCacheKey !== undefined ? { prompt_cache_key: options.promptCacheKey } : {}),
    ...(options.tier === 'flex' ? { service_tier: 'flex' as const } : {}),
    store: false,
  };
}

/** The `responses` URL of an OpenAI-compatible base URL. */
export function responsesUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/responses`;
}

/** The text of a Responses answer: its message items' `output_text` parts, else their refusals. */
function outputText(output: unknown[]): string {
  const parts: string[] = [];
  for (const item of output) {
    const it = item as { type?: unknown; content?: unknown };
    if (it.type !== 'message' || !Array.isArray(it.content)) continue;
    for (const c of it.content as { type?: unknown; text?: unknown; refusal?: unknown }[]) {
      if (c.type === 'output_text' && typeof c.text === 'string') parts.push(c.text);
      else if (c.type === 'refusal' && typeof c.refusal === 'string') parts.push(c.refusal);
    }
  }
  return parts.join('');
}

/**
 * Reads the reply out of a Responses body, checking its shape: a `failed` response is a retryable provider
 * error quoting its `error.message`; an `incomplete` one with text is a reply (as a chat completion cut at
 * `length` is); the usage is read into chat completions' names.
 */
export function readResponse(body: unknown, providerId: string, fallbackModel: string): AttemptOutcome {
  const fail = (attemptKind: 'malformed' | 'empty_reply', code: string, message: string): AttemptOutcome => ({
    kind: 'error',
    attemptKind,
    retryable: true,
    error: { code, message: `provider "${providerId}" ${message}` },
  });
  if (typeof body !== 'object' || body === null)
    return fail('malformed', 'provider_error', 'sent a malformed response');
  const rec = body as { output?: unknown; status?: unknown; model?: unknown; usage?: unknown; error?: unknown };
  if (rec.status === 'failed') {
    const why = (rec.error as { message?: unknown } | null)?.message;
    return {
      kind: 'error',
      attemptKind: 'http',
      retryable: true,
      error: {
        code: 'provider_error',
        message: `provider "${providerId}" failed the response: ${typeof why === 'string' ? why : 'no reason given'}`,
      },
    };
  }
  if (!Array.isArray(rec.output)) return fail('malformed', 'provider_error', 'sent a response without output');
  const text = outputText(rec.output as unknown[]);
  if (text.trim() === '') return fail('empty_reply', 'empty_reply', 'returned an empty reply');
  const u = rec.usage as
    | { input_tokens?: number; output_tokens?: number; input_tokens_details?: { cached_tokens?: number } }
    | null
    | undefined;
  return {
    kind: 'reply',
    content: text,
    choices: [text],
    model: typeof rec.model === 'string' && rec.model !== '' ? rec.model : fallbackModel,
    usage:
      typeof u === 'object' && u !== null
        ? {
            prompt_tokens: u.input_tokens ?? null,
            completion_tokens: u.output_tokens ?? null,
            prompt_tokens_details: { cached_tokens: u.input_tokens_details?.cached_tokens ?? null },
          }
        : undefined,
  };
}

/**
 * Sends one Responses request and reads the answer ({@link readResponse}), a failure classified as chat
 * completions' are otherwise. Never throws.
 */
export async function sendResponse(
  providerId: string,
  url: string,
  headers: Record<string, string>,
  model: string,
  body: ResponsesBody,
  send: WireSend,
): Promise<AttemptOutcome> {
  return sendJson(providerId, url, headers, body, send, (parsed) => readResponse(parsed, providerId, model));
}
