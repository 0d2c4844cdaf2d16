/**
 * LLM failures through the whole pipeline (API → queue → Durable Object → D1 → API / SSE / logs):
 * a provider that echoes the deployment's key never shows it anywhere, while the caller still learns
 * the status and kind of error; a call that met 429s and then one slow attempt is reported as
 * rate-limited, with every attempt listed; each attempt tells the provider its call and the attempts before it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Evaluation, EvaluationAccepted } from '../../src/evaluations/schemas.js';
import type { LlmAttempt } from '../../src/engine/call.js';
import type { MockModelOptions } from '../../src/mock-llm/model-name.js';
import { mockModel } from '../../src/mock-llm/model-name.js';
import { MOCK_FAULT_HEADER } from '../../src/mock-llm/responses.js';
import { CALL_ID_HEADER, RETRY_COUNT_HEADER } from '../../src/llm/send-attempt.js';
import { forwardEvents, evaluationStub } from '../../src/evaluations/stub.js';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith, postJson } from './api-fetch.js';
import {
  drainAlarms,
  insertJob,
  mockAttempts,
  PAIRWISE,
  parseSse,
  runInTestObject,
  testEnv,
  waitForEnd,
} from './helpers.js';

afterEach(drainAlarms);

/** Everything the pipeline logged while `run` ran (console.log / warn / error, one JSON line each). */
async function capturingLogs<T>(run: () => Promise<T>): Promise<{ result: T; logs: string }> {
  const lines: string[] = [];
  const spies = (['log', 'warn', 'error'] as const).map((level) =>
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(' '));
    }),
  );
  try {
    const result = await run();
    return { result, logs: lines.join('\n') };
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

/** The mock's count of this seed's chat requests, and of the re-sends it left out (./mock-llm-server.ts). */
async function mockCount(seed: string): Promise<{ count: number; resent: number }> {
  const base = testEnv.TEST_MOCK_URL.replace(/\/v1$/, '');
  return (await fetch(`${base}/_test/requests?seed=${encodeURIComponent(seed)}`)).json<{
    count: number;
    resent: number;
  }>();
}

/** Each of this seed's chat requests' call id and retry count, as the mock saw them (null without them). */

/** Submits a one-call evaluation whose every agent uses `model`, waits for its end, returns its id. */
async function runToEnd(model: string): Promise<string> {
  const res = await postJson('/v1/evaluations', {
    preset: 'chateval-single',
    config: { defaults: { model } },
    task: PAIRWISE,
  });
  expect(res.status).toBe(202);
  const { id } = await res.json<EvaluationAccepted>();
  await waitForEnd(id);
  return id;
}

describe('redaction', () => {
  it("a provider echoing the deployment's key: not in the stored error, the API, the SSE stream or the logs", async () => {
    const key = testEnv.LLM_API_KEY ?? '';
    expect(key.length).toBeGreaterThan(10);
    const { result: id, logs } = await capturingLogs(async () => {
      const id = await runToEnd(mockModel({ permanent: 401, echoKey: true, seed: `echo-${Date.now()}` }));
      // Read everything a caller can while still capturing, so the reads' own logs are checked too.
      const view = await (await api(`/v1/evaluations/${id}`)).text();
      const transcript = await (await api(`/v1/evaluations/${id}/transcript`)).text();
      const sse = await (await forwardEvents(testEnv, id, new Request('http://x/events'))).text();
      const snapshot = JSON.stringify(await evaluationStub(testEnv, id).snapshot());
      for (const text of [view, transcript, sse, snapshot]) expect(text).not.toContain(key);
      // The caller still learns the status and the kind of error, and sees where the key was.
      const evaluation = JSON.parse(view) as Evaluation;
      expect(evaluation.status).toBe('failed');
      expect(evaluation.error?.code).toBe('auth');
      expect(evaluation.error?.message).toContain('HTTP 401');
      expect(evaluation.error?.message).toContain('Incorrect API key provided: [redacted]');
      const finished = parseSse(sse).find((e) => e.type === 'call.finished');
      expect(finished?.data.error).toMatchObject({
        code: 'auth',
        status: 401,
        attempts: [{ attempt: 1, kind: 'http', code: 'auth', status: 401 }],
      });
      expect(JSON.stringify(finished?.data.error)).toContain('Bearer [redacted]');
      return id;
    });
    const row = await testEnv.DB.prepare('SELECT error_code, error_message FROM evaluations WHERE id = ?')
      .bind(id)
      .first<{ error_code: string; error_message: string }>();
    expect(row?.error_code).toBe('auth');
    expect(row?.error_message).not.toContain(key);
    expect(row?.error_message).toContain('[redacted]');
    // The capture saw the pipeline's own lines (so the check below can fail), and none holds the key.
    expect(logs).toContain('"event":"call.finished"');
    expect(logs).toContain('"event":"evaluation.ended"');
    expect(logs).not.toContain(key);
  });
});

describe("configuration faults are the operator's business", () => {
  const submit = (overrides: Record<string, string>, config: Record<string, unknown> = {}) =>
    apiWith(overrides, '/v1/evaluations', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ preset: 'chateval-single', config, task: PAIRWISE }),
    });

  it('a broken LLM_PROVIDERS: callers get a generic llm_not_configured, the operator log gets the reason', async () => {
    const broken = '{"groq": {"baseUrl": "https://api.groq.com/openai/v1", "apiKey": "gsk_pastedInline0123456789"';
    const { result, logs } = await capturingLogs(async () => {
      const res = await submit({ LLM_PROVIDERS: broken });
      return { status: res.status, body: await res.text() };
    });
    expect(result.status).toBe(503);
    const error = (JSON.parse(result.body) as ErrorJson).error;
    expect(error.code).toBe('llm_not_configured');
    expect(error.message).toBe(
      "this deployment cannot call an LLM: its LLM settings are missing or invalid (the operator's logs say why)",
    );
    for (const internal of ['LLM_PROVIDERS', 'JSON', 'groq', 'gsk_']) expect(result.body).not.toContain(internal);
    expect(logs).toContain('"event":"llm.settings_invalid"');
    expect(logs).toContain('"reason":"invalid_providers"');
    expect(logs).not.toContain('gsk_pastedInline0123456789');
  });

  it('an invalid variable: callers get 503 config_invalid naming none, one operator log line names it', async () => {
    const { result, logs } = await capturingLogs(async () => {
      const res = await submit({ STALL_SECONDS: 'soon' });
      return { status: res.status, body: await res.text() };
    });
    expect(result.status).toBe(503);
    const error = (JSON.parse(result.body) as ErrorJson).error;
    expect(error).toEqual({
      code: 'config_invalid',
      message: "this deployment's configuration is invalid (the operator's logs name the variable)",
    });
    expect(result.body).not.toContain('STALL_SECONDS');
    const lines = logs.split('\n').filter((l) => l.includes('"event":"config.invalid"'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('STALL_SECONDS=\\"soon\\": must be a number');
  });

  it("an unknown provider is named, the deployment's others are not", async () => {
    const providers = JSON.stringify({ 'secret-vendor': { baseUrl: 'https://vendor.test/v1' } });
    const res = await submit({ LLM_PROVIDERS: providers }, { defaults: { provider: 'nope' } });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect((JSON.parse(text) as ErrorJson).error.message).toBe(
      'config.defaults.provider: unknown provider "nope": this deployment has no provider by that name',
    );
    expect(text).not.toContain('secret-vendor');
  });
});

describe('reporting every attempt', () => {
  it('429 ×4 then one attempt past its time limit ends rate_limited, not timeout, with each attempt listed', async () => {
    // retryAfterMs keeps the 429 waits short; the fifth attempt hangs past LLM_TIMEOUT_MS, cut to 1 s for
    // this object alone (5 s in this suite): what is pinned is which error wins, not how long a timeout is.
    const { id } = await insertJob({
      tenant: 'default',
      preset: 'chateval-single',
      task: PAIRWISE,
      mock: {
        fail: [
          [429, 4],
          ['timeout', 1],
        ],
        retryAfterMs: 10,
      },
    });
    await runInTestObject(id, async (o) => {
      o.useBindings({ LLM_TIMEOUT_MS: '1000' });
      await o.start(id);
    });
    await waitForEnd(id);
    const evaluation = await (await api(`/v1/evaluations/${id}`)).json<Evaluation>();
    expect(evaluation.status).toBe('failed');
    expect(evaluation.error?.code).toBe('rate_limited');
    expect(evaluation.error?.message).toContain('(5 attempts: 429 ×4, timeout)');
    const sse = parseSse(await (await forwardEvents(testEnv, id, new Request('http://x/events'))).text());
    const error = sse.find((e) => e.type === 'call.finished')?.data.error as
      { status?: number; attempts?: LlmAttempt[] } | undefined;
    expect(error?.status).toBe(429);
    expect(error?.attempts?.map((a) => a.kind)).toEqual(['http', 'http', 'http', 'http', 'timeout']);
    expect(error?.attempts?.[4]?.latencyMs).toBeGreaterThanOrEqual(1_000);
  });

  it("each attempt names its call and the attempts before it; the mock's count leaves out only a re-send of an answered attempt", async () => {
    // Through the pipeline: two 500s, then the answer, the three sent as attempts of one call.
    const seed = `attempts-${Date.now()}`;
    const { id } = await insertJob({ preset: 'chateval-single', task: PAIRWISE, mock: { seed, fail: [[500, 2]] } });
    await testEnv.JOBS.send({ id });
    expect((await waitForEnd(id)).status).toBe('succeeded');
    const byCall = new Map<string, number[]>();
    for (const a of await mockAttempts(seed)) {
      expect(a, 'every request names its call').not.toBeNull();
      if (a) byCall.set(a.call, [...(byCall.get(a.call) ?? []), a.retries]);
    }
    // The preset's two calls (the pair in both orders), each sent three times, numbered 0, 1, 2. On a loaded
    // machine the answered third can be sent again (its answer not read within the client's timeout): numbered
    // on, and left out of the count as a re-send.
    const calls = [...byCall.values()];
    expect(calls).toHaveLength(2);
    for (const retries of calls) expect(retries).toEqual([0, 1, 2, ...retries.slice(3).map((_, i) => 3 + i)]);
    const resends = calls.reduce((n, retries) => n + retries.length - 3, 0);
    expect(await mockCount(seed)).toEqual({ count: 6, resent: resends });

    // What the count makes of each request, sent as the client sends them (the machine's load decides when the
    // first case happens, so it is sent by hand here).
    const own = `attempts-by-hand-${Date.now()}`;
    const send = (call: string, retries: number, fail?: MockModelOptions['fail']) =>
      fetch(`${testEnv.TEST_MOCK_URL}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CALL_ID_HEADER]: call, [RETRY_COUNT_HEADER]: String(retries) },
        body: JSON.stringify({
          model: mockModel({ seed: own, ...(fail ? { fail } : {}) }),
          messages: [{ role: 'user', content: `Say something about ${call}.` }],
        }),
      });
    expect((await send('a', 0)).status).toBe(200);
    // Its answer not read in time, the client sends the answered attempt again: not counted.
    expect((await send('a', 1)).status).toBe(200);
    expect(await mockCount(own)).toEqual({ count: 1, resent: 1 });
    // The call sent afresh (as a stored call repeated would be): counted.
    expect((await send('a', 0)).status).toBe(200);
    expect(await mockCount(own)).toEqual({ count: 2, resent: 1 });
    // A retry of an attempt the mock failed is counted; so is one whose answer was a fault.
    expect((await send('b', 0, [[500, 1]])).status).toBe(500);
    expect((await send('b', 1, [[500, 1]])).status).toBe(200);
    expect((await send('c', 0, [['empty', 1]])).headers.get(MOCK_FAULT_HEADER)).toBe('empty');
    expect((await send('c', 1, [['empty', 1]])).status).toBe(200);
    expect(await mockCount(own)).toEqual({ count: 6, resent: 1 });
  });
});
