/**
 * What a spread tenant sets up once and its work reads in every shard (docs/scale.md "A tenant over several
 * shards"): its OTLP export is copied into every shard of its spread with its settings (src/exports/copies.ts),
 * each shard's delivery figures kept and merged by `GET /v1/exports`, and removed from all of them. A copy that
 * fails in one shard (a trigger there refuses it) is mended: a deleted endpoint is deleted from the other shards
 * before home, so the retried DELETE finds it and converges; a rotated secret is answered and its copy left to
 * the maintenance cron (`copyOwedSpreads`), which also copies a tenant spread before the copies existed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { copyOwedSpreads } from '../../src/admin/spread-copies.js';
import { bucketOf, shardBindingNames, shardOfBucket } from '../../src/config/d1-buckets.js';
import { tenantsOwingCopies } from '../../src/tenants/rows.js';
import { drainAlarms } from '../worker/helpers.js';
import { as, keyed, tenantWithKey } from '../worker/tenants-helpers.js';
import { sinkUrl } from '../worker/webhooks-helpers.js';
import { SHARDS, useD1Shards } from './shards-on.js';

afterEach(drainAlarms);

// The shards on for this file (the project runs with 0): its own calls into src/ take `env`.
const env = useD1Shards();
const named = env as unknown as Record<string, D1Database>;
const shards = shardBindingNames(SHARDS).map((n) => named[n]) as D1Database[];

/** The tenant's `otlp_exports` row in each shard (null where there is none). */
function exportRows(tenant: string): Promise<({ endpoint: string; last_attempt_at: number | null } | null)[]> {
  return Promise.all(
    shards.map((db) =>
      db
        .prepare('SELECT endpoint, last_attempt_at FROM otlp_exports WHERE tenant = ?')
        .bind(tenant)
        .first<{ endpoint: string; last_attempt_at: number | null }>(),
    ),
  );
}

async function putExports(key: string, otlp: unknown): Promise<void> {
  const r = await keyed('/v1/exports', as(key, { method: 'PUT', body: { otlp } }));
  expect(r.status, await r.clone().text()).toBe(200);
}

describe("a spread tenant's copies", () => {
  it('the OTLP export is in every shard of the spread, its figures merged, its removal everywhere', async () => {
    const t = await tenantWithKey({ spread: 4 });
    await putExports(t.key, { endpoint: sinkUrl(`otlp-${t.tenant}`), headers: { authorization: 'Bearer x' } });
    const rows = await exportRows(t.tenant);
    expect(rows.map((r) => r?.endpoint)).toEqual(Array(SHARDS).fill(sinkUrl(`otlp-${t.tenant}`)));

    // A delivery in a shard other than home records its attempt there; the API shows it.
    const at = Date.now();
    await Promise.all(
      shards.map((db) =>
        db
          .prepare(
            'UPDATE otlp_exports SET last_attempt_at = ?, last_status_code = 200, last_success_at = ? WHERE tenant = ? AND last_attempt_at IS NULL',
          )
          .bind(at, at, t.tenant)
          .run(),
      ),
    );
    const read = await (
      await keyed('/v1/exports', as(t.key))
    ).json<{ otlp: { delivery: { lastSuccessAt: string } } }>();
    expect(read.otlp.delivery.lastSuccessAt).toBe(new Date(at).toISOString());

    // New settings reach every copy and start their figures again; a removal removes every copy.
    await putExports(t.key, { endpoint: sinkUrl(`otlp2-${t.tenant}`) });
    expect(await exportRows(t.tenant)).toEqual(
      Array(SHARDS).fill({ endpoint: sinkUrl(`otlp2-${t.tenant}`), last_attempt_at: null }),
    );
    await putExports(t.key, null);
    expect(await exportRows(t.tenant)).toEqual(Array(SHARDS).fill(null));
  });

  it('a DELETE whose copy failed in one shard answers 500, keeps the home row, and its retry removes every copy', async () => {
    const t = await tenantWithKey({ spread: 4 });
    const id = await newEndpoint(t.key, t.tenant);
    expect(await endpointCopies(t.tenant, id)).toEqual(Array(SHARDS).fill(1));
    const other = otherShard(t.tenant);
    await refuse(other, t.tenant, 'DELETE');
    const failed = await keyed(`/v1/webhook-endpoints/${id}`, as(t.key, { method: 'DELETE' }));
    expect(failed.status).toBe(500);
    expect((await keyed(`/v1/webhook-endpoints/${id}`, as(t.key))).status).toBe(200);
    await allow(other);
    const retried = await keyed(`/v1/webhook-endpoints/${id}`, as(t.key, { method: 'DELETE' }));
    expect(retried.status, await retried.clone().text()).toBe(204);
    expect(await endpointCopies(t.tenant, id)).toEqual(Array(SHARDS).fill(0));
  });

  it('an endpoint POST retried with its Idempotency-Key after a failed copy answers the first endpoint, copied everywhere', async () => {
    const t = await tenantWithKey({ spread: 4 });
    const other = otherShard(t.tenant);
    const post = (body: unknown) =>
      keyed('/v1/webhook-endpoints', as(t.key, { body, headers: { 'Idempotency-Key': `hook-${t.tenant}` } }));
    const body = { url: sinkUrl(`hook-${t.tenant}`), description: 'retried' };
    await refuse(other, t.tenant, 'INSERT');
    expect((await post(body)).status).toBe(500);
    await allow(other);
    const retried = await post(body);
    expect(retried.status, await retried.clone().text()).toBe(201);
    expect(retried.headers.get('Idempotent-Replayed')).toBe('true');
    const { id, secret } = await retried.json<{ id: string; secret: string }>();
    expect(await secretsOf(t.tenant, id)).toEqual(Array(SHARDS).fill(secret));
    const listed = await (await keyed('/v1/webhook-endpoints', as(t.key))).json<{ data: { id: string }[] }>();
    expect(listed.data.map((e) => e.id)).toEqual([id]);
    // Again: the same endpoint, the same secret; another body under the key is a conflict.
    const again = await (await post(body)).json<{ id: string; secret: string }>();
    expect(again).toMatchObject({ id, secret });
    const conflict = await post({ ...body, description: 'another' });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ error: { code: 'idempotency_conflict' } });
  });

  it('a rotation whose copy failed answers its new secret, and the cron copies it into the shard it missed', async () => {
    const t = await tenantWithKey({ spread: 4 });
    const id = await newEndpoint(t.key, t.tenant);
    const other = otherShard(t.tenant);
    await refuse(other, t.tenant, 'INSERT');
    const r = await keyed(`/v1/webhook-endpoints/${id}/rotate-secret`, as(t.key, { method: 'POST' }));
    expect(r.status, await r.clone().text()).toBe(200);
    const { secret } = await r.json<{ secret: string }>();
    const missed = await secretsOf(t.tenant, id);
    expect(missed.map((s) => s === secret)).toEqual(shards.map((_, i) => i !== other));
    expect(await owedAt(t.tenant)).toEqual(expect.any(Number));
    await allow(other);
    expect((await copyOwedSpreads(env)).copied).toBeGreaterThanOrEqual(1);
    expect(await secretsOf(t.tenant, id)).toEqual(Array(SHARDS).fill(secret));
    expect(await owedAt(t.tenant)).toBeNull();
  });

  it('a tenant spread before the copies existed gets them from the cron, once, with no admin action', async () => {
    const t = await tenantWithKey();
    const id = await newEndpoint(t.key, t.tenant);
    await putExports(t.key, { endpoint: sinkUrl(`otlp-${t.tenant}`) });
    // The spread as an admin set it before copies existed: on the tenant's row, nothing copied.
    await control.prepare('UPDATE tenants SET spread = 4, spread_seen = 4 WHERE id = ?').bind(t.tenant).run();
    expect((await endpointCopies(t.tenant, id)).reduce((a, b) => a + b)).toBe(1);
    expect(await owingIds()).toContain(t.tenant);
    await copyOwedSpreads(env);
    expect(await endpointCopies(t.tenant, id)).toEqual(Array(SHARDS).fill(1));
    expect((await exportRows(t.tenant)).every((row) => row?.endpoint === sinkUrl(`otlp-${t.tenant}`))).toBe(true);
    const row = await control
      .prepare('SELECT copies_spread FROM tenants WHERE id = ?')
      .bind(t.tenant)
      .first<{ copies_spread: number }>();
    expect(row?.copies_spread).toBe(4);
    expect(await owingIds()).not.toContain(t.tenant);
  });
});

const control = env.DB;

/** The tenants that owe a copy, as the cron picks them (a limit above every tenant these tests make). */
async function owingIds(): Promise<string[]> {
  return (await tenantsOwingCopies(control, 1000)).map((o) => o.id);
}

/** A shard of a spread of 4 that is not the tenant's home. */
function otherShard(tenant: string): number {
  return (shardOfBucket(bucketOf(tenant), SHARDS) + 1) % SHARDS;
}

/** Makes shard `i` refuse every `what` (INSERT or DELETE) of the tenant's webhook endpoints. */
async function refuse(i: number, tenant: string, what: 'INSERT' | 'DELETE'): Promise<void> {
  const row = what === 'DELETE' ? 'OLD' : 'NEW';
  await shards[i]
    ?.prepare(
      `CREATE TRIGGER refuse_copy BEFORE ${what} ON webhook_endpoints WHEN ${row}.tenant = '${tenant}'
       BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    )
    .run();
}

async function allow(i: number): Promise<void> {
  await shards[i]?.prepare('DROP TRIGGER refuse_copy').run();
}

async function newEndpoint(key: string, tenant: string): Promise<string> {
  const r = await keyed('/v1/webhook-endpoints', as(key, { body: { url: sinkUrl(`hook-${tenant}`) } }));
  expect(r.status, await r.clone().text()).toBe(201);
  return (await r.json<{ id: string }>()).id;
}

/** Endpoint `id`'s secret in each shard (null where the shard holds no copy). */
function secretsOf(tenant: string, id: string): Promise<(string | null)[]> {
  return Promise.all(
    shards.map(
      async (db) =>
        (
          await db
            .prepare('SELECT secret FROM webhook_endpoints WHERE tenant = ? AND id = ?')
            .bind(tenant, id)
            .first<{ secret: string }>()
        )?.secret ?? null,
    ),
  );
}

/** How many copies of endpoint `id` each shard holds. */
async function endpointCopies(tenant: string, id: string): Promise<number[]> {
  return (await secretsOf(tenant, id)).map((s) => (s === null ? 0 : 1));
}

async function owedAt(tenant: string): Promise<number | null> {
  return (
    (
      await control
        .prepare('SELECT copies_owed_at FROM tenants WHERE id = ?')
        .bind(tenant)
        .first<{ copies_owed_at: number | null }>()
    )?.copies_owed_at ?? null
  );
}
