/**
 * Helpers of the tenant suites: the app with `ADMIN_TOKEN` set (managed keys on), calls as the operator
 * and as a key, and tenants and keys made through the admin API itself.
 */
import { waitOnExecutionContext, createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { Webhook } from 'standardwebhooks';
import { expect } from 'vitest';
import { app } from '../../src/app.js';
import type { EvaluationAccepted } from '../../src/evaluations/schemas.js';
import type { Bindings } from '../../src/config/bindings.js';
import type { TenantLimits } from '../../src/tenants/limits.js';
import type { Scope } from '../../src/tenants/scopes.js';
import { PAIRWISE } from './helpers.js';
import { ORIGIN, checked } from './api-fetch.js';
import { d1Override } from './d1-shards-override.js';
import { bucketOf, shardOfBucket } from '../../src/config/d1-buckets.js';

/** The operator's token in these suites. */
export const ADMIN_TOKEN = 'tribunal-test-admin-token-5d81c0aa94e3';

/**
 * Sends a request to the app with managed keys on (`ADMIN_TOKEN` set, plus `overrides`) and waits for
 * its `waitUntil` work (fast start, last-used write), so a test sees their effects.
 */
export async function keyed(
  path: string,
  init: RequestInit = {},
  overrides: Partial<Bindings> = {},
): Promise<Response> {
  const request = new Request(`${ORIGIN}${path}`, init);
  const ctx = createExecutionContext();
  const res = await app.fetch(
    request.clone(),
    { ...(env as unknown as Bindings), ...d1Override(), ADMIN_TOKEN, ...overrides },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return checked(request, res);
}

/** `init` with `Authorization: Bearer <token>` (and a JSON body when `body` is given). */
export function as(
  token: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): RequestInit {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...init.headers };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  return {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  };
}

/** A request as the operator (`ADMIN_TOKEN`). */
export function asAdmin(
  path: string,
  init: { method?: string; body?: unknown } = {},
  overrides: Partial<Bindings> = {},
): Promise<Response> {
  return keyed(path, as(ADMIN_TOKEN, init), overrides);
}

/** A new tenant (through the admin API) with optional limits; returns its id. */
export async function newTenant(limits: Partial<TenantLimits> = {}, name = 'Test tenant'): Promise<string> {
  const r = await asAdmin('/v1/admin/tenants', { body: { name, limits } });
  expect(r.status, await r.clone().text()).toBe(201);
  return (await r.json<{ id: string }>()).id;
}

/** A new key of `tenant` (through the admin API): the key itself and its id. */
export async function newKey(
  tenant: string,
  scopes?: Scope[],
  extra: { label?: string; expiresAt?: string } = {},
): Promise<{ key: string; id: string }> {
  const r = await asAdmin('/v1/admin/keys', { body: { tenantId: tenant, ...(scopes ? { scopes } : {}), ...extra } });
  expect(r.status, await r.clone().text()).toBe(201);
  const body = await r.json<{ key: string; apiKey: { id: string } }>();
  return { key: body.key, id: body.apiKey.id };
}

/** A tenant with one working key (`evaluations:write` + `read`). */
export async function tenantWithKey(
  limits: Partial<TenantLimits> = {},
): Promise<{ tenant: string; key: string; keyId: string }> {
  const tenant = await newTenant(limits);
  const { key, id } = await newKey(tenant);
  return { tenant, key, keyId: id };
}

/** Two tenants with a key each (and `limits`) whose ids hash to different shards among `shards`. */
export async function twoTenantsApart(
  shards: number,
  limits: Partial<TenantLimits> = {},
): Promise<{ tenant: string; key: string; shard: number }[]> {
  const found: { tenant: string; key: string; shard: number }[] = [];
  while (found.length < 2) {
    const t = await tenantWithKey(limits);
    const shard = shardOfBucket(bucketOf(t.tenant), shards);
    if (!found.some((f) => f.shard === shard)) found.push({ tenant: t.tenant, key: t.key, shard });
  }
  return found;
}

/** Submits a one-call evaluation (chateval-single against the mock) with `key`; returns the response. */
export function submit(
  key: string,
  model = 'mock-judge',
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  return keyed(
    '/v1/evaluations',
    as(key, {
      body: { preset: 'chateval-single', config: { defaults: { model } }, task: PAIRWISE },
      headers: extraHeaders,
    }),
  );
}

/** Submits and expects 202; returns the evaluation id. */
export async function submitOk(key: string, model = 'mock-judge'): Promise<string> {
  const r = await submit(key, model);
  expect(r.status, await r.clone().text()).toBe(202);
  return (await r.json<EvaluationAccepted>()).id;
}

/** The error body's code and message. */
export async function errorOf(r: Response): Promise<{ code: string; message: string; resetAt?: string }> {
  return (await r.json<{ error: { code: string; message: string; resetAt?: string } }>()).error;
}

/** A pairwise trigger mapping for {@link HOOK_EVENT}-shaped events. */
const HOOK_MAPPING = { task: { kind: 'pairwise', question: '/prompt', answerA: '/a', answerB: '/b' } };

/** An event a trigger made with {@link triggerOf} maps to a pairwise task. */
export const HOOK_EVENT = { prompt: 'What is the capital of France?', a: 'Paris.', b: 'Lyon.' };

/** A trigger of `key`'s tenant (chateval-single on `model`): its id, its receiving URL and its secret. */
export async function triggerOf(
  key: string,
  model = 'mock-judge',
): Promise<{ id: string; url: string; secret: string }> {
  const r = await keyed(
    '/v1/triggers',
    as(key, { body: { preset: 'chateval-single', config: { defaults: { model } }, mapping: HOOK_MAPPING } }),
  );
  expect(r.status, await r.clone().text()).toBe(201);
  return r.json<{ id: string; url: string; secret: string }>();
}

let hookDeliveries = 0;

/** POSTs `event` to a trigger's URL, signed per Standard Webhooks with its secret (no bearer token). */
export async function sendHook(t: { url: string; secret: string }, event: unknown = HOOK_EVENT): Promise<Response> {
  const body = JSON.stringify(event);
  hookDeliveries += 1;
  const msgId = `msg_tenants_${Date.now().toString(36)}_${hookDeliveries}`;
  const at = new Date();
  const signature = new Webhook(t.secret).sign(msgId, at, body);
  return keyed(t.url, {
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

/** `POST /v1/chat/completions` as `key`: judges {@link PAIRWISE} with chateval-single on `mock` (waits for the verdict). */
export function chatAs(key: string, mock = 'mock-judge', headers: Record<string, string> = {}): Promise<Response> {
  return keyed(
    '/v1/chat/completions',
    as(key, {
      body: {
        model: `tribunal/chateval-single@${mock}`,
        messages: [{ role: 'user', content: JSON.stringify(PAIRWISE) }],
      },
      headers,
    }),
  );
}
