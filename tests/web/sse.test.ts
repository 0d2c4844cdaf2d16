/**
 * The viewer's fetch-based event-stream reader (src/web/app/sse.ts): the WHATWG parsing rules, chunk
 * boundaries anywhere (inside a CRLF, inside a UTF-8 character), and a round trip through the server's
 * own encoder (src/evaluations/live-events.ts).
 */
import { describe, expect, it } from 'vitest';
import type { EvaluationEvent } from '../../src/evaluations/live-events.js';
import { encodeSse } from '../../src/evaluations/live-events.js';
import { SSE_PING } from '../../src/evaluations/sse-hub.js';
import type { SseMessage } from '../../src/web/app/sse.js';
import { readSse, SseParser } from '../../src/web/app/sse.js';

function parseAll(chunks: readonly string[]): SseMessage[] {
  const p = new SseParser();
  return chunks.flatMap((c) => p.push(c));
}

const EVENTS: EvaluationEvent[] = [
  { type: 'status', data: { evaluationId: 'ev_1', status: 'running', callsDone: 0, callsPlanned: 2, at: 1 } },
  {
    type: 'call.started',
    data: {
      evaluationId: 'ev_1',
      callId: 'ab/turn1/agent0',
      agent: 'agent0',
      label: 'General Public',
      stage: 'turn 1',
      at: 2,
    },
  },
  {
    type: 'call.finished',
    data: {
      evaluationId: 'ev_1',
      callId: 'ab/turn1/agent0',
      agent: 'agent0',
      label: 'General Public',
      stage: 'turn 1',
      ok: true,
      content: 'Line one\nline two: "quoted" — é 漢字 🙂\r\nThe score of Assistant 1: 4',
      model: 'm',
      startedAt: 2,
      finishedAt: 9,
      latencyMs: 7,
    },
  },
];

describe('SseParser', () => {
  it("reads the server's own frames back, pings ignored, wherever the chunks split", () => {
    const text = SSE_PING + EVENTS.map(encodeSse).join(SSE_PING);
    const expected = EVENTS.map((e) => ({ event: e.type, data: JSON.stringify(e.data) }));
    expect(parseAll([text])).toEqual(expected);
    // Every split point, and one character at a time.
    for (let i = 0; i <= text.length; i++)
      expect(parseAll([text.slice(0, i), text.slice(i)]), `split at ${i}`).toEqual(expected);
    // One UTF-16 unit at a time (a surrogate pair split too: the parser works on text, decoding is readSse's job).
    expect(parseAll(Array.from({ length: text.length }, (_c, i) => text.charAt(i)))).toEqual(expected);
    expect(expected.map((m) => JSON.parse(m.data) as unknown)).toEqual(EVENTS.map((e) => e.data));
  });

  it('accepts LF, CRLF and CR line ends, a CRLF split across chunks counting once', () => {
    expect(parseAll(['event: a\r\ndata: 1\r\n\r\n', 'event: b\rdata: 2\r\r', 'event: c\ndata: 3\n\n'])).toEqual([
      { event: 'a', data: '1' },
      { event: 'b', data: '2' },
      { event: 'c', data: '3' },
    ]);
    // "\r" ends one chunk and "\n" starts the next: one line end, not an empty line dispatching early.
    expect(parseAll(['event: x\r', '\ndata: 1\r', '\n\r', '\n'])).toEqual([{ event: 'x', data: '1' }]);
  });

  it('joins data lines, drops one leading space only, defaults the type, skips events without data and the unfinished tail', () => {
    expect(parseAll(['data:  two spaces\ndata:none\n\n'])).toEqual([{ event: 'message', data: ' two spaces\nnone' }]);
    expect(parseAll(['event: status\n\n', 'data: x\nid: 7\nretry: 10\nunknown: y\n\n'])).toEqual([
      { event: 'message', data: 'x', id: '7' },
    ]);
    expect(parseAll(['data\n\n'])).toEqual([{ event: 'message', data: '' }]);
    expect(parseAll(['event: verdict\ndata: {"half":'])).toEqual([]);
  });
});

describe('readSse', () => {
  it('decodes UTF-8 split inside a character and reads to the end of the stream', async () => {
    const bytes = new TextEncoder().encode(EVENTS.map(encodeSse).join(''));
    const emoji = new TextEncoder().encode('🙂');
    const at = bytes.findIndex((b, i) => b === emoji[0] && bytes[i + 1] === emoji[1]);
    expect(at).toBeGreaterThan(0);
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.slice(0, at + 2));
        c.enqueue(bytes.slice(at + 2));
        c.close();
      },
    });
    const seen: SseMessage[] = [];
    await readSse(body, (m) => seen.push(m));
    expect(seen.map((m) => JSON.parse(m.data) as unknown)).toEqual(EVENTS.map((e) => e.data));
  });

  it('rejects when its signal aborts while the stream is still open', async () => {
    const controller = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(encodeSse(EVENTS[0]!)));
      },
    });
    const seen: string[] = [];
    const reading = readSse(
      body,
      (m) => {
        seen.push(m.event);
        controller.abort(new Error('left the page'));
      },
      controller.signal,
    );
    await expect(reading).rejects.toThrow('left the page');
    expect(seen).toEqual(['status']);
  });
});
