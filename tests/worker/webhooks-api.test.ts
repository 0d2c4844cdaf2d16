/**
 * The webhook endpoint API: secrets shown once, the URL guard's 400 naming the rule, updates, deletion,
 * the per-tenant cap, tenant isolation, the signing secret, and the delivery log's filters and paging.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.js';
import { createEndpoint } from '../../src/webhooks/endpoints.js';
import { MAX_ENDPOINTS_PER_TENANT } from '../../src/webhooks/schemas.js';
import type { ErrorJson } from './api-fetch.js';
import { api, apiWith, postJson } from './api-fetch.js';
import { endedEvaluation, endpointOf, hookEnv, sinkUrl } from './webhooks-helpers.js';

interface Endpoint {
  id: string;
  url: string;
  events: string[] | null;
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  secret?: string;
}

function patch(path: string, body: unknown): Promise<Response> {
  return api(path, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('endpoints', () => {
  it('create shows the secret once; reads never show it', async () => {
    const r = await postJson('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/a',
      events: ['evaluation.failed'],
      description: 'ops',
    });
    expect(r.status).toBe(201);
    const created = await r.json<Endpoint>();
    expect(r.headers.get('location')).toBe(`/v1/webhook-endpoints/${created.id}`);
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/a',
      events: ['evaluation.failed'],
      description: 'ops',
      enabled: true,
      disabledReason: null,
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await (await api(`/v1/webhook-endpoints/${created.id}`)).json<Endpoint>();
    expect(read).not.toHaveProperty('secret');
    const list = await (await api('/v1/webhook-endpoints')).text();
    expect(list).toContain(created.id);
    expect(list).not.toContain('whsec_');
  });

  it('the URL guard refuses with 400 url_not_allowed naming the field and the rule, on create and on update', async () => {
    const cases: [string, string][] = [
      ['http://hooks.example.com/x', 'https_only'],
      ['https://user:pw@hooks.example.com/', 'credentials'],
      ['https://10.0.0.5/', 'private'],
      ['https://[::ffff:192.168.0.1]/', 'private'],
      ['https://0x7f000001/', 'loopback'],
      ['https://169.254.169.254/', 'metadata'],
    ];
    // As deployed: WEBHOOK_ALLOW_LOOPBACK is "false" (the test config sets "true" for its receiver).
    const deployed = (url: string) =>
      apiWith({ WEBHOOK_ALLOW_LOOPBACK: 'false' }, '/v1/webhook-endpoints', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
    for (const [url, rule] of cases) {
      const r = await deployed(url);
      expect(r.status, url).toBe(400);
      const e = (await r.json<ErrorJson>()).error;
      expect(e.code, url).toBe('url_not_allowed');
      expect(e.message, url).toContain(`url: refused by rule "${rule}"`);
      expect(e.issues?.[0]?.path, url).toBe('url');
    }
    // Plain http to loopback only with WEBHOOK_ALLOW_LOOPBACK=true.
    expect((await deployed(sinkUrl('x'))).status).toBe(400);
    expect((await postJson('/v1/webhook-endpoints', { url: sinkUrl('x') })).status).toBe(201);
    const ep = await (await postJson('/v1/webhook-endpoints', { url: 'https://hooks.example.com/b' })).json<Endpoint>();
    const bad = await patch(`/v1/webhook-endpoints/${ep.id}`, { url: 'https://[fd00:ec2::254]/' });
    expect(bad.status).toBe(400);
    expect((await bad.json<ErrorJson>()).error.message).toContain('rule "metadata"');
  });

  it('schema errors name the field: unknown event types, duplicates, unknown fields, an empty update', async () => {
    const unknown = await postJson('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/',
      events: ['evaluation.done'],
    });
    expect((await unknown.json<ErrorJson>()).error.issues?.[0]?.path).toBe('events.0');
    const dup = await postJson('/v1/webhook-endpoints', {
      url: 'https://hooks.example.com/',
      events: ['batch.completed', 'batch.completed'],
    });
    expect((await dup.json<ErrorJson>()).error.issues?.[0]).toEqual({
      path: 'events',
      message: 'event types must be unique',
    });
    const extra = await postJson('/v1/webhook-endpoints', { url: 'https://hooks.example.com/', secret: 'mine' });
    expect((await extra.json<ErrorJson>()).error.issues?.[0]).toEqual({
      path: 'secret',
      message: 'unknown field "secret"',
    });
    const ep = await (await postJson('/v1/webhook-endpoints', { url: 'https://hooks.example.com/c' })).json<Endpoint>();
    expect((await patch(`/v1/webhook-endpoints/${ep.id}`, {})).status).toBe(400);
  });

  it('update, disable, re-enable, rotate, delete', async () => {
    const ep = await (
      await postJson('/v1/webhook-endpoints', { url: 'https://hooks.example.com/d', events: ['evaluation.failed'] })
    ).json<Endpoint>();
    const updated = await (
      await patch(`/v1/webhook-endpoints/${ep.id}`, {
        events: null,
        description: 'all',
        url: 'https://hooks.example.com/e',
      })
    ).json<Endpoint>();
    expect(updated).toMatchObject({
      events: null,
      description: 'all',
      url: 'https://hooks.example.com/e',
      enabled: true,
    });
    expect(await (await patch(`/v1/webhook-endpoints/${ep.id}`, { enabled: false })).json()).toMatchObject({
      enabled: false,
      disabledReason: 'disabled by request',
    });
    expect(await (await patch(`/v1/webhook-endpoints/${ep.id}`, { enabled: true })).json()).toMatchObject({
      enabled: true,
      disabledReason: null,
    });
    const rotated = await (
      await api(`/v1/webhook-endpoints/${ep.id}/rotate-secret`, { method: 'POST' })
    ).json<{ secret: string; previousSecretExpiresAt: string }>();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
    expect((await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/v1/webhook-endpoints/${ep.id}`)).status).toBe(404);
    expect((await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it(`a tenant has at most ${MAX_ENDPOINTS_PER_TENANT} endpoints (409 limit_exceeded)`, async () => {
    for (let i = 0; i < MAX_ENDPOINTS_PER_TENANT; i++)
      await createEndpoint(hookEnv, 'capped', { url: `https://hooks.example.com/${i}` });
    const e = await createEndpoint(hookEnv, 'capped', { url: 'https://hooks.example.com/one-more' }).catch(
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 409, code: 'limit_exceeded' });
  });

  it("another tenant's endpoint reads as absent on every route", async () => {
    const ep = await endpointOf('someone-else', 'https://hooks.example.com/private');
    for (const [method, path] of [
      ['GET', `/v1/webhook-endpoints/${ep.id}`],
      ['PATCH', `/v1/webhook-endpoints/${ep.id}`],
      ['DELETE', `/v1/webhook-endpoints/${ep.id}`],
      ['POST', `/v1/webhook-endpoints/${ep.id}/rotate-secret`],
      ['GET', `/v1/webhook-endpoints/${ep.id}/deliveries`],
      ['POST', `/v1/webhook-endpoints/${ep.id}/deliveries/dlv_x/retry`],
    ] as const) {
      const init: RequestInit =
        method === 'PATCH'
          ? { method, headers: { 'content-type': 'application/json' }, body: '{"enabled":false}' }
          : { method };
      expect((await api(path, init)).status, `${method} ${path}`).toBe(404);
    }
  });
});

describe('the delivery log', () => {
  it('pages newest first with an opaque cursor, filters by status and subject; a bad cursor is a 400', async () => {
    const ep = await endpointOf('default', 'https://hooks.example.com/log', ['evaluation.failed']);
    const ids = [await endedEvaluation('default'), await endedEvaluation('default'), await endedEvaluation('default')];
    const first = await (
      await api(`/v1/webhook-endpoints/${ep.id}/deliveries?limit=2`)
    ).json<{ data: { subjectId: string; status: string }[]; nextCursor: string }>();
    expect(first.data.map((d) => d.subjectId)).toEqual([ids[2], ids[1]]);
    const second = await (
      await api(`/v1/webhook-endpoints/${ep.id}/deliveries?limit=2&cursor=${first.nextCursor}`)
    ).json<{ data: { subjectId: string }[]; nextCursor: string | null }>();
    expect(second).toMatchObject({ data: [{ subjectId: ids[0] }], nextCursor: null });
    const pending = await (
      await api(`/v1/webhook-deliveries?status=pending&subject=${ids[1]}&endpoint=${ep.id}`)
    ).json<{ data: { subjectId: string; endpointId: string }[] }>();
    expect(pending.data).toEqual([expect.objectContaining({ subjectId: ids[1], endpointId: ep.id })]);
    const bad = await api('/v1/webhook-deliveries?cursor=nope');
    expect(bad.status).toBe(400);
    expect((await bad.json<ErrorJson>()).error.issues?.[0]?.path).toBe('cursor');
    expect((await api('/v1/webhook-deliveries?limit=0')).status).toBe(400);
    await api(`/v1/webhook-endpoints/${ep.id}`, { method: 'DELETE' });
  });

  it('the signing secret: created once (a second create is 409 naming the rotate route), rotated on its own route, never shown by GET', async () => {
    const token = 'trb_signing_secret_tenant';
    const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    const as = (path: string, method = 'GET') =>
      apiWith({ API_KEYS: digest }, path, { method, headers: { authorization: `Bearer ${token}` } });
    expect(await (await as('/v1/webhook-signing-secret')).json()).toMatchObject({ exists: false });
    const early = await as('/v1/webhook-signing-secret/rotate', 'POST');
    expect(early.status).toBe(404);
    expect((await early.json<ErrorJson>()).error.message).toContain('create it with POST /v1/webhook-signing-secret');
    const created = await as('/v1/webhook-signing-secret', 'POST');
    expect(created.status).toBe(201);
    const a = await created.json<{ secret: string; previousSecretExpiresAt: string | null }>();
    expect(a.previousSecretExpiresAt).toBeNull();
    const again = await as('/v1/webhook-signing-secret', 'POST');
    expect(again.status).toBe(409);
    const conflict = (await again.json<ErrorJson>()).error;
    expect(conflict.code).toBe('conflict');
    expect(conflict.message).toContain('POST /v1/webhook-signing-secret/rotate');
    const rotated = await as('/v1/webhook-signing-secret/rotate', 'POST');
    expect(rotated.status).toBe(200);
    const b = await rotated.json<{ secret: string; previousSecretExpiresAt: string | null }>();
    expect(b.secret).not.toBe(a.secret);
    expect(b.previousSecretExpiresAt).not.toBeNull();
    const status = await (await as('/v1/webhook-signing-secret')).text();
    expect(status).not.toContain('whsec_');
    expect(JSON.parse(status)).toMatchObject({ exists: true, previousSecretExpiresAt: b.previousSecretExpiresAt });
  });
});
