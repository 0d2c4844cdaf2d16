/**
 * Scopes on every route: each `/v1` operation of the OpenAPI document names exactly one scope in its
 * security requirement, and the route enforces that very scope: a key holding every other scope gets
 * 403 `forbidden`, a key holding just that one gets past the check. Routes added later are covered by
 * the same walk (signed webhook receivers excepted).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../src/http/openapi.js';
import { SIGNED_PATH_PREFIXES } from '../../src/tenants/auth.js';
import type { Scope } from '../../src/tenants/scopes.js';
import { SCOPES } from '../../src/tenants/scopes.js';
import type { OtlpStatus } from '../../src/traces/schemas.js';
import { api } from './api-fetch.js';
import { drainAlarms } from './helpers.js';
import { as, keyed, newKey, newTenant } from './tenants-helpers.js';

afterEach(drainAlarms);

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content: Record<string, { examples?: Record<string, { value: unknown }> }> };
}

async function v1Operations(): Promise<{ key: string; path: string; method: string; op: Operation }[]> {
  const doc = await (await api('/openapi.json')).json<OpenApiDocument>();
  return Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    (['get', 'post', 'put', 'patch', 'delete'] as const).flatMap((method) => {
      const op = (item as Partial<Record<string, Operation>>)[method];
      return op && path.startsWith('/v1/') && !SIGNED_PATH_PREFIXES.some((p) => path.startsWith(p))
        ? [{ key: `${method.toUpperCase()} ${path}`, path, method, op }]
        : [];
    }),
  );
}

/** An error body in Tribunal's (and OpenAI's) shape, or the OTLP export's `google.rpc.Status`. */
type ErrorShapes = { error: { code: string; message: string } } | OtlpStatus;

/** The stable code and message of either shape. */
function errorOf(body: ErrorShapes): { code: string | undefined; message: string } {
  return 'details' in body ? { code: body.details[0]?.reason, message: body.message } : body.error;
}

describe('scopes', () => {
  it('every /v1 operation documents exactly one scope', async () => {
    const ops = await v1Operations();
    expect(ops.length).toBeGreaterThanOrEqual(18);
    for (const { key, op } of ops) {
      expect(op.security, key).toHaveLength(1);
      const scopes = op.security?.[0]?.bearer ?? [];
      expect(scopes, key).toHaveLength(1);
      expect(SCOPES, key).toContain(scopes[0]);
    }
    const byScope = (s: Scope) => ops.filter((o) => o.op.security?.[0]?.bearer?.[0] === s).map((o) => o.key);
    expect(byScope('evaluations:write')).toEqual(
      expect.arrayContaining([
        'POST /v1/evaluations',
        'POST /v1/evaluations/{id}/cancel',
        'POST /v1/meta-evaluations',
        'POST /v1/chat/completions',
        'POST /v1/triggers',
        'DELETE /v1/triggers/{id}',
        'POST /v1/webhook-endpoints',
        'PATCH /v1/webhook-endpoints/{id}',
        'POST /v1/webhook-deliveries/{id}/retry',
        'POST /v1/webhook-signing-secret',
        'POST /v1/webhook-signing-secret/rotate',
        'POST /v1/batches',
        'POST /v1/batches/{id}/cancel',
        'DELETE /v1/evaluations/{id}',
      ]),
    );
    expect(byScope('read')).toEqual(
      expect.arrayContaining([
        'GET /v1/evaluations/{id}',
        'GET /v1/evaluations/{id}/transcript',
        'GET /v1/evaluations/{id}/task',
        'GET /v1/evaluations/{id}/events',
        'GET /v1/meta-evaluations/{id}',
        'GET /v1/methods',
        'GET /v1/usage',
        'GET /v1/models',
        'POST /v1/estimates',
        'GET /v1/triggers',
        'GET /v1/webhook-endpoints',
        'GET /v1/webhook-deliveries',
        'GET /v1/webhook-signing-secret',
        'GET /v1/batches',
        'GET /v1/batches/{id}',
        'GET /v1/batches/{id}/results',
        'GET /v1/evaluations',
      ]),
    );
    expect(byScope('admin').every((k) => k.includes(' /v1/admin/'))).toBe(true);
    // The signed receiver documents no bearer requirement at all.
    const doc = await (await api('/openapi.json')).json<OpenApiDocument>();
    expect((doc.paths?.['/v1/hooks/{id}'] as { post?: Operation } | undefined)?.post?.security).toEqual([]);
  });

  it('every /v1 operation refuses a key without its scope (403) and lets a key with only that scope past', async () => {
    const tenant = await newTenant();
    const keys = new Map<string, string>();
    for (const s of SCOPES) {
      keys.set(`only:${s}`, (await newKey(tenant, [s])).key);
      keys.set(
        `all-but:${s}`,
        (
          await newKey(
            tenant,
            SCOPES.filter((x) => x !== s),
          )
        ).key,
      );
    }
    let checked = 0;
    for (const { key: name, path, method, op } of await v1Operations()) {
      const scope = op.security?.[0]?.bearer?.[0] ?? '';
      const url = path.replace(
        '{id}',
        path.includes('/admin/keys') ? 'key_aaaaaaaaaaaaaaaa' : path.includes('/admin/tenants') ? tenant : 'ev_scopes',
      );
      const example = Object.values(op.requestBody?.content['application/json']?.examples ?? {})[0]?.value;
      const body = example ?? (op.requestBody ? {} : undefined);
      const without = await keyed(
        url,
        as(keys.get(`all-but:${scope}`) ?? '', {
          method: method.toUpperCase(),
          ...(body !== undefined ? { body } : {}),
        }),
      );
      expect(without.status, `${name} without ${scope}`).toBe(403);
      expect(errorOf(await without.json<ErrorShapes>()), name).toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining(`"${scope}"`) as string,
      });
      const only = await keyed(
        url,
        as(keys.get(`only:${scope}`) ?? '', { method: method.toUpperCase(), ...(body !== undefined ? { body } : {}) }),
      );
      expect(only.status, `${name} with only ${scope}`).not.toBe(403);
      expect(only.status, `${name} with only ${scope}`).not.toBe(401);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(18);
    // Two keyed requests per operation: the walk grows with the API (about 32 s for 65 operations at load 25 on 2 cores).
  }, 90_000);
});
