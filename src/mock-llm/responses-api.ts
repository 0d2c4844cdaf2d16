/**
 * @module
 * The mock's `POST /v1/responses`: OpenAI's Responses API, answered by the chat-completions code (judge or
 * scripted mode, the model name's latency and faults) so the same prompt gets the same reply on either wire.
 *
 * Read: `model`, `input` (a string, or messages `{role, content}` whose content is a string or
 * `input_text` / `output_text` parts), `instructions` (a system message first), `temperature`, `top_p`,
 * `max_output_tokens`, `text.format` (`json_schema` is chat completions' `response_format`), `service_tier`,
 * `prompt_cache_key`, `store`, `reasoning`. Anything else, and `stream`, `tools`, `previous_response_id`, are a
 * 400 naming the parameter, as OpenAI answers an unknown one. The answer is a `response` object: one `message`
 * output item holding an `output_text` part, `output_text` (the SDK computes it too), `usage`
 * `{input_tokens, input_tokens_details.cached_tokens, output_tokens, output_tokens_details.reasoning_tokens,
 * total_tokens}`, `status` `completed` (`incomplete` with `max_output_tokens` for a truncated fault). Errors
 * are OpenAI's `{error: {message, type, param, code}}`, with the chat path's statuses.
 */
import type { Response as OpenAiResponse, ResponseUsage } from 'openai/resources/responses/responses';
import { hashHex } from '../llm/hash53.js';
import { json, MOCK_FAULT_HEADER, openAiError } from './responses.js';

/** The chat-completions answer of a chat body, as the mock's handler gives it. */
export type AnswerChat = (body: Record<string, unknown>) => Promise<Response>;

/** Parameters read; others are refused, as OpenAI refuses an unknown parameter. */
const KNOWN = new Set([
  'model',
  'input',
  'instructions',
  'temperature',
  'top_p',
  'max_output_tokens',
  'text',
  'service_tier',
  'prompt_cache_key',
  'store',
  'reasoning',
  'metadata',
]);

type Chat = { role: string; content: string };

const invalid = (message: string, param: string | null) =>
  openAiError(400, message, 'invalid_request_error', null, {}, param);

/** The text of one input message's content: a string, or its text parts joined. */
function contentText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const parts: string[] = [];
  for (const p of content as { type?: unknown; text?: unknown }[]) {
    if ((p.type !== 'input_text' && p.type !== 'output_text') || typeof p.text !== 'string') return undefined;
    parts.push(p.text);
  }
  return parts.join('');
}

/** The chat body of a Responses body, or the 400 that refuses it. */
function chatBodyOf(raw: unknown): Record<string, unknown> | Response {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return invalid('The body must be a JSON object.', null);
  const b = raw as Record<string, unknown>;
  const unknown = Object.keys(b).find((k) => !KNOWN.has(k));
  if (unknown !== undefined) return invalid(`Unsupported parameter: '${unknown}' (mock).`, unknown);
  if (typeof b.model !== 'string' || b.model === '') return invalid("Missing required parameter: 'model'.", 'model');
  const messages: Chat[] = [];
  if (b.instructions !== undefined && b.instructions !== null) {
    if (typeof b.instructions !== 'string') return invalid("Invalid type for 'instructions'.", 'instructions');
    messages.push({ role: 'system', content: b.instructions });
  }
  if (typeof b.input === 'string') messages.push({ role: 'user', content: b.input });
  else if (Array.isArray(b.input)) {
    for (const [i, m] of (b.input as unknown[]).entries()) {
      const r = m as { role?: unknown; content?: unknown; type?: unknown } | null;
      const text = contentText(r?.content);
      const role = r?.role === 'developer' ? 'system' : r?.role;
      if (!r || (r.type !== undefined && r.type !== 'message') || typeof role !== 'string' || text === undefined)
        return invalid(
          `Invalid value for 'input[${String(i)}]': expected a message with text content.`,
          `input[${String(i)}]`,
        );
      messages.push({ role, content: text });
    }
  } else return invalid("Missing required parameter: 'input'.", 'input');
  if (messages.length === 0) return invalid("'input' must not be empty.", 'input');
  const format = (b.text as { format?: { type?: unknown; schema?: unknown; name?: unknown } } | undefined)?.format;
  if (format !== undefined && !['text', 'json_schema', 'json_object'].includes(String(format.type)))
    return invalid(`Invalid value for 'text.format.type'.`, 'text.format.type');
  return {
    model: b.model,
    messages,
    ...(typeof b.temperature === 'number' ? { temperature: b.temperature } : {}),
    ...(typeof b.max_output_tokens === 'number' ? { max_tokens: b.max_output_tokens } : {}),
    ...(format?.type === 'json_schema'
      ? { response_format: { type: 'json_schema', json_schema: { name: format.name, schema: format.schema } } }
      : {}),
    ...(b.service_tier !== undefined ? { service_tier: b.service_tier } : {}),
    ...(b.prompt_cache_key !== undefined ? { prompt_cache_key: b.prompt_cache_key } : {}),
  };
}

interface ChatAnswer {
  model: string;
  service_tier: string;
  choices: { message: { content: string | null }; finish_reason: string }[];
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details: { cached_tokens: number } };
}

/** A chat completion as a Responses `response` object. */
function responseOf(chat: ChatAnswer, body: Record<string, unknown>, raw: Record<string, unknown>): OpenAiResponse {
  const choice = chat.choices[0];
  const text = choice?.message.content ?? '';
  const cut = choice?.finish_reason === 'length';
  const id = hashHex(`${JSON.stringify(body)}\u0000${String(Date.now())}\u0000${String(Math.random())}`);
  const u = chat.usage;
  const usage: ResponseUsage | undefined = u && {
    input_tokens: u.prompt_tokens,
    input_tokens_details: { cached_tokens: u.prompt_tokens_details.cached_tokens },
    output_tokens: u.completion_tokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.prompt_tokens + u.completion_tokens,
  };
  return {
    id: `resp_mock_${id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: cut ? 'incomplete' : 'completed',
    error: null,
    incomplete_details: cut ? { reason: 'max_output_tokens' } : null,
    instructions: typeof raw.instructions === 'string' ? raw.instructions : null,
    metadata: {},
    model: chat.model,
    output: [
      {
        type: 'message',
        id: `msg_mock_${id}`,
        status: cut ? 'incomplete' : 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations: [] }],
      },
    ],
    output_text: text,
    parallel_tool_calls: true,
    temperature: typeof raw.temperature === 'number' ? raw.temperature : 1,
    top_p: typeof raw.top_p === 'number' ? raw.top_p : 1,
    max_output_tokens: typeof raw.max_output_tokens === 'number' ? raw.max_output_tokens : null,
    tool_choice: 'auto',
    tools: [],
    service_tier: chat.service_tier as OpenAiResponse['service_tier'],
    ...(usage ? { usage } : {}),
  };
}

/**
 * Answers `POST /v1/responses` (see the module note) through `answerChat`. Never throws for bad input.
 */
export async function responsesRoute(request: Request, answerChat: AnswerChat): Promise<Response> {
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    return invalid('We could not parse the JSON body of your request.', null);
  }
  const body = chatBodyOf(raw);
  if (body instanceof Response) return body;
  const answer = await answerChat(body);
  if (answer.status !== 200) return answer;
  const text = await answer.text();
  let chat: ChatAnswer;
  try {
    chat = JSON.parse(text) as ChatAnswer;
  } catch {
    // A `malformed` fault: the body is cut as the chat path cuts it.
    return new Response(text.replace('chat.completion', 'response'), { status: 200, headers: answer.headers });
  }
  const fault = answer.headers.get(MOCK_FAULT_HEADER);
  return json(200, responseOf(chat, body, raw as Record<string, unknown>), fault ? { [MOCK_FAULT_HEADER]: fault } : {});
}
