/**
 * How a judge request ends when there is no verdict to give, seen through the official OpenAI SDK with
 * its default retries: 504 `verdict_timeout` past OPENAI_WAIT_SECONDS (the evaluation keeps running),
 * 502 `evaluation_failed`, 409 `evaluation_cancelled`, the same as stream errors, and auth (401 in
 * OpenAI's shape; the evaluation belongs to the key's tenant). `x-should-retry` keeps the SDK from
 * starting a second, billed debate.
 */
import OpenAI, { APIError } from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { tenantOf } from '../../src/tenants/auth.js';
import { sha256Hex } from '../../src/http/request-hash.js';
import { api, apiWith } from './api-fetch.js';
import { drainAlarms, PAIRWISE, pollUntil, testEnv, waitForEnd } from './helpers.js';
import { evaluationCount, judgeModel, sdk, verdictOf } from './openai-support.js';

afterEach(drainAlarms);

const task = JSON.stringify(PAIRWISE);

async function failure(p: Promise<unknown>): Promise<APIError> {
  const err = await p.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(APIError);
  return err as APIError;
}

describe('no verdict within the bound', () => {
  it('answers 504 verdict_timeout with the evaluation to poll; the SDK does not retry; the evaluation still ends', async () => {
    const before = await evaluationCount();
    // Default retries (2): only x-should-retry keeps the SDK from re-sending.
    const client = sdk({ overrides: { OPENAI_WAIT_SECONDS: '1' }, maxRetries: 2 });
    const err = await failure(
      client.chat.completions.create({
        model: judgeModel('chateval-single', { seed: 'timeout-1', latency: 1_500 }),
        messages: [{ role: 'user', content: task }],
      }),
    );
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect(err.status).toBe(504);
    expect(err.code).toBe('verdict_timeout');
    expect(err.type).toBe('timeout_error');
    expect(err.headers?.get('x-should-retry')).toBe('false');
    const body = err.error as { evaluationId: string; links: { self: string } };
    expect(err.message).toContain(`no verdict within 1 s`);
    expect(body.links.self).toBe(`/v1/evaluations/${body.evaluationId}`);
    expect(await evaluationCount()).toBe(before + 1);
    expect((await waitForEnd(body.evaluationId)).status).toBe('succeeded');
  });

  it("with an Idempotency-Key the 504 invites a retry, and the SDK's own retry waits on the same evaluation for its verdict", async () => {
    const before = await evaluationCount();
    const client = sdk({ overrides: { OPENAI_WAIT_SECONDS: '1' }, maxRetries: 2 });
    const { data, response } = await client.chat.completions
      .create(
        {
          model: judgeModel('chateval-single', { seed: 'timeout-2', latency: 1_500 }),
          messages: [{ role: 'user', content: task }],
        },
        { headers: { 'Idempotency-Key': 'timeout-2' } },
      )
      .withResponse();
    // The first attempt timed out: this answer is a replay.
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    expect(verdictOf(data).winner).toBeDefined();
    expect(await evaluationCount()).toBe(before + 1);
  });

  it('a stream past the bound ends with the verdict_timeout error, which the SDK throws', async () => {
    const client = sdk({ overrides: { OPENAI_WAIT_SECONDS: '1' } });
    const stream = await client.chat.completions.create({
      model: judgeModel('chateval-single', { seed: 'timeout-3', latency: 1_500 }),
      messages: [{ role: 'user', content: task }],
      stream: true,
    });
    const seen: string[] = [];
    const err = await failure(
      (async () => {
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.role ?? 'content');
      })(),
    );
    expect(seen).toEqual(['assistant']);
    expect(err.code).toBe('verdict_timeout');
    expect((err.error as { evaluationId?: string }).evaluationId).toMatch(/^ev_/);
  });
});

describe('an evaluation that fails or is cancelled', () => {
  it('a failed evaluation is 502 evaluation_failed with its cause; the SDK does not run a second debate', async () => {
    const before = await evaluationCount();
    const client = sdk({ maxRetries: 2 });
    const err = await failure(
      client.chat.completions.create({
        model: judgeModel('chateval-single', { seed: 'failed-1', permanent: 401 }),
        messages: [{ role: 'user', content: task }],
      }),
    );
    expect(err.status).toBe(502);
    expect(err.code).toBe('evaluation_failed');
    expect(err.headers?.get('x-should-retry')).toBe('false');
    const body = err.error as { evaluationId: string; evaluationError: { code: string; message: string } };
    expect(body.evaluationError.code).toBe('auth');
    expect(await evaluationCount()).toBe(before + 1);
    const ev = await (await api(`/v1/evaluations/${body.evaluationId}`)).json<{ status: string }>();
    expect(ev.status).toBe('failed');
  });

  it('in a stream, the failed call is shown, then the evaluation_failed error', async () => {
    const stream = await sdk().chat.completions.create({
      model: judgeModel('chateval-single', { seed: 'failed-2', permanent: 401 }),
      messages: [{ role: 'user', content: task }],
      stream: true,
    });
    let content = '';
    const err = await failure(
      (async () => {
        for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
      })(),
    );
    expect(err.code).toBe('evaluation_failed');
    expect(content).toMatch(/call failed: auth: /);
  });

  it('an evaluation cancelled while the request waits is 409 evaluation_cancelled', async () => {
    const pending = sdk({ maxRetries: 2 }).chat.completions.create(
      {
        model: judgeModel('chateval-faireval', { seed: 'cancel-1', latency: 400 }),
        messages: [{ role: 'user', content: task }],
      },
      { headers: { 'Idempotency-Key': 'cancel-1' } },
    );
    const row = await pollUntil(
      () => testEnv.DB.prepare("SELECT id FROM evaluations WHERE idempotency_key = 'cancel-1'").first<{ id: string }>(),
      (r) => r !== null,
    );
    const cancelled = await api(`/v1/evaluations/${row!.id}/cancel`, { method: 'POST' });
    expect(cancelled.status).toBe(200);
    const err = await failure(pending);
    expect(err).toBeInstanceOf(OpenAI.ConflictError);
    expect(err.code).toBe('evaluation_cancelled');
    expect(err.headers?.get('x-should-retry')).toBe('false');
    expect((err.error as { evaluationId: string }).evaluationId).toBe(row!.id);
  });
});

describe('auth, as on the rest of the API', () => {
  it("a missing or wrong key is 401 in OpenAI's shape; the right key judges, and the evaluation is that tenant's", async () => {
    const token = 'chat-test-token';
    const digest = await sha256Hex(token);
    const overrides = { API_KEYS: digest };
    const params = {
      model: judgeModel('chateval-single', { seed: 'auth-1' }),
      messages: [{ role: 'user' as const, content: task }],
    };
    const wrong = await failure(sdk({ overrides, apiKey: 'nope' }).chat.completions.create(params));
    expect(wrong).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(wrong.code).toBe('unauthorized');
    expect(wrong.type).toBe('authentication_error');
    const models = await failure(sdk({ overrides, apiKey: 'nope' }).models.list());
    expect(models.code).toBe('unauthorized');

    const ok = await sdk({ overrides, apiKey: token }).chat.completions.create(params);
    const id = verdictOf(ok).evaluationId;
    const row = await testEnv.DB.prepare('SELECT tenant FROM evaluations WHERE id = ?')
      .bind(id)
      .first<{ tenant: string }>();
    expect(row?.tenant).toBe(tenantOf(digest));
    // Another tenant does not see it.
    expect((await apiWith({}, `/v1/evaluations/${id}`)).status).toBe(404);
    expect(
      (await apiWith(overrides, `/v1/evaluations/${id}`, { headers: { Authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
  });
});
