/**
 * @module
 * The mock OpenAI-compatible server as a portable fetch handler (Node 20, workerd, the client's
 * in-process provider). Routes:
 *
 * - `POST /v1/chat/completions`: a chat completion in judge or scripted mode, with the latency, faults
 *   and options the model name asks for (syntax in `model-name.ts`, built by `mockModel`);
 * - `POST /v1/responses`: OpenAI's Responses API over the same replies (`responses-api.ts`);
 * - `GET /v1/models`: the mock's model list;
 * - `POST /v1/embeddings`: deterministic bag-of-words vectors (`embeddings.ts`);
 * - `PUT /_mock/scripts/<ns>` with `{"rules": [{"pattern": "regex", "flags": "i", "reply": "text"}]}`:
 *   sets scripted-mode rules of namespace `<ns>` (requests select it with `ns=<ns>` in the model name);
 *   `DELETE /_mock/scripts/<ns>` removes them;
 * - `POST /_mock/reset`: forgets attempt counters and the prompt cache (all tests: prefer distinct seeds);
 *   files and batches stay;
 * - OpenAI's Files API (`/v1/files`, see `files.ts`) and Batch API (`/v1/batches`, see `batches.ts`): each
 *   batch line is answered by the chat-completions code below, without latency, so its reply is the one the
 *   same body gets synchronously.
 *
 * Chat-completion parameters read besides the messages: `response_format`, `tools` / `tool_choice`, `n`,
 * `service_tier` (flex as `flex.ts` describes; the response reports the tier served) and
 * `prompt_cache_key` (part of the prompt cache's scope, as OpenAI combines it with the prefix hash to route
 * requests to a cache). Neither changes a reply's content.
 *
 * Modes: *judge* (default) writes well-formed replies in the format the prompt asks for (see `judge-mode.ts`),
 * its verdicts seeded by the prompt, the `seed` and any model name other than `mock-*` (so three model names
 * judge one prompt three ways);
 * *scripted* answers with the reply of the first rule whose pattern matches the prompt (all messages
 * joined by newlines), and falls back to judge mode when none matches.
 *
 * A request that forces a function call (`tool_choice`) gets one `tool_calls` entry instead of text
 * (arguments from the function's JSON schema, see `tools.ts`).
 *
 * Usage figures: `prompt_tokens` from the approximate tokenizer (per-message overhead included),
 * `completion_tokens` likewise, `prompt_tokens_details.cached_tokens` from the prefix cache
 * (`prompt-cache.ts`), scoped by model and `prompt_cache_key`.
 */
import { hashHex } from '../llm/hash53.js';
import { estimateTokens } from '../llm/token-estimate.js';
import { handleBatchesRoute } from './batch-routes.js';
import type { MockBatchOptions } from './batches.js';
import { handleFilesRoute } from './files.js';
import { embeddingsRoute } from './embeddings.js';
import type { MockFlexOptions } from './flex.js';
import { capacityRefusal, flexRefusal, servedTier } from './flex.js';

import { WRONG_FORMAT_REPLY } from './judge-mode.js';
import type { MockDirectives, MockMode } from './model-name.js';
import { MockModelNameError, parseMockModel } from './model-name.js';
import { promptTokenStream } from './prompt-cache.js';
import { json, MOCK_FAULT_HEADER, openAiError } from './responses.js';
import { responsesRoute } from './responses-api.js';
import type { MockState } from './state.js';
import { createMockState, scriptsRoute } from './state.js';
import { forcedToolCall } from './tools.js';

import { readBody, replyText } from './chat-reply.js';
import { faultFor, latencyOf, statusError, wait } from './faults.js';

/** Options of {@link handleMockRequest}. */
export interface MockServerOptions {
  /** State to use; default: one module-wide state shared by every call without one. */
  state?: MockState;
  /** Mode for model names that name none (not `mock-judge` / `mock-scripted`). Default `judge`. */
  defaultMode?: MockMode;
  /** Latency in ms for requests whose model name sets none: fixed, or a [min, max] range. Default 0. */
  latencyMs?: number | [number, number];
  /** Flex processing: refusal share, flex-unsupported models, seed (`flex.ts`). Default: every flex request served. */
  flex?: MockFlexOptions;
  /** Batch API: turnaround, per-line failures and expiries, seed, limits (`batches.ts`). */
  batch?: MockBatchOptions;
  /** Clock of the Files and Batch APIs, ms since epoch (tests step it). Default `Date.now`. */
  now?: () => number;
}

const SHARED_STATE = createMockState();

/** When each request reached its server (epoch ms), for requests a server adapter marked (./node.ts). */
const ARRIVALS = new WeakMap<Request, number>();

/**
 * Marks when `request` reached the server (epoch ms): its latency then counts from `at`, not from when the mock
 * got round to its body. On one Node thread, the other requests' work done meanwhile (parsing, judging) would
 * otherwise land on this one's latency, which a provider serving requests in parallel does not do.
 * @returns `request`
 */
export function markArrival(request: Request, at: number): Request {
  ARRIVALS.set(request, at);
  return request;
}

const MODELS = ['mock-judge', 'mock-scripted'];

/** The key a request carried (`Authorization: Bearer …`, else Azure's `api-key`), or '' without one. */
function keyOf(request: Request): string {
  const auth = request.headers.get('authorization') ?? '';
  return /^Bearer\s+(.+)$/i.exec(auth)?.[1] ?? request.headers.get('api-key') ?? '';
}

/** How one chat completion is being answered: over HTTP, or as a line of a batch. */
interface AnswerContext {
  options: MockServerOptions;
  state: MockState;
  /** The key the request carried (error bodies quote it with `echoKey`). */
  apiKey: string;
  /** Aborts waits when the HTTP client hangs up. */
  signal?: AbortSignal;
  /** False for a batch line: no latency, and a `timeout` fault answers 504 without hanging. */
  waits: boolean;
  /**
   * When the request reached the mock (epoch ms): its latency counts from here, so its reply is due L ms after
   * it arrived whatever the mock's own work took meanwhile. Default: when its answer began.
   */
  arrivedAt?: number;
}

async function chatCompletion(request: Request, options: MockServerOptions, state: MockState): Promise<Response> {
  const arrivedAt = ARRIVALS.get(request) ?? Date.now();
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return openAiError(400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null);
  }
  return answerChat(raw, { options, state, apiKey: keyOf(request), signal: request.signal, waits: true, arrivedAt });
}

/**
 * A batch line's answer: status and JSON body, exactly what `POST /v1/chat/completions` would answer for the
 * same body (a `malformed` fault, whose body is no JSON, becomes a 500 line).
 */
async function answerLine(
  raw: unknown,
  ctx: Omit<AnswerContext, 'waits' | 'signal'>,
): Promise<{ status: number; body: unknown }> {
  const res = await answerChat(raw, { ...ctx, waits: false });
  const text = await res.text();
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return {
      status: 500,
      body: {
        error: {
          message: 'The server sent a malformed response (mock).',
          type: 'server_error',
          param: null,
          code: null,
        },
      },
    };
  }
}

async function answerChat(raw: unknown, ctx: AnswerContext): Promise<Response> {
  const arrivedAt = ctx.arrivedAt ?? Date.now();
  const { options, state } = ctx;
  const body = readBody(raw);
  if (typeof body === 'string') return openAiError(400, body, 'invalid_request_error', null);
  let d: MockDirectives;
  try {
    d = parseMockModel(body.model);
  } catch (e) {
    if (e instanceof MockModelNameError)
      return openAiError(400, e.message, 'invalid_request_error', 'invalid_mock_model');
    throw e;
  }
  const key = hashHex(`${body.model}\u0000${JSON.stringify(body.messages)}`);
  const attempt = (state.counters.get(key) ?? 0) + 1;
  state.counters.set(key, attempt);

  // A flex refusal comes before any work, as a capacity check does.
  const refusal =
    flexRefusal(body.service_tier, d.base, key, attempt, options.flex) ??
    (body.service_tier === 'flex' && attempt <= d.flexRefusals ? capacityRefusal() : undefined);
  if (refusal)
    return openAiError(refusal.status, refusal.message, refusal.type, refusal.code, refusal.headers, refusal.param);

  // The latency is a provider's time from the request to its reply: the reply is built now and sent when due
  // (L after arrival), so the mock's own work on one thread (parsing, judging, counting tokens) is inside L and
  // not added to it, as a provider serving requests in parallel does not add one request's work to another's.
  const due = arrivedAt + latencyOf(d, options.latencyMs, key, attempt);
  const whenDue = async (response: Response): Promise<Response> => {
    if (ctx.waits) await wait(due - Date.now(), ctx.signal);
    return response;
  };

  if (d.permanent !== undefined) return whenDue(statusError(d.permanent, d, body.model, ctx.apiKey));
  if (d.rejectJsonSchema && body.response_format?.type === 'json_schema') {
    return whenDue(
      openAiError(
        400,
        "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
        'invalid_request_error',
        null,
      ),
    );
  }
  const fault = faultFor(d, key, attempt);
  if (fault?.kind === 'status') return whenDue(statusError(fault.status, d, body.model, ctx.apiKey));
  if (fault?.kind === 'timeout') {
    const hang = await whenDue(openAiError(504, 'Gateway timeout (mock hang).', 'server_error', null));
    if (ctx.waits) await wait(d.hangMs, ctx.signal);
    return hang;
  }
  // A 200 that carries a fault says so, for a test to tell the retry it causes from one the load causes.
  const faulted: Record<string, string> = fault ? { [MOCK_FAULT_HEADER]: fault.kind } : {};
  if (fault?.kind === 'malformed') {
    return whenDue(
      new Response(
        '{"id": "chatcmpl-mock", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assis',
        {
          status: 200,
          headers: { 'content-type': 'application/json', ...faulted },
        },
      ),
    );
  }

  const mode = d.mode ?? options.defaultMode ?? 'judge';
  // `n` distinct choices, one prompt billed; `n=ignore` in the model name answers one, as many servers do.
  const count = d.ignoreN ? 1 : (body.n ?? 1);
  const finish = fault?.kind === 'truncated' ? 'length' : 'stop';
  const contents = Array.from({ length: count }, (_, i) => {
    const content = replyText(body, d, state, mode, i, attempt);
    if (fault?.kind === 'empty') return '';
    if (fault?.kind === 'wrong-format') return WRONG_FORMAT_REPLY;
    if (fault?.kind === 'truncated') return content.slice(0, Math.max(1, Math.floor(content.length / 2)));
    return content;
  });

  // A forced function call is answered with one tool call (./tools.ts), whatever `n` asked.
  const toolCall =
    fault === undefined ? forcedToolCall(body.tools, body.tool_choice, `${d.seed}\u0000${key}`) : undefined;
  const stream = promptTokenStream(body.messages);
  // OpenAI combines `prompt_cache_key` with the prefix hash to route a request to a cache: requests under
  // another key (or none) do not share cached prefixes with it.
  const scope = body.prompt_cache_key === undefined ? d.base : `${d.base}\u0000key\u0000${body.prompt_cache_key}`;
  const cached = state.cache.lookupAndStore(scope, stream);
  const completionTokens = toolCall
    ? estimateTokens(toolCall.function.arguments)
    : contents.reduce((n, c) => n + estimateTokens(c), 0);
  return whenDue(
    json(
      200,
      {
        id: `chatcmpl-mock-${key}-${attempt}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        service_tier: servedTier(body.service_tier),
        system_fingerprint: 'mock',
        choices: toolCall
          ? [
              {
                index: 0,
                message: { role: 'assistant', content: null, tool_calls: [toolCall], refusal: null },
                logprobs: null,
                finish_reason: 'tool_calls',
              },
            ]
          : contents.map((content, index) => ({
              index,
              message: { role: 'assistant', content, refusal: null },
              logprobs: null,
              finish_reason: finish,
            })),
        ...(d.omitUsage
          ? {}
          : {
              usage: {
                prompt_tokens: stream.length,
                completion_tokens: completionTokens,
                total_tokens: stream.length + completionTokens,
                prompt_tokens_details: { cached_tokens: cached },
              },
            }),
      },
      faulted,
    ),
  );
}

/**
 * Answers one HTTP request like an OpenAI-compatible server (routes in the module notes).
 * Never throws for bad input: answers 400/404 with an OpenAI-style error body.
 */
export async function handleMockRequest(request: Request, options: MockServerOptions = {}): Promise<Response> {
  const state = options.state ?? SHARED_STATE;
  const path = new URL(request.url).pathname.replace(/\/+$/, '');
  if (request.method === 'POST' && path.endsWith('/chat/completions')) return chatCompletion(request, options, state);
  if (request.method === 'POST' && path.endsWith('/responses')) {
    const apiKey = keyOf(request);
    const arrivedAt = ARRIVALS.get(request) ?? Date.now();
    return responsesRoute(request, (raw) =>
      answerChat(raw, { options, state, apiKey, signal: request.signal, waits: true, arrivedAt }),
    );
  }
  if (request.method === 'POST' && path.endsWith('/embeddings')) return embeddingsRoute(request);
  if (request.method === 'GET' && path.endsWith('/models')) {
    return json(200, {
      object: 'list',
      data: MODELS.map((id) => ({ id, object: 'model', created: 0, owned_by: 'tribunal-mock' })),
    });
  }
  const script = /\/_mock\/scripts\/([^/]+)$/.exec(path);
  if (script?.[1] && (request.method === 'PUT' || request.method === 'POST' || request.method === 'DELETE')) {
    return scriptsRoute(request, decodeURIComponent(script[1]), state);
  }
  const nowMs = (options.now ?? Date.now)();
  const files = await handleFilesRoute(request, path, state.files, nowMs, options.batch);
  if (files) return files;
  const apiKey = keyOf(request);
  const batches = await handleBatchesRoute(
    request,
    path,
    state.batches,
    state.files,
    (raw) => answerLine(raw, { options, state, apiKey }),
    nowMs,
    options.batch,
  );
  if (batches) return batches;
  if (request.method === 'POST' && path.endsWith('/_mock/reset')) {
    state.counters.clear();
    state.cache.clear();
    return new Response(null, { status: 204 });
  }
  return openAiError(404, `no route ${request.method} ${path}`, 'invalid_request_error', 'not_found');
}
