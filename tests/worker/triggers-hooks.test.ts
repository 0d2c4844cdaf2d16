/**
 * Inbound triggers: a signed event becomes one evaluation, at most once per delivery id. Senders are
 * simulated with the `standardwebhooks` package (Standard Webhooks) and with a GitHub-style
 * `X-Hub-Signature-256`, computed here independently of the code under test.
 */
import { Webhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';
import { afterEach, describe, expect, it } from 'vitest';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith, postJson } from './api-fetch.js';
import { drainAlarms, testEnv } from './helpers.js';

afterEach(drainAlarms);

interface Created {
  id: string;
  url: string;
  secret: string;
}

const PAIRWISE_MAPPING = {
  task: {
    kind: 'pairwise',
    question: '/prompt',
    answerA: '/candidates/0/text',
    answerB: { template: '{{/candidates/1/text}}' },
  },
  metadata: { run: '/run_id' },
};

const EVENT = {
  status: 'completed',
  run_id: 'nightly-42',
  prompt: 'What is the capital of Australia?',
  candidates: [{ text: 'Canberra.' }, { text: 'Sydney.' }],
};

async function createTrigger(body: Record<string, unknown> = {}): Promise<Created> {
  const r = await postJson('/v1/triggers', { preset: 'fastchat-pair', mapping: PAIRWISE_MAPPING, ...body });
  expect(r.status, await r.clone().text()).toBe(201);
  return r.json<Created>();
}

let deliveries = 0;
/** A fresh sender delivery id. */
function newMsgId(): string {
  deliveries += 1;
  return `msg_test_${Date.now().toString(36)}_${deliveries}`;
}

/** POSTs `event` to the trigger signed per Standard Webhooks (by the standardwebhooks package). */
async function sendSigned(
  t: Created,
  event: unknown,
  o: { msgId?: string; secret?: string; at?: Date } = {},
): Promise<Response> {
  const body = JSON.stringify(event);
  const msgId = o.msgId ?? newMsgId();
  const at = o.at ?? new Date();
  const signature = new Webhook(o.secret ?? t.secret).sign(msgId, at, body);
  return api(t.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': msgId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body,
  });
}

/** GitHub's scheme: hex HMAC-SHA256 of the body, keyed with the secret string's bytes. */
async function hubSignature(secret: string, body: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(body)));
  return `sha256=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

async function evaluationCount(): Promise<number> {
  return (await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations').first<{ n: number }>())?.n ?? 0;
}

describe('a validly signed event', () => {
  it("is accepted from Svix's signer under Svix's header names, and svix-id makes the retry idempotent", async () => {
    const t = await createTrigger();
    const body = JSON.stringify(EVENT);
    const msgId = newMsgId();
    const at = new Date();
    const send = () =>
      api(t.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'svix-id': msgId,
          'svix-timestamp': String(Math.floor(at.getTime() / 1000)),
          'svix-signature': new SvixWebhook(t.secret).sign(msgId, at, body),
        },
        body,
      });
    const first = await send();
    expect(first.status, await first.clone().text()).toBe(202);
    const again = await send();
    expect(again.status).toBe(202);
    expect((await again.json<{ evaluationId: string }>()).evaluationId).toBe(
      (await first.json<{ evaluationId: string }>()).evaluationId,
    );
  });

  it("creates one evaluation from the mapping (202); the sender's retry of the delivery id returns it again and judges nothing twice", async () => {
    const t = await createTrigger();
    expect(t.url).toBe(`/v1/hooks/${t.id}`);
    expect(t.secret).toMatch(/^whsec_/);
    const msgId = newMsgId();
    const first = await sendSigned(t, EVENT, { msgId });
    expect(first.status).toBe(202);
    const a = await first.json<{ evaluationId: string; replayed: boolean; status: string }>();
    expect(a).toMatchObject({ replayed: false, status: 'queued' });
    const row = await testEnv.DB.prepare('SELECT tenant, metadata, idempotency_key FROM evaluations WHERE id = ?')
      .bind(a.evaluationId)
      .first<{ tenant: string; metadata: string; idempotency_key: string }>();
    // Wherever it is kept by now (D1 while it waits, then the evaluation's object): as the API reads it.
    const { task } = await (await api(`/v1/evaluations/${a.evaluationId}/task`)).json<{ task: unknown }>();
    expect(task).toEqual({
      kind: 'pairwise',
      question: EVENT.prompt,
      answerA: 'Canberra.',
      answerB: 'Sydney.',
    });
    expect(JSON.parse(row!.metadata)).toEqual({ run: 'nightly-42', triggerId: t.id, triggerDeliveryId: msgId });
    expect(row!.idempotency_key).toBe(`trigger:${t.id}:${msgId}`);

    const before = await evaluationCount();
    // The sender retries: same delivery id, same body, a fresh signature and timestamp.
    const retry = await sendSigned(t, EVENT, { msgId });
    expect(retry.status).toBe(202);
    expect(await retry.json()).toMatchObject({ evaluationId: a.evaluationId, replayed: true });
    expect(await evaluationCount()).toBe(before);
  });

  it('GitHub style (X-Hub-Signature-256 + X-GitHub-Delivery) is accepted; without the delivery id it is a 400', async () => {
    const t = await createTrigger();
    const body = JSON.stringify(EVENT);
    const headers = { 'content-type': 'application/json', 'x-hub-signature-256': await hubSignature(t.secret, body) };
    const ok = await api(t.url, {
      method: 'POST',
      headers: { ...headers, 'x-github-delivery': crypto.randomUUID() },
      body,
    });
    expect(ok.status).toBe(202);
    const noId = await api(t.url, { method: 'POST', headers, body });
    expect(noId.status).toBe(400);
    expect((await noId.json<ErrorJson>()).error.message).toContain('X-GitHub-Delivery');
    const ping = await api(t.url, {
      method: 'POST',
      headers: { ...headers, 'x-github-event': 'ping', 'x-github-delivery': crypto.randomUUID() },
      body,
    });
    expect(await ping.json()).toEqual({ ignored: true, reason: 'ping' });
  });

  it('a filter that does not match: 200 ignored, nothing created', async () => {
    const t = await createTrigger({
      filter: [
        { pointer: '/status', equals: 'completed' },
        { pointer: '/run_id', exists: true },
      ],
    });
    const before = await evaluationCount();
    const r = await sendSigned(t, { ...EVENT, status: 'running' });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ignored: true, reason: 'filter: /status is not "completed"' });
    expect(await evaluationCount()).toBe(before);
    expect((await sendSigned(t, EVENT)).status).toBe(202);
  });
});

describe('refused events create nothing', () => {
  it('wrong secret, stale or future timestamp, missing or malformed signature: 401 invalid_signature', async () => {
    const t = await createTrigger();
    const other = await createTrigger();
    const before = await evaluationCount();
    const cases: [string, Response][] = [
      ['wrong secret', await sendSigned(t, EVENT, { secret: other.secret })],
      ['stale', await sendSigned(t, EVENT, { at: new Date(Date.now() - 6 * 60_000) })],
      ['future', await sendSigned(t, EVENT, { at: new Date(Date.now() + 6 * 60_000) })],
      [
        'unsigned',
        await api(t.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(EVENT),
        }),
      ],
      [
        'garbage',
        await api(t.url, {
          method: 'POST',
          headers: {
            'webhook-id': 'm',
            'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
            'webhook-signature': 'v1,AAAA',
          },
          body: '{}',
        }),
      ],
      [
        'bad hub',
        await api(t.url, {
          method: 'POST',
          headers: { 'x-hub-signature-256': await hubSignature(other.secret, '{}'), 'x-github-delivery': 'd' },
          body: '{}',
        }),
      ],
    ];
    for (const [what, r] of cases) {
      expect(r.status, what).toBe(401);
      expect((await r.json<ErrorJson>()).error.code, what).toBe('invalid_signature');
    }
    expect(await evaluationCount()).toBe(before);
  });

  it('a v1 signature too short to be an HMAC is "malformed"; no v1 signature at all says so', async () => {
    const t = await createTrigger();
    const send = (signature: string) =>
      api(t.url, {
        method: 'POST',
        headers: {
          'webhook-id': newMsgId(),
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': signature,
        },
        body: '{}',
      });
    for (const short of ['v1,', 'v1,AAAA']) {
      const message = (await (await send(short)).json<ErrorJson>()).error.message;
      expect(message, short).toContain('webhook-signature is malformed');
    }
    expect((await (await send('v2,AAAA')).json<ErrorJson>()).error.message).toContain('no v1 signature');
  });

  it('a body changed after signing (a replay with another payload) is refused', async () => {
    const t = await createTrigger();
    const msgId = newMsgId();
    const at = new Date();
    const signature = new Webhook(t.secret).sign(msgId, at, JSON.stringify(EVENT));
    const r = await api(t.url, {
      method: 'POST',
      headers: {
        'webhook-id': msgId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: JSON.stringify({ ...EVENT, prompt: 'tampered' }),
    });
    expect(r.status).toBe(401);
  });

  it('a mapping that misses a field: 422 mapping_failed naming the field and the pointer', async () => {
    const t = await createTrigger();
    const before = await evaluationCount();
    const r = await sendSigned(t, { ...EVENT, candidates: [{ text: 'only one' }] });
    expect(r.status).toBe(422);
    const e = (await r.json<ErrorJson>()).error;
    expect(e.code).toBe('mapping_failed');
    expect(e.message).toContain('task.answerB');
    expect(e.message).toContain('/candidates/1/text');
    expect(e.issues).toEqual([
      { path: 'task.answerB', message: '/candidates/1/text (in its template) is missing from the payload' },
    ]);
    const blank = await sendSigned(t, { ...EVENT, prompt: '   ' });
    expect(blank.status).toBe(422);
    expect((await blank.json<ErrorJson>()).error.issues?.[0]?.path).toBe('task.question');
    const notText = await sendSigned(t, { ...EVENT, prompt: { nested: true } });
    expect((await notText.json<ErrorJson>()).error.issues?.[0]).toEqual({
      path: 'task.question',
      message: 'expected text, got an object',
    });
    expect(await evaluationCount()).toBe(before);
  });
});

describe('trigger management', () => {
  it('/v1/hooks is authenticated by signature only; /v1/triggers needs the bearer token', async () => {
    const token = 'trb_hooks_test_token';
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    const keys = { API_KEYS: digest };
    expect((await apiWith(keys, '/v1/triggers')).status).toBe(401);
    const created = await apiWith(keys, '/v1/triggers', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ preset: 'fastchat-pair', mapping: PAIRWISE_MAPPING }),
    });
    expect(created.status).toBe(201);
    const t = await created.json<Created>();
    const body = JSON.stringify(EVENT);
    const msgId = newMsgId();
    const at = new Date();
    const r = await apiWith(keys, t.url, {
      method: 'POST',
      headers: {
        'webhook-id': msgId,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': new Webhook(t.secret).sign(msgId, at, body),
      },
      body,
    });
    expect(r.status).toBe(202);
    // Tenant scoping: the `default` tenant does not see this trigger.
    expect((await api(`/v1/triggers/${t.id}`)).status).toBe(404);
  });

  it('rotate: both secrets verify for the grace period; delete: the URL is 404 and the list no longer has it', async () => {
    const t = await createTrigger({ description: 'rotating' });
    const rotated = await postJson(`/v1/triggers/${t.id}/rotate-secret`, {});
    expect(rotated.status).toBe(200);
    const { secret } = await rotated.json<{ secret: string }>();
    expect(secret).not.toBe(t.secret);
    expect((await sendSigned(t, EVENT, { secret })).status).toBe(202);
    expect((await sendSigned(t, EVENT)).status).toBe(202);
    const shown = await (await api(`/v1/triggers/${t.id}`)).json<Record<string, unknown>>();
    expect(shown).toMatchObject({
      id: t.id,
      description: 'rotating',
      preset: 'fastchat-pair',
      filter: null,
      webhook: null,
    });
    expect(shown).not.toHaveProperty('secret');
    expect(JSON.stringify(await (await api('/v1/triggers')).json())).not.toContain('whsec_');
    expect((await api(`/v1/triggers/${t.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await sendSigned(t, EVENT, { secret })).status).toBe(404);
    expect((await (await api('/v1/triggers')).json<{ data: { id: string }[] }>()).data.map((x) => x.id)).not.toContain(
      t.id,
    );
  });

  it("creation checks the judge against the mapping's task kind, the pointers, and the callback URL", async () => {
    const kind = await postJson('/v1/triggers', {
      preset: 'more-mtbench',
      mapping: {
        task: {
          kind: 'pointwise',
          source: '/a',
          output: '/b',
          aspect: { value: { name: 'coherence', scale: { min: 1, max: 5 } } },
        },
      },
    });
    expect(kind.status).toBe(400);
    const wrongKind = (await kind.json<ErrorJson>()).error;
    expect(wrongKind.code).toBe('task_kind_unsupported');
    // Both refusals of a task kind name the same field.
    expect(wrongKind.message).toMatch(/^mapping\.task\.kind: method "\w+" judges pairwise tasks, not pointwise ones/);
    // A rule left out names the field and the forms a rule takes, not zod's bare "Invalid input".
    const noAspect = await postJson('/v1/triggers', {
      preset: 'debate-summeval',
      mapping: { task: { kind: 'pointwise', source: '/a', output: '/b' } },
    });
    expect(noAspect.status).toBe(400);
    expect((await noAspect.json<ErrorJson>()).error.issues).toEqual([
      {
        path: 'mapping.task.aspect',
        message: expect.stringMatching(/^required: a JSON Pointer .*\{"template": .*\{"value": /) as unknown,
      },
    ]);
    // A pairwise preset of a method that takes both kinds (its prompts do not): refused here, naming the
    // field, rather than accepted and then failing every delivery.
    const single = await postJson('/v1/triggers', {
      preset: 'fastchat-pair',
      mapping: {
        task: {
          kind: 'pointwise',
          source: '/a',
          output: '/b',
          aspect: { value: { name: 'coherence', scale: { min: 1, max: 5 } } },
        },
      },
    });
    expect(single.status).toBe(400);
    const refused = (await single.json<ErrorJson>()).error;
    expect(refused.code).toBe('task_kind_unsupported');
    expect(refused.message).toMatch(/^mapping\.task\.kind: .*pairwise/);
    const pointer = await postJson('/v1/triggers', {
      preset: 'fastchat-pair',
      mapping: { task: { ...PAIRWISE_MAPPING.task, question: 'prompt' } },
    });
    expect(pointer.status).toBe(400);
    expect((await pointer.json<ErrorJson>()).error.issues?.[0]?.path).toContain('mapping.task.question');
    const url = await postJson('/v1/triggers', {
      preset: 'fastchat-pair',
      mapping: PAIRWISE_MAPPING,
      webhook: { url: 'https://10.1.2.3/cb' },
    });
    expect(url.status).toBe(400);
    expect(await url.json<ErrorJson>()).toMatchObject({
      error: { code: 'url_not_allowed', issues: [{ path: 'webhook.url' }] },
    });
  });
});

describe('a trigger whose budget cannot produce a verdict', () => {
  it('is refused at creation: 400 naming config.budget.maxCalls and the least, nothing created', async () => {
    const r = await postJson('/v1/triggers', {
      preset: 'chateval-faireval',
      config: { budget: { maxCalls: 2 } },
      mapping: PAIRWISE_MAPPING,
    });
    expect(r.status, await r.clone().text()).toBe(400);
    const e = (await r.json<ErrorJson>()).error;
    expect(e.issues?.[0]?.path).toBe('config.budget.maxCalls');
    expect(e.message).toMatch(/the least it needs is \d+/);
  });

  it('a hook whose own task needs more than the budget allows is refused 400, before anything is stored', async () => {
    // Enough for the sample task's shortest texts, not for this event's long ones.
    const t = await createTrigger({ preset: 'fastchat-pair', config: { budget: { maxTokens: 3000 } } });
    const before = await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations').first<{ n: number }>();
    const r = await sendSigned(t, { ...EVENT, prompt: 'Why? '.repeat(400) });
    expect(r.status, await r.clone().text()).toBe(400);
    const e = (await r.json<ErrorJson>()).error;
    expect(e.issues?.[0]?.path).toBe('config.budget.maxTokens');
    const after = await testEnv.DB.prepare('SELECT count(*) AS n FROM evaluations').first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
  });
});
