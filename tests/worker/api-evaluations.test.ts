import { hc } from 'hono/client';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppType } from '../../src/app.js';
import type { Evaluation, EvaluationAccepted } from '../../src/evaluations/schemas.js';
import { sha256Hex } from '../../src/http/request-hash.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import type { ErrorJson } from './api-fetch.js';
import { capturingLogLines } from './log-capture.js';
import { runDurableObjectAlarm } from 'cloudflare:test';
import { api, apiWith, apiWithSettled, postJson, workerFetch } from './api-fetch.js';
import { evaluationStub } from '../../src/evaluations/stub.js';
import { loadJob } from '../../src/evaluations/job-rows.js';
import type { StartJob } from '../../src/evaluations/job-rows.js';
import {
  countRows,
  drainAlarms,
  mockRequests,
  newTestId,
  PAIRWISE,
  parseSse,
  POINTWISE,
  replyInGroups,
  statusRow,
  testEnv,
  waitForEnd,
  withTimeout,
} from './helpers.js';

afterEach(drainAlarms);

/** A request that runs against the mock LLM quickly (one order, one call). */
function body(seed: string, extra: Record<string, unknown> = {}) {
  return {
    preset: 'chateval-single',
    config: { defaults: { model: mockModel({ seed }) } },
    task: PAIRWISE,
    ...extra,
  };
}

async function errorOf(r: Response): Promise<ErrorJson['error']> {
  expect(r.headers.get('Content-Type')).toContain('application/json');
  return (await r.json<ErrorJson>()).error;
}

describe('POST /v1/evaluations', () => {
  it('answers 202 with links and Location, stores a queued row, and the queued job runs to a verdict', async () => {
    const r = await postJson('/v1/evaluations', body('create-1', { metadata: { run: 'nightly', n: 3, ok: true } }));
    expect(r.status).toBe(202);
    const accepted = await r.json<EvaluationAccepted>();
    expect(accepted.id).toMatch(/^ev_[0-9a-f]{32}$/);
    expect(accepted.status).toBe('queued');
    expect(accepted.links).toEqual({
      self: `/v1/evaluations/${accepted.id}`,
      events: `/v1/evaluations/${accepted.id}/events`,
      transcript: `/v1/evaluations/${accepted.id}/transcript`,
      cancel: `/v1/evaluations/${accepted.id}/cancel`,
    });
    expect(r.headers.get('Location')).toBe(`/v1/evaluations/${accepted.id}`);
    expect(r.headers.get('X-Request-Id')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );

    const row = await testEnv.DB.prepare(
      `SELECT tenant, method, preset, calls_planned, e.config AS inline, mc.config, metadata
       FROM evaluations e LEFT JOIN method_configs mc ON mc.hash = e.config_hash WHERE id = ?`,
    )
      .bind(accepted.id)
      .first<{
        tenant: string;
        method: string;
        preset: string;
        calls_planned: number;
        inline: string;
        config: string;
        metadata: string;
      }>();
    expect(row?.tenant).toBe('default');
    expect(row?.method).toBe('single');
    expect(row?.preset).toBe('chateval-single');
    expect(row?.calls_planned).toBeGreaterThan(0);
    // The resolved config is stored once, by hash (src/evaluations/config-rows.ts): the row keeps only the hash.
    expect(JSON.parse(row!.config)).toMatchObject({ method: 'single', parseRetries: 2 });
    expect(row?.inline).toBe('');
    expect(JSON.parse(row!.metadata)).toEqual({ run: 'nightly', n: 3, ok: true });

    // The queue message reached the consumer: the job ends.
    const ended = await waitForEnd(accepted.id);
    expect(ended.status, ended.error_message ?? '').toBe('succeeded');

    const g = await api(`/v1/evaluations/${accepted.id}`);
    expect(g.status).toBe(200);
    const ev = await g.json<Evaluation>();
    expect(ev.status).toBe('succeeded');
    expect(ev.taskKind).toBe('pairwise');
    expect(ev.metadata).toEqual({ run: 'nightly', n: 3, ok: true });
    expect(ev.verdict?.method).toBe('single');
    expect(['A', 'B', 'tie']).toContain(ev.verdict?.winner);
    expect(ev.verdict).not.toHaveProperty('transcript');
    expect(ev.usage.calls).toBe(ev.verdict?.calls);
    expect(ev.usage.promptTokens).toBeGreaterThan(0);
    expect(ev.progress.callsDone).toBeGreaterThanOrEqual(1);
    expect(ev.error).toBeNull();
    expect(ev.finishedAt).not.toBeNull();

    const t = await api(`/v1/evaluations/${accepted.id}/transcript`);
    expect(t.status).toBe(200);
    const transcript = await t.json<{
      complete: boolean;
      messages: { seq: number; content: string; usage: { promptTokens: number; costUsd: number } }[];
    }>();
    expect(transcript.complete).toBe(true);
    expect(transcript.messages.length).toBe(ev.verdict?.calls);
    expect(transcript.messages[0]?.content.length).toBeGreaterThan(0);
    // Each reply carries its call's usage; together they are the evaluation's usage.
    expect(transcript.messages.reduce((n, m) => n + m.usage.promptTokens, 0)).toBe(ev.usage.promptTokens);
  });

  it('accepts a full config with "method" and no preset', async () => {
    const r = await postJson('/v1/evaluations', {
      config: { method: 'debate', defaults: { model: mockModel({ seed: 'full-config' }) }, maxIterations: 1 },
      task: POINTWISE,
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<EvaluationAccepted>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
  });

  it('replays the same evaluation for the same Idempotency-Key and body; 409 for another body', async () => {
    const b = body('idem-1');
    const first = await postJson('/v1/evaluations', b, { 'Idempotency-Key': 'key-1' });
    expect(first.status).toBe(202);
    const a = await first.json<EvaluationAccepted>();

    // Same document, keys in another order: same canonical hash.
    const reordered = { task: b.task, config: b.config, preset: b.preset };
    const second = await postJson('/v1/evaluations', reordered, { 'Idempotency-Key': 'key-1' });
    expect(second.status).toBe(202);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect((await second.json<EvaluationAccepted>()).id).toBe(a.id);

    const conflict = await postJson('/v1/evaluations', body('idem-2'), { 'Idempotency-Key': 'key-1' });
    expect(conflict.status).toBe(409);
    const e = await errorOf(conflict);
    expect(e.code).toBe('idempotency_conflict');
    expect(e.message).toContain(a.id);

    const n = await testEnv.DB.prepare("SELECT count(*) AS n FROM evaluations WHERE idempotency_key = 'key-1'").first<{
      n: number;
    }>();
    expect(n?.n).toBe(1);
    await waitForEnd(a.id);
  });

  it('answers the same key from two concurrent requests with one evaluation', async () => {
    const b = body('idem-race');
    const [x, y] = await Promise.all([
      postJson('/v1/evaluations', b, { 'Idempotency-Key': 'race' }),
      postJson('/v1/evaluations', b, { 'Idempotency-Key': 'race' }),
    ]);
    expect([x.status, y.status]).toEqual([202, 202]);
    const [ix, iy] = [(await x.json<EvaluationAccepted>()).id, (await y.json<EvaluationAccepted>()).id];
    expect(ix).toBe(iy);
    await waitForEnd(ix);
  });
});

describe('GET / cancel / events', () => {
  it('404 not_found for unknown ids on every evaluation route', async () => {
    for (const [path, method] of [
      ['/v1/evaluations/ev_nope', 'GET'],
      ['/v1/evaluations/ev_nope/transcript', 'GET'],
      ['/v1/evaluations/ev_nope/task', 'GET'],
      ['/v1/evaluations/ev_nope/cancel', 'POST'],
      ['/v1/evaluations/ev_nope/events', 'GET'],
    ] as const) {
      const r = await api(path, { method });
      expect(r.status, path).toBe(404);
      expect((await errorOf(r)).code).toBe('not_found');
    }
  });

  it('answers the task as submitted, which GET /v1/evaluations/{id} leaves out', async () => {
    const r = await postJson('/v1/evaluations', body('task-read', { preset: 'debate-summeval', task: POINTWISE }));
    expect(r.status).toBe(202);
    const { id } = await r.json<EvaluationAccepted>();
    const read = await api(`/v1/evaluations/${id}/task`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({ id, task: POINTWISE });
    expect(await (await api(`/v1/evaluations/${id}`)).json()).not.toHaveProperty('task');
    // A stored task that no longer parses (erased by retention, say) reads as null, not as an error.
    await testEnv.DB.prepare("UPDATE evaluations SET task = '{}' WHERE id = ?").bind(id).run();
    expect(await (await api(`/v1/evaluations/${id}/task`)).json()).toEqual({ id, task: null });
    await waitForEnd(id);
  });

  it('404 JSON for unknown routes', async () => {
    const r = await api('/v2/whatever');
    expect(r.status).toBe(404);
    expect((await errorOf(r)).code).toBe('not_found');
  });

  it('cancels a running evaluation once; a second cancel is 409 already_ended', async () => {
    const r = await postJson('/v1/evaluations', {
      preset: 'chateval-faireval',
      config: { defaults: { model: mockModel({ seed: 'cancel-1', latency: 3_000 }) } },
      task: PAIRWISE,
    });
    const { id } = await r.json<EvaluationAccepted>();
    const { result: c1, lines } = await capturingLogLines(() =>
      api(`/v1/evaluations/${id}/cancel`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ reason: 'changed my mind' }),
      }),
    );
    expect(c1.status).toBe(200);
    // A cancel the caller asked for is no warning (a batch's would warn once per item in flight).
    expect(lines.filter((l) => l.event === 'evaluation.ended' && l.evaluationId === id)).toEqual([
      expect.objectContaining({ level: 'info', status: 'cancelled' }),
    ]);
    expect(await c1.json()).toEqual({ id, status: 'cancelled' });
    expect((await statusRow(id))?.status).toBe('cancelled');

    const c2 = await api(`/v1/evaluations/${id}/cancel`, { method: 'POST' });
    expect(c2.status).toBe(409);
    expect((await errorOf(c2)).code).toBe('already_ended');

    const g = await (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
    expect(g.status).toBe('cancelled');
    expect(g.error).toEqual({ code: 'cancelled', message: 'changed my mind' });
    expect(g.verdict).toBeNull();
  });

  it('shows live progress from the Durable Object while running', async () => {
    const r = await postJson('/v1/evaluations', {
      preset: 'chateval-faireval',
      config: { defaults: { model: mockModel({ seed: 'progress-1', latency: 200 }) } },
      task: PAIRWISE,
    });
    const { id } = await r.json<EvaluationAccepted>();
    let seen: Evaluation | undefined;
    for (let i = 0; i < 200; i++) {
      seen = await (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
      if (seen.status === 'running' && seen.progress.callsDone > 0) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(seen?.status).toBe('running');
    expect(seen?.progress.callsPlanned).toBeGreaterThan(seen?.progress.callsDone ?? 0);
    await api(`/v1/evaluations/${id}/cancel`, { method: 'POST' });
  });

  it('streams events as SSE through the Durable Object', async () => {
    const r = await postJson('/v1/evaluations', body('events-1'));
    const { id } = await r.json<EvaluationAccepted>();
    await waitForEnd(id);
    const ev = await api(`/v1/evaluations/${id}/events`);
    expect(ev.status).toBe(200);
    expect(ev.headers.get('Content-Type')).toContain('text/event-stream');
    const text = await ev.text();
    expect(text).toContain('event: status');
    expect(text).toContain('succeeded');
  });
});

describe('auth', () => {
  it('requires a bearer token whose sha-256 is listed when API_KEYS is set, and scopes reads to the tenant', async () => {
    const tokenA = 'secret-token-a';
    const tokenB = 'secret-token-b';
    const API_KEYS = `${await sha256Hex(tokenA)}, ${await sha256Hex(tokenB)}`;
    const missing = await apiWith({ API_KEYS }, '/v1/methods');
    expect(missing.status).toBe(401);
    expect((await errorOf(missing)).code).toBe('unauthorized');
    const wrong = await apiWith({ API_KEYS }, '/v1/methods', { headers: { Authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);

    const created = await apiWith({ API_KEYS }, '/v1/evaluations', {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokenA}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body('auth-1')),
    });
    expect(created.status).toBe(202);
    const { id } = await created.json<EvaluationAccepted>();
    const row = await testEnv.DB.prepare('SELECT tenant FROM evaluations WHERE id = ?')
      .bind(id)
      .first<{ tenant: string }>();
    expect(row?.tenant).toBe((await sha256Hex(tokenA)).slice(0, 12));

    const own = await apiWith({ API_KEYS }, `/v1/evaluations/${id}`, {
      headers: { Authorization: `Bearer ${tokenA}` },
    });
    expect(own.status).toBe(200);
    const other = await apiWith({ API_KEYS }, `/v1/evaluations/${id}`, {
      headers: { Authorization: `Bearer ${tokenB}` },
    });
    expect(other.status).toBe(404);
    // Public routes stay open.
    expect((await apiWith({ API_KEYS }, '/health')).status).toBe(200);
    await waitForEnd(id);
  });
});

describe('typed client', () => {
  it('hc<AppType> posts and reads with inferred types', async () => {
    const client = hc<AppType>('http://tribunal.test', { fetch: workerFetch });
    const res = await client.v1.evaluations.$post({ json: body('client-1'), header: {} });
    expect(res.status).toBe(202);
    // Error responses are typed too: narrowing on the status gives EvaluationAccepted.
    if (res.status !== 202) throw new Error(`unexpected ${res.status}`);
    const accepted = await res.json();
    const got = await client.v1.evaluations[':id'].$get({ param: { id: accepted.id } });
    expect(got.status).toBe(200);
    if (got.status !== 200) throw new Error(`unexpected ${got.status}`);
    expect((await got.json()).links.self).toBe(`/v1/evaluations/${accepted.id}`);
    // A typed error: the 404 body is the API's error shape.
    const missing = await client.v1.evaluations[':id'].$get({ param: { id: 'ev_missing' } });
    if (missing.status !== 404) throw new Error(`unexpected ${missing.status}`);
    expect((await missing.json()).error.code).toBe('not_found');
    await waitForEnd(accepted.id);
  });
});

describe('fast start', () => {
  /** A queue binding that accepts messages and never delivers them. */
  const lostQueue = { send: () => Promise.resolve(), sendBatch: () => Promise.resolve() } as unknown as Queue;

  it('starts the Durable Object straight from the API, so a lost queue message loses no time', async () => {
    const created = await apiWith({ JOBS: lostQueue }, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body('fast-start-on')),
    });
    expect(created.status).toBe(202);
    const { id } = await created.json<EvaluationAccepted>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
  });

  it('with FAST_START "false" only the queue starts evaluations', async () => {
    // Settled: whatever the request left running (a fast start would be one) has finished.
    const created = await apiWithSettled({ JOBS: lostQueue, FAST_START: 'false' }, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body('fast-start-off')),
    });
    const { id } = await created.json<EvaluationAccepted>();
    expect((await statusRow(id))?.status).toBe('queued');
    expect(await evaluationStub(testEnv, id).snapshot()).toBeNull();
  });

  it('a cancel that reaches the object before the fast start: the late start runs no call', async () => {
    const seed = `cancel-then-start-${Date.now()}`;
    const off = { JOBS: lostQueue, FAST_START: 'false' };
    const created = await apiWith(off, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body(seed)),
    });
    const { id } = await created.json<EvaluationAccepted>();
    const cancelled = await apiWith(off, `/v1/evaluations/${id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    // The fast start arriving late, with the job as the API built it (a StartJob carries no status).
    const job = (await loadJob(testEnv.DB, id))!;
    const late: StartJob = { id: job.id, tenant: job.tenant, method: job.method, config: job.config, task: job.task };
    const stub = evaluationStub(testEnv, id);
    expect((await stub.start(id, late)).status).toBe('cancelled');
    // Nothing left to run: no alarm armed (runDurableObjectAlarm is false when none is set).
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    expect(await mockRequests(seed)).toBe(0);
    expect((await stub.snapshot())?.status).toBe('cancelled');
    expect((await statusRow(id))?.status).toBe('cancelled');
    expect(await countRows('usage', id)).toBe(0);
  });

  it('a subscriber to a queued evaluation gets the terminal status and the stream ends when it is cancelled', async () => {
    const off = { JOBS: lostQueue, FAST_START: 'false' };
    const created = await apiWith(off, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body(`sse-queued-${Date.now()}`)),
    });
    const { id } = await created.json<EvaluationAccepted>();
    const events = await apiWith(off, `/v1/evaluations/${id}/events`);
    expect(events.status).toBe(200);
    const text = events.text();
    expect((await apiWith(off, `/v1/evaluations/${id}/cancel`, { method: 'POST' })).status).toBe(200);
    const parsed = parseSse(await withTimeout(text, 5_000, 'the SSE stream'));
    expect(parsed[0]).toMatchObject({ type: 'status', data: { status: 'queued' } });
    expect(parsed.at(-1)).toMatchObject({ type: 'status', data: { evaluationId: id, status: 'cancelled' } });
  });
});

describe('Prefer: wait (the verdict in the POST response)', () => {
  it('answers 200 with the ended evaluation, as GET shows it, and Preference-Applied', async () => {
    const r = await postJson('/v1/evaluations', body(`prefer-wait-${Date.now()}`), { Prefer: 'wait=30' });
    expect(r.status).toBe(200);
    expect(r.headers.get('Preference-Applied')).toBe('wait=30');
    const ended = await r.json<Evaluation>();
    expect(ended.status).toBe('succeeded');
    expect(ended.verdict).not.toBeNull();
    expect(r.headers.get('Location')).toBe(`/v1/evaluations/${ended.id}`);
    // The same record, verdict format and usage as a later read.
    const got = await api(`/v1/evaluations/${ended.id}`);
    expect(await got.json<Evaluation>()).toEqual(ended);
    expect(ended.usage.calls).toBeGreaterThan(0);
  });

  it('answers the usual 202 with Preference-Applied when the evaluation has not ended in time; it still runs to its verdict', async () => {
    // The mock holds the replies until the 202 is in: the evaluation cannot end within the wait, however
    // long a loaded machine takes to answer, and goes on to its verdict as soon as they are sent.
    const seed = newTestId('slow');
    await replyInGroups(seed, Infinity);
    const r = await postJson(
      '/v1/evaluations',
      body(`prefer-wait-slow-${Date.now()}`, { config: { defaults: { model: mockModel({ seed }) } } }),
      { Prefer: 'wait=1' },
    );
    expect(r.status).toBe(202);
    // The wait ran its whole second: honoured (RFC 7240), though nothing ended in it.
    expect(r.headers.get('Preference-Applied')).toBe('wait=1');
    const { id } = await r.json<EvaluationAccepted>();
    // The held replies go, and no later one is held.
    await replyInGroups(seed, 1);
    expect((await waitForEnd(id)).status).toBe('succeeded');
  });

  it('falls back to 202 when the object cannot be asked while waiting (e.g. evicted): the evaluation is not lost', async () => {
    // The namespace as the platform has it, except that waiting on the end fails, as an eviction would make it.
    const real = testEnv.EVALUATION;
    const failingWait = {
      idFromName: (name: string) => real.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = real.get(id);
        return new Proxy(stub, {
          get: (target, prop, receiver) =>
            prop === 'awaitEnd' || prop === 'startAndAwait' || prop === 'admitHeld'
              ? () => Promise.reject(new Error('the object was reset'))
              : (Reflect.get(target, prop, receiver) as unknown),
        });
      },
    } as unknown as typeof real;
    const r = await apiWith({ EVALUATION: failingWait }, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Prefer: 'wait=30' },
      body: JSON.stringify(body(`prefer-wait-evicted-${Date.now()}`)),
    });
    expect(r.status).toBe(202);
    // The wait was cut short, so it is not said to be applied.
    expect(r.headers.get('Preference-Applied')).toBeNull();
    const { id } = await r.json<EvaluationAccepted>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
  });

  it('applies a wait over 60 s as 60 s, and says so: 200 with Preference-Applied: wait=60', async () => {
    const r = await postJson('/v1/evaluations', body(`prefer-wait-long-${Date.now()}`), { Prefer: 'wait=61' });
    expect(r.status).toBe(200);
    expect(r.headers.get('Preference-Applied')).toBe('wait=60');
    expect((await r.json<Evaluation>()).status).toBe('succeeded');
  });

  it('rejects a malformed wait, naming the header', async () => {
    for (const prefer of ['wait=soon', 'wait=1.5', 'respond-async, wait']) {
      const r = await postJson('/v1/evaluations', body('prefer-bad'), { Prefer: prefer });
      expect(r.status, prefer).toBe(400);
      const error = await errorOf(r);
      expect(JSON.stringify(error), prefer).toContain('Prefer');
    }
  });

  it('ignores preferences other than wait (RFC 7240): 202 without Preference-Applied', async () => {
    const r = await postJson('/v1/evaluations', body(`prefer-other-${Date.now()}`), { Prefer: 'respond-async' });
    expect(r.status).toBe(202);
    expect(r.headers.get('Preference-Applied')).toBeNull();
    await waitForEnd((await r.json<EvaluationAccepted>()).id);
  });
});

describe('the queue is the fallback of the fast start', () => {
  it('sends no queue message when the object took the job, and the evaluation runs to its verdict', async () => {
    let sent = 0;
    const counting = {
      send: () => {
        sent += 1;
        return Promise.resolve();
      },
      sendBatch: () => Promise.resolve(),
    } as unknown as Queue;
    const r = await apiWith({ JOBS: counting }, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body(`no-queue-${Date.now()}`)),
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<EvaluationAccepted>();
    expect((await waitForEnd(id)).status).toBe('succeeded');
    expect(sent).toBe(0);
  });

  it('sends { id } to the queue when the fast start fails', async () => {
    const sentIds: unknown[] = [];
    const counting = {
      send: (m: unknown) => {
        sentIds.push(m);
        return Promise.resolve();
      },
      sendBatch: () => Promise.resolve(),
    } as unknown as Queue;
    const real = testEnv.EVALUATION;
    const failingStart = {
      idFromName: (name: string) => real.idFromName(name),
      get: (id: DurableObjectId) =>
        new Proxy(real.get(id), {
          get: (target, prop, receiver) =>
            prop === 'start' || prop === 'startAndAwait' || prop === 'admitHeld'
              ? () => Promise.reject(new Error('overloaded'))
              : (Reflect.get(target, prop, receiver) as unknown),
        }),
    } as unknown as typeof real;
    const r = await apiWith({ JOBS: counting, EVALUATION: failingStart }, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body(`queue-fallback-${Date.now()}`)),
    });
    expect(r.status).toBe(202);
    const { id } = await r.json<EvaluationAccepted>();
    expect(sentIds).toEqual([{ id }]);
    // The queue would deliver it: start it as its consumer does.
    await evaluationStub(testEnv, id).start(id);
    expect((await waitForEnd(id)).status).toBe('succeeded');
  });
});
