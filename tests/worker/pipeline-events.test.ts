import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import worker from '../../src/index.js';
import { evaluationStub, forwardEvents } from '../../src/evaluations/stub.js';
import type { SseEvent as Ev } from './helpers.js';
import {
  drainAlarms,
  insertJob,
  LONG_DEBATE,
  PAIRWISE,
  parseSse,
  POINTWISE,
  stubbornCritic,
  testEnv,
  waitForEnd,
  waitForSnapshot,
  withTimeout,
} from './helpers.js';

afterEach(drainAlarms);

/**
 * Checks a full event stream of a succeeded debate.
 * @param first the first event's type: `status` for a subscriber that joined while it ran, `call.started`
 *   for one that joined after the end (the replay starts straight with the calls).
 */
function checkStream(events: Ev[], calls: number, first: 'status' | 'call.started' = 'status'): void {
  expect(events[0]?.type).toBe(first);
  const started = events.filter((e) => e.type === 'call.started').map((e) => e.data.callId);
  const finished = events.filter((e) => e.type === 'call.finished');
  expect(new Set(started).size).toBe(calls);
  expect(finished.map((e) => e.data.callId)).toEqual(
    ['score0', 'critic1', 'score1', 'critic2', 'score2', 'critic3', 'score3'].slice(0, calls),
  );
  for (const f of finished) expect(typeof f.data.content).toBe('string');
  expect(events.some((e) => e.type === 'vote')).toBe(true);
  const verdict = events.find((e) => e.type === 'verdict');
  expect((verdict?.data.verdict as { transcript?: unknown }).transcript).toBeUndefined();
  const last = events.at(-1);
  expect(last?.type).toBe('status');
  expect(last?.data.status).toBe('succeeded');
}

describe('live events', () => {
  it('SSE: a subscriber joining mid-debate gets the replay, then live events, and the stream ends', async () => {
    const ns = `sse-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns, latency: 40 } });
    await testEnv.JOBS.send({ id });
    await waitForSnapshot(id, (s) => (s?.callsDone ?? 0) >= 2);
    const res = await forwardEvents(testEnv, id, new Request('http://x/events'));
    expect(res.headers.get('Content-Type')).toContain('text/event-stream');
    const events = parseSse(await res.text());
    checkStream(events, 7);
  });

  it('SSE after the end: the full replay, then the stream closes at once', async () => {
    const ns = `sse2-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns } });
    await testEnv.JOBS.send({ id });
    await waitForEnd(id);
    const res = await forwardEvents(testEnv, id, new Request('http://x/events'));
    const events = parseSse(await res.text());
    // A finished evaluation starts straight with the calls; the terminal status closes it.
    checkStream(events, 7, 'call.started');
  });

  it('WebSocket (hibernation API): replay, live events, close after the terminal status', async () => {
    const ns = `ws-${Date.now()}`;
    await stubbornCritic(ns);
    const { id } = await insertJob({ ...LONG_DEBATE, task: POINTWISE, mock: { mode: 'scripted', ns, latency: 40 } });
    await testEnv.JOBS.send({ id });
    await waitForSnapshot(id, (s) => (s?.callsDone ?? 0) >= 1);
    const res = await forwardEvents(testEnv, id, new Request('http://x/events', { headers: { Upgrade: 'websocket' } }));
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    const events: Ev[] = [];
    const closed = new Promise<void>((resolve) => {
      ws.addEventListener('close', () => {
        resolve();
      });
    });
    ws.addEventListener('message', (m) => {
      events.push(JSON.parse(m.data as string) as Ev);
    });
    ws.accept();
    await closed;
    checkStream(events, 7);
  });
});

describe('evaluations that end without the object running them', () => {
  it('SSE: a DLQ failure of a never-started evaluation ends the stream with the terminal status', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    const res = await forwardEvents(testEnv, id, new Request('http://x/events'));
    const text = res.text();
    const batch = createMessageBatch('tribunal-jobs-dlq', [
      { id: 'dlq-sse', timestamp: Date.now(), attempts: 1, body: { id } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, testEnv, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(['dlq-sse']);
    const events = parseSse(await withTimeout(text, 5_000, 'the SSE stream'));
    expect(events.at(-1)).toMatchObject({
      type: 'status',
      data: { status: 'failed', error: { code: 'queue_delivery_failed' } },
    });
  });

  it('WebSocket: a cancel of a queued evaluation sends the terminal status and closes the socket', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    const res = await forwardEvents(testEnv, id, new Request('http://x/events', { headers: { Upgrade: 'websocket' } }));
    const ws = res.webSocket!;
    const events: Ev[] = [];
    const closed = new Promise<void>((resolve) => {
      ws.addEventListener('close', () => {
        resolve();
      });
    });
    ws.addEventListener('message', (m) => {
      events.push(JSON.parse(m.data as string) as Ev);
    });
    ws.accept();
    expect((await evaluationStub(testEnv, id).cancel(id)).status).toBe('cancelled');
    await withTimeout(closed, 5_000, 'the WebSocket');
    expect(events.at(-1)).toMatchObject({ type: 'status', data: { status: 'cancelled' } });
  });

  it('SSE on an object that never ran an evaluation D1 shows ended: the terminal status, then the stream closes', async () => {
    const { id } = await insertJob({ preset: 'fastchat-pair', task: PAIRWISE });
    // Ended straight in D1 (the DLQ consumer's fallback when the object is unreachable).
    await testEnv.DB.prepare(
      "UPDATE evaluations SET status = 'failed', error_code = 'queue_delivery_failed', error_message = 'x' WHERE id = ?",
    )
      .bind(id)
      .run();
    const res = await forwardEvents(testEnv, id, new Request('http://x/events'));
    const events = parseSse(await withTimeout(res.text(), 5_000, 'the SSE stream'));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'status',
      data: { evaluationId: id, status: 'failed', error: { code: 'queue_delivery_failed' } },
    });
  });
});
