/**
 * @module
 * The debate as OpenAI `chat.completion.chunk` server-sent events (`data: <JSON>` lines, `data: [DONE]`
 * at the end), the way `stream: true` answers:
 *
 * 1. a first chunk with `delta: { role: "assistant", content: "" }`;
 * 2. one chunk per agent reply as it is stored, its content a header line and the reply:
 *    `[<label> · <stage> · <callId>]\n<reply>\n\n` (a call that failed for good: `… call failed: <code>: <message>`);
 *    calls of a calibrated run carry their order in the call id (`ab/…` as submitted, `ba/…` swapped);
 * 3. the verdict: one chunk whose content is `[VERDICT]\n` and the verdict's JSON, exactly the content
 *    a non-streamed request gets; so the text after the last `[VERDICT]\n` line parses as the verdict;
 * 4. a chunk with `finish_reason: "stop"`; with `stream_options.include_usage`, a chunk with
 *    `choices: []` and the whole debate's `usage` (earlier chunks carry `usage: null`, as OpenAI's do);
 * 5. `data: [DONE]`.
 *
 * Each content chunk also carries a `tribunal` field (ignored by OpenAI clients): the reply's call
 * (`event: "message"`) or the parsed verdict (`event: "verdict"`). An evaluation that fails, is cancelled
 * or has no verdict within the wait bound ends the stream with `data: {"error": {…}}` (the OpenAI SDKs
 * throw it as an `APIError`) and no `[DONE]`. Keep-alive comments (`: keep-alive`) go out while agents think.
 */
import { z } from '@hono/zod-openapi';
import type { CallFinishedEvent } from '../evaluations/live-events.js';
import type { ChatUsage, JudgeVerdict } from './schemas.js';
import { ChatUsageSchema, JudgeVerdictSchema, OpenAIErrorBodySchema } from './schemas.js';

/** What every chunk of one answer shares. */
export interface ChunkContext {
  /** `chatcmpl-<evaluation id>`. */
  id: string;
  /** Unix seconds. */
  created: number;
  model: string;
  /** `stream_options.include_usage`: chunks carry `usage: null`, and a last chunk the usage. */
  includeUsage: boolean;
}

/** The `tribunal` field of a chunk: the reply it carries, or the verdict. */
export const ChunkExtensionSchema = z.union([
  z
    .object({
      event: z.literal('message'),
      callId: z.string(),
      agent: z.string(),
      label: z.string(),
      stage: z.string(),
      ok: z.boolean(),
    })
    .strict(),
  z.object({ event: z.literal('verdict'), verdict: JudgeVerdictSchema }).strict(),
]);
/** The `tribunal` field of a chunk. */
export type ChunkExtension = z.infer<typeof ChunkExtensionSchema>;

/** One `chat.completion.chunk`. */
export const ChatCompletionChunkSchema = z
  .object({
    id: z.string(),
    object: z.literal('chat.completion.chunk'),
    created: z.number().int(),
    model: z.string(),
    choices: z.array(
      z
        .object({
          index: z.literal(0),
          delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }).strict(),
          // A union: `.nullable()` on a literal leaves null out of the document's `enum`.
          finish_reason: z.union([z.literal('stop'), z.null()]),
          logprobs: z.null(),
        })
        .strict(),
    ),
    // A union, not `.nullable()`: the document generator would mark the shared ChatUsage component itself nullable.
    usage: z.union([ChatUsageSchema, z.null()]).optional(),
    tribunal: ChunkExtensionSchema.optional(),
  })
  .strict()
  .meta({ id: 'ChatCompletionChunk' });
/** One `chat.completion.chunk`. */
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunkSchema>;

/**
 * What one `data:` line of a streamed answer carries: a chunk, or, as the stream's last event, the error that
 * ended it without a verdict (then no `[DONE]` follows). The closing `data: [DONE]` is not JSON and has no schema.
 */
export const ChatCompletionStreamEventSchema = z.union([ChatCompletionChunkSchema, OpenAIErrorBodySchema]).meta({
  id: 'ChatCompletionStreamEvent',
  description:
    'One `data:` line of a streamed chat completion: a ChatCompletionChunk, or an OpenAIError that ends the stream ' +
    '(`verdict_timeout`, `evaluation_failed`, `evaluation_cancelled`, `internal`; no `[DONE]` follows it). ' +
    'A stream that reaches its verdict ends with `data: [DONE]`.',
});
/** One `data:` line of a streamed chat completion. */
export type ChatCompletionStreamEvent = z.infer<typeof ChatCompletionStreamEventSchema>;

/** The line before the verdict's JSON in a stream's content. */
export const VERDICT_MARKER = '[VERDICT]\n';

/** The stream's last line. */
export const SSE_DONE = 'data: [DONE]\n\n';

/** The keep-alive comment sent while no reply arrives. */
export const SSE_KEEP_ALIVE = ': keep-alive\n\n';

/** One SSE `data:` frame. */
export function sseData(value: ChatCompletionStreamEvent): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

function chunk(
  ctx: ChunkContext,
  delta: ChatCompletionChunk['choices'][number]['delta'],
  extra: Partial<ChatCompletionChunk> = {},
  finish: 'stop' | null = null,
): ChatCompletionChunk {
  return {
    id: ctx.id,
    object: 'chat.completion.chunk',
    created: ctx.created,
    model: ctx.model,
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    ...(ctx.includeUsage ? { usage: null } : {}),
    ...extra,
  };
}

/** The first chunk: the assistant's role. */
export function roleChunk(ctx: ChunkContext): ChatCompletionChunk {
  return chunk(ctx, { role: 'assistant', content: '' });
}

/** The header line of a reply in the stream's content. */
export function replyHeader(e: Pick<CallFinishedEvent['data'], 'label' | 'stage' | 'callId'>): string {
  return `[${e.label} · ${e.stage} · ${e.callId}]`;
}

/** A stored reply (or a call that failed for good) as a content chunk. */
export function replyChunk(
  ctx: ChunkContext,
  e: Pick<CallFinishedEvent['data'], 'callId' | 'agent' | 'label' | 'stage' | 'ok' | 'content' | 'error'>,
): ChatCompletionChunk {
  const body = e.ok ? (e.content ?? '') : `call failed: ${e.error?.code ?? 'error'}: ${e.error?.message ?? ''}`;
  const ext: ChunkExtension = {
    event: 'message',
    callId: e.callId,
    agent: e.agent,
    label: e.label,
    stage: e.stage,
    ok: e.ok,
  };
  return chunk(ctx, { content: `${replyHeader(e)}\n${body}\n\n` }, { tribunal: ext });
}

/** The verdict as a content chunk: {@link VERDICT_MARKER} and the verdict's JSON. */
export function verdictChunk(ctx: ChunkContext, verdict: JudgeVerdict): ChatCompletionChunk {
  return chunk(
    ctx,
    { content: `${VERDICT_MARKER}${JSON.stringify(verdict)}` },
    { tribunal: { event: 'verdict', verdict } },
  );
}

/** The chunk that ends the choice. */
export function finishChunk(ctx: ChunkContext): ChatCompletionChunk {
  return chunk(ctx, {}, {}, 'stop');
}

/** The usage chunk (`stream_options.include_usage`): no choices, the whole debate's usage. */
export function usageChunk(ctx: ChunkContext, usage: ChatUsage): ChatCompletionChunk {
  return { id: ctx.id, object: 'chat.completion.chunk', created: ctx.created, model: ctx.model, choices: [], usage };
}

/** The verdict's JSON in a stream's accumulated content (the text after the last {@link VERDICT_MARKER}), or null. */
export function verdictFromContent(content: string): JudgeVerdict | null {
  const at = content.lastIndexOf(VERDICT_MARKER);
  if (at === -1) return null;
  const parsed = JudgeVerdictSchema.safeParse(JSON.parse(content.slice(at + VERDICT_MARKER.length)));
  return parsed.success ? parsed.data : null;
}
