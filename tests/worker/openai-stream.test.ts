/**
 * `stream: true` with the official OpenAI SDK as the client: the debate's replies arrive as
 * `chat.completion.chunk`s while the evaluation runs, in the transcript's order, then the verdict (the
 * same JSON a plain request gets), the finish chunk, the usage chunk when asked, and `[DONE]`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Evaluation } from '../../src/evaluations/schemas.js';
import type { ChatCompletionChunk } from '../../src/openai/chunks.js';
import { ChatCompletionChunkSchema, replyHeader, VERDICT_MARKER, verdictFromContent } from '../../src/openai/chunks.js';
import { api, postJson } from './api-fetch.js';
import { drainAlarms, PAIRWISE } from './helpers.js';
import { judgeModel, sdk, verdictOf } from './openai-support.js';

afterEach(drainAlarms);

async function evaluation(id: string): Promise<Evaluation> {
  return (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
}

interface TranscriptJson {
  messages: { callId: string; agent: string; label: string; stage: string; content: string }[];
}

describe('a judge as a model, streamed', () => {
  it('streams each reply as it is stored, then the verdict, finish, usage and [DONE]', async () => {
    // 150 ms per call and turns in sequence: the first reply arrives long before the verdict.
    const model = judgeModel('chateval-faireval', { seed: 'stream-live', latency: 150 });
    const { data: stream, response } = await sdk()
      .chat.completions.create({
        model,
        messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    expect(response.headers.get('Content-Type')).toContain('text/event-stream');
    const id = response.headers.get('Tribunal-Evaluation-Id') ?? '';
    expect(id).toMatch(/^ev_/);

    const chunks: ChatCompletionChunk[] = [];
    let statusAtFirstReply: string | null = null;
    for await (const raw of stream) {
      // Every chunk is exactly the documented shape (strict: no stray fields).
      const chunk = ChatCompletionChunkSchema.parse(raw);
      if (chunk.tribunal?.event === 'message' && statusAtFirstReply === null)
        statusAtFirstReply = (await evaluation(id)).status;
      chunks.push(chunk);
    }
    // Live: when the first reply arrived, the debate was still running.
    expect(statusAtFirstReply).toBe('running');

    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: '' });
    const replies = chunks.filter((c) => c.tribunal?.event === 'message');
    const t = await (await api(`/v1/evaluations/${id}/transcript`)).json<TranscriptJson>();
    // One chunk per stored reply, in the transcript's (recording) order, with its header and text.
    expect(replies.map((c) => (c.tribunal?.event === 'message' ? c.tribunal.callId : ''))).toEqual(
      t.messages.map((m) => m.callId),
    );
    replies.forEach((c, i) => {
      const m = t.messages[i]!;
      expect(c.choices[0]?.delta.content).toBe(`${replyHeader(m)}\n${m.content}\n\n`);
    });
    expect(replies).toHaveLength(8);

    const tail = chunks.slice(1 + replies.length);
    expect(
      tail.map((c) => (c.choices.length === 0 ? 'usage' : (c.tribunal?.event ?? c.choices[0]?.finish_reason))),
    ).toEqual(['verdict', 'stop', 'usage']);
    const [verdictChunk, , usageChunk] = tail;
    const verdict = verdictChunk?.tribunal?.event === 'verdict' ? verdictChunk.tribunal.verdict : null;
    expect(verdictChunk?.choices[0]?.delta.content).toBe(`${VERDICT_MARKER}${JSON.stringify(verdict)}`);
    // The concatenated content carries the verdict after its marker, as the docs promise.
    const content = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    expect(verdictFromContent(content)).toEqual(verdict);

    const ev = await evaluation(id);
    expect(verdict).toMatchObject({
      evaluationId: id,
      winner: ev.verdict?.winner,
      positionFlip: ev.verdict?.positionFlip,
      calls: 8,
    });
    expect(usageChunk?.usage).toEqual({
      prompt_tokens: ev.usage.promptTokens,
      completion_tokens: ev.usage.completionTokens,
      total_tokens: ev.usage.promptTokens + ev.usage.completionTokens,
      prompt_tokens_details: { cached_tokens: ev.usage.cachedPromptTokens },
    });
    // With include_usage every other chunk says `usage: null`, as OpenAI's do.
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(new Set(chunks.map((c) => c.id))).toEqual(new Set([`chatcmpl-${id}`]));
  });

  it("the streamed verdict is the plain answer's: a replay of the same evaluation without streaming gives the same JSON", async () => {
    const client = sdk();
    const params = {
      model: judgeModel('chateval-single', { seed: 'stream-same' }),
      messages: [{ role: 'user' as const, content: JSON.stringify(PAIRWISE) }],
    };
    const stream = await client.chat.completions.create(
      { ...params, stream: true },
      { headers: { 'Idempotency-Key': 'stream-same-1' } },
    );
    let content = '';
    const chunks: ChatCompletionChunk[] = [];
    for await (const raw of stream) {
      const chunk = ChatCompletionChunkSchema.parse(raw);
      chunks.push(chunk);
      content += chunk.choices[0]?.delta.content ?? '';
    }
    // Without include_usage: no usage field at all.
    expect(chunks.every((c) => !('usage' in c))).toBe(true);
    const plain = await client.chat.completions.create(params, { headers: { 'Idempotency-Key': 'stream-same-1' } });
    expect(verdictFromContent(content)).toEqual(verdictOf(plain));
  });

  it('a late stream of an evaluation that already ended replays every reply once, then the verdict', async () => {
    const created = await postJson(
      '/v1/evaluations',
      {
        preset: 'chateval-single',
        config: { defaults: { model: judgeModel('chateval-single', { seed: 'stream-late' }).split('@')[1] } },
        task: PAIRWISE,
      },
      { 'Idempotency-Key': 'stream-late-1' },
    );
    expect(created.status).toBe(202);
    const { id } = await created.json<{ id: string }>();
    // The chat request names the same judge and task with the same key: it replays that evaluation.
    const ended = await sdk().chat.completions.create(
      {
        model: judgeModel('chateval-single', { seed: 'stream-late' }),
        messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }],
      },
      { headers: { 'Idempotency-Key': 'stream-late-1' } },
    );
    expect(verdictOf(ended).evaluationId).toBe(id);
    const raw = await api('/v1/chat/completions', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'stream-late-1' },
      body: JSON.stringify({
        model: judgeModel('chateval-single', { seed: 'stream-late' }),
        messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }],
        stream: true,
      }),
    });
    expect(raw.headers.get('Idempotent-Replayed')).toBe('true');
    const text = await raw.text();
    const frames = text.split('\n\n').filter((f) => f.startsWith('data: '));
    expect(frames.at(-1)).toBe('data: [DONE]');
    const parsed = frames.slice(0, -1).map((f) => ChatCompletionChunkSchema.parse(JSON.parse(f.slice(6))));
    const t = await (await api(`/v1/evaluations/${id}/transcript`)).json<TranscriptJson>();
    expect(parsed.filter((c) => c.tribunal?.event === 'message')).toHaveLength(t.messages.length);
    expect(parsed.filter((c) => c.tribunal?.event === 'verdict')).toHaveLength(1);
  });
});
